"""Where chance enters a game: the named points at which dice are rolled and cards shuffled.

The engine asks a :class:`ChanceSource` at each point. :class:`RandomChance` answers
from a seeded ``random.Random``; a scenario answers from its script.
"""

from __future__ import annotations

import random
from typing import Protocol

from workbench.games.chance_it.rules import CardDef
from workbench.sim.seeding import stream


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
    """Chance from seeded RNGs that belong to this game alone.

    Made with :meth:`streams`, each named point draws from a stream of its own: the
    k-th round's roll is the same in two games of the same (seed, index) whatever
    rerolls, tests or reshuffles happened before it. Paired runs (``compare``,
    ``cards``, ``skill``) rely on this to give every arm the same rolls for as long as
    their games last (common random numbers). Made from one RNG, every point shares it
    (a bot's lookahead does so).

    >>> RandomChance(random.Random(7)).roll(5, 6) == RandomChance(random.Random(7)).roll(5, 6)
    True
    >>> a, b = RandomChance.streams(1, 0), RandomChance.streams(1, 0)
    >>> _ = a.test(6), a.reroll(6)  # another game's tests and rerolls do not move its rolls
    >>> a.roll(5, 6) == b.roll(5, 6)
    True
    """

    __slots__ = ("_deal", "_reroll", "_reshuffle", "_roll", "_test")

    def __init__(self, rng: random.Random, *others: random.Random):
        """One RNG for every point, or five: deal, roll, reroll, test and reshuffle, in that order."""
        points = (rng, *others) if others else (rng,) * 5
        if len(points) != 5:
            raise ValueError(f"one RNG or five, not {len(points)}")
        self._deal, self._roll, self._reroll, self._test, self._reshuffle = points

    @classmethod
    def streams(cls, seed: int, index: int) -> RandomChance:
        """Game ``index`` of a run with ``seed``: a stream per named point, from ``stream(seed, index, "chance", point)``."""
        return cls(*(stream(seed, index, "chance", point) for point in ("deal", "roll", "reroll", "test", "reshuffle")))

    def deal(self, pile: list[CardDef]) -> None:
        """Shuffle the market pile in place at setup."""
        self._deal.shuffle(pile)

    def reshuffle(self, pile: list[CardDef]) -> None:
        """Shuffle the old discard pile in place into a new market pile."""
        self._reshuffle.shuffle(pile)

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` dice."""
        draw = self._roll.random
        return [int(draw() * sides) + 1 for _ in range(count)]

    def reroll(self, sides: int) -> int:
        """One reroll of a die showing 1."""
        return int(self._reroll.random() * sides) + 1

    def test(self, sides: int) -> int:
        """One die for a "Chance N+" test."""
        return int(self._test.random() * sides) + 1
