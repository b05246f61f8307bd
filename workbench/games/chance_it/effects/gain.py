"""``gain``: take resources from the supply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.games.chance_it.basics import RESOURCES, Amounts, AmountsModel
from workbench.games.chance_it.effects.base import (
    ZERO,
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
    amount,
    indexed,
    outcome,
    resource_icons,
)

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round


class Gain(AmountsModel):
    """Take resources from the supply (a limited supply gives only what is left)."""

    gain: Amounts


def signed(fields: dict[str, Any], signed: bool = True) -> str:
    """The resources of an event's fields, in their order: ``+1 coin, -2 hearts`` (or unsigned); ``nothing`` for none."""
    parts = [("+" if signed and fields[r] > 0 else "") + amount(fields[r], r) for r in fields if r in RESOURCES and fields[r]]
    return ", ".join(parts) or "nothing"


@dataclass(frozen=True)
class Gained(EffectEvent):
    """What a player took from the supply (less than written when a limited supply ran short)."""

    type = "gain"
    amounts: dict[str, int]

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, **self.amounts}

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Gained:
        return cls(fields["seat"], {r: n for r, n in fields.items() if r in RESOURCES})

    def text(self) -> str:
        return f"seat {self.seat} gains {signed(self.amounts)}"


class GainKind(PlayerEffect):
    tag = "gain"
    model = Gain
    events = (Gained,)
    meaning = "Take resources from the supply; a limited supply gives only what is left (rule 11)."
    example = {"gain": {"hearts": 1, "coins": 2}}

    def compile(self, effect: Gain, compiler: Compiler) -> tuple[tuple[int, int], ...]:
        return indexed(effect.gain)

    def batch(self, amounts: tuple[tuple[int, int], ...], batch: Batch) -> tuple[int, ...]:
        return batch.amounts(amounts)

    def batch_form(self, kernel: Kernel) -> BatchForm:
        gain, pairs, floats, FLOATS = kernel.gain, kernel.pairs, kernel.floats, kernel.FLOATS

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            at = pairs(R)
            for i in range(a, a + b):
                gain(S, R, p, at[i, 0], at[i, 1])

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            at, got = pairs(R), floats(S)[FLOATS.GOT]
            got[0], got[1], got[2] = 0.0, 0.0, 0.0
            for i in range(a, a + b):
                got[at[i, 0]] += at[i, 1]
            v[0], v[1], v[2] = v[0] + got[0], v[1] + got[1], v[2] + got[2]

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, amounts: tuple[tuple[int, int], ...]) -> None:
        game = rnd.game
        if game.events is None:
            for r, n in amounts:
                game.gain(player, r, n)
        else:
            game.emit(Gained(player.seat, {RESOURCES[r]: game.gain(player, r, n) for r, n in amounts}))

    def value(self, amounts: tuple[tuple[int, int], ...], valuer: Valuer) -> Vector:
        delta = [0.0, 0.0, 0.0]
        for r, n in amounts:
            delta[r] += n
        return (delta[0], delta[1], delta[2], 0.0, 0.0, 0.0) if amounts else ZERO

    def exact(self, amounts: tuple[tuple[int, int], ...], exact: Exact) -> icepool.Die:
        parts = {"coins": 0, "hearts_gained": 0, "stars": 0}
        for r, n in amounts:
            parts[("coins", "hearts_gained", "stars")[r]] += n
        return outcome(**parts)

    def text(self, effect: Gain, words: Words) -> str:
        return words.change(list(effect.gain.items()), "+")

    def icons(self, effect: Gain, words: Words) -> list[tuple[str, str]]:
        return resource_icons(list(effect.gain.items()), "+")

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        return drawing.amounts.map(lambda a: {"gain": a})
