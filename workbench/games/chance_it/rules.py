"""A validated variant compiled into plain Python values for the engine's hot loop.

The engine never touches pydantic objects while playing: effects become
``(handler, argument)`` pairs, resources become indices, sheets become tuples.
A handler's argument depends on the effect: ``((resource, amount), ...)`` for gain,
lose and others_lose, None for market, ``(roll needed, then, else)`` for a chance test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.games.chance_it.schema import RESOURCES, Chance, Gain, Lose, OthersLose, Variant
from workbench.games.chance_it.schema import Effect as EffectModel

COINS, HEARTS, STARS = (RESOURCES.index(r) for r in ("coins", "hearts", "stars"))

#: A compiled effect: a handler from the engine (called as ``handler(round, player, argument)``) and its argument.
Effect = tuple[Callable[..., None], Any]
Effects = tuple[Effect, ...]


@dataclass(frozen=True, slots=True, eq=False)
class CardDef:
    """One market card as the engine sees it."""

    id: str
    kind: str  # "flash", "die" or "chance-it"
    face: int  # die face for a die card, else 0
    cost: int
    effects: Effects

    def __repr__(self) -> str:
        return f"CardDef({self.id})"


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """Everything the engine needs from a variant, as plain values."""

    min_players: int
    max_players: int
    start: tuple[int, ...]
    supply: tuple[int | None, ...]  # total value per resource; None when unlimited
    dice_count: int
    sides: int
    #: n players -> (out, in): out[k-1] coins each OUT player takes when k < n play OUT (the sheet's last
    #: entry, all_out, is left out: ``all_out`` stands for it), in[m-1] coins each IN player pays when m play IN
    stakes: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]
    all_out: Effects
    chance_it: Effects
    forced_in_after: int
    board: tuple[Effects, ...]  # indexed by face; entry 0 unused; reroll_ones left out
    reroll_faces: frozenset[int]
    face_up: int
    reshuffle_discard: bool
    end_stars: int
    tiebreak: tuple[int, ...]
    max_rounds: int
    cards: tuple[CardDef, ...]
    deck: tuple[CardDef, ...]  # every card times its copies, in file order
    by_id: dict[str, CardDef]  # card id -> card


def compile_rules(variant: Variant, handlers: dict[str, Callable[..., None]]) -> Rules:
    """Compile a validated variant; ``handlers`` maps effect names to the engine's functions."""

    def effects(items: tuple[EffectModel, ...]) -> Effects:
        compiled: list[Effect] = []
        for item in items:
            if item == "reroll_ones":
                continue
            if item == "market":
                compiled.append((handlers["market"], None))
            elif isinstance(item, (Gain, Lose, OthersLose)):
                name, amounts = next(iter(item.model_dump().items()))
                compiled.append((handlers[name], tuple((RESOURCES.index(r), n) for r, n in amounts.items())))
            elif isinstance(item, Chance):
                test = item.chance
                compiled.append((handlers["chance"], (test.roll, effects(test.then), effects(test.else_))))
            else:  # pragma: no cover - the schema admits nothing else
                raise TypeError(f"unknown effect {item!r}")
        return tuple(compiled)

    cards = tuple(
        CardDef(
            id=card.id,
            kind="die" if card.face is not None else card.when,
            face=card.face or 0,
            cost=card.cost,
            effects=effects(card.effects),
        )
        for card in variant.cards
    )
    sides = variant.dice.sides
    return Rules(
        min_players=variant.players.min,
        max_players=variant.players.max,
        start=tuple(getattr(variant.start, r) for r in RESOURCES),
        supply=tuple(variant.supply.total(r) for r in RESOURCES),
        dice_count=variant.dice.count,
        sides=sides,
        stakes={n: (tuple(v for v in sheet.out if v != "all_out"), tuple(sheet.in_)) for n, sheet in variant.stakes.items()},
        all_out=effects(variant.all_out),
        chance_it=effects(variant.chance_it),
        forced_in_after=variant.forced_in_after,
        board=((),) + tuple(effects(variant.board.get(face, ())) for face in range(1, sides + 1)),
        reroll_faces=frozenset(face for face, items in variant.board.items() if "reroll_ones" in items),
        face_up=variant.market.face_up,
        reshuffle_discard=variant.market.reshuffle_discard,
        end_stars=variant.end.stars,
        tiebreak=tuple(RESOURCES.index(r) for r in variant.end.tiebreak),
        max_rounds=variant.end.max_rounds,
        cards=cards,
        deck=tuple(compiled for card, compiled in zip(variant.cards, cards) for _ in range(card.copies)),
        by_id={card.id: card for card in cards},
    )
