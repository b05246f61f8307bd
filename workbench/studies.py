"""Questions answered on paired games: compare variants, measure cards by intervention, skill against luck.

Every study plays several *arms* (variants, a seat's gift, a bot at a seat) on the same
game indices with the same seeded streams (common random numbers, see
:mod:`workbench.sim.paired`), through the runner of ``simulate``: many cores,
deterministic for a seed whatever the number of workers, a progress bar, Ctrl-C keeps
the games that finished, outputs checked before the first game and written atomically.
In a notebook::

    from workbench import studies
    result = studies.compare(["variants/chance-it.yaml", "reports/short.yaml"], players=[4], games=2000)
    [d.name for d in result.runs[0].significant]
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench import GENERATOR
from workbench.api import Progress, VariantLike, _loaded, _reserve_inputs, _stopping, bot_tables, player_counts
from workbench.errors import UsageError, display_path
from workbench.games import Family
from workbench.outputs import Outputs
from workbench.render.pages import interval, label, number, p_value, render_compare
from workbench.sim.paired import Estimate, Measure, PairedFactory, PairedTally, difference, estimate, holm, of_arm
from workbench.sim.runner import Stop, run

#: Family-wise error rate of the significance calls (Holm's correction over every test of a study).
ALPHA = 0.05
CORRECTION = (
    "Holm-Bonferroni over every difference tested in this comparison ({tests} tests: each statistic, variant and "
    "player count), family-wise error rate {alpha:.0%}; the intervals are 95 % paired intervals, not corrected"
)


def _check(games: int, workers: int) -> None:
    if games < 1:
        raise UsageError(f"--games {games}: play at least one game")
    if workers < 1:
        raise UsageError(f"--workers {workers}: use at least one worker")


def _out_files(outputs: Outputs, out: str | os.PathLike[str] | None, name: str, create: bool) -> tuple[Path, Path] | None:
    """Reserve ``<name>.json`` and ``<name>.html`` in the folder ``out`` (checked now, before any game)."""
    if out is None:
        return None
    outputs.folder_for(Path(out), "--out", create=create)
    return outputs.file(Path(out) / f"{name}.json", "--out"), outputs.file(Path(out) / f"{name}.html", "--out")


def _played(
    factory: PairedFactory,
    games: int,
    workers: int,
    label: str,
    progress: Progress | None,
    halt: Stop,
) -> tuple[PairedTally, bool, dict[str, Any]]:
    """Play the paired games: the tally, whether a stop cut it short, and the timing."""
    advance = progress(label, games) if progress is not None else None
    result = run(factory, games, workers=workers, progress=advance, stop=halt)
    timing = {"workers": workers, "seconds": round(result.seconds, 3), "games_per_second": round(result.games_per_second, 1)}
    tally: PairedTally = result.tally
    return tally, result.interrupted, timing


# --- compare -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Compared:
    """One statistic at one player count: each variant's value and each variant's difference from the first."""

    name: str  #: as in ``summary.json`` (``rounds.mean``, ``guides.in.rate``)
    percent: bool
    values: list[Estimate]  #: one per variant
    differences: list[Estimate]  #: variant i+1 minus variant 0
    adjusted: list[float] = field(default_factory=list)  #: Holm-adjusted p-values of the differences

    @property
    def significant(self) -> bool:
        """Whether any variant differs from the first after the correction."""
        return any(p <= ALPHA for p in self.adjusted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "percent": self.percent,
            "values": [value.report() for value in self.values],
            "differences": [
                {**d.report(), "p": _p(d.p), "p_adjusted": _p(adjusted), "significant": adjusted <= ALPHA}
                for d, adjusted in zip(self.differences, self.adjusted)
            ],
        }


def _p(p: float) -> float:
    return float(f"{p:.4g}")


@dataclass(frozen=True)
class ComparedRun:
    """The comparison at one player count."""

    players: int
    games: int
    interrupted: bool
    statistics: list[Compared]
    summaries: list[dict[str, Any]]  #: each variant's figures, as ``simulate`` gives them
    timing: dict[str, Any]

    @property
    def significant(self) -> list[Compared]:
        """The statistics that changed significantly (after the correction)."""
        return [s for s in self.statistics if s.significant]

    def ordered(self) -> list[Compared]:
        """Significant changes first (smallest adjusted p first), then the rest in their usual order."""
        return sorted(self.significant, key=lambda s: min(s.adjusted)) + [s for s in self.statistics if not s.significant]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "interrupted": self.interrupted,
            "statistics": [s.to_dict() for s in self.ordered()],
            "summaries": self.summaries,
            "timing": self.timing,
        }


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` did: every player count's comparison and the files written."""

    family: Family
    variants: list[dict[str, str | None]]  #: name and file of each variant, the first being the reference
    counts: list[int]
    seed: int
    bots: list[str]
    runs: list[ComparedRun]
    written: list[Path]

    @property
    def tests(self) -> int:
        return sum(len(s.differences) for r in self.runs for s in r.statistics)

    @property
    def interrupted(self) -> bool:
        return any(r.interrupted for r in self.runs) or len(self.runs) < len(self.counts)

    @property
    def correction(self) -> str:
        return CORRECTION.format(tests=self.tests, alpha=ALPHA)

    def to_dict(self) -> dict[str, Any]:
        """The body of ``compare.json``."""
        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "variants": self.variants,
            "players": self.counts,
            "seed": self.seed,
            "bots": self.bots,
            "correction": {"method": "holm", "alpha": ALPHA, "tests": self.tests, "about": self.correction},
            "interrupted": self.interrupted,
            "runs": [r.to_dict() for r in self.runs],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def letters(self) -> list[str]:
        """``A: name (file)`` for each variant, as the terminal table names them."""
        return [f"{chr(65 + i)}: {v['name']} ({v['file'] or 'not from a file'})" for i, v in enumerate(self.variants)]

    def tables(self, every: bool = False) -> list[tuple[str, list[str], list[list[str]]]]:
        """The terminal tables, one per player count: the significant changes first, the rest only with ``every``."""
        headers = ["figure", "A", "", "value", "− A", "95 % interval", "p (Holm)"]
        found = []
        for done in self.runs:
            rows = []
            for s in done.ordered() if every else done.significant:
                for i, (value, d, p) in enumerate(zip(s.values[1:], s.differences, s.adjusted)):
                    first = i == 0
                    rows.append(
                        [
                            label(s.name) if first else "",
                            number(s.values[0].value, s.percent) if first else "",
                            chr(66 + i),
                            number(value.value, s.percent),
                            number(d.value, s.percent, signed=True),
                            interval(d.low, d.high, s.percent, signed=True),
                            p_value(p) + (" *" if p <= ALPHA else ""),
                        ]
                    )
            title = (
                f"{done.players} players, {done.games:,} games per variant: {len(done.significant)} of "
                f"{len(done.statistics)} figures changed significantly (*)"
            )
            found.append((title, headers, rows))
        return found


def compare(
    variants: Sequence[VariantLike],
    *,
    players: Sequence[int] = (4,),
    games: int = 1000,
    seed: int = 1,
    bots: str | Sequence[str] = "heuristic",
    workers: int = 1,
    personas: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> Comparison:
    """Play every variant on the same game indices and seeds, and test each statistic's difference from the first.

    Each difference gets a paired 95 % interval (from the per-game differences) and a
    p-value; significance is called after Holm's correction over every test of the
    comparison. ``out`` gets ``compare.json`` and ``compare.html``. A stop keeps the games
    that finished (the same prefix of game indices in every variant).
    """
    _check(games, workers)
    if len(variants) < 2:
        raise UsageError("compare: name at least two variant files (the first is the reference)")
    loaded = [_loaded(v) for v in variants]
    family = loaded[0][0].family
    for other, other_path in loaded[1:]:
        if other.family is not family:
            what = display_path(other_path) if other_path else other.variant.name
            raise UsageError(f"{what} is a {other.family.title} variant; compare variants of one game ({family.title})")
    counts: list[int] = []
    for variant, path in loaded:
        counts = player_counts(variant, players, path)
    known = [family.personas(variant.variant, Path(personas) if personas is not None else None) for variant, _ in loaded]
    tables = [bot_tables(bots, counts, table) for table in known]
    with Outputs(force=force) as outputs:
        _reserve_inputs(outputs, *(source for variant, _ in loaded for source in variant.sources), personas)
        targets = _out_files(outputs, out, "compare", create_out)
        outputs.ready()
        runs: list[ComparedRun] = []
        with _stopping(stop) as halt:
            for count in counts:
                if halt():
                    break
                run_bots = tables[0][count]
                measure = family.table_measure([v.variant for v, _ in loaded], count, run_bots)
                arms = tuple(
                    family.simulator(v.variant, count, table[count], personas_, seed)
                    for (v, _), table, personas_ in zip(loaded, tables, known)
                )
                factory = PairedFactory(arms, measure.measure, len(measure.columns))
                tally, interrupted, timing = _played(factory, games, workers, f"{count} players", progress, halt)
                if tally.games:
                    runs.append(_compared(count, tally, measure, interrupted, timing))
                if interrupted:
                    break
            runs = _corrected(runs)
            result = Comparison(
                family,
                [{"name": v.variant.name, "file": display_path(p) if p else None} for v, p in loaded],
                counts,
                seed,
                [bots] if isinstance(bots, str) else list(bots),
                runs,
                [],
            )
            if not runs:
                return result
            if targets is not None:
                outputs.stage(targets[0], result.to_json())
                outputs.stage(targets[1], render_compare(result.to_dict(), family.title))
            written = outputs.commit()
    return Comparison(result.family, result.variants, counts, seed, result.bots, runs, written)


def _compared(count: int, tally: PairedTally, measure: Measure, interrupted: bool, timing: dict[str, Any]) -> ComparedRun:
    arms = len(tally.arms)
    statistics = []
    for statistic in measure.statistics:
        values = [estimate(tally.sums, arms, of_arm(statistic.of, a)) for a in range(arms)]
        differences = [estimate(tally.sums, arms, difference(statistic.of, a)) for a in range(1, arms)]
        statistics.append(Compared(statistic.name, statistic.percent, values, differences))
    summaries = [arm.summary() for arm in tally.arms]
    return ComparedRun(count, tally.games, interrupted, statistics, summaries, timing)


def _corrected(runs: list[ComparedRun]) -> list[ComparedRun]:
    """The runs with Holm-adjusted p-values over every difference of every run."""
    flat = [d.p for r in runs for s in r.statistics for d in s.differences]
    adjusted = iter(holm(flat))
    return [
        ComparedRun(
            r.players,
            r.games,
            r.interrupted,
            [Compared(s.name, s.percent, s.values, s.differences, [next(adjusted) for _ in s.differences]) for s in r.statistics],
            r.summaries,
            r.timing,
        )
        for r in runs
    ]


__all__ = ["Comparison", "compare"]
