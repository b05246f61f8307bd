"""Successive halving: race candidates on common games and keep the best, for any tuner.

Every candidate plays the same game indices (common random numbers), so two candidates
differ only by what they are. After each round the worse half drops out and the rest
play twice as many games, continuing on the indices they have not played yet. A
candidate's score does not depend on what else it races: its games and their order are
the same in any pool.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar


class Ordered(Protocol):
    """A candidate: comparable, so that ties in distance break the same way every time."""

    def __lt__(self, other: Any, /) -> bool: ...


C = TypeVar("C", bound=Ordered)


@dataclass
class Entry(Generic[C]):
    """A candidate in the race: its games so far and how they measure."""

    candidate: C
    tally: Any = None
    summary: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    distance: float = math.inf
    games: int = 0


#: Plays candidates, each on its own range of game indices (start, end), under a progress label: their tallies.
Play = Callable[[list[C], list[tuple[int, int]], str], list[Any]]
#: A candidate's figures and distance from the target, from its summary.
Score = Callable[[dict[str, Any]], tuple[dict[str, Any], float]]


def race(
    pool: list[C], play: Play[C], score: Score, budget: int, keep: int, label: str, what: str = "candidates"
) -> list[Entry[C]]:
    """Successive halving of ``pool`` within about ``budget`` games until ``keep`` are left; every entry, best first
    (the finalists, then the others by games played and distance). Each round's progress label starts with
    ``label`` and counts the candidates as ``what``."""
    rounds = max(0, math.ceil(math.log2(max(1, len(pool) / keep))))
    first_games = max(20, int(budget / (len(pool) * (1 + rounds / 2))))
    entries = [Entry(candidate) for candidate in pool]
    alive, out = entries, list[Entry[C]]()
    games = first_games
    for round_no in range(rounds + 1):
        ranges = [(entry.games, games) for entry in alive]
        tallies = play(
            [e.candidate for e in alive], ranges, f"{label} {round_no + 1}/{rounds + 1}: {len(alive)} {what} x {games} games"
        )
        for entry, tally in zip(alive, tallies):
            if entry.tally is None:
                entry.tally = tally
            else:
                entry.tally.merge(tally)
            entry.games = games
            entry.summary = entry.tally.summary()
            entry.figures, entry.distance = score(entry.summary)
        alive.sort(key=lambda e: (e.distance, e.candidate))
        if len(alive) <= keep:
            break
        cut = max(keep, len(alive) // 2)
        out = alive[cut:] + out
        alive = alive[:cut]
        games *= 2
    for entry in entries:
        entry.tally = None  # the summaries are kept; the tallies are not needed any more
    return alive + sorted(out, key=lambda e: (-e.games, e.distance, e.candidate))
