"""What every game ends in, whatever its family: who won, why it ended and how long it lasted.

A family's tally keeps an :class:`Outcomes` for these figures (the wins by seat and by
bot, Ludii's balance and first-seat advantage, the end reasons, the game length) and
adds its own; its per-game measure for paired runs starts from :func:`outcome_values`
(or :func:`outcome_arrays` for a batch engine's block) and :func:`outcome_statistics`.
Counts are integers, so tallies merge in any order to the same summary.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, Self

import numpy as np
import numpy.typing as npt

from workbench.sim.paired import Measure, Statistic, ratio
from workbench.sim.stats import Histogram, Moments, rate, rounded


@dataclass
class Outcomes:
    """The wins, end reasons and game lengths of a run, as mergeable integer counts."""

    players: int
    bots: tuple[str, ...]
    games: int = 0
    wins: list[int] = field(default_factory=list)  # games won (alone or shared) per seat
    shared: Counter[tuple[int, int]] = field(default_factory=Counter)  # (seat, number of winners) -> games
    no_winner: int = 0
    end_reasons: Counter[str | None] = field(default_factory=Counter)
    rounds: Histogram = field(default_factory=Histogram)
    first_won: Counter[int] = field(default_factory=Counter)  # number of winners -> games the first player won

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players

    def add(self, winners: Sequence[int], end_reason: str | None, rounds: int, first: int = 0) -> None:
        """Count one game; ``first`` is the seat that started it."""
        self.games += 1
        if first in winners:
            self.first_won[len(winners)] += 1
        for seat in winners:
            self.wins[seat] += 1
            self.shared[(seat, len(winners))] += 1
        self.no_winner += not winners
        self.end_reasons[end_reason] += 1
        self.rounds.add(rounds)

    def add_arrays(
        self,
        won: npt.NDArray[np.int64],
        end: npt.NDArray[np.int64],
        reasons: Sequence[str],
        rounds: npt.NDArray[np.int64],
        first: npt.NDArray[np.int64] | None = None,
    ) -> None:
        """Count a block of games given as arrays, one row a game: ``won`` (1 for each winning seat), ``end`` (the
        index of the end reason in ``reasons``), ``rounds`` and ``first``, the seat that started (None: seat 0); the
        same counts :meth:`add` makes game by game."""
        self.games += len(won)
        winners = won.sum(axis=1)
        started = won[np.arange(len(won)), 0 if first is None else first] == 1
        for size, count in zip(*np.unique(winners[started], return_counts=True)):
            self.first_won[int(size)] += int(count)
        for seat in range(self.players):
            self.wins[seat] += int(won[:, seat].sum())
            for size, count in zip(*np.unique(winners[won[:, seat] == 1], return_counts=True)):
                self.shared[(seat, int(size))] += int(count)
        self.no_winner += int((winners == 0).sum())
        for reason, count in zip(*np.unique(end, return_counts=True)):
            self.end_reasons[reasons[reason]] += int(count)
        add_histogram(self.rounds, rounds)

    def merge(self, other: Outcomes) -> None:
        """Add another tally of the same run."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.shared.update(other.shared)
        self.no_winner += other.no_winner
        self.end_reasons.update(other.end_reasons)
        self.rounds.merge(other.rounds)
        self.first_won.update(other.first_won)

    def _shared_games(self) -> int:
        """Games won by two or more tied players (each such game is counted once per winner)."""
        by_size: Counter[int] = Counter()
        for (_, k), count in self.shared.items():
            by_size[k] += count
        return sum(count // k for k, count in by_size.items() if k > 1)

    def summary(self) -> dict[str, Any]:
        """The outcome figures of ``summary.json``: ``games``, ``wins``, ``balance``, ``first_seat_advantage``,
        ``end_reasons`` and ``rounds``, each with its uncertainty."""
        games, n = self.games, self.players
        credit = [sum(Fraction(self.shared[(seat, k)], k) for k in range(1, n + 1)) for seat in range(n)]
        seat_rates = [float(c / games) if games else 0.0 for c in credit]
        by_bot_wins: Counter[str] = Counter()
        by_bot_seats: Counter[str] = Counter()
        for seat, name in enumerate(self.bots):
            by_bot_wins[name] += self.wins[seat]
            by_bot_seats[name] += games
        # Ludii: Balance = 1 - the largest gap between two seats' win rates (a shared win split);
        # AdvantageP1 = the first player's win rate (the seat that started each game), a game nobody wins counting half.
        balance = 1 - (max(seat_rates) - min(seat_rates)) if games else None
        first_credit = sum(Fraction(count, k) for k, count in self.first_won.items())
        first_seat = float((first_credit + Fraction(self.no_winner, 2)) / games) if games else None
        return {
            "games": games,
            "wins": {
                "by_seat": [rate(w, games) for w in self.wins],
                "by_bot": {name: rate(by_bot_wins[name], by_bot_seats[name]) for name in sorted(by_bot_seats)},
                "no_winner": rate(self.no_winner, games),
                "shared": rate(self._shared_games(), games),
            },
            "balance": maybe(balance),
            "first_seat_advantage": maybe(first_seat),
            "end_reasons": {reason: rate(count, games) for reason, count in sorted(self.end_reasons.items())},
            "rounds": self.rounds.report(),
        }


def record(
    index: int, seed: int, bots: tuple[str, ...], winners: Sequence[int], end_reason: str | None, rounds: int
) -> dict[str, Any]:
    """The part of a game's line of ``--records`` every game has (a family adds its final state)."""
    return {
        "game": index,
        "seed": seed,
        "players": len(bots),
        "bots": list(bots),
        "winners": list(winners),
        "end_reason": end_reason,
        "rounds": rounds,
    }


def add_histogram(histogram: Histogram, values: npt.NDArray[np.int64]) -> None:
    """Count every value of an array."""
    for value, count in zip(*np.unique(values, return_counts=True)):
        histogram.add(int(value), int(count))


def add_moments(moments: Moments, values: npt.NDArray[np.int64]) -> None:
    """Add every value of an array (in Python integers: squares of big values pass 64 bits)."""
    exact = values.astype(object)
    moments.add_sums(len(values), int(exact.sum()), int((exact * exact).sum()))


def maybe(x: float | None) -> float | None:
    """A figure rounded as the reports show it, or None."""
    return None if x is None else rounded(x)


# --- what a game measures, for paired runs (compare, cards, skill) ---------------------------------------------


def credit_scale(players: int) -> int:
    """A whole number that every share of a tied win (1/k) and half a game times: exact integer columns."""
    return 2 * math.lcm(*range(1, players + 1))


def outcome_columns(players: int, bots: tuple[str, ...], reasons: Sequence[str]) -> tuple[str, ...]:
    """The columns of :func:`outcome_values`, in order."""
    return (
        "games",
        "rounds",
        "no_winner",
        "shared",
        *(f"end.{reason}" for reason in reasons),
        *(f"{kind}.{seat}" for kind in ("won", "credit") for seat in range(players)),
        *(f"bot.{name}" for name in sorted(set(bots))),
        "first_seat",
    )


def game_values(game: Any, length: int, bots: tuple[str, ...], counted: Sequence[str]) -> dict[str, int]:
    """A finished game's outcome columns (:func:`outcome_values`, ``length`` in the family's unit) and its counters
    (``counted``: their attribute names)."""
    values = outcome_values(game.winners, game.end_reason, length, bots, game.first_player)
    for name in counted:
        values[name] = getattr(game, name)
    return values


def outcome_values(
    winners: Sequence[int], end_reason: str | None, rounds: int, bots: tuple[str, ...], first: int = 0
) -> dict[str, int]:
    """One game's outcome columns that are not zero (``first``: the seat that started the game)."""
    scale = credit_scale(len(bots))
    values: dict[str, int] = {
        "games": 1,
        "rounds": rounds,
        "no_winner": not winners,
        "shared": len(winners) > 1,
        f"end.{end_reason}": 1,
    }
    for seat, bot in enumerate(bots):
        won = seat in winners
        values[f"won.{seat}"] = won
        values[f"credit.{seat}"] = scale // len(winners) if won else 0
        values[f"bot.{bot}"] = values.get(f"bot.{bot}", 0) + won
    values["first_seat"] = values[f"credit.{first}"] + (scale // 2 if not winners else 0)
    return values


def outcome_arrays(
    won: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
    reasons: Sequence[str],
    rounds: npt.NDArray[np.int64],
    bots: tuple[str, ...],
    first: npt.NDArray[np.int64] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """:func:`outcome_values` of a block of games given as arrays (as :meth:`Outcomes.add_arrays` takes them)."""
    players = won.shape[1]
    scale = credit_scale(players)
    winners = won.sum(axis=1)
    credit = np.where(won == 1, scale // np.maximum(winners, 1)[:, None], 0)
    values: dict[str, npt.NDArray[Any]] = {
        "games": np.ones(len(won), dtype=np.int64),
        "rounds": rounds,
        "no_winner": winners == 0,
        "shared": winners > 1,
        **{f"end.{reason}": end == i for i, reason in enumerate(reasons)},
        **{f"won.{s}": won[:, s] for s in range(players)},
        **{f"credit.{s}": credit[:, s] for s in range(players)},
        "first_seat": credit[np.arange(len(won)), 0 if first is None else first] + np.where(winners == 0, scale // 2, 0),
    }
    for name in set(bots):
        values[f"bot.{name}"] = won[:, [s for s, bot in enumerate(bots) if bot == name]].sum(axis=1)
    return values


def outcome_statistics(columns: Sequence[str], players: int, bots: tuple[str, ...], reasons: Sequence[str]) -> list[Statistic]:
    """The outcome figures of ``summary.json`` that are per game, as paired statistics on ``columns``."""
    at = {name: i for i, name in enumerate(columns)}
    games = at["games"]
    scale = credit_scale(players)

    def per_game(column: str, scale_: float = 1.0) -> Callable[[Any], float]:
        return ratio(at[column], games, scale_)

    credits = [at[f"credit.{seat}"] for seat in range(players)]

    def balance(arm: Any) -> float:
        rates = [arm[c] / scale for c in credits]
        return 1 - (max(rates) - min(rates)) if arm[games] else math.nan

    names = sorted(set(bots))
    return [
        *(Statistic(f"wins.by_seat.{seat}.rate", per_game(f"won.{seat}"), True) for seat in range(players)),
        *(Statistic(f"wins.by_bot.{name}.rate", per_game(f"bot.{name}", bots.count(name)), True) for name in names),
        Statistic("wins.no_winner.rate", per_game("no_winner"), True),
        Statistic("wins.shared.rate", per_game("shared"), True),
        Statistic("balance", balance, tested=False),  # a maximum minus a minimum: no interval by the delta method
        Statistic("first_seat_advantage", per_game("first_seat", scale), True),
        *(Statistic(f"end_reasons.{reason}.rate", per_game(f"end.{reason}"), True) for reason in reasons),
        Statistic("rounds.mean", per_game("rounds")),
    ]


@dataclass(frozen=True)
class TableMeasure:
    """The per-game values behind the figures of ``simulate`` (picklable: it goes to the workers).

    ``values(result, bots)`` gives one game's values that are not zero; ``block_values(block, bots)`` the same for a
    batch engine's block, as arrays (one entry a game).
    """

    bots: tuple[str, ...]
    columns: tuple[str, ...]
    values: Callable[[Any, tuple[str, ...]], Mapping[str, int]]
    block_values: Callable[[Any, tuple[str, ...]], Mapping[str, npt.NDArray[Any]]] | None = None

    def __call__(self, arm: int, result: Any, index: int) -> list[int]:
        values = self.values(result, self.bots)
        if not values.keys() <= set(self.columns):  # a value without a column would be lost without a word
            raise ValueError(f"no column for {sorted(values.keys() - set(self.columns))}")
        return [values.get(name, 0) for name in self.columns]  # a count that stayed at zero is absent

    def rows(self, arm: int, block: Any, first: int) -> npt.NDArray[np.int64]:
        """The values of every game of a batch engine's block, in the columns (one row a game)."""
        assert self.block_values is not None, "a family with a batch engine gives its block values"
        values = self.block_values(block, self.bots)
        zero = np.zeros(len(block), dtype=np.int64)
        return np.stack([np.asarray(values.get(name, zero), dtype=np.int64) for name in self.columns], axis=1)


def table_measure(
    players: int,
    bots: tuple[str, ...],
    reasons: Sequence[str],
    columns: Sequence[str],
    statistics: Callable[[Mapping[str, int]], list[Statistic]],
    values: Callable[[Any, tuple[str, ...]], Mapping[str, int]],
    block_values: Callable[[Any, tuple[str, ...]], Mapping[str, npt.NDArray[Any]]] | None,
    words: Callable[[str], str],
) -> Measure:
    """The figures of ``simulate`` that are per game, as paired statistics named by their ``summary.json`` paths:
    the outcome's, then the family's ``columns`` and ``statistics(at)`` (``at``: column name -> index), every figure
    labelled by ``words``."""
    all_columns = (*outcome_columns(players, bots, reasons), *columns)
    at = {name: i for i, name in enumerate(all_columns)}
    stats = [*outcome_statistics(all_columns, players, bots, reasons), *statistics(at)]
    named = tuple(replace(statistic, label=words(statistic.name)) for statistic in stats)
    measure = TableMeasure(bots, all_columns, values, block_values)
    return Measure(all_columns, measure, named, measure.rows if block_values is not None else None)


@dataclass
class GameTally:
    """The frame of a family's tally: the outcome of every game (:class:`Outcomes`) and the game's own counters,
    summed (``counted``: the attributes of a finished game a run adds up); integer counts only, so merging the
    chunks of a run in any order gives the same summary. A family adds its own figures in ``add`` and ``merge``."""

    #: The counters of a finished game a run adds up, by attribute name.
    counted: ClassVar[tuple[str, ...]] = ()

    players: int
    bots: tuple[str, ...]
    outcomes: Outcomes = field(init=False)  #: wins, end reasons and game lengths
    counts: dict[str, int] = field(init=False)  #: each counter summed over the games

    def __post_init__(self) -> None:
        self.outcomes = Outcomes(self.players, self.bots)
        self.counts = dict.fromkeys(self.counted, 0)

    @property
    def games(self) -> int:
        """Games counted."""
        return self.outcomes.games

    def count(self, game: Any, length: int) -> None:
        """Count a finished game: its outcome (``length`` in the family's unit) and its counters."""
        self.outcomes.add(game.winners, game.end_reason, length, game.first_player)
        for name in self.counted:
            self.counts[name] += getattr(game, name)

    def merge(self, other: Self) -> None:
        """Add another tally of the same run."""
        self.outcomes.merge(other.outcomes)
        for name in self.counted:
            self.counts[name] += other.counts[name]


def per(at: Mapping[str, int], total: str = "games") -> Callable[[str], Callable[[Any], float]]:
    """A column's sum per another's (``total``: per game by default), as a paired statistic's value: for a family's
    ``table_measure``, ``per(at)("captures")`` is captures per game."""

    def of(column: str) -> Callable[[Any], float]:
        return ratio(at[column], at[total])

    return of


#: How the start of an outcome figure's path reads.
OUTCOME_WORDS: tuple[tuple[str, str], ...] = (
    ("wins.by_seat.", "win rate, seat "),
    ("wins.by_bot.", "win rate, "),
    ("wins.", ""),
    ("end_reasons.", "ends: "),
)


def label(name: str, prefixes: Sequence[tuple[str, str]] = (), labels: Mapping[str, str] | None = None) -> str:
    """A figure's dotted path in words: ``labels`` by whole path first, then the first matching prefix of the
    outcome's and the family's ``prefixes``; the rest is shown with spaces for dots and underscores.

    >>> label("wins.by_seat.0.rate"), label("rounds.mean"), label("cards.dagger.bought_per_game", [("cards.", "")])
    ('win rate, seat 0', 'rounds', 'dagger bought per game')
    """
    if labels and name in labels:
        return labels[name]
    text = name.removesuffix(".rate").removesuffix(".mean")
    for prefix, words in (*OUTCOME_WORDS, *prefixes):
        if text.startswith(prefix):
            text = words + text[len(prefix) :]
            break
    return text.replace(".", " ").replace("_", " ")


@dataclass(frozen=True)
class Labels:
    """A family's figures in words (see :func:`label`): how the start of a path reads after the outcome's (the first
    match wins), and the figures whose words are not their path's.

    >>> Labels((("turns.", "turns "),), {"rounds.mean": "game length"})("turns.passed.rate")
    'turns passed'
    """

    prefixes: tuple[tuple[str, str], ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, name: str) -> str:
        return label(name, self.prefixes, self.labels)
