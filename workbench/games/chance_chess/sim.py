"""Chance Chess in bulk: one seeded game per index, and the tally of what the rules did.

Game ``i`` of a run with seed ``S`` shuffles from ``stream(S, i, "chance", point)``, one stream per named point, and
each bot draws from ``stream(S, i, "bot", seat)``: any split of the run over workers plays the very same games, and two
decks of a paired run are dealt from the same shuffle stream. The tally keeps integer counts only, so merging chunks in
any order gives the same summary. The game's length (``rounds`` in the shared figures) is counted in plies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.games.base import RunFrame
from workbench.games.chance_chess.engine import END_REASONS, Game, RandomChance, compile_variant
from workbench.games.chance_chess.notation import pgn
from workbench.games.chance_chess.record import script
from workbench.games.chance_chess.schema import CARDS, SIDES
from workbench.sim import outcome
from workbench.sim.outcome import GameTally, game_values, per
from workbench.sim.paired import Measure, Statistic, ratio
from workbench.sim.stats import Moments, rate


@dataclass(frozen=True)
class Result:
    """One finished game: its record (one line of ``--records``), the game, and when asked its scenario script and
    its PGN."""

    record: dict[str, Any]
    game: Game
    script: tuple[str, str] | None = None
    notation: str | None = None


class Simulator(RunFrame):
    """Plays game ``index`` of a run; ``visitor`` plays seat ``index % 2`` instead of that seat's bot."""

    game = "chance-chess"
    compile = staticmethod(compile_variant)

    def play(self, index: int) -> Result:
        """Play one game with its own chance and bot streams (and record it when asked)."""
        bots = self.deciders(index)
        game = Game(self.rules, RandomChance.streams(self.seed, index), log=self.record is not None or self.notation)
        game.play(bots)
        scripted = self.recorded(index, lambda path, description: script(game, path, description=description))
        notation = None
        if self.notation:
            names = [f"{name} (bot)" for name in self.bots]
            notation = pgn(game.snapshot(), event=self.variant_name, round_=f"{index}", names=names, seed=self.seed)
        record = {
            **outcome.record(index, self.seed, self.bots, game.winners, game.end_reason, game.ply),
            "winner": SIDES[game.winners[0]] if game.winners else None,
            "fen": game.board.fen(),
        }
        return Result(record, game, scripted, notation)

    def new_tally(self) -> Tally:
        """An empty tally for this run."""
        return Tally(self.players, self.bots)


#: Counts kept per game, by name: the engine's counters a run adds up.
COUNTS = (
    "moves",
    "chosen_passes",
    "forced_passes",
    "free_moves",
    "free_then_capture",
    "captures",
    "checks",
    "promotions",
    "castlings",
    "en_passants",
    "reshuffles",
    "turnovers",
    "mate_after_free",
)


@dataclass
class Tally(GameTally):
    """Everything the summary reports, as mergeable integer counts."""

    counted = COUNTS

    free_moves: Moments = field(default_factory=Moments)  #: per game
    reshuffles: Moments = field(default_factory=Moments)  #: per game
    drawn: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CARDS, 0))  #: cards drawn, by kind

    def add(self, result: Result) -> None:
        """Count one game."""
        game = result.game
        self.count(game, game.ply)
        self.free_moves.add(game.free_moves)
        self.reshuffles.add(game.reshuffles)
        for card, n in game.drawn.items():
            self.drawn[card] += n

    def merge(self, other: Tally) -> None:
        """Add another tally of the same run."""
        super().merge(other)
        self.free_moves.merge(other.free_moves)
        self.reshuffles.merge(other.reshuffles)
        for card, n in other.drawn.items():
            self.drawn[card] += n

    def summary(self) -> dict[str, Any]:
        """Every figure, with its uncertainty, as plain data (the body of ``summary.json``).

        Shares of turns take the turns as independent trials (a game's turns are not quite): their intervals are a
        little narrow. ``compare`` measures them per game, with intervals that do not assume it.
        """
        c = self.counts
        games = self.games
        turns = c["moves"] + c["chosen_passes"] + c["forced_passes"]
        return {
            **self.outcomes.summary(),  # white's and black's wins are those of seats 0 and 1; a draw has no winner
            "turns": {
                "moved": rate(c["moves"], turns),
                "passed_by_choice": rate(c["chosen_passes"], turns),
                "passed_forced": rate(c["forced_passes"], turns),
            },
            "free_moves": {
                "per_game": self.free_moves.report(),
                "followed_by_capture": rate(c["free_then_capture"], c["free_moves"]),
                "decided_the_game": rate(c["mate_after_free"], games),
            },
            "reshuffles_per_game": self.reshuffles.report(),
            "per_game": {
                name: c[name] / games if games else None
                for name in ("captures", "checks", "promotions", "castlings", "en_passants", "turnovers")
            },
            "cards_drawn": dict(self.drawn),
        }


# --- what a game measures, for paired runs (compare, skill) -----------------------------------------------------


def table_values(result: Result, bots: tuple[str, ...]) -> dict[str, int]:
    """One game's values: the columns of :func:`table_measure` that are not zero."""
    game = result.game
    values = game_values(game, game.ply, bots, COUNTS)
    values["turns"] = game.moves + game.passes
    return values


def table_measure(players: int, bots: tuple[str, ...]) -> Measure:
    """The figures of ``simulate`` that are per game, as paired statistics named by their ``summary.json`` paths."""

    def statistics(at: Mapping[str, int]) -> list[Statistic]:
        per_game = per(at)

        return [
            Statistic("turns.passed_by_choice.rate", ratio(at["chosen_passes"], at["turns"]), True),
            Statistic("turns.passed_forced.rate", ratio(at["forced_passes"], at["turns"]), True),
            Statistic("free_moves.per_game.mean", per_game("free_moves")),
            Statistic("free_moves.followed_by_capture.rate", ratio(at["free_then_capture"], at["free_moves"]), True),
            Statistic("free_moves.decided_the_game.rate", per_game("mate_after_free"), True),
            Statistic("reshuffles_per_game.mean", per_game("reshuffles")),
            Statistic("per_game.captures", per_game("captures")),
            Statistic("per_game.checks", per_game("checks")),
        ]

    return outcome.table_measure(players, bots, END_REASONS, (*COUNTS, "turns"), statistics, table_values, None, label)


#: The figures in words: how the start of a path reads (after the outcome's), and the figures whose words are not
#: their path's.
label = outcome.Labels(
    prefixes=(("turns.", "turns "), ("per_game.", "")),
    labels={
        "rounds.mean": "game length, plies",
        "wins.by_seat.0.rate": "white wins",
        "wins.by_seat.1.rate": "black wins",
        "wins.no_winner.rate": "draws",
        "turns.passed_by_choice.rate": "turns passed by choice",
        "turns.passed_forced.rate": "turns passed for want of a move",
        "free_moves.per_game.mean": "free moves per game",
        "free_moves.followed_by_capture.rate": "free moves followed by a capture",
        "free_moves.decided_the_game.rate": "games mated on the turn after the winner's free move",
        "reshuffles_per_game.mean": "reshuffles per game",
        "per_game.captures": "captures per game",
        "per_game.checks": "checks per game",
    },
)


def seat_measure(arm: int, result: Result, index: int) -> list[int]:
    """The seat ``index % 2`` of game ``index``: whether it won and whether the game was drawn."""
    game = result.game
    seat = index % 2
    return [1, seat in game.winners, not game.winners]


#: The visited seat's result: its win rate and the draw rate.
SEAT_MEASURE = Measure(
    ("games", "won", "drawn"),
    seat_measure,
    (Statistic("win_rate", ratio(1, 0), True), Statistic("draw_rate", ratio(2, 0), True)),
)
