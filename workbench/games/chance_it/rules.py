"""A validated variant compiled into plain Python values for the engine's hot loop.

The engine never touches pydantic objects while playing: effects become
``(apply, argument, kind)`` triples (each kind of :mod:`.effects` compiles its own
argument), resources become indices, sheets become tuples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from workbench.games.chance_it.basics import COINS, HEARTS, RESOURCES, STARS
from workbench.games.chance_it.effects import (
    Effects,
    PassiveEffect,
    PlayerEffect,
    compile_die_steps,
    compile_effects,
    compile_passive,
    kind_of,
    modifiers,
)
from workbench.games.chance_it.schema import Variant

__all__ = ["COINS", "HEARTS", "STARS", "CardDef", "Effects", "Rules", "compile_rules", "modifier"]


@dataclass(frozen=True, slots=True, eq=False)
class CardDef:
    """One market card as the engine sees it."""

    id: str
    kind: str  # "flash", "die", "chance-it" or "passive"
    face: int  # die face for a die card, else 0
    cost: int
    effects: Effects  # a passive card's are empty: it is never used
    passive: tuple[tuple[Any, PassiveEffect], ...]  # a passive card's effects: (argument, kind), valued by the bots
    modifiers: dict[str, int]  # what they add to the owner's modifiers (chance_bonus), which the engine reads

    def __repr__(self) -> str:
        return f"CardDef({self.id})"


def modifier(tableau: Iterable[CardDef], name: str) -> int:
    """The sum of a modifier (such as ``chance_bonus``) over the passive cards of a tableau."""
    return sum(card.modifiers.get(name, 0) for card in tableau if card.modifiers)


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
    board: tuple[Effects, ...]  # indexed by face; entry 0 unused; effects for each participant
    die_steps: tuple[Effects, ...]  # indexed by face: effects once per die, after the die cards (reroll_ones)
    face_up: int
    reshuffle_discard: bool
    end_stars: int
    tiebreak: tuple[int, ...]
    max_rounds: int
    cards: tuple[CardDef, ...]
    deck: tuple[CardDef, ...]  # every card times its copies, in file order
    by_id: dict[str, CardDef]  # card id -> card


def compile_rules(variant: Variant) -> Rules:
    """Compile a validated variant."""
    sides = variant.dice.sides
    cards = tuple(
        CardDef(
            id=card.id,
            kind="die" if card.face is not None else card.when,
            face=card.face or 0,
            cost=card.cost,
            effects=() if card.when == "passive" else compile_effects(card.effects, sides),
            passive=(passive := compile_passive(card.effects, sides) if card.when == "passive" else ()),
            modifiers=modifiers(passive),
        )
        for card in variant.cards
    )
    return Rules(
        min_players=variant.players.min,
        max_players=variant.players.max,
        start=tuple(getattr(variant.start, r) for r in RESOURCES),
        supply=tuple(variant.supply.total(r) for r in RESOURCES),
        dice_count=variant.dice.count,
        sides=sides,
        stakes={n: (tuple(v for v in sheet.out if v != "all_out"), tuple(sheet.in_)) for n, sheet in variant.stakes.items()},
        all_out=compile_effects(variant.all_out, sides),
        chance_it=compile_effects(variant.chance_it, sides),
        forced_in_after=variant.forced_in_after,
        board=((),) + tuple(compile_effects(_players(variant.board.get(face, ())), sides) for face in range(1, sides + 1)),
        die_steps=((),) + tuple(compile_die_steps(variant.board.get(face, ()), sides) for face in range(1, sides + 1)),
        face_up=variant.market.face_up,
        reshuffle_discard=variant.market.reshuffle_discard,
        end_stars=variant.end.stars,
        tiebreak=tuple(RESOURCES.index(r) for r in variant.end.tiebreak),
        max_rounds=variant.end.max_rounds,
        cards=cards,
        deck=tuple(compiled for card, compiled in zip(variant.cards, cards) for _ in range(card.copies)),
        by_id={card.id: card for card in cards},
    )


def _players(items: tuple[object, ...]) -> list[object]:
    """A board face's effects applied to each participant (not those that act once per die)."""
    return [item for item in items if isinstance(kind_of(item), PlayerEffect)]
