"""``others_lose``: every other participant of the action round loses resources (the knife)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.games.chance_it.basics import HEARTS, Amounts, AmountsModel
from workbench.games.chance_it.effects.base import (
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    Exact,
    Kernel,
    PlayerEffect,
    Valuer,
    Vector,
    Words,
    added,
    amount,
    indexed,
    join,
    resource_icons,
)
from workbench.games.chance_it.effects.lose import Lost, lose

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round


class OthersLose(AmountsModel):
    """Every other participant of the action round loses resources (the knife)."""

    others_lose: Amounts


KNIFE = """
  <path d="M8.2 15.8L19.6 2.6C21.4 2 22 2.6 21.4 4.4L10.2 17.8Z" fill="#cfd4da" stroke="#444" stroke-width="1" stroke-linejoin="round"/>
  <path d="M6.6 14.4L11.6 19.4" stroke="#444" stroke-width="1.6" stroke-linecap="round"/>
  <path d="M8.8 17.2L3.6 22.4L1.6 20.4L6.8 15.2Z" fill="#7a5230" stroke="#3f2a18" stroke-width="0.9" stroke-linejoin="round"/>
"""


class OthersLoseKind(PlayerEffect):
    tag = "others_lose"
    model = OthersLose
    events = (Lost,)
    drawings = {"knife": KNIFE}
    meaning = (
        "Every other participant of the action round (every other player in an all-OUT round) returns resources to the supply."
    )
    example = {"others_lose": {"hearts": 1}}

    def compile(self, effect: OthersLose, compiler: Compiler) -> tuple[tuple[int, int], ...]:
        return indexed(effect.others_lose)

    def batch(self, amounts: tuple[tuple[int, int], ...], batch: Batch) -> tuple[int, ...]:
        return batch.amounts(amounts)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        lose, settle, pairs, res, taken = kernel.lose, kernel.settle, kernel.pairs, kernel.res, kernel.taken
        game, seats, participants, floats = kernel.game, kernel.seats, kernel.participants, kernel.floats
        GAME, SEAT, FLOATS = kernel.GAME, kernel.SEAT, kernel.FLOATS

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            at, g, ps, part = pairs(R), game(S), seats(S), participants(S)
            for j in range(g[GAME.PART]):
                q = part[j]
                if q != p and not ps[q, SEAT.ELIM]:
                    for i in range(a, a + b):
                        lose(S, q, at[i, 0], at[i, 1])
                    settle(S, q)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            held, t = res(S), floats(S)[FLOATS.T]  # the hearts they lose, as they hold them now
            total = 0.0
            for o in range(n_others):
                taken(R, a, b, held[others[o]], t)
                total += t[HEARTS]
            v[4] = v[4] + total

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, amounts: tuple[tuple[int, int], ...]) -> None:
        for other in rnd.participants:
            if other is not player and not other.eliminated:
                lose(rnd, other, amounts)

    def value(self, amounts: tuple[tuple[int, int], ...], valuer: Valuer) -> Vector:
        position = valuer.position
        if position is not None:  # the hearts the others in the round would lose now
            return (0.0, 0.0, 0.0, 0.0, added(position.taken(amounts, other)[HEARTS] for other in position.others), 0.0)
        return (0.0, 0.0, 0.0, 0.0, float(dict(amounts).get(HEARTS, 0)), 0.0)

    def exact(self, amounts: tuple[tuple[int, int], ...], exact: Exact) -> None:
        return None  # it hits the other players in the round: who they are depends on the table

    def text(self, effect: OthersLose, words: Words) -> str:
        return f"{words.others()} loses " + join([amount(n, r) for r, n in effect.others_lose.items()])

    def icons(self, effect: OthersLose, words: Words) -> list[tuple[str, str]]:
        return [("knife", ""), *resource_icons(list(effect.others_lose.items()), "-")]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        return drawing.amounts.map(lambda a: {"others_lose": a})
