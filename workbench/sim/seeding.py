"""Independent random streams derived from a seed and names, the same on every machine and in every engine.

Two kinds of stream:

- :class:`Streams`, keyed streams of 64-bit integers (SplitMix64): stream ``k`` of game
  ``index`` of a run with seed ``S`` depends on nothing else. The functions that draw from
  them (:func:`seed_streams`, :func:`below`, :func:`shuffle`) are written once, in plain
  integer arithmetic masked to 64 bits: Python runs them on its integers, and a Numba
  kernel compiles the very same functions for its unsigned 64-bit integers (it registers
  them with ``numba.extending.register_jitable``). A game played by an interpreter and by
  a compiled engine then draws the same numbers at the same points, and no floating point
  is involved. A family with a compiled engine plays on these.
- :func:`stream`, a ``random.Random`` per (seed, names), for a family that has only an
  interpreter.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from typing import Any

#: The 64-bit mask: Python's integers are unbounded, Numba's unsigned ones wrap (there, the mask changes nothing).
MASK = 0xFFFFFFFFFFFFFFFF
#: SplitMix64's increment (the golden ratio) and its two multipliers.
GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def mix(z: int) -> int:
    """SplitMix64's finaliser: a 64-bit integer to a well-mixed 64-bit integer.

    >>> mix(0), mix(1)
    (0, 6238072747940578789)
    """
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def seed_streams(states: MutableSequence[int], key: int, index: int) -> None:
    """Start every stream of game ``index`` of the run keyed ``key`` (see :func:`run_key`): ``states[k]`` for each k.

    ``index`` is a game's number (an unsigned 64-bit integer in a compiled engine). Stream
    ``k`` starts the same however many streams are asked for.
    """
    base = mix(key ^ mix((index + GOLDEN) & MASK))
    step = base
    for k in range(len(states)):
        step = (step + M2) & MASK
        states[k] = mix(step)


def draw(states: MutableSequence[int], k: int) -> int:
    """The next 64-bit number of stream ``k`` (advancing it)."""
    state = (states[k] + GOLDEN) & MASK
    states[k] = state
    return mix(state)


def below(states: MutableSequence[int], k: int, n: int) -> int:
    """A whole number from 0 to ``n - 1`` (``n`` below 2**31), equally likely to within n / 2**32, from stream ``k``.

    The top 32 bits of a draw, scaled by ``n`` in integers (no float, no division).
    """
    return (int(draw(states, k) >> 32) * n) >> 32


def shuffle(states: MutableSequence[int], k: int, items: MutableSequence[Any], n: int) -> None:
    """Shuffle ``items[:n]`` in place with stream ``k`` (Fisher and Yates, from the last item down)."""
    for i in range(n - 1, 0, -1):
        j = below(states, k, i + 1)
        items[i], items[j] = items[j], items[i]


def run_key(seed: int) -> int:
    """A run's seed (any integer) as the 64-bit key of its streams, the same on every machine.

    >>> run_key(1) == run_key(1) != run_key(2)
    True
    """
    digest = hashlib.blake2b(f"{seed}:streams".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Streams:
    """The keyed streams of one game: ``count`` of them, game ``index`` of a run with ``seed``.

    >>> a, b = Streams(1, 0, 3), Streams(1, 0, 5)
    >>> [a.below(2, 6) for _ in range(5)] == [b.below(2, 6) for _ in range(5)]  # stream 2, however many there are
    True
    >>> Streams(1, 0, 1).below(0, 6) == Streams(1, 1, 1).below(0, 6) == Streams(2, 0, 1).below(0, 6)
    False
    """

    __slots__ = ("states",)

    def __init__(self, seed: int, index: int, count: int):
        self.states = [0] * count
        seed_streams(self.states, run_key(seed), index)

    @classmethod
    def keyed(cls, key: int, index: int, count: int) -> Streams:
        """The streams of game ``index`` keyed by the 64-bit ``key`` itself rather than a seed's key (:func:`run_key`,
        which a compiled engine cannot compute): a lookahead's sampled future, keyed by a number its bot drew.

        >>> Streams.keyed(run_key(1), 0, 2).states == Streams(1, 0, 2).states
        True
        """
        streams = cls.__new__(cls)
        streams.states = [0] * count
        seed_streams(streams.states, key, index)
        return streams

    def below(self, k: int, n: int) -> int:
        """A whole number from 0 to ``n - 1`` from stream ``k``."""
        return below(self.states, k, n)

    def shuffle(self, k: int, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place with stream ``k``."""
        shuffle(self.states, k, items, len(items))

    def bits(self, k: int) -> int:
        """The next 64 bits of stream ``k``, as a whole number."""
        return draw(self.states, k)

    def stream(self, k: int) -> Stream:
        """Stream ``k`` alone, for whoever draws only from it (a bot)."""
        return Stream(self, k)


class Stream:
    """One stream of a game's :class:`Streams`: what a bot draws from."""

    __slots__ = ("k", "streams")

    def __init__(self, streams: Streams, k: int):
        self.streams, self.k = streams, k

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``."""
        return below(self.streams.states, self.k, n)

    def bits(self) -> int:
        """The next 64 bits, as a whole number."""
        return draw(self.streams.states, self.k)


def stream(seed: int, *names: object) -> random.Random:
    """A ``random.Random`` that depends only on ``seed`` and ``names`` (for a game with an interpreter only).

    Game ``i`` of a run with seed ``S`` uses ``stream(S, i, "chance", point)`` for its dice and
    ``stream(S, i, "bot", seat)`` for each bot, so no stream ever shares state with another.

    >>> stream(1, 0, "chance").random() == stream(1, 0, "chance").random()
    True
    >>> stream(1, 0, "chance").random() == stream(1, 1, "chance").random()
    False
    """
    text = ":".join(str(part) for part in (seed, *names))
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))
