"""``reroll_ones``: the starting player rerolls a die showing 1 until it shows another face."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from workbench.games.chance_it.effects.base import (
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    DieEffect,
    Drawing,
    EffectEvent,
    Exact,
    Kernel,
    Site,
    Valuer,
    Vector,
    Words,
    outcome,
)
from workbench.models import KeyPath

if TYPE_CHECKING:
    from collections.abc import Iterator

    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Round

REROLL = """
  <rect x="6" y="6" width="12" height="12" rx="2.4" fill="#fff" stroke="#333" stroke-width="1.2"/>
  <circle cx="12" cy="12" r="1.6" fill="#333"/>
  <path d="M3.2 9A9.4 9.4 0 0 1 19 5.2" fill="none" stroke="#2f6db5" stroke-width="1.5" stroke-linecap="round"/>
  <path d="M19.6 1.8V5.8H15.6" fill="none" stroke="#2f6db5" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M20.8 15A9.4 9.4 0 0 1 5 18.8" fill="none" stroke="#2f6db5" stroke-width="1.5" stroke-linecap="round"/>
  <path d="M4.4 22.2V18.2H8.4" fill="none" stroke="#2f6db5" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/>
"""


@dataclass(frozen=True)
class Rerolled(EffectEvent):
    """The starting player's rerolls of a die showing 1, the last one standing."""

    type = "reroll"
    results: list[int]

    def text(self) -> str:
        return f"seat {self.seat} rerolls the 1: {' then '.join(map(str, self.results))}"


class RerollOnesKind(DieEffect):
    tag = "reroll_ones"
    model = Literal["reroll_ones"]
    placement_reason = "it rerolls the die being resolved"
    events = (Rerolled,)
    drawings = {"reroll": REROLL}
    meaning = (
        "On board face 1 only: after the board and the die cards of a 1, the starting player rerolls it until it shows "
        "another face, which is then resolved in its turn."
    )
    example = "reroll_ones"
    example_where = "board"

    def check(self, effect: str, key: KeyPath, site: Site) -> Iterator[tuple[KeyPath, str]]:
        if site.face != 1:
            yield key, "reroll_ones belongs on face 1: it rerolls a 1 until the die shows something else"

    def compile(self, effect: str, compiler: Compiler) -> None:
        return None

    def batch(self, argument: None, batch: Batch) -> tuple[int, ...]:
        return ()

    def batch_form(self, kernel: Kernel) -> BatchForm:
        game, seats, participants, dice, pending = kernel.game, kernel.seats, kernel.participants, kernel.dice, kernel.pending
        reroll, sort, GAME, SEAT, RULE = kernel.reroll, kernel.sort, kernel.GAME, kernel.SEAT, kernel.RULE

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, face: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            g, ps, part, shown, waiting = game(S), seats(S), participants(S), dice(S), pending(S)
            anyone = False
            for j in range(g[GAME.PART]):
                if not ps[part[j], SEAT.ELIM]:
                    anyone = True
            if not anyone:
                return
            new = reroll(S, R, T, tape)
            while new == 1:
                new = reroll(S, R, T, tape)
            count = R[0][RULE.DICE]
            for i in range(count):
                if shown[i] == face:
                    shown[i] = new
                    break
            sort(shown, count)
            waiting[g[GAME.PENDING]] = new
            g[GAME.PENDING] += 1
            sort(waiting, g[GAME.PENDING])

        return BatchForm(apply=apply)

    @staticmethod
    def apply(rnd: Round, face: int, argument: None) -> None:
        if not any(not p.eliminated for p in rnd.participants):
            return
        sides = rnd.rules.sides
        rerolls = [rnd.chance.reroll(sides)]
        while rerolls[-1] == 1:
            rerolls.append(rnd.chance.reroll(sides))
        rnd.game.emit(Rerolled(rnd.game.starting_player, rerolls))
        rnd.turn_die(face, rerolls[-1])

    def value(self, argument: None, valuer: Valuer) -> Vector:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)

    def exact(self, argument: None, exact: Exact) -> icepool.Die:
        return outcome()  # it moves the die (see rerolls), giving the player nothing itself

    def rerolls(self, argument: None, face: int, sides: int) -> tuple[int, ...]:
        return tuple(range(2, sides + 1))  # rerolled until it is not a 1: each other face equally likely

    def text(self, effect: str, words: Words) -> str:
        return "the starting player rerolls the 1 until it shows another face"

    def icons(self, effect: str, words: Words) -> list[tuple[str, str]]:
        return [("reroll", "")]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        return st.just("reroll_ones") if drawing.face == 1 else st.nothing()

    def rule_note(self, effect: str) -> str:
        return "Die cards of face 1 are used before the reroll; a rerolled 1 triggers no card."
