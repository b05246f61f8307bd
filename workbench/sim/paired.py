"""Paired games: several arms (variants, bots, a seat's gift) play the same game indices. Family-agnostic.

Game ``i`` of every arm draws from the same seeded streams, so the arms share their
luck (common random numbers) and a difference between them comes from what differs,
not from chance. Each game gives every arm a row of integers (the family's per-game
measures, in the same columns for every arm); the tally keeps their exact sums and
cross sums, so merging chunks in any order gives the same figures, whatever the
number of workers.

Any figure that is a smooth function of the column means (a rate, a mean, a ratio of
two sums, a difference between arms, a ratio of differences) gets its 95 % interval
by the delta method from the covariance of the paired rows: a difference between two
arms is judged against how the two vary *together* over the same games, which is what
makes paired comparisons so much sharper than comparing two separate runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from workbench.sim.runner import Factory, Handover
from workbench.sim.stats import Z95

#: A figure as a function of the column means of all arms (arm ``a``'s column ``c`` is ``means[a, c]``).
Figure = Callable[[npt.NDArray[np.float64]], float]
#: Rows are summed in blocks of this many (integers, exact), so a game costs a list append.
_BLOCK = 256


@dataclass
class Sums:
    """Exact integer sums of paired rows: the count, the sum of every column and of every product of two columns."""

    width: int  #: every arm's columns together
    counted: int = 0  #: rows summed so far (see :attr:`n` for every row added)
    total: npt.NDArray[np.int64] = field(init=False)
    cross: npt.NDArray[np.int64] = field(init=False)
    _rows: list[list[int]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.total = np.zeros(self.width, dtype=np.int64)
        self.cross = np.zeros((self.width, self.width), dtype=np.int64)

    def add(self, row: list[int]) -> None:
        """Count one game's row (every arm's columns, arm after arm)."""
        self._rows.append(row)
        if len(self._rows) >= _BLOCK:
            self._flush()

    def add_rows(self, rows: npt.NDArray[np.int64]) -> None:
        """Count many games' rows at once (a batch engine's block: one row per game)."""
        self._flush()
        self.counted += len(rows)
        self.total += rows.sum(axis=0)
        self.cross += rows.T @ rows

    def _flush(self) -> None:
        if self._rows:
            block = np.array(self._rows, dtype=np.int64)
            self.counted += len(self._rows)
            self.total += block.sum(axis=0)
            self.cross += block.T @ block
            self._rows = []

    def merge(self, other: Sums) -> None:
        """Add the sums of other games of the same run."""
        self._flush()
        other._flush()
        self.counted += other.counted
        self.total += other.total
        self.cross += other.cross

    @property
    def n(self) -> int:
        """Rows added."""
        return self.counted + len(self._rows)

    def __getstate__(self) -> dict[str, Any]:
        self._flush()  # a chunk crosses processes as sums, not rows
        return self.__dict__

    def moments(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The column means and the covariance of the mean (the sample covariance over n)."""
        self._flush()
        n = self.counted
        if n == 0:
            return np.zeros(self.width), np.zeros((self.width, self.width))
        mean = self.total / n
        if n < 2:  # no spread can be seen in one game: nothing can be tested
            return mean, np.full((self.width, self.width), math.nan)
        total = self.total.astype(np.float64)  # the outer product of large sums would overflow int64
        covariance = (self.cross - np.outer(total, total) / n) / (n - 1)
        return mean, covariance / n


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95 % interval (delta method) and, for a difference, the two-sided p-value against zero."""

    value: float
    se: float
    n: int
    floor: float = -math.inf  #: the least the figure can be (0 for a rate): the interval stops there
    ceiling: float = math.inf  #: the most it can be (1 for a rate)

    @property
    def low(self) -> float:
        return max(self.floor, self.value - Z95 * self.se)

    @property
    def high(self) -> float:
        return min(self.ceiling, self.value + Z95 * self.se)

    @property
    def tested(self) -> bool:
        """Whether ``value == 0`` can be tested: a spread was measured, and the value is not zero in every game."""
        return math.isfinite(self.value) and math.isfinite(self.se) and (self.se > 0 or self.value != 0)

    @property
    def p(self) -> float:
        """Two-sided normal p-value of ``value == 0`` (0 for a certain non-zero; NaN when not :attr:`tested`)."""
        if not self.tested:
            return math.nan
        if self.se == 0:
            return 0.0
        return math.erfc(abs(self.value) / self.se / math.sqrt(2))

    def report(self) -> dict[str, Any]:
        """As the JSON outputs give it (null where there is no value: JSON has no NaN)."""
        return {"value": _finite(self.value), "low": _finite(self.low), "high": _finite(self.high), "n": self.n}


def _finite(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None


def estimate(sums: Sums, arms: int, figure: Figure, bounds: tuple[float, float] = (-math.inf, math.inf)) -> Estimate:
    """A figure of the column means, with its standard error by the delta method (numerical gradient).

    ``figure`` gets the means as an array of shape (arms, columns) and returns a float;
    NaN (say, a ratio of zero sums) gives a NaN estimate. ``bounds`` are the least and most
    the figure can be (0 and 1 for a rate): the interval stops there.
    """
    mean, covariance = sums.moments()
    shape = (arms, sums.width // arms)
    value = float(figure(mean.reshape(shape)))
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, sums.n, *bounds)
    if sums.n < 2:
        return Estimate(value, math.nan, sums.n, *bounds)
    gradient = np.zeros(sums.width)
    for column in np.flatnonzero(covariance.diagonal() > 0):
        step = 1e-6 * max(1.0, abs(mean[column]))
        up, down = mean.copy(), mean.copy()
        up[column] += step
        down[column] -= step
        gradient[column] = (figure(up.reshape(shape)) - figure(down.reshape(shape))) / (2 * step)
    variance = float(gradient @ covariance @ gradient)
    parts = float(gradient**2 @ covariance.diagonal())  # the variance the terms would have if they were independent
    if variance <= 1e-10 * parts:  # what is left of terms that cancel exactly (arms identical in every game) is rounding
        variance = 0.0
    return Estimate(value, math.sqrt(variance), sums.n, *bounds)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (a test is significant at family-wise level alpha when its value <= alpha).

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    >>> holm([])
    []
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = round(running, 12)
    return adjusted


def ratio(numerator: int, denominator: int, scale: float = 1.0) -> Callable[[npt.NDArray[np.float64]], float]:
    """A figure of one arm's means (a row of the means array): mean(numerator) / mean(denominator) / scale."""

    def value(arm: npt.NDArray[np.float64]) -> float:
        below = arm[denominator] * scale
        return float(arm[numerator] / below) if below else math.nan

    return value


def of_arm(figure: Callable[[npt.NDArray[np.float64]], float], arm: int) -> Figure:
    """An arm's figure (``figure`` takes that arm's means)."""
    return lambda means: figure(means[arm])


def difference(figure: Callable[[npt.NDArray[np.float64]], float], arm: int, reference: int = 0) -> Figure:
    """An arm's figure minus the reference arm's: the paired difference."""
    return lambda means: figure(means[arm]) - figure(means[reference])


# --- playing paired games through the runner ---------------------------------------------------------------


@dataclass(frozen=True)
class PairedResult:
    """One game index played by every arm: each arm's result and the paired row."""

    results: list[Any]
    row: list[int]
    record: dict[str, Any] = field(default_factory=dict)
    script: tuple[str, str] | None = None


class PairedSimulator:
    """Plays game ``index`` in every arm and measures it with ``measure(arm, result, index) -> columns``; or, when every
    arm is a batch engine's, a range of games at once, measured with ``rows(arm, block, first) -> one row a game``."""

    def __init__(
        self,
        simulators: list[Any],
        measure: Callable[[int, Any, int], list[int]],
        per_arm: int,
        rows: Callable[[int, Any, int], npt.NDArray[np.int64]] | None = None,
    ):
        self.simulators = simulators
        self.measure = measure
        self.per_arm = per_arm
        self.rows = rows
        self.batch = rows is not None and all(getattr(simulator, "batch", False) for simulator in simulators)

    def play_range(self, start: int, end: int) -> PairedTally:
        """Games ``start .. end - 1`` in every arm (batch engines only), tallied and summed."""
        assert self.rows is not None
        tally = self.new_tally()
        columns = []
        for arm, (simulator, arm_tally) in enumerate(zip(self.simulators, tally.arms)):
            block = simulator.play_block(start, end)
            arm_tally.add_block(block)
            columns.append(self.rows(arm, block, start))
        tally.sums.add_rows(np.concatenate(columns, axis=1))
        return tally

    def play(self, index: int) -> PairedResult:
        results = [simulator.play(index) for simulator in self.simulators]
        row: list[int] = []
        for arm, result in enumerate(results):
            row.extend(self.measure(arm, result, index))
        return PairedResult(results, row)

    def new_tally(self) -> PairedTally:
        return PairedTally([simulator.new_tally() for simulator in self.simulators], Sums(self.per_arm * len(self.simulators)))


@dataclass
class PairedTally:
    """Each arm's own tally (everything ``simulate`` reports) and the paired sums."""

    arms: list[Any]
    sums: Sums

    @property
    def games(self) -> int:
        return self.sums.n

    def add(self, result: PairedResult) -> None:
        for tally, played in zip(self.arms, result.results):
            tally.add(played)
        self.sums.add(result.row)

    def merge(self, other: PairedTally) -> None:
        for tally, more in zip(self.arms, other.arms):
            tally.merge(more)
        self.sums.merge(other.sums)


def _all_ready(readies: tuple[Callable[[], bool], ...]) -> bool:
    """Whether every arm's compiled code is ready (a paired run hands its arms over together)."""
    return all(ready() for ready in readies)


def _hurry_all(hurries: tuple[Callable[[], None], ...]) -> None:
    for hurry in hurries:
        hurry()


@dataclass(frozen=True)
class PairedFactory:
    """A picklable factory of :class:`PairedSimulator`: the arms' factories and the measure (a picklable callable)."""

    arms: tuple[Factory, ...]
    measure: Callable[[int, Any, int], list[int]]
    per_arm: int  #: columns per arm
    rows: Callable[[int, Any, int], npt.NDArray[np.int64]] | None = None  #: the measure of a batch engine's block

    @classmethod
    def of(cls, arms: tuple[Factory, ...], measure: Measure) -> PairedFactory | Handover:
        """The factory of paired runs of ``arms``, measured by ``measure``: when the arms hand over to a compiled
        engine (each a :class:`Handover`), a handover of the paired interpreters to the paired compiled engines."""
        if arms and all(isinstance(arm, Handover) for arm in arms):
            handovers = cast(tuple[Handover, ...], arms)
            interpreters = cls.of(tuple(arm.interpreter for arm in handovers), measure)
            compiled = cls.of(tuple(arm.compiled for arm in handovers), measure)
            readies = tuple(dict.fromkeys(arm.ready for arm in handovers))  # arms may play on different compiled code
            hurries = tuple(dict.fromkeys(arm.hurry for arm in handovers))
            return Handover(interpreters, compiled, partial(_all_ready, readies), partial(_hurry_all, hurries))
        return cls(arms, measure.measure, len(measure.columns), measure.rows)

    def __call__(self) -> PairedSimulator:
        return PairedSimulator([factory() for factory in self.arms], self.measure, self.per_arm, self.rows)


@dataclass(frozen=True)
class Statistic:
    """A figure of one arm, as a function of that arm's column means, named as in the family's ``summary.json``."""

    name: str  #: dotted path of the figure in ``summary.json`` (``rounds.mean``, ``guides.in.rate``)
    of: Callable[[npt.NDArray[np.float64]], float]
    percent: bool = False  #: a rate (shown as a percentage)
    label: str = ""  #: the figure in words (the name when empty)
    tested: bool = True  #: False for a figure that is not smooth in the means (a maximum): shown, never tested


@dataclass(frozen=True)
class Measure:
    """What a family measures in every game of a paired run: the columns (the same for every arm), the picklable
    function filling them (``measure(arm, result, index)``) and the statistics built on them."""

    columns: tuple[str, ...]
    measure: Callable[[int, Any, int], list[int]]
    statistics: tuple[Statistic, ...]
    #: the same values for a block of games a batch engine played (``rows(arm, block, first)``, one row a game)
    rows: Callable[[int, Any, int], npt.NDArray[np.int64]] | None = None
