"""``lose``: return resources to the supply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.games.chance_it.basics import RESOURCES, Amounts, AmountsModel
from workbench.games.chance_it.effects.base import (
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    EffectEvent,
    Exact,
    Kernel,
    PlayerEffect,
    Valuer,
    Vector,
    Words,
    indexed,
    outcome,
    resource_icons,
)
from workbench.games.chance_it.effects.gain import signed

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round


class Lose(AmountsModel):
    """Return resources to the supply (you lose only what you have)."""

    lose: Amounts


@dataclass(frozen=True)
class Lost(EffectEvent):
    """What a player gave back to the supply (no more than it had)."""

    type = "lose"
    amounts: dict[str, int]

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, **self.amounts}

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Lost:
        return cls(fields["seat"], {r: n for r, n in fields.items() if r in RESOURCES})

    def text(self) -> str:
        return f"seat {self.seat} loses {signed(self.amounts, signed=False)}"


def lose(rnd: Round, player: Player, argument: tuple[tuple[int, int], ...]) -> None:
    """``player`` returns the (resource, amount) pairs to the supply (what it has, at most) and is out without hearts."""
    game = rnd.game
    if game.events is None:
        for r, n in argument:
            game.lose(player, r, n)
    else:
        game.emit(Lost(player.seat, {RESOURCES[r]: game.lose(player, r, n) for r, n in argument}))
    game.settle(player)


class LoseKind(PlayerEffect):
    tag = "lose"
    model = Lose
    events = (Lost,)
    meaning = "Return resources to the supply; you lose only what you have, and without hearts you are out (rule 12)."
    example = {"lose": {"hearts": 1}}

    def compile(self, effect: Lose, compiler: Compiler) -> tuple[tuple[int, int], ...]:
        return indexed(effect.lose)

    def batch(self, amounts: tuple[tuple[int, int], ...], batch: Batch) -> tuple[int, ...]:
        return batch.amounts(amounts)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        lose, settle, pairs, res, taken = kernel.lose, kernel.settle, kernel.pairs, kernel.res, kernel.taken
        floats, FLOATS = kernel.floats, kernel.FLOATS

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            at = pairs(R)
            for i in range(a, a + b):
                lose(S, p, at[i, 0], at[i, 1])
            settle(S, p)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            t = floats(S)[FLOATS.T]  # one loses only what one has
            taken(R, a, b, res(S)[p], t)
            v[0], v[1], v[2] = v[0] + -t[0], v[1] + -t[1], v[2] + -t[2]

        return BatchForm(apply, value)

    apply = staticmethod(lose)

    def value(self, amounts: tuple[tuple[int, int], ...], valuer: Valuer) -> Vector:
        if valuer.position is not None:  # one loses only what one has
            coins, hearts, stars = valuer.position.taken(amounts, valuer.position.have)
            return (-coins, -hearts, -stars, 0.0, 0.0, 0.0)
        delta = [0.0, 0.0, 0.0]
        for r, n in amounts:
            delta[r] -= n
        return (delta[0], delta[1], delta[2], 0.0, 0.0, 0.0)

    def exact(self, amounts: tuple[tuple[int, int], ...], exact: Exact) -> icepool.Die:
        parts = {"coins": 0, "hearts_lost": 0, "stars": 0}
        for r, n in amounts:
            key = ("coins", "hearts_lost", "stars")[r]
            parts[key] += n if key == "hearts_lost" else -n  # as written: a player loses only what it has
        return outcome(**parts)

    def text(self, effect: Lose, words: Words) -> str:
        return words.change(list(effect.lose.items()), "-")

    def icons(self, effect: Lose, words: Words) -> list[tuple[str, str]]:
        return resource_icons(list(effect.lose.items()), "-")

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        return drawing.amounts.map(lambda a: {"lose": a})
