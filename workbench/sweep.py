"""Sweeps: one rules idea tried at many values, each on the same games as the variant it changes. Family-agnostic.

A sweep file names a base variant, the values to try (a ``grid`` of axes, each setting
one key of the variant, or a list of ``points``, each with its own settings and
overrides), the player counts, the games and the seed. Every point is played beside the
base variant on the same game indices (paired, as in ``compare``): its figures get 95 %
intervals and its change from the base a paired interval. Each finished point is written
at once to ``<out>/points/``; a sweep run again over the same folder plays only the
points that are missing there (or whose inputs changed), so a stopped sweep resumes.
In a notebook::

    from workbench import sweep
    result = sweep.run_sweep("sweeps/dagger-cost.yaml", out="reports/dagger-cost")
    result.best[4]
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench import GENERATOR
from workbench.errors import UsageError, WorkbenchError, as_named, display_path, players_span
from workbench.fingerprint import code_version
from workbench.games import Family, Loaded
from workbench.loading import Document, did_you_mean
from workbench.outputs import is_ours
from workbench.render.pages import number, render_sweep
from workbench.runs import (
    EngineChoice,
    Job,
    Notice,
    Progress,
    RunOptions,
    bot_names,
    bot_tables,
    check_run,
    choose_engine,
    job,
    plain_persona,
    player_counts,
)
from workbench.sim.paired import Measure, PairedFactory
from workbench.sim.runner import LOCAL, Backend, Stop
from workbench.studies import ComparedRun, compared_run, rounded_p
from workbench.sweep_file import Goal, SweepError, SweepFile, SweepPoint, load_sweep


@contextmanager
def _located(doc: Document) -> Iterator[None]:
    """A refused setting of the plan as a problem at its key in the sweep file (the keys are the parameters' names)."""
    try:
        yield
    except UsageError as exc:
        at = (exc.field,) if exc.field in SweepFile.model_fields else ()
        raise SweepError([doc.problem(at, exc.detail(as_named) if at else exc.text(as_named))]) from None


@dataclass(frozen=True)
class Row:
    """One point at one player count: every figure of the point, of the base variant beside it, and the change."""

    point: str  #: the point's id
    players: int
    games: int
    figures: dict[str, dict[str, Any]]  #: name -> label, percent, value, reference, change (each with its interval)
    reused: bool = False  #: read from an earlier run's file, not played now
    #: The point's notes (``summary.json``'s: the bots' blind spots), for a family whose summaries have them; else None.
    notes: list[dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        noted = {} if self.notes is None else {"notes": self.notes}
        return {"point": self.point, "players": self.players, "games": self.games, "figures": self.figures, **noted}


def _row(point: str, run: ComparedRun) -> Row:
    figures = {
        s.name: {
            "label": s.label,
            "percent": s.percent,
            **s.values[1].report(),
            "reference": s.values[0].report(),
            "change": {**s.differences[0].report(), "p": rounded_p(s.differences[0].p) if s.tested else None},
        }
        for s in run.statistics
    }
    return Row(point, run.players, run.games, figures, notes=run.summaries[1].get("notes"))


@dataclass(frozen=True)
class Best:
    """The best point at one player count by the goal, and the points its interval cannot tell it from."""

    point: str
    value: float
    #: points whose change from the base variant has a 95 % paired interval overlapping the best one's: these games
    #: cannot tell them apart from it (every change is measured on the same games, so the base's luck cancels)
    close: list[str]


def _best(goal: Goal, rows: list[Row]) -> Best | None:
    scored = []
    for row in rows:
        figure = row.figures.get(goal.figure)
        if figure is None or figure["value"] is None:
            continue
        value = figure["value"]
        aims = {"max": value, "min": -value, "base": -abs(figure["change"]["value"] or 0.0)}
        score = aims[goal.aim] if isinstance(goal.aim, str) else -abs(value - goal.aim)
        scored.append((score, row, figure))
    if not scored:
        return None
    _, row, top = max(scored, key=lambda item: item[0])
    low, high = top["change"]["low"], top["change"]["high"]
    close = [
        r.point
        for _, r, f in scored
        if r is not row
        and None not in (low, high, f["change"]["low"], f["change"]["high"])
        and f["change"]["low"] <= high
        and f["change"]["high"] >= low
    ]
    return Best(row.point, top["value"], close)


@dataclass(frozen=True)
class Sweep:
    """What :func:`run_sweep` did: the rows of every finished point and count, the best points and the files written."""

    plan: SweepFile
    path: Path
    family: Family
    base: Loaded
    points: list[SweepPoint]
    counts: list[int]
    bots: list[str]
    engine: str
    rows: list[Row]
    figures: list[str]  #: the figures tabulated and charted
    written: list[Path] = field(default_factory=list)

    @property
    def missing(self) -> list[tuple[str, int]]:
        """(point, players) not finished: a stopped sweep's remainder."""
        done = {(row.point, row.players) for row in self.rows}
        return [(p.id, n) for p in self.points for n in self.counts if (p.id, n) not in done]

    @property
    def interrupted(self) -> bool:
        return bool(self.missing)

    @property
    def best(self) -> dict[int, Best | None]:
        """The best point at each player count (by the goal; none without one)."""
        if self.plan.goal is None:
            return {}
        return {n: _best(self.plan.goal, [row for row in self.rows if row.players == n]) for n in self.counts}

    def to_dict(self) -> dict[str, Any]:
        """The body of ``sweep.json``."""
        plan = self.plan
        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "sweep": plan.name,
            "sweep_file": display_path(self.path),
            "variant": {"name": self.base.variant.name, "file": display_path(self.base.path) if self.base.path else None},
            "players": self.counts,
            "games": plan.games,
            "seed": plan.seed,
            "bots": self.bots,
            "engine": self.engine,
            "axes": [{"name": a.name or a.set, "set": a.set, "values": a.values} for a in plan.grid] if plan.grid else None,
            "goal": plan.goal.model_dump() if plan.goal else None,
            "figures": self.figures,
            "points": [{"id": p.id, "name": p.name, "values": p.values} for p in self.points],
            "table": [
                {**row.to_dict(), "figures": {name: row.figures[name] for name in self.figures if name in row.figures}}
                for row in self.rows
            ],
            "best": {
                str(n): None if best is None else {"point": best.point, "value": best.value, "close": best.close}
                for n, best in self.best.items()
            },
            "missing": [{"point": point, "players": n} for point, n in self.missing],
            "interrupted": self.interrupted,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        """The terminal tables, one per player count: each figure at each point, with its change from the base."""
        names = {p.id: p.name for p in self.points}
        found = []
        for n in self.counts:
            rows = [row for row in self.rows if row.players == n]
            labels = [next((r.figures[f]["label"] for r in rows if f in r.figures), f) for f in self.figures]
            best = self.best.get(n)
            body = []
            for row in rows:
                cells = [names[row.point] + (" (best)" if best is not None and best.point == row.point else "")]
                for name in self.figures:
                    figure = row.figures.get(name)
                    if figure is None:
                        cells.append("")
                        continue
                    value = number(figure["value"], figure["percent"], digits=4)
                    change = number(figure["change"]["value"], figure["percent"], signed=True)
                    cells.append(f"{value} ({change})")
                body.append(cells)
            title = f"{self.plan.name}, {n} players, {self.plan.games:,} games per point: value (change from the base variant)"
            found.append((title, ["point", *labels], body))
        return found


def _key(point: SweepPoint, base: Loaded, players: int, plan: SweepFile, table: tuple[str, ...]) -> str:
    """What a point's result depends on (not the engine: both play the same games): a file whose key differs is
    played again."""
    known = point.loaded.family.personas(point.loaded.variant)
    body = {
        "workbench": code_version(),  # this code: an update that changes it plays every point again
        "game": point.loaded.family.game,
        "variant": point.loaded.variant.model_dump(mode="json"),
        "reference": base.variant.model_dump(mode="json"),
        "players": players,
        "games": plan.games,
        "seed": plan.seed,
        "bots": table,
        "personas": {name: plain_persona(known[name]) for name in dict.fromkeys(table)},
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def _reused(file: Path, key: str) -> Row | None:
    """The row in a point file an earlier run wrote for the same inputs (None: play it)."""
    try:
        if not file.is_file() or not is_ours(file):
            return None
        body = json.loads(file.read_text())
        if body.get("key") != key:
            return None
        return Row(body["point"], body["players"], body["games"], body["figures"], reused=True, notes=body.get("notes"))
    except (OSError, ValueError, KeyError, TypeError):  # unreadable: played again, and the file replaced
        return None


@dataclass(frozen=True)
class _Setup:
    """A sweep checked before any game: its player counts, the bots at each table and what they mean in each
    variant, the engine, and each point's measure at each count."""

    counts: list[int]
    tables: dict[int, tuple[str, ...]]
    known: dict[str, dict[str, Any]]  #: point id -> its bot names' personas
    base_known: dict[str, Any]
    measures: dict[tuple[str, int], Measure]
    figures: list[str]  #: the figures tabulated and charted (the goal's too)
    choice: EngineChoice


def _setup(plan: SweepFile, doc: Document, points: list[SweepPoint], base: Loaded) -> _Setup:
    """Check the sweep's plan against its variants (each problem at its key in the sweep file)."""
    family = base.family
    with _located(doc):
        check_run(plan.games)
        counts = player_counts(base, plan.players, base.path)
    for point in points:
        low, high = family.player_range(point.loaded.variant)
        for n in counts:
            if not low <= n <= high:
                raise SweepError(
                    [doc.problem(("players",), f"{n}: the point {point.name!r} is for {players_span(low, high)} players")]
                )
    known = {p.id: family.personas(p.loaded.variant) for p in points}
    base_known = family.personas(base.variant)
    with _located(doc):
        tables = bot_tables(plan.bots, counts, base_known, family)
        for point in points:
            bot_tables(plan.bots, counts, known[point.id], family)
    measures = {(p.id, n): family.table_measure([base.variant, p.loaded.variant], n, tables[n]) for p in points for n in counts}
    figures = list(dict.fromkeys([*plan.figures, *([plan.goal.figure] if plan.goal else [])]))
    _check_figures(plan, doc, measures.values())
    seated = [
        (v, [table[name] for name in dict.fromkeys(tables[counts[0]])])
        for v, table in [(base.variant, base_known), *((p.loaded.variant, known[p.id]) for p in points)]
    ]
    with _located(doc):
        choice = choose_engine(family, seated, plan.engine)
    return _Setup(counts, tables, known, base_known, measures, figures, choice)


def _check_figures(plan: SweepFile, doc: Document, measures: Any) -> None:
    """The figures and the goal name figures the measures offer; a rate's aim is a share, from 0 to 1."""
    statistics = [s for measure in measures for s in measure.statistics]
    offered = {s.name for s in statistics}
    for i, name in enumerate(plan.figures):
        if name not in offered:
            raise SweepError([doc.problem(("figures", str(i)), f"no figure {name!r}{did_you_mean(name, offered)}")])
    goal = plan.goal
    if goal is None:
        return
    if goal.figure not in offered:
        raise SweepError([doc.problem(("goal", "figure"), f"no figure {goal.figure!r}{did_you_mean(goal.figure, offered)}")])
    rates = {s.name for s in statistics if s.percent}
    if goal.figure in rates and not isinstance(goal.aim, str) and not 0 <= goal.aim <= 1:
        message = f"{goal.figure} is a rate, from 0 to 1: write {goal.aim / 100:g} for {goal.aim:g} %"
        raise SweepError([doc.problem(("goal", "aim"), message)])


def run_sweep(
    path: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    backend: Backend = LOCAL,
    force: bool = False,
    create_out: bool = False,
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Sweep:
    """Play every point of the sweep file ``path`` beside its base variant, on the same games; the table of them.

    ``out`` gets ``sweep.json``, ``sweep.html`` and one file per point and player count in
    ``points/``, written as each finishes. A point whose file is there from an earlier run
    with the same inputs is read, not played again. A stop (SIGINT, SIGTERM, ``stop``)
    keeps the finished points and writes the table of them (marked interrupted).
    """
    path = Path(path)
    plan, doc, points, base = load_sweep(path)
    family = base.family
    setup = _setup(plan, doc, points, base)
    counts, tables, choice = setup.counts, setup.tables, setup.choice
    sweep = Sweep(plan, path, family, base, points, counts, bot_names(tables[counts[0]]), choice.engine, [], setup.figures)
    options = RunOptions(backend, plan.engine, force, create_out, progress, notice, stop, yes)
    inputs = [path, *base.sources, *(s for p in points for s in p.loaded.sources)]
    folder = Path(out) if out is not None else None
    with job(family, choice, options, inputs) as work:
        targets = work.out_files(folder, "sweep.json", "sweep.html")
        files: dict[tuple[str, int], Path] = {}
        if folder is not None:
            work.outputs.folder_for(folder / "points", "out", create=True)
            files = {(p.id, n): work.outputs.file(folder / "points" / f"{p.id}.{n}p.json", "out") for p in points for n in counts}
        keys = {(p.id, n): _key(p, base, n, plan, tables[n]) for p in points for n in counts}
        rows = _earlier_rows(files, keys, folder, notice)
        with work.running(warm=len(rows) < len(keys)):
            failure = _play_points(work, sweep, setup, keys, files, rows)
            order = {(p.id, n): i for i, (p, n) in enumerate(itertools.product(points, counts))}
            sweep = replace(sweep, rows=sorted(rows.values(), key=lambda r: order[(r.point, r.players)]))
            table = ", with their table"
            if targets is not None and rows:
                try:
                    work.commit(
                        {targets[0]: sweep.to_json(), targets[1]: render_sweep(sweep.to_dict(), family.title)},
                        interrupted=sweep.interrupted,
                    )
                except WorkbenchError as exc:  # a full disk: the points stand, the table waits for the next run
                    work.outputs.discard()
                    failure, table = failure or exc, "; run the sweep again to write their table"
            written = list(work.outputs.written)
    if failure is not None:
        raise _with_kept(failure, folder, len(rows), table)
    return replace(sweep, written=written)


def _with_kept(failure: WorkbenchError, folder: Path | None, finished: int, table: str) -> WorkbenchError:
    """The error that stopped a sweep, saying where the points finished before it are kept."""
    if folder is None or not finished:
        return failure
    kept = f"the {finished} finished point(s) are kept in {display_path(folder / 'points')}{table}"
    failure.problems = [
        replace(p, message=p.message.replace("; nothing was written", "") + f"; {kept}") for p in failure.problems
    ]
    return failure


def _earlier_rows(
    files: dict[tuple[str, int], Path], keys: dict[tuple[str, int], str], folder: Path | None, notice: Notice | None
) -> dict[tuple[str, int], Row]:
    """The points an earlier run finished with the same inputs (read, not played again), said with those played again."""
    rows = {spot: found for spot, file in files.items() if (found := _reused(file, keys[spot])) is not None}
    if folder is not None and notice is not None:
        if rows:
            notice(f"{len(rows)} of {len(keys)} point(s) finished in an earlier run: read from {display_path(folder / 'points')}")
        stale = sum(spot not in rows and file.is_file() for spot, file in files.items())
        if stale:
            notice(
                f"{stale} point(s) of an earlier run were played with other inputs (seed, games, bots, a "
                "variant or the workbench changed): played again"
            )
    return rows


def _play_points(
    work: Job,
    sweep: Sweep,
    setup: _Setup,
    keys: dict[tuple[str, int], str],
    files: dict[tuple[str, int], Path],
    rows: dict[tuple[str, int], Row],
) -> WorkbenchError | None:
    """Play each point not finished yet, in the order of ``sweep.json``'s table, into ``rows``, each written to its
    file as it finishes; the error that stopped it (a worker lost, a point file changed meanwhile), said after the
    table of the finished points."""
    plan, base = sweep.plan, sweep.base
    missing = [(p, n) for p, n in itertools.product(sweep.points, sweep.counts) if (p.id, n) not in rows]
    for point, n in work.each(missing):
        spot = (point.id, n)
        arms = tuple(
            sweep.family.simulator(v, n, setup.tables[n], personas, plan.seed, engine=work.engine)
            for v, personas in ((base.variant, setup.base_known), (point.loaded.variant, setup.known[point.id]))
        )
        factory = PairedFactory.of(arms, setup.measures[spot])
        try:
            tally, interrupted, timing = work.play_paired(factory, plan.games, f"{point.name}, {n} players")
        except WorkbenchError as exc:  # the finished points stand: the table of them is written, then the error said
            return exc
        if interrupted:  # half a point proves nothing: it is played again next time
            return None
        rows[spot] = _row(point.id, compared_run(n, tally, setup.measures[spot], False, timing))
        if spot in files:
            body = {"generator": GENERATOR, "key": keys[spot], **rows[spot].to_dict(), "timing": timing}
            try:
                work.outputs.write(files[spot], json.dumps(body, indent=2) + "\n")
            except WorkbenchError as exc:  # not written: not finished
                work.outputs.discard()
                del rows[spot]
                return exc
    return None


__all__ = ["Sweep", "SweepError", "SweepFile", "load_sweep", "run_sweep"]
