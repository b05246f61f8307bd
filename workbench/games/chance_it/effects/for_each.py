"""``for_each``: effects once for each die of this round now showing a face."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
)
from workbench.games.chance_it.effects.registry import Effect, kind_of
from workbench.models import KeyPath, Model, Positive

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

TIMES = """
  <rect x="2" y="2" width="20" height="20" rx="4" fill="#fff4d6" stroke="#9c7412" stroke-width="1.4"/>
  <path d="M5.5 5.5L10 10M10 5.5L5.5 10" stroke="#9c7412" stroke-width="1.6" stroke-linecap="round"/>
  <text x="15" y="19" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="10" fill="#3a2a00">{label}</text>
"""


class ForEachBody(Model):
    """The face counted and the effects repeated."""

    face: Positive = Field(description="The face counted, 1..dice.sides.")
    effects: tuple[Effect, ...] = Field(description="Applied once for each die of this round now showing the face.")


class ForEach(Model):
    """Effects once for each die of this round now showing a face."""

    for_each: ForEachBody


@dataclass(frozen=True)
class Counted(EffectEvent):
    """How many dice showed the face, so how many times the effects apply."""

    type = "for_each"
    face: int
    times: int

    def text(self) -> str:
        return f"seat {self.seat} counts {self.times} {'die' if self.times == 1 else 'dice'} showing {self.face}"


#: The most times nested ``for_each`` may apply their innermost effects at once (each level multiplies by the dice).
MOST_REPEATS = 1_000


class ForEachKind(PlayerEffect):
    tag = "for_each"
    model = ForEach
    events = (Counted,)
    drawings = {"each": TIMES}
    meaning = "The effects once for each die of this round now showing `face` (resolved or not; a rerolled 1 at its new face)."
    example = {"for_each": {"face": 5, "effects": [{"gain": {"coins": 1}}]}}
    example_where = "die"

    def children(self, effect: ForEach) -> Iterator[tuple[KeyPath, tuple[Any, ...]]]:
        yield ("for_each", "effects"), effect.for_each.effects

    def check(self, effect: ForEach, key: KeyPath, site: Site) -> Iterator[tuple[KeyPath, str]]:
        face = effect.for_each.face
        if not 1 <= face <= site.sides:
            yield key + ("for_each", "face"), f"no face {face} on a {site.sides}-sided die"
        times = site.repeat * self.repeats(effect, site)
        if times > MOST_REPEATS >= site.repeat:  # said once, at the for_each that crosses the line
            yield (
                key + ("for_each",),
                f"its effects may apply up to {times:,} times at once (each for_each around it repeats them once per "
                f"die, {site.dice} dice); at most {MOST_REPEATS:,}: nest fewer for_each",
            )

    def compile(self, effect: ForEach, compiler: Compiler) -> tuple[int, Effects]:
        return effect.for_each.face, compiler.effects(effect.for_each.effects)

    def batch(self, argument: tuple[int, Effects], batch: Batch) -> tuple[int, ...]:
        face, effects = argument
        return face, batch.list(effects)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        dice, push, values, RULE, REPEAT = kernel.dice, kernel.push, kernel.values, kernel.RULE, kernel.FRAME_REPEAT

        @kernel.compiled
        def showing(S: Arrays, R: Arrays, face: int) -> int:
            shown, times = dice(S), 0
            for i in range(R[0][RULE.DICE]):
                if shown[i] == face:
                    times += 1
            return times

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            times = showing(S, R, a)
            if times:
                push(S, b, p, REPEAT, 0, times)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            times = showing(S, R, a)
            inner = values(S)[b]
            for i in range(6):
                v[i] = v[i] + (0.0 + inner[i] * times)

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, argument: tuple[int, Effects]) -> None:
        face, effects = argument
        times = rnd.game.dice.count(face)
        if rnd.game.events is not None:
            rnd.game.emit(Counted(player.seat, face, times))
        for _ in range(times):
            rnd.apply(effects, player)

    def value(self, argument: tuple[int, Effects], valuer: Valuer) -> Vector:
        face, effects = argument
        return add(ZERO, valuer.of(effects), valuer.showing(face))

    def repeats(self, effect: ForEach, site: Site) -> int:
        return site.dice

    def exact(self, argument: tuple[int, Effects], exact: Exact) -> None:
        return None  # it counts the other dice of the round: not a per-die outcome

    def text(self, effect: ForEach, words: Words) -> str:
        body = effect.for_each
        inner = words.text(body.effects, " and ") or "nothing"
        if any(next(kind_of(item).children(item), None) for item in body.effects):  # a test or a choice, once per die
            return f"for each {body.face}: {inner}"
        return f"{inner} for each {body.face}"

    def icons(self, effect: ForEach, words: Words) -> list[tuple[str, str]]:
        return [("each", str(effect.for_each.face)), *words.icons(effect.for_each.effects)]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        if drawing.depth <= 0:
            return st.nothing()
        return st.tuples(st.integers(1, drawing.sides), drawing.lists(2)).map(
            lambda pair: {"for_each": {"face": pair[0], "effects": pair[1]}}
        )
