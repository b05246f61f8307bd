"""Where chance enters a game: the named points at which dice are rolled and cards shuffled.

The engine asks a :class:`ChanceSource` at each point. :class:`RandomChance` answers
from a game's keyed streams; a scenario answers from its script.
"""

from __future__ import annotations

from typing import Protocol

from workbench.games.chance_it.rules import CardDef
from workbench.sim.seeding import Stream, Streams


class ChanceSource(Protocol):
    """Every random draw of a game, at its named point."""

    def deal(self, pile: list[CardDef]) -> None:
        """Shuffle the market pile in place at setup (the top card is ``pile[-1]``)."""

    def reshuffle(self, pile: list[CardDef]) -> None:
        """Shuffle the old discard pile in place into a new market pile."""

    def lay_out(self, pile: list[CardDef], count: int) -> list[CardDef]:
        """The ``count`` cards turned face up from the pile, taken out of it: its top ones (:func:`top`), or, for a
        game recorded at the table, the ones the person recording says came up."""

    def roll(self, count: int, sides: int) -> list[int]:
        """The starting player's roll of ``count`` dice."""

    def reroll(self, sides: int) -> int:
        """One reroll of a die showing 1."""

    def test(self, sides: int) -> int:
        """One die rolled for a "Chance N+" test."""


#: The named points of chance, numbered as their streams are: stream ``k`` of a game's :class:`Streams` is point
#: ``POINTS[k]``; seat ``s``'s bot draws from stream ``BOTS + s``. The batch engine numbers them alike.
POINTS = ("deal", "roll", "reroll", "test", "reshuffle")
DEAL, ROLL, REROLL, TEST, RESHUFFLE = range(len(POINTS))
BOTS = len(POINTS)


def top(pile: list[CardDef], count: int) -> list[CardDef]:
    """The ``count`` top cards of the pile, taken off it, the top one first (what a shuffled pile lays out)."""
    return [pile.pop() for _ in range(count)]


def game_streams(seed: int, index: int, players: int) -> Streams:
    """Every stream of game ``index`` of a run with ``seed``: the points of chance, then a bot's for each seat."""
    return Streams(seed, index, BOTS + players)


def future_streams(key: int, players: int) -> Streams:
    """Every stream of a search bot's sampled future keyed ``key`` (64 bits it drew), numbered as a game's: the batch
    engine keys its lookahead's the same way."""
    return Streams.keyed(key, 0, BOTS + players)


class RandomChance:
    """Chance from a game's keyed streams (:class:`~workbench.sim.seeding.Streams`), one per named point.

    Each named point draws from a stream of its own: the k-th round's roll is the same in
    two games of the same (seed, index) whatever rerolls, tests or reshuffles happened
    before it. Paired runs (``compare``, ``cards``, ``skill``) rely on this to give every
    arm the same rolls for as long as their games last (common random numbers). The batch
    engine draws from the same streams with the same functions, so both engines roll the
    same dice.

    >>> a, b = RandomChance.streams(1, 0), RandomChance.streams(1, 0)
    >>> _ = a.test(6), a.reroll(6)  # another game's tests and rerolls do not move its rolls
    >>> a.roll(5, 6) == b.roll(5, 6)
    True
    """

    __slots__ = ("_streams",)

    def __init__(self, streams: Streams):
        self._streams = streams

    @classmethod
    def streams(cls, seed: int, index: int) -> RandomChance:
        """Game ``index`` of a run with ``seed`` (its points of chance only)."""
        return cls(Streams(seed, index, len(POINTS)))

    def deal(self, pile: list[CardDef]) -> None:
        """Shuffle the market pile in place at setup."""
        self._streams.shuffle(DEAL, pile)

    def reshuffle(self, pile: list[CardDef]) -> None:
        """Shuffle the old discard pile in place into a new market pile."""
        self._streams.shuffle(RESHUFFLE, pile)

    def lay_out(self, pile: list[CardDef], count: int) -> list[CardDef]:
        """The top cards of the pile."""
        return top(pile, count)

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` dice."""
        below = self._streams.below
        return [below(ROLL, sides) + 1 for _ in range(count)]

    def reroll(self, sides: int) -> int:
        """One reroll of a die showing 1."""
        return self._streams.below(REROLL, sides) + 1

    def test(self, sides: int) -> int:
        """One die for a "Chance N+" test."""
        return self._streams.below(TEST, sides) + 1


def bot_stream(seed: int, index: int, seat: int) -> Stream:
    """The stream the bot at ``seat`` draws from in game ``index`` of a run with ``seed``."""
    return Streams(seed, index, BOTS + seat + 1).stream(BOTS + seat)
