"""Where chance enters a game: the named points at which dice are rolled and cards shuffled or drawn.

The engine asks a :class:`ChanceSource` at each point. :class:`RandomChance` answers from
seeded RNGs; a scenario answers from its script.

A card is an ``int`` (a number card) or the name of a special (``"red"``, ...); the top of
a deck is its last item.
"""

from __future__ import annotations

import random
from typing import Protocol

from workbench.sim.seeding import stream

#: A card: a number card's number, or a special card's colour.
Card = int | str

#: The named points of chance, each with a stream of its own in :meth:`RandomChance.streams`.
POINTS: tuple[str, ...] = ("rolloff", "deal", "roll", "red", "purple", "reshuffle")


class ChanceSource(Protocol):
    """Every random draw of a game, at its named point."""

    def rolloff(self, seats: tuple[int, ...], sides: int) -> list[int]:
        """One die for each of ``seats`` to find the first starting player (again for the tied ones)."""

    def deal(self, deck: list[Card]) -> None:
        """Shuffle the deck in place at setup (the top card is ``deck[-1]``)."""

    def draw(self, deck: list[Card]) -> Card:
        """Take the top card of a deck that is not empty."""

    def roll(self, count: int, sides: int) -> list[int]:
        """A turn's roll of ``count`` dice taken from the stock."""

    def add(self, sides: int) -> int:
        """The one die the red card adds from the stock."""

    def reroll(self, count: int, sides: int) -> list[int]:
        """The purple card's second roll of the same ``count`` dice."""

    def reshuffle(self, deck: list[Card]) -> None:
        """Shuffle the old discard pile in place into a new deck."""


class RandomChance:
    """Chance from seeded RNGs that belong to this game alone.

    Made with :meth:`streams`, each named point draws from a stream of its own: the k-th
    roll of a game is the same in two games of the same (seed, index) whatever red or
    purple dice or reshuffles happened before it. Paired runs of two variants rely on this
    to share rolls (common random numbers). Made from one RNG, every point shares it.

    >>> a, b = RandomChance.streams(1, 0), RandomChance.streams(1, 0)
    >>> _ = a.add(6), a.reroll(3, 6)  # red and purple dice do not move the rolls
    >>> a.roll(4, 6) == b.roll(4, 6)
    True
    """

    __slots__ = ("_add", "_deal", "_reroll", "_reshuffle", "_roll", "_rolloff")

    def __init__(self, rng: random.Random, *others: random.Random):
        """One RNG for every point, or one per point of :data:`POINTS`, in that order."""
        points = (rng, *others) if others else (rng,) * len(POINTS)
        if len(points) != len(POINTS):
            raise ValueError(f"one RNG or {len(POINTS)}, not {len(points)}")
        self._rolloff, self._deal, self._roll, self._add, self._reroll, self._reshuffle = points

    @classmethod
    def streams(cls, seed: int, index: int) -> RandomChance:
        """Game ``index`` of a run with ``seed``: a stream per named point, from ``stream(seed, index, "chance", point)``."""
        return cls(*(stream(seed, index, "chance", point) for point in POINTS))

    def rolloff(self, seats: tuple[int, ...], sides: int) -> list[int]:
        """One die per seat."""
        draw = self._rolloff.random
        return [int(draw() * sides) + 1 for _ in seats]

    def deal(self, deck: list[Card]) -> None:
        """Shuffle the deck in place at setup."""
        self._deal.shuffle(deck)

    def draw(self, deck: list[Card]) -> Card:
        """The top card."""
        return deck.pop()

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` dice."""
        draw = self._roll.random
        return [int(draw() * sides) + 1 for _ in range(count)]

    def add(self, sides: int) -> int:
        """One die."""
        return int(self._add.random() * sides) + 1

    def reroll(self, count: int, sides: int) -> list[int]:
        """``count`` dice again."""
        draw = self._reroll.random
        return [int(draw() * sides) + 1 for _ in range(count)]

    def reshuffle(self, deck: list[Card]) -> None:
        """Shuffle the old discard pile in place into a new deck."""
        self._reshuffle.shuffle(deck)


__all__ = ["POINTS", "Card", "ChanceSource", "RandomChance"]
