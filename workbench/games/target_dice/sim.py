"""Target dice in bulk: one seeded game per index, and the tally of what the rules did.

Game ``i`` of a run with seed ``S`` draws its dice and cards from ``stream(S, i,
"chance", point)``, one stream per named point, and each bot from ``stream(S, i, "bot",
seat)``: any split of the run over workers plays the very same games, and two arms of a
paired run roll the same dice for as long as their games agree. The tally keeps
integer counts only, so merging chunks in any order gives the same summary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.games.base import RunFrame
from workbench.games.target_dice.chance import RandomChance
from workbench.games.target_dice.engine import END_REASONS, Game, compile_variant
from workbench.games.target_dice.record import script
from workbench.games.target_dice.schema import SPECIALS
from workbench.sim import outcome
from workbench.sim.outcome import GameTally, game_values, maybe, per
from workbench.sim.paired import Measure, Statistic, ratio
from workbench.sim.stats import Moments, rate


@dataclass(frozen=True)
class Result:
    """One finished game: its record (one line of ``--records``) and the game."""

    record: dict[str, Any]
    game: Game
    script: tuple[str, str] | None = None


class Simulator(RunFrame):
    """Plays game ``index`` of a run; ``visitor`` plays seat ``index % players`` instead of that seat's bot."""

    game = "target-dice"
    compile = staticmethod(compile_variant)

    def play(self, index: int) -> Result:
        """Play one game with its own chance and bot streams (and record it as a scenario when asked)."""
        bots = self.deciders(index)
        game = Game(self.rules, self.players, RandomChance.streams(self.seed, index), log=self.record is not None)
        game.play(bots)
        scripted = self.recorded(index, lambda path, description: script(game, path, description=description))
        record = {
            **outcome.record(index, self.seed, self.bots, game.winners, game.end_reason, game.round),
            "start": game.first_player,
            "scores": list(game.scores),
        }
        return Result(record, game, scripted)

    def new_tally(self) -> Tally:
        """An empty tally for this run."""
        return Tally(self.players, self.bots)


#: Counts kept per game, by name: the engine's counters a run adds up.
COUNTS = ("hits", "held", "scoreless", "last_scored", "points_scored", "points_lost", "lead_changes", "turns", "passes")


@dataclass
class Tally(GameTally):
    """Everything the summary reports, as mergeable integer counts."""

    counted = COUNTS

    points_scored: Moments = field(default_factory=Moments)  #: per game, all players
    points_lost: Moments = field(default_factory=Moments)
    lead_changes: Moments = field(default_factory=Moments)
    winning_score: Moments = field(default_factory=Moments)  #: per game with a winner
    specials: dict[str, list[int]] = field(default_factory=lambda: {c: [0, 0, 0] for c in SPECIALS})  #: drawn, offered, used

    def add(self, result: Result) -> None:
        """Count one game."""
        game = result.game
        self.count(game, game.round)
        self.points_scored.add(game.points_scored)
        self.points_lost.add(game.points_lost)
        self.lead_changes.add(game.lead_changes)
        if game.winners:
            self.winning_score.add(game.scores[game.winners[0]])
        for i, colour in enumerate(SPECIALS):
            row = self.specials[colour]
            row[0] += game.specials_drawn[i]
            row[1] += game.specials_offered[i]
            row[2] += game.specials_used[i]

    def merge(self, other: Tally) -> None:
        """Add another tally of the same run."""
        super().merge(other)
        for mine, theirs in (
            (self.points_scored, other.points_scored),
            (self.points_lost, other.points_lost),
            (self.lead_changes, other.lead_changes),
            (self.winning_score, other.winning_score),
        ):
            mine.merge(theirs)
        for colour, row in other.specials.items():
            self.specials[colour] = [a + b for a, b in zip(self.specials[colour], row)]

    def summary(self) -> dict[str, Any]:
        """Every figure, with its uncertainty, as plain data (the body of ``summary.json``).

        Shares of rounds take the rounds as independent trials (a game's rounds are not quite): their intervals are
        a little narrow. ``compare`` measures them per game, with intervals that do not assume it.
        """
        c = self.counts
        total = sum(value * games for value, games in self.outcomes.rounds.counts.items())  # rounds played
        decisions = c["turns"] + c["passes"]
        return {
            **self.outcomes.summary(),
            "round_ends": {
                "hit": rate(c["hits"], total),
                "held": rate(c["held"], total),
                "scoreless": rate(c["scoreless"], total),
            },
            "last_player_scored": rate(c["last_scored"], total),
            "points": {
                "per_round": maybe(c["points_scored"] / total if total else None),
                "scored_per_game": self.points_scored.report(),
                "lost_per_game": self.points_lost.report(),
                "winning_score": self.winning_score.report(),
            },
            "lead_changes_per_game": self.lead_changes.report(),
            "turns": {"rolled": rate(c["turns"], decisions), "passed": rate(c["passes"], decisions)},
            "specials": {
                colour: {"drawn": drawn, "offered": offered, "used": rate(used, offered)}
                for colour, (drawn, offered, used) in self.specials.items()
            },
        }


# --- what a game measures, for paired runs (compare, skill) -----------------------------------------------------


def table_values(result: Result, bots: tuple[str, ...]) -> dict[str, int]:
    """One game's values: the columns of :func:`table_measure` that are not zero."""
    game = result.game
    values = game_values(game, game.round, bots, COUNTS)
    values["decisions"] = game.turns + game.passes
    return values


def table_measure(players: int, bots: tuple[str, ...]) -> Measure:
    """The figures of ``simulate`` that are per game, as paired statistics named by their ``summary.json`` paths."""

    def statistics(at: Mapping[str, int]) -> list[Statistic]:
        per_round = per(at, "rounds")
        per_game = per(at)

        return [
            Statistic("round_ends.hit.rate", per_round("hits"), True),
            Statistic("round_ends.held.rate", per_round("held"), True),
            Statistic("round_ends.scoreless.rate", per_round("scoreless"), True),
            Statistic("last_player_scored.rate", per_round("last_scored"), True),
            Statistic("points.per_round", per_round("points_scored")),
            Statistic("points.scored_per_game.mean", per_game("points_scored")),
            Statistic("points.lost_per_game.mean", per_game("points_lost")),
            Statistic("lead_changes_per_game.mean", per_game("lead_changes")),
            Statistic("turns.passed.rate", ratio(at["passes"], at["decisions"]), True),
        ]

    return outcome.table_measure(players, bots, END_REASONS, (*COUNTS, "decisions"), statistics, table_values, None, label)


#: The figures in words: how the start of a path reads (after the outcome's), and the figures whose words are not
#: their path's.
label = outcome.Labels(
    prefixes=(
        ("round_ends.", "rounds ending: "),
        ("points.", "points "),
        ("turns.", "turns "),
    ),
    labels={
        "round_ends.hit.rate": "rounds ending in a HIT",
        "round_ends.held.rate": "rounds scored by the holder of the last valid roll",
        "round_ends.scoreless.rate": "rounds nobody scores",
        "last_player_scored.rate": "rounds the last player in turn order scores",
        "lead_changes_per_game.mean": "lead changes per game",
    },
)


def seat_measure(arm: int, result: Result, index: int) -> list[int]:
    """The seat ``index % players`` of game ``index``: whether it won (alone or tied) and its score at the end."""
    game = result.game
    seat = index % len(game.scores)
    return [1, seat in game.winners, game.scores[seat]]


#: The visited seat's result: its win rate (a tied win counts) and its score at the end.
SEAT_MEASURE = Measure(
    ("games", "won", "score"),
    seat_measure,
    (Statistic("win_rate", ratio(1, 0), True), Statistic("score", ratio(2, 0))),
)
