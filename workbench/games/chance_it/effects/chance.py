"""``chance``: a "Chance N+" test: roll one die, then ``then`` on N or more, else ``else``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from workbench.games.chance_it.effects.base import (
    ZERO,
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    EffectEvent,
    Effects,
    Exact,
    Kernel,
    PlayerEffect,
    Site,
    Valuer,
    Vector,
    Words,
    add,
    chance_percent,
    success_chance,
)
from workbench.games.chance_it.effects.registry import Effect
from workbench.models import KeyPath, Model, Positive

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

#: The modifier of passive cards this test reads (see ``chance_bonus``).
BONUS = "chance_bonus"

DIE = """
  <rect x="2" y="2" width="20" height="20" rx="4" fill="#fff" stroke="#333" stroke-width="1.4"/>
  <text x="12" y="16.2" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="11" fill="#333">{label}</text>
"""


class ChanceTest(Model):
    """Roll one die: `then` on a result of at least `roll`, else `else`."""

    roll: Positive = Field(description="Result needed, 1..dice.sides.")
    then: tuple[Effect, ...] = Field((), description="Effects on success.")
    else_: tuple[Effect, ...] = Field((), alias="else", description="Effects on failure.")
    on_fail: Literal["spent", "keep"] = Field(
        "spent",
        description="keep: when the test fails, the die card does not count as used this round (it may fire again).",
    )


class Chance(Model):
    """A "Chance N+" test."""

    chance: ChanceTest


@dataclass(frozen=True)
class Tested(EffectEvent):
    """A chance test: the result needed, the die (plus the owner's bonus, held within the die) and whether it succeeded."""

    type = "chance"
    need: int
    result: int
    success: bool
    rolled: int | None = None  #: the die itself, when a bonus changed it
    bonus: int = 0

    def fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"seat": self.seat, "need": self.need, "result": self.result, "success": self.success}
        if self.bonus and self.rolled is not None:  # the raw die is logged only with a bonus
            fields |= {"rolled": self.rolled, "bonus": self.bonus}
        return fields

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Tested:
        return cls(
            fields["seat"], fields["need"], fields["result"], fields["success"], fields.get("rolled"), fields.get("bonus", 0)
        )

    def text(self) -> str:
        rolled = f"rolls {self.result}"
        if self.bonus and self.rolled is not None:  # the raw die is logged only with a bonus
            total = self.rolled + self.bonus
            rolled = f"rolls {self.rolled} {self.bonus:+d} = {total}" + (
                f", held at {self.result}" if total != self.result else ""
            )
        return f"seat {self.seat} tests chance {self.need}+: {rolled}, {'success' if self.success else 'failure'}"


class ChanceKind(PlayerEffect):
    tag = "chance"
    model = Chance
    events = (Tested,)
    drawings = {"chance": DIE}
    meaning = (
        "Roll one die (plus the owner's chance_bonus, held within 1..sides): `then` on `roll` or more, else `else`. "
        "`on_fail: keep` leaves a die card unused when the test fails, so it may fire again this round."
    )
    example = {"chance": {"roll": 5, "then": [{"gain": {"stars": 2}}], "else": [], "on_fail": "keep"}}
    example_where = "die"

    def children(self, effect: Chance) -> Iterator[tuple[KeyPath, tuple[Any, ...]]]:
        yield ("chance", "then"), effect.chance.then
        yield ("chance", "else"), effect.chance.else_

    def check(self, effect: Chance, key: KeyPath, site: Site) -> Iterator[tuple[KeyPath, str]]:
        if not 1 <= effect.chance.roll <= site.sides:
            yield (
                key + ("chance", "roll"),
                f"must be 1..{site.sides} (the dice have {site.sides} sides), got {effect.chance.roll}",
            )
        if effect.chance.on_fail == "keep" and site.where != "die":
            here = "a flash or CHANCE IT card is used once anyway" if site.where == "card" else "there is no card to keep here"
            yield (
                key + ("chance", "on_fail"),
                f"keep works only on a die card (when: die-N), which a failed test leaves unused for a later die of its "
                f"face; {here} (leave on_fail out)",
            )

    def reusable(self, effect: Chance) -> bool:
        return effect.chance.on_fail == "keep"

    def rule_note(self, effect: Chance) -> str | None:
        if not self.reusable(effect):
            return None
        return (
            'A die card that says "if it fails, this card may be used again this round" is not used up by a failed roll: '
            "it may be used for a later die of its face."
        )

    def compile(self, effect: Chance, compiler: Compiler) -> tuple[int, Effects, Effects, bool]:
        test = effect.chance
        return test.roll, compiler.effects(test.then), compiler.effects(test.else_), test.on_fail == "keep"

    def batch(self, test: tuple[int, Effects, Effects, bool], batch: Batch) -> tuple[int, ...]:
        need, then, otherwise, keep = test
        return need, batch.list(then), batch.list(otherwise), int(keep)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        test, bonus_of, game, push, values = kernel.test, kernel.bonus_of, kernel.game, kernel.push, kernel.values
        GAME, RULE, PLAIN = kernel.GAME, kernel.RULE, kernel.FRAME_PLAIN

        @kernel.compiled
        def chance(need: int, sides: int, bonus: int) -> float:  # success_chance, as a float
            hits = 0
            for face in range(1, sides + 1):
                if min(sides, max(1, face + bonus)) >= need:
                    hits += 1
            return hits / sides

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            sides = R[0][RULE.SIDES]
            rolled = test(S, R, T, tape)
            bonus = bonus_of(S, R, p)
            result = min(sides, max(1, rolled + bonus)) if bonus else rolled
            success = result >= a
            if d and not success:
                game(S)[GAME.KEPT] = 1
            push(S, b if success else c, p, PLAIN, 0, 0)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            odds = chance(a, R[0][RULE.SIDES], bonus)
            listed = values(S)
            then, other = listed[b], listed[c]
            for i in range(6):
                v[i] = v[i] + ((0.0 + then[i] * odds) + other[i] * (1 - odds))

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, test: tuple[int, Effects, Effects, bool]) -> None:
        need, then, otherwise, keep = test
        sides = rnd.rules.sides
        rolled = rnd.chance.test(sides)
        bonus = player.modifier(BONUS)
        result = min(sides, max(1, rolled + bonus)) if bonus else rolled
        success = result >= need
        if rnd.game.events is not None:
            rnd.game.emit(Tested(player.seat, need, result, success, rolled, bonus))
        if keep and not success:
            rnd.keep_card()
        rnd.apply(then if success else otherwise, player)

    def value(self, test: tuple[int, Effects, Effects, bool], valuer: Valuer) -> Vector:
        need, then, otherwise, _ = test
        p = valuer.success(need)
        return add(add(ZERO, valuer.of(then), p), valuer.of(otherwise), 1 - p)

    def exact(self, test: tuple[int, Effects, Effects, bool], exact: Exact) -> icepool.Die | None:
        import icepool

        need, then, otherwise, _ = test
        passed, failed = exact.of(then), exact.of(otherwise)
        if passed is None or failed is None:
            return None
        p = success_chance(need, exact.sides)
        return icepool.Die([passed, failed], times=[p.numerator, p.denominator - p.numerator])

    def text(self, effect: Chance, words: Words) -> str:
        test = effect.chance
        then = words.text(test.then) or "nothing"
        text = f"roll {test.roll}+ ({chance_percent(test.roll, words.sides)}%): {then}"
        if test.else_:
            text += f", else {words.text(test.else_)}"
        if test.on_fail == "keep":
            text += "; if it fails, this card may be used again this round"
        return text

    def icons(self, effect: Chance, words: Words) -> list[tuple[str, str]]:
        test = effect.chance
        other = words.icons(test.else_)
        return [("chance", f"{test.roll}+"), *words.icons(test.then), *([("word", "else"), *other] if other else [])]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        if drawing.depth <= 0:
            return st.nothing()

        @st.composite
        def tests(draw: Any) -> dict[str, Any]:
            test: dict[str, Any] = {"roll": draw(st.integers(1, drawing.sides))}
            if draw(st.booleans()):
                test["then"] = draw(drawing.lists(2))
            if draw(st.booleans()):
                test["else"] = draw(drawing.lists(2))
            if draw(st.integers(0, 3)) == 0:  # keep only on a die card
                test["on_fail"] = draw(st.sampled_from(["spent", "keep"] if drawing.where == "die" else ["spent"]))
            return {"chance": test}

        return tests()
