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
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, Strict, model_validator

from workbench import GENERATOR, __version__
from workbench.api import (
    Notice,
    Progress,
    bot_tables,
    check_run,
    choose_engine,
    plain_persona,
    player_counts,
    ready_engine,
    reserve_inputs,
    stopping,
)
from workbench.errors import UsageError, WorkbenchError, as_named, display_path, players_span
from workbench.games import Family, Loaded, load_variant, overrides_of
from workbench.loading import Document, Setting, did_you_mean, read_yaml, validate
from workbench.models import KeyPath, Model, Positive, rules_error
from workbench.outputs import Outputs, is_ours
from workbench.render.pages import number, render_sweep
from workbench.sim.paired import PairedFactory
from workbench.sim.runner import LOCAL, Backend, Stop
from workbench.studies import ComparedRun, bot_names, compared_run, play_paired, rounded_p

#: Most points a sweep may have (a grid multiplies its axes).
MOST_POINTS = 1000


class SweepError(WorkbenchError):
    """A sweep file that cannot be run."""


class Axis(Model):
    """One key of the variant and the values to try it at."""

    set: str = Field(min_length=1, description="The key to set, as a dotted path: cards.dagger.cost, stakes.4.in, end.stars.")
    values: list[Any] = Field(min_length=1, max_length=MOST_POINTS, description="The values to try, in order.")
    name: str | None = Field(None, min_length=1, description="The axis's name in tables and charts (default: the key path).")
    labels: list[str] | None = Field(None, description="A name for each value (default: the value as written).")


class Point(Model):
    """One named point: values to set and keys to override, as a child variant would."""

    name: str = Field(min_length=1, description="The point's name in tables and charts.")
    set: dict[str, Any] = Field(default_factory=dict, description="Dotted key paths and their values.")
    overrides: dict[str, Any] = Field(
        default_factory=dict, description="Variant keys merged on top, as in a child variant (cards_add: [card file]...)."
    )


class Goal(Model):
    """Which point is best: the one with the highest (max) or lowest (min) value of a figure, the one nearest a
    value (a number), or the one that changes it least from the base variant (base)."""

    figure: str = Field(description="A figure of simulate's summary, as compare.json names it: rounds.mean, balance.")
    aim: Literal["max", "min", "base"] | Annotated[float, Strict(), Field(allow_inf_nan=False)] = Field(
        description="max, min, a value to come nearest to, or base: the least change from the base variant."
    )

    @model_validator(mode="before")
    @classmethod
    def _aim(cls, data: Any) -> Any:
        """One message for an aim that is neither a word it knows nor a number (not one per kind of aim)."""
        aim = data.get("aim") if isinstance(data, dict) else None
        known = isinstance(aim, int | float) and not isinstance(aim, bool) and math.isfinite(aim)
        if aim is not None and aim not in ("max", "min", "base") and not known:
            raise rules_error([(("aim",), f"expected max, min, base or a number, got {aim!r}")])
        return data


class SweepFile(Model):
    """A sweep: a base variant, what to vary, and how many games to play at each point."""

    name: str = Field(min_length=1, description="The sweep's name.")
    description: str | None = None
    variant: str = Field(description="The base variant file, relative to this file; every point changes a copy of it.")
    players: Annotated[list[Positive], Field(min_length=1)] | Positive | None = Field(
        None, description="The player count, or several (default: 4, or as near as the base variant allows)."
    )
    games: Positive = Field(description="Games per point and player count (played beside the base variant).")
    seed: int = Field(1, description="Game i of every point depends only on (seed, i).")
    bots: str | list[str] | None = Field(None, description="One bot per seat, or one for every seat (default: the game's).")
    engine: Literal["auto", "batch", "interpreter"] = "auto"
    figures: list[str] = Field(default_factory=list, description="The figures to chart and tabulate (the goal's too).")
    goal: Goal | None = None
    grid: list[Axis] | None = Field(None, min_length=1, description="Axes: every combination of their values is a point.")
    points: list[Point] | None = Field(None, min_length=1, description="Named points, instead of a grid.")

    @model_validator(mode="after")
    def _shape(self) -> SweepFile:
        problems: list[tuple[KeyPath, str]] = []
        if (self.grid is None) == (self.points is None):
            problems.append(
                (
                    (),
                    "give either a grid (axes of values) or a list of points, not both"
                    if self.grid
                    else "give a grid (axes of values) or a list of points",
                )
            )
        if not self.figures and self.goal is None:
            problems.append((("figures",), "name the figures to chart (figures: [rounds.mean, ...]) or a goal"))
        for i, axis in enumerate(self.grid or []):
            if axis.labels is not None and len(axis.labels) != len(axis.values):
                problems.append((("grid", i, "labels"), f"give one label per value ({len(axis.values)}), not {len(axis.labels)}"))
            for earlier in range(i):
                other = (self.grid or [])[earlier]
                if other.set == axis.set:
                    problems.append((("grid", i, "set"), f"grid.{earlier} sets {axis.set} already: one axis per key"))
                elif (other.name or other.set) == (axis.name or axis.set):
                    problems.append((("grid", i, "name"), f"grid.{earlier} is called {axis.name or axis.set!r} too"))
        size = math.prod(len(axis.values) for axis in self.grid or [])
        if size > MOST_POINTS:
            problems.append((("grid",), f"the grid has {size:,} points; a sweep may have at most {MOST_POINTS:,}"))
        if problems:
            raise rules_error(problems)
        return self


@dataclass(frozen=True)
class SweepPoint:
    """One point of a sweep: its id (its file's name), name, the axis values that made it, and its variant."""

    id: str
    name: str
    values: dict[str, Any]
    loaded: Loaded


@contextmanager
def _located(doc: Document) -> Iterator[None]:
    """A refused setting of the plan as a problem at its key in the sweep file (the keys are the parameters' names)."""
    try:
        yield
    except UsageError as exc:
        at = (exc.field,) if exc.field in SweepFile.model_fields else ()
        raise SweepError([doc.problem(at, exc.detail(as_named) if at else exc.text(as_named))]) from None


def _slug(name: str) -> str:
    """A point's name as a file name: ``dagger cost 3`` -> ``dagger-cost-3`` (letters of any script kept).

    >>> _slug("Dagger cost 3"), _slug("价格 一"), _slug("../x")
    ('dagger-cost-3', '价格-一', 'x')
    """
    return re.sub(r"[\W_]+", "-", name.lower()).strip("-")[:80] or "point"


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def load_sweep(path: str | os.PathLike[str]) -> tuple[SweepFile, Document, list[SweepPoint], Loaded]:
    """Read and check a sweep file and every point's variant (each problem located in its file); the sweep, its
    document, its points and the base variant."""
    path = Path(path)
    doc = read_yaml(path, SweepError)
    if doc.data is None or not isinstance(doc.data, dict):
        raise SweepError([doc.problem((), "a sweep is a mapping of keys (name, variant, games, grid or points, ...)")])
    plan = validate(SweepFile, doc, SweepError)
    base_path = path.parent / plan.variant
    try:
        found = base_path.is_file()
    except (OSError, ValueError) as exc:  # a name too long for the system
        reason = getattr(exc, "strerror", None) or exc
        raise SweepError([doc.problem(("variant",), f"cannot use {plan.variant!r}: {reason}")]) from None
    if not found:
        looked = display_path(Path(os.path.normpath(base_path)))
        raise SweepError([doc.problem(("variant",), f"no such variant file: {plan.variant} (looked for {looked})")])
    base = load_variant(base_path)
    points: list[SweepPoint] = []
    if plan.grid is not None:
        names = [axis.name or axis.set for axis in plan.grid]
        for combination in itertools.product(*(range(len(axis.values)) for axis in plan.grid)):
            settings = [
                Setting(axis.set, axis.values[j], doc, ("grid", str(i), "values", str(j)), ("grid", str(i), "set"))
                for i, (axis, j) in enumerate(zip(plan.grid, combination))
            ]
            shown = [axis.labels[j] if axis.labels else _shown(axis.values[j]) for axis, j in zip(plan.grid, combination)]
            name = ", ".join(f"{axis_name} {value}" for axis_name, value in zip(names, shown))
            values = {axis_name: axis.values[j] for axis_name, axis, j in zip(names, plan.grid, combination)}
            at: tuple[str, ...] = ("grid", "0", "values", str(combination[0]))
            points.append(SweepPoint(_slug(name), name, values, _point_variant(doc, at, name, base_path, None, settings)))
    else:
        for i, entry in enumerate(plan.points or []):
            at = ("points", str(i))
            overrides = overrides_of(doc, (*at, "overrides"), base_path, SweepError) if entry.overrides else None
            settings = [Setting(key, value, doc, (*at, "set", key)) for key, value in entry.set.items()]
            loaded = _point_variant(doc, at, entry.name, base_path, overrides, settings)
            points.append(SweepPoint(_slug(entry.name), entry.name, {}, loaded))
    seen: dict[str, SweepPoint] = {}
    for i, point in enumerate(points):
        if point.id in seen:
            first = seen[point.id].name
            if plan.points:
                message = f"{point.name!r} and {first!r} would share the file points/{point.id}.*.json: rename one"
                raise SweepError([doc.problem(("points", str(i), "name"), message)])
            message = f"two points would both be {first!r} (a value or label of an axis repeats)"
            raise SweepError([doc.problem(("grid",), message)])
        seen[point.id] = point
        if point.loaded.family is not base.family:
            raise SweepError([doc.problem(("points", str(i)), f"this point is a {point.loaded.family.title} variant")])
    return plan, doc, points, base


def _point_variant(doc: Document, at: tuple[str, ...], name: str, base: Path, overrides: Any, settings: list[Setting]) -> Loaded:
    """A point's variant. A problem found outside the sweep file (a rule over several keys, such as the deck's
    total, is located in the base variant) gets a note naming the point and where the sweep file makes it."""
    try:
        return load_variant(base, overrides, settings)
    except WorkbenchError as exc:
        here = doc.path.resolve() if doc.path is not None else None
        if exc.note is None and any(problem.file is None or problem.file.resolve() != here for problem in exc.problems):
            made = doc.problem(at, "")
            exc.note = f"the point {name!r} makes this variant ({display_path(made.file or base)}:{made.line}: {made.path})"
        raise


@dataclass(frozen=True)
class Row:
    """One point at one player count: every figure of the point, of the base variant beside it, and the change."""

    point: str  #: the point's id
    players: int
    games: int
    figures: dict[str, dict[str, Any]]  #: name -> label, percent, value, reference, change (each with its interval)
    reused: bool = False  #: read from an earlier run's file, not played now

    def to_dict(self) -> dict[str, Any]:
        return {"point": self.point, "players": self.players, "games": self.games, "figures": self.figures}


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
    return Row(point, run.players, run.games, figures)


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
        "workbench": __version__,
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
        return Row(body["point"], body["players"], body["games"], body["figures"], reused=True)
    except (OSError, ValueError, KeyError, TypeError):  # unreadable: played again, and the file replaced
        return None


def run_sweep(
    path: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    backend: Backend = LOCAL,
    force: bool = False,
    create_out: bool = False,
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
    seated = [
        (v, [table[name] for name in dict.fromkeys(tables[counts[0]])])
        for v, table in [(base.variant, base_known), *((p.loaded.variant, known[p.id]) for p in points)]
    ]
    with _located(doc):
        choice = choose_engine(family, seated, plan.engine)
    engine = choice.engine
    measures = {(p.id, n): family.table_measure([base.variant, p.loaded.variant], n, tables[n]) for p in points for n in counts}
    figures = list(dict.fromkeys([*plan.figures, *([plan.goal.figure] if plan.goal else [])]))
    offered = {s.name for measure in measures.values() for s in measure.statistics}
    for i, name in enumerate(plan.figures):
        if name not in offered:
            raise SweepError([doc.problem(("figures", str(i)), f"no figure {name!r}{did_you_mean(name, offered)}")])
    if plan.goal is not None and plan.goal.figure not in offered:
        hint = did_you_mean(plan.goal.figure, offered)
        raise SweepError([doc.problem(("goal", "figure"), f"no figure {plan.goal.figure!r}{hint}")])
    rates = {s.name for measure in measures.values() for s in measure.statistics if s.percent}
    if plan.goal is not None and plan.goal.figure in rates and not isinstance(plan.goal.aim, str) and not 0 <= plan.goal.aim <= 1:
        message = f"{plan.goal.figure} is a rate, from 0 to 1: write {plan.goal.aim / 100:g} for {plan.goal.aim:g} %"
        raise SweepError([doc.problem(("goal", "aim"), message)])
    sweep = Sweep(plan, path, family, base, points, counts, bot_names(tables[counts[0]]), engine, [], figures)
    with Outputs(force=force) as outputs:
        reserve_inputs(outputs, path, *base.sources, *(s for p in points for s in p.loaded.sources))
        folder = Path(out) if out is not None else None
        files: dict[tuple[str, int], Path] = {}
        if folder is not None:
            outputs.folder_for(folder, "out", create=create_out)
            outputs.folder_for(folder / "points", "out", create=True)
            targets = outputs.file(folder / "sweep.json", "out"), outputs.file(folder / "sweep.html", "out")
            files = {(p.id, n): outputs.file(folder / "points" / f"{p.id}.{n}p.json", "out") for p in points for n in counts}
        keys = {(p.id, n): _key(p, base, n, plan, tables[n]) for p in points for n in counts}
        rows: dict[tuple[str, int], Row] = {}
        for spot, file in files.items():
            found = _reused(file, keys[spot])
            if found is not None:
                rows[spot] = found
        if folder is not None and notice is not None:
            if rows:
                notice(
                    f"{len(rows)} of {len(keys)} point(s) finished in an earlier run: read from {display_path(folder / 'points')}"
                )
            stale = sum(spot not in rows and file.is_file() for spot, file in files.items())
            if stale:
                notice(
                    f"{stale} point(s) of an earlier run were played with other inputs (seed, games, bots, a "
                    "variant or the workbench changed): played again"
                )
        outputs.ready()
        failure: WorkbenchError | None = None  # a worker lost, a point file changed meanwhile: said after the table
        with stopping(stop) as halt:
            if len(rows) < len(keys):
                ready_engine(family, choice, notice, backend, halt)
            for point, n in itertools.product(points, counts):  # the order of sweep.json's table
                spot = (point.id, n)
                if spot in rows:
                    continue
                if halt():
                    break
                arms = tuple(
                    family.simulator(v, n, tables[n], personas, plan.seed, engine=engine)
                    for v, personas in ((base.variant, base_known), (point.loaded.variant, known[point.id]))
                )
                factory = PairedFactory.of(arms, measures[spot])
                try:
                    tally, interrupted, timing = play_paired(
                        factory, plan.games, backend, f"{point.name}, {n} players", progress, halt, notice
                    )
                except WorkbenchError as exc:  # the finished points stand: the table of them is written, then the error said
                    failure = exc
                    break
                if interrupted:  # half a point proves nothing: it is played again next time
                    break
                rows[spot] = _row(point.id, compared_run(n, tally, measures[spot], False, timing))
                if spot in files:
                    body = {"generator": GENERATOR, "key": keys[spot], **rows[spot].to_dict(), "timing": timing}
                    try:
                        outputs.write(files[spot], json.dumps(body, indent=2) + "\n")
                    except WorkbenchError as exc:  # not written: not finished
                        outputs.discard()
                        del rows[spot]
                        failure = exc
                        break
            order = {(p.id, n): i for i, (p, n) in enumerate(itertools.product(points, counts))}
            sweep = replace(sweep, rows=sorted(rows.values(), key=lambda r: order[(r.point, r.players)]))
            table = ", with their table"
            if folder is not None and rows:
                try:
                    outputs.stage(targets[0], sweep.to_json())
                    outputs.stage(targets[1], render_sweep(sweep.to_dict(), family.title))
                    outputs.commit()
                except WorkbenchError as exc:  # a full disk: the points stand, the table waits for the next run
                    outputs.discard()
                    failure, table = failure or exc, "; run the sweep again to write their table"
            written = list(outputs.written)
    if failure is not None:
        if folder is None or not rows:
            raise failure
        kept = f"the {len(rows)} finished point(s) are kept in {display_path(folder / 'points')}{table}"
        failure.problems = [
            replace(p, message=p.message.replace("; nothing was written", "") + f"; {kept}") for p in failure.problems
        ]
        raise failure
    return replace(sweep, written=written)


__all__ = ["Sweep", "SweepError", "SweepFile", "load_sweep", "run_sweep"]
