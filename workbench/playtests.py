"""People against bots: the figures of games played at a table beside the bots' on the same variant. Family-agnostic.

``workbench playtests VARIANT LOG...`` reads scenario scripts of the variant (entered with ``workbench record``, or
any others, those ``simulate --record-scenarios`` writes included), replays each, and measures the finished games
with the family's per-game figures (those of ``simulate``: length, wins by seat, guide shares, cards bought,
eliminations, games nobody wins, ...). The bots play ``games`` games of each player count the logs hold, and every
figure of the people's games is set beside theirs.

A few dozen games at a table are a small sample, and the intervals say so: a rate that is a yes or no per game
(a seat won, nobody won, somebody was eliminated) gets its Wilson interval and an exact binomial test against the
bots' rate; any other figure a Student t interval from the spread of the people's games, and a t test of the
difference against how much the bots' games spread (were people playing like the bots, their games would spread as
the bots' do). Holm's correction over every figure tested keeps the chance of naming one difference that is not
there at 5 % in all. The figures where people and bots differ come first; for the others, how many more games at a
table would tell, if people went on playing as they did.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from workbench import GENERATOR
from workbench.errors import ScenarioError, UsageError, display_path
from workbench.games import Family, Loaded, load_scenario
from workbench.loading import Document
from workbench.outputs import sha256_of
from workbench.render import counted
from workbench.runs import (
    Notice,
    Progress,
    RunOptions,
    VariantLike,
    as_loaded,
    bot_names,
    check_run,
    choose_engine,
    job,
    plan,
)
from workbench.sim.paired import Measure, PairedFactory, Statistic, Sums, estimate
from workbench.sim.runner import LOCAL, Backend, Stop
from workbench.sim.stats import wilson

#: Family-wise error rate of the calls that people and bots differ (Holm's correction over every figure tested).
ALPHA = 0.05
#: Figures of the bots themselves, which say nothing of people: left out.
BOTS_ONLY = ("wins.by_bot.",)


@dataclass(frozen=True)
class Log:
    """One scenario script read as a game people played: where it is, its table, and the game as replayed."""

    path: Path
    doc: Document
    players: int
    finished: bool
    result: Any  #: the finished game as the family's per-game measure reads it


@dataclass(frozen=True)
class Figure:
    """One figure at one player count: the people's value and interval, the bots', and the test of the difference."""

    name: str  #: as in ``summary.json``
    label: str
    percent: bool
    people: float
    low: float  #: the people's 95 % interval (NaN when it cannot be had: one game, or no spread)
    high: float
    bots: float
    method: str  #: how the people's interval and the test were made
    p: float = math.nan  #: two-sided p-value of "people play like the bots" on this figure (NaN: not tested)
    adjusted: float = math.nan  #: Holm-adjusted
    games_to_tell: int | None = None  #: for a difference not shown: games at a table (in all) that would show it
    z: float = math.nan  #: the difference seen, in standard errors of a table of people playing like the bots

    @property
    def differs(self) -> bool:
        return self.adjusted <= ALPHA

    def to_dict(self) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return round(x, 6) if math.isfinite(x) else None

        return {
            "name": self.name,
            "label": self.label,
            "percent": self.percent,
            "people": {"value": finite(self.people), "low": finite(self.low), "high": finite(self.high)},
            "bots": finite(self.bots),
            "difference": finite(self.people - self.bots),
            "method": self.method,
            "p": finite(self.p),
            "p_adjusted": finite(self.adjusted),
            "differs": self.differs,
            "games_to_tell": self.games_to_tell,
        }


@dataclass(frozen=True)
class Table:
    """The games of one player count: how many of each, and every figure."""

    players: int
    people_games: int
    bot_games: int
    interrupted: bool
    figures: list[Figure]

    @property
    def differing(self) -> list[Figure]:
        return sorted((f for f in self.figures if f.differs), key=lambda f: f.adjusted)

    def ordered(self) -> list[Figure]:
        """The figures where people and bots differ first (the clearest first), then the others in the usual order."""
        return [*self.differing, *(f for f in self.figures if not f.differs)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "people_games": self.people_games,
            "bot_games": self.bot_games,
            "interrupted": self.interrupted,
            "differing": [f.name for f in self.differing],
            "figures": [f.to_dict() for f in self.ordered()],
        }


@dataclass(frozen=True)
class Playtests:
    """People's games beside the bots': every player count of the logs."""

    family: Family
    variant: dict[str, Any]
    logs: list[str]
    unfinished: list[str]  #: logs of games stopped before their end: left out of the figures
    bots: list[str]
    seed: int
    engine: str
    tables: list[Table]
    written: list[Path]
    interrupted: bool = False  #: whether a stop cut the bots' games short (a table with fewer games, or none)

    @property
    def tests(self) -> int:
        return sum(math.isfinite(f.p) for t in self.tables for f in t.figures)

    def to_dict(self) -> dict[str, Any]:
        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "variant": self.variant,
            "logs": self.logs,
            "unfinished": self.unfinished,
            "bots": self.bots,
            "seed": self.seed,
            "engine": self.engine,
            "correction": {
                "method": "holm",
                "alpha": ALPHA,
                "tests": self.tests,
                "about": (
                    f"Holm-Bonferroni over every figure tested ({self.tests}), family-wise error rate {ALPHA:.0%}: "
                    "a figure is said to differ when it survives it"
                ),
            },
            "tables": [t.to_dict() for t in self.tables],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def terminal_tables(self, every: bool = False) -> list[tuple[str, list[str], list[list[str]]]]:
        """(title, headers, rows) per player count: the figures where people and bots differ (``every``: all)."""
        from workbench.render.pages import interval, number, p_value

        out = []
        for table in self.tables:
            title = (
                f"{table.players} players: {counted(table.people_games, 'game')} at the table against {table.bot_games:,} games of "
                f"{', '.join(self.bots)} bots" + (" (interrupted)" if table.interrupted else "")
            )
            shown = table.ordered() if every else table.differing
            rows = [
                [
                    f.label,
                    number(f.people, f.percent),
                    interval(f.low, f.high, f.percent) if math.isfinite(f.low) else "–",
                    number(f.bots, f.percent),
                    number(f.people - f.bots, f.percent, signed=True),
                    p_value(f.adjusted),
                ]
                for f in shown
            ]
            out.append((title, ["figure", "people", "95 % interval", "bots", "difference", "p (Holm)"], rows))
        return out

    def lines(self) -> list[str]:
        """What the terminal says after the tables: what was left out, and what more games would tell."""
        said = []
        if self.unfinished:
            said.append(f"left out: {len(self.unfinished)} unfinished game(s) ({', '.join(self.unfinished)})")
        for table in self.tables:
            close = sorted((f for f in table.figures if f.games_to_tell), key=lambda f: f.games_to_tell or 0)[:3]
            if close:
                tell = "; ".join(f"{f.label}: about {f.games_to_tell:,}" for f in close)
                said.append(
                    f"{table.players} players, too few games to tell yet, the closest calls (games at a table in all that "
                    f"would show the difference seen, were it real): {tell}"
                )
        return said

    def report(self) -> str:
        """``playtests.html``."""
        from workbench.render.pages import render_playtests

        return render_playtests(self.to_dict(), self.family.title)


def read_logs(loaded: Loaded, paths: Sequence[str | os.PathLike[str]]) -> list[Log]:
    """Every log replayed, each checked to be a game of ``loaded``'s variant (a problem names the file and line)."""
    if not paths:
        raise UsageError("logs", "name at least one recorded game (a scenario script of the variant)")
    family = loaded.family
    logs: list[Log] = []
    read: dict[Path | str, Path] = {}  #: each log's resolved path and its content's digest, to its path
    for given in map(Path, paths):
        digest = sha256_of(given) if given.is_file() else None
        for key in (given.resolve(), digest):
            if key is not None and key in read:
                raise UsageError(
                    "logs", f"this is the same game as {display_path(read[key])}: name each game once", display_path(given)
                )
        read[given.resolve()] = given
        if digest is not None:
            read[digest] = given
        found = load_scenario(given)
        if found is None:
            raise UsageError("logs", "this is a variant file, not a recorded game", display_path(given))
        doc, played = found
        if played.family is not family or played.variant != loaded.variant:
            what = display_path(loaded.path) if loaded.path else repr(loaded.variant.name)
            raise ScenarioError([doc.problem(("variant",), f"this game was played on another variant than {what}")])
        players, finished, result = family.played(doc, played.variant)
        logs.append(Log(given, doc, players, finished, result))
    return logs


def playtests(
    variant: VariantLike,
    logs: Sequence[str | os.PathLike[str]],
    *,
    games: int = 2000,
    seed: int = 1,
    bots: str | Sequence[str] | None = None,
    personas: str | os.PathLike[str] | None = None,
    backend: Backend = LOCAL,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    engine: str = "auto",
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Playtests:
    """The people's games in ``logs`` beside ``games`` games of ``bots`` (the family's default bot) at each of their
    player counts; ``out`` gets ``playtests.json`` and ``playtests.html``. A stop keeps the bots' games that finished."""
    check_run(games)
    loaded, path = as_loaded(variant)
    played = read_logs(loaded, logs)
    finished = [log for log in played if log.finished]
    if not finished:
        stopped = ", ".join(display_path(log.path) for log in played)
        raise UsageError("logs", f"none of these games was played to its end ({stopped}): there is nothing to compare yet")
    counts = sorted({log.players for log in finished})
    table_plan = plan(loaded, counts, bots, personas)
    family = loaded.family
    choice = choose_engine(family, [(loaded.variant, table_plan.seated)], engine)
    options = RunOptions(backend, engine, force, create_out, progress, notice, stop, yes)
    inputs = [*table_plan.inputs, *(log.path for log in played)]
    with job(family, choice, options, inputs) as work:
        targets = work.out_files(out, "playtests.json", "playtests.html")
        tables: list[Table] = []
        with work.running():
            for count in work.each(counts):
                seats = table_plan.tables[count]
                measure = family.table_measure([loaded.variant], count, seats)
                people = [measure.measure(0, log.result, index) for index, log in enumerate(finished) if log.players == count]
                arm = family.simulator(loaded.variant, count, seats, table_plan.known, seed, engine=work.engine)
                tally, interrupted, _ = work.play_paired(PairedFactory.of((arm,), measure), games, f"{count} players")
                if tally.games:
                    tables.append(_table(count, measure, people, tally.sums, interrupted))
            result = Playtests(
                family,
                {"name": loaded.variant.name, "file": display_path(path) if path else None},
                [display_path(log.path) for log in finished],
                [display_path(log.path) for log in played if not log.finished],
                bot_names(table_plan.tables[counts[0]]),
                seed,
                work.engine,
                _corrected(tables),
                [],
                any(t.interrupted for t in tables) or len(tables) < len(counts),
            )
            if not tables:
                return result
            written = work.commit(
                {targets[0]: result.to_json(), targets[1]: result.report()} if targets else {}, interrupted=result.interrupted
            )
    return replace(result, written=written)


def _table(count: int, measure: Measure, rows: list[list[int]], bots: Sums, interrupted: bool) -> Table:
    people = Sums(len(measure.columns))
    for row in rows:
        people.add(row)
    figures = [
        _figure(statistic, rows, people, bots) for statistic in measure.statistics if not statistic.name.startswith(BOTS_ONLY)
    ]
    return Table(count, people.n, bots.n, interrupted, figures)


def _figure(statistic: Statistic, rows: list[list[int]], people: Sums, bots: Sums) -> Figure:
    """One figure: the people's value and interval, the bots', and the test of people playing like the bots."""
    from scipy import stats

    n = people.n
    ours = estimate(people, 1, lambda means: statistic.of(means[0]))
    theirs = estimate(bots, 1, lambda means: statistic.of(means[0]))
    shown = Figure(statistic.name, statistic.label, statistic.percent, ours.value, math.nan, math.nan, theirs.value, "")
    if not (math.isfinite(ours.value) and math.isfinite(theirs.value)) or not statistic.tested:
        return replace(shown, method="not tested: " + ("no value" if statistic.tested else "a maximum minus a minimum"))
    each = [statistic.of(np.array(row, dtype=np.float64)) for row in rows]
    if statistic.percent and all(value in (0.0, 1.0) for value in each):  # a yes or no per game
        successes = round(sum(each))
        low, high = wilson(successes, n)
        if theirs.value in (0.0, 1.0) and successes == round(theirs.value * n):
            return replace(shown, low=low, high=high, method="not tested: the same in every game, people's and bots'")
        p = stats.binomtest(successes, n, theirs.value).pvalue if 0 < theirs.value < 1 else 0.0
        spread = math.sqrt(theirs.value * (1 - theirs.value) / n)
        figure = replace(shown, low=low, high=high, method="Wilson interval; exact binomial test", p=float(p))
    else:
        t = float(stats.t.ppf(0.975, n - 1)) if n > 1 else math.nan
        low, high = (ours.value - t * ours.se, ours.value + t * ours.se) if n > 1 and math.isfinite(ours.se) else (math.nan,) * 2
        if min(each) >= 0:  # a count or a share cannot be negative: the interval stops at 0
            low = max(0.0, low)
        # were people playing like the bots, their games would spread as the bots' do: the bots' spread, scaled
        spread = theirs.se * math.sqrt(bots.n / n + 1) if math.isfinite(theirs.se) else math.nan
        if not (math.isfinite(spread) and n > 1):
            return replace(shown, low=low, high=high, method="not tested: too few games")
        if spread == 0:
            p = 1.0 if ours.value == theirs.value else 0.0
        else:
            p = float(2 * stats.t.sf(abs(ours.value - theirs.value) / spread, n - 1))
        figure = replace(shown, low=low, high=high, method="Student t interval; t test against the bots' spread", p=p)
    return replace(figure, z=abs(ours.value - theirs.value) / spread if spread > 0 else math.inf)


def _games_to_tell(seen: float, n: int, tests: int) -> int | None:
    """Games at a table (in all) that would show a difference of ``seen`` standard errors at ``n`` games, were it
    real: 80 % of the time, surviving Holm's correction over ``tests`` tests (at worst its first, Bonferroni's level).
    A difference's z grows as the square root of the games; None when none was seen."""
    from scipy.stats import norm

    if not seen > 0 or not math.isfinite(seen):
        return None
    needed = float(norm.isf(ALPHA / (2 * tests))) + float(norm.isf(0.2))
    return max(n + 1, math.ceil(n * (needed / seen) ** 2))


def _corrected(tables: list[Table]) -> list[Table]:
    from workbench.sim.paired import holm

    flat = [f.p for t in tables for f in t.figures]
    tested = [p for p in flat if math.isfinite(p)]
    adjusted = iter(holm(tested))
    out = []
    for t in tables:
        figures = [replace(f, adjusted=next(adjusted)) if math.isfinite(f.p) else f for f in t.figures]
        figures = [
            replace(f, games_to_tell=_games_to_tell(f.z, t.people_games, len(tested)))
            if not f.differs and math.isfinite(f.p)
            else f
            for f in figures
        ]
        out.append(replace(t, figures=figures))
    return out
