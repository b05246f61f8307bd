"""The sweep file: its format (``sweep.schema.json``, the one file format every game shares) and its reading.

A sweep file names a base variant, the values to try (a ``grid`` of axes, each setting one
key of the variant, or a list of ``points``, each with its own settings and overrides),
the player counts, the games and the seed. :func:`load_sweep` reads it and makes every
point's variant, each problem located in its file; :mod:`workbench.sweep` plays them.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, Strict, model_validator

from workbench.errors import WorkbenchError, display_path
from workbench.games import Loaded, load_variant, overrides_of
from workbench.loading import Document, Setting, read_yaml, validate
from workbench.models import KeyPath, Model, Positive, rules_error

#: The sweep's schema among the file formats (``sweep.schema.json``): every game's.
SWEEP = "sweep"
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
    base_path = _base_path(plan, doc, path)
    base = load_variant(base_path)
    points = _grid_points(plan, doc, base_path) if plan.grid is not None else _listed_points(plan, doc, base_path)
    _check_points(plan, doc, points, base)
    return plan, doc, points, base


def _base_path(plan: SweepFile, doc: Document, path: Path) -> Path:
    """The base variant's file, which must exist (relative to the sweep file)."""
    base_path = path.parent / plan.variant
    try:
        found = base_path.is_file()
    except (OSError, ValueError) as exc:  # a name too long for the system
        reason = getattr(exc, "strerror", None) or exc
        raise SweepError([doc.problem(("variant",), f"cannot use {plan.variant!r}: {reason}")]) from None
    if not found:
        looked = display_path(Path(os.path.normpath(base_path)))
        raise SweepError([doc.problem(("variant",), f"no such variant file: {plan.variant} (looked for {looked})")])
    return base_path


def _grid_points(plan: SweepFile, doc: Document, base_path: Path) -> list[SweepPoint]:
    """A point for every combination of the grid's values, named by its axes' names and values."""
    grid = plan.grid or []
    names = [axis.name or axis.set for axis in grid]
    points = []
    for combination in itertools.product(*(range(len(axis.values)) for axis in grid)):
        settings = [
            Setting(axis.set, axis.values[j], doc, ("grid", str(i), "values", str(j)), ("grid", str(i), "set"))
            for i, (axis, j) in enumerate(zip(grid, combination))
        ]
        shown = [axis.labels[j] if axis.labels else _shown(axis.values[j]) for axis, j in zip(grid, combination)]
        name = ", ".join(f"{axis_name} {value}" for axis_name, value in zip(names, shown))
        values = {axis_name: axis.values[j] for axis_name, axis, j in zip(names, grid, combination)}
        at: tuple[str, ...] = ("grid", "0", "values", str(combination[0]))
        points.append(SweepPoint(_slug(name), name, values, _point_variant(doc, at, name, base_path, None, settings)))
    return points


def _listed_points(plan: SweepFile, doc: Document, base_path: Path) -> list[SweepPoint]:
    """The named points, each with its settings and overrides."""
    points = []
    for i, entry in enumerate(plan.points or []):
        at = ("points", str(i))
        overrides = overrides_of(doc, (*at, "overrides"), base_path, SweepError) if entry.overrides else None
        settings = [Setting(key, value, doc, (*at, "set", key)) for key, value in entry.set.items()]
        loaded = _point_variant(doc, at, entry.name, base_path, overrides, settings)
        points.append(SweepPoint(_slug(entry.name), entry.name, {}, loaded))
    return points


def _check_points(plan: SweepFile, doc: Document, points: list[SweepPoint], base: Loaded) -> None:
    """Every point has a file name of its own and is a variant of the base variant's game."""
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


def sweep_schema() -> dict[str, Any]:
    """The JSON Schema of a sweep file."""
    return SweepFile.model_json_schema()


__all__ = ["SWEEP", "SweepError", "SweepFile", "SweepPoint", "load_sweep", "sweep_schema"]
