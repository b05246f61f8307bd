"""A made-up effect kind, ``donate``, that the tests register to show nothing else needs an edit.

``{donate: 2}`` gives two coins (what the player has, up to that) to the next player still in
the round. It has every part a kind supplies, its batch form included: a process that registers
it before the batch engine loads plays it on both engines (``tests/test_effects.py``).
:class:`InterpretedDonateKind` is the same kind with no batch form.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import strategies as st

from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.basics import COINS
from workbench.games.chance_it.effects import (
    Arrays,
    BatchForm,
    Compiler,
    Drawing,
    EffectEvent,
    Kernel,
    PlayerEffect,
    Valuer,
    Vector,
    Words,
    amount,
)
from workbench.models import Model, Positive

GIFT = '<circle cx="12" cy="12" r="9" fill="#0a7e8c"/><text x="12" y="16" text-anchor="middle">{label}</text>'
TEST_VARIANT = Path(__file__).resolve().parent / "scenarios" / "variant-test.yaml"


class Donate(Model):
    """Give coins to the next player in the round."""

    donate: Positive


@dataclasses.dataclass(frozen=True)
class Donated(EffectEvent):
    type = "donate"
    to: int
    coins: int

    def text(self) -> str:
        return f"seat {self.seat} gives {self.coins} coins to seat {self.to}"


class DonateKind(PlayerEffect):
    tag = "donate"
    model = Donate
    events = (Donated,)
    drawings: ClassVar[dict[str, str]] = {"gift": GIFT}
    meaning = "Give coins to the next player in the round (what you have, up to the amount)."
    example: ClassVar[Any] = {"donate": 2}

    def compile(self, effect: Donate, compiler: Compiler) -> int:
        return effect.donate

    def batch(self, coins: int, batch: kinds.Batch) -> tuple[int, ...] | None:
        return (coins,)

    def batch_form(self, kernel: Kernel) -> BatchForm | None:
        others_after, transfer, ints, INTS = kernel.others_after, kernel.transfer, kernel.ints, kernel.INTS

        def apply(S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int,
                  tape: bool) -> None:  # fmt: skip
            others = ints(S)[INTS.VICTIMS]
            if others_after(S, p, others):
                transfer(S, R, p, others[0], COINS, a)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            v[0] = v[0] + -a

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Any, player: Any, coins: int) -> None:
        others = rnd.others_after(player)
        if others:
            given = rnd.game.transfer(player, others[0], COINS, coins)
            rnd.game.emit(Donated(player.seat, others[0].seat, given))

    def value(self, coins: int, valuer: Valuer) -> Vector:
        return (-float(coins), 0.0, 0.0, 0.0, 0.0, 0.0)

    def exact(self, argument: int, exact: kinds.Exact) -> None:
        return None  # what it gives depends on what the player holds

    def text(self, effect: Donate, words: Words) -> str:
        return f"give {amount(effect.donate, 'coins')} to the next player in the round"

    def icons(self, effect: Donate, words: Words) -> list[tuple[str, str]]:
        return [("gift", str(effect.donate))]

    def strategy(self, drawing: Drawing) -> st.SearchStrategy[Any]:
        return st.integers(1, 3).map(lambda n: {"donate": n})


class InterpretedDonateKind(DonateKind):
    """``donate`` with no batch form: a variant that uses it is played by the interpreter."""

    def batch(self, coins: int, batch: kinds.Batch) -> tuple[int, ...] | None:
        return None

    def batch_form(self, kernel: Kernel) -> BatchForm | None:
        return None


GIFT_VARIANT = """\
extends: {base}
name: Gift variant
cards_add:
  - {{id: gift, name: Gift, when: die-2, cost: 0, copies: 3, effects: [{{donate: 2}}]}}
board:
  4: [{{choose: [[{{donate: 1}}], [{{gain: {{stars: 1}}}}]]}}]
  5: [{{gain: {{coins: 1}}}}, {{donate: 1}}]
"""


def gift_variant(folder: Path) -> Path:
    """A variant of the scenarios' test variant whose gift cards and board face 5 donate, and whose face 4 offers a
    donation or a star (a choice the heuristic values: its batch form's ``value`` runs)."""
    path = folder / "gift.yaml"
    path.write_text(GIFT_VARIANT.format(base=TEST_VARIANT.as_posix()))
    return path
