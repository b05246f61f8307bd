"""Where chance enters a game: the named points at which dice are rolled and cards shuffled.

The engine asks a :class:`ChanceSource` at each point. :class:`RandomChance` answers
from a seeded ``random.Random``; a scenario answers from its script.
"""

from __future__ import annotations

import random
from typing import Protocol

from workbench.games.chance_it.rules import CardDef


class ChanceSource(Protocol):
    """Every random draw of a game, at its named point."""

    def deal(self, pile: list[CardDef]) -> None:
        """Shuffle the market pile in place at setup (the top card is ``pile[-1]``)."""

    def reshuffle(self, pile: list[CardDef]) -> None:
        """Shuffle the old discard pile in place into a new market pile."""

    def roll(self, count: int, sides: int) -> list[int]:
        """The starting player's roll of ``count`` dice."""

    def reroll(self, sides: int) -> int:
        """One reroll of a die showing 1."""

    def test(self, sides: int) -> int:
        """One die rolled for a "Chance N+" test."""


class RandomChance:
    """Chance from a seeded RNG that belongs to this game alone.

    >>> RandomChance(random.Random(7)).roll(5, 6) == RandomChance(random.Random(7)).roll(5, 6)
    True
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def shuffle(self, pile: list[CardDef]) -> None:
        """Shuffle cards in place."""
        self.rng.shuffle(pile)

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` dice."""
        draw = self.rng.random
        return [int(draw() * sides) + 1 for _ in range(count)]

    def die(self, sides: int) -> int:
        """One die."""
        return int(self.rng.random() * sides) + 1

    deal = reshuffle = shuffle
    reroll = test = die
