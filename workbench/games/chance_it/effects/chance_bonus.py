"""``chance_bonus``: a passive card's bonus to each chance result of its owner (the "Chance N+" rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, Strict

from workbench.games.chance_it.effects.base import (
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    Exact,
    Kernel,
    PassiveEffect,
    Valuer,
    Vector,
    Words,
    outcome,
)
from workbench.games.chance_it.effects.chance import BONUS
from workbench.models import Model

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

CLOVER = """
  <circle cx="8.2" cy="8.2" r="4.6" fill="#2e8b57"/><circle cx="15.8" cy="8.2" r="4.6" fill="#2e8b57"/>
  <circle cx="8.2" cy="15.8" r="4.6" fill="#2e8b57"/><circle cx="15.8" cy="15.8" r="4.6" fill="#2e8b57"/>
  <path d="M12 12L18.5 22" stroke="#1f5e3a" stroke-width="1.6" stroke-linecap="round"/>
"""


class ChanceBonus(Model):
    """Add to each chance result of the card's owner (the result then held within 1..sides)."""

    chance_bonus: Annotated[int, Strict(), Field(ge=-100, le=100)]


class ChanceBonusKind(PassiveEffect):
    tag = "chance_bonus"
    model = ChanceBonus
    placement_reason = "it changes its owner's chance rolls while the card lies in front of them"
    drawings = {"luck": CLOVER}
    meaning = (
        "Passive cards only: add k (may be negative) to each chance result of the owner, the result then held within "
        "1..sides; bonuses of several passive cards add up; a card bought this round counts from the next test on."
    )
    example = {"chance_bonus": 1}

    def compile(self, effect: ChanceBonus, compiler: Compiler) -> int:
        return effect.chance_bonus

    def batch(self, bonus: int, batch: Batch) -> tuple[int, ...]:
        return (bonus,)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        bonus_gain = kernel.bonus_gain

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, out: Arrays, a: int, b: int, c: int, d: int, e: int) -> None:
            bonus_gain(S, R, M, h, p, a, out)

        return BatchForm(value=value)

    def modifiers(self, bonus: int) -> dict[str, int]:
        return {BONUS: bonus}

    def value(self, bonus: int, valuer: Valuer) -> Vector:
        return valuer.bonus_gain(bonus)

    def exact(self, bonus: int, exact: Exact) -> icepool.Die:
        return outcome()  # it changes its owner's chance rolls (``workbench odds`` lists the tests with each bonus)

    def text(self, effect: ChanceBonus, words: Words) -> str:
        bonus = effect.chance_bonus
        limit = f"never above {words.sides}" if bonus >= 0 else "never below 1"
        return f"your chance rolls {bonus:+d} ({limit})"

    def icons(self, effect: ChanceBonus, words: Words) -> list[tuple[str, str]]:
        return [("luck", f"{effect.chance_bonus:+d}")]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        return st.integers(-2, 3).map(lambda bonus: {"chance_bonus": bonus})
