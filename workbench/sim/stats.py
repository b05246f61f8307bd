"""Mergeable tallies and the intervals reported with them. Family-agnostic.

Everything is kept as integer counts and sums, so merging chunks in any order gives
exactly the same figures: the summary does not depend on ``--workers``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypedDict

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


class RateReport(TypedDict):
    """A rate with its 95 % Wilson interval and the number of trials, as ``summary.json`` gives it."""

    rate: float
    low: float
    high: float
    n: int


class MeanReport(TypedDict):
    """A mean, its standard deviation and the 95 % interval of the mean, as ``summary.json`` gives it."""

    mean: float
    sd: float
    low: float
    high: float
    n: int


class HistogramReport(MeanReport):
    """A :class:`MeanReport` with quantiles and the counts by value (keys as text: JSON object keys)."""

    median: float
    p10: float
    p90: float
    histogram: dict[str, int]


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate (95 % by default).

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: float, trials: int) -> RateReport:
    """A rate with its Wilson interval, as reported in ``summary.json``.

    >>> rate(1, 4)
    {'rate': 0.25, 'low': 0.0456, 'high': 0.6994, 'n': 4}
    """
    low, high = wilson(successes, trials)
    return {"rate": rounded(successes / trials if trials else 0.0), "low": rounded(low), "high": rounded(high), "n": trials}


def rounded(x: float) -> float:
    """Four decimals: what the reports show."""
    return round(x, 4)


@dataclass
class Moments:
    """Count, sum and sum of squares of whole numbers: a mean with its 95 % interval."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int, times: int = 1) -> None:
        """Add ``value`` (``times`` times)."""
        self.n += times
        self.total += value * times
        self.squares += value * value * times

    def merge(self, other: Moments) -> None:
        """Add another tally of the same quantity."""
        self.add_sums(other.n, other.total, other.squares)

    def add_sums(self, n: int, total: int, squares: int) -> None:
        """Add ``n`` values given by their sum and sum of squares."""
        self.n += n
        self.total += total
        self.squares += squares

    @property
    def mean(self) -> float:
        """The mean (0 when empty)."""
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        if self.n < 2:
            return 0.0
        spread = self.n * self.squares - self.total * self.total  # exact in integers
        return math.sqrt(max(0, spread) / (self.n * (self.n - 1)))

    def report(self, scale: int = 1) -> MeanReport:
        """Mean, standard deviation and the normal 95 % interval of the mean (of values counted in 1/scale units).

        >>> m = Moments(); [m.add(v) for v in (2, 4, 6)] and m.report()
        {'mean': 4.0, 'sd': 2.0, 'low': 1.7368, 'high': 6.2632, 'n': 3}
        """
        mean, sd = self.mean / scale, self.sd / scale
        half = Z95 * sd / math.sqrt(self.n) if self.n else 0.0
        return {"mean": rounded(mean), "sd": rounded(sd), "low": rounded(mean - half), "high": rounded(mean + half), "n": self.n}


@dataclass
class Histogram:
    """Counts of whole-number values: exact quantiles without keeping the values."""

    counts: Counter[int] = field(default_factory=Counter)

    def add(self, value: int, times: int = 1) -> None:
        """Count ``value``."""
        self.counts[value] += times

    def merge(self, other: Histogram) -> None:
        """Add another histogram."""
        self.counts.update(other.counts)

    @property
    def n(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())

    def quantile(self, q: float) -> float:
        """The ``q`` quantile, linear between order statistics (numpy's default).

        >>> h = Histogram(); [h.add(v) for v in (1, 2, 3, 4)] and h.quantile(0.5)
        2.5
        """
        n = self.n
        if not n:
            return 0.0
        position = q * (n - 1)
        below, fraction = math.floor(position), position - math.floor(position)
        lower = self._value_at(below)
        upper = self._value_at(min(below + 1, n - 1))
        return lower + (upper - lower) * fraction

    def _value_at(self, index: int) -> int:
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if index < seen:
                return value
        raise IndexError(index)

    def report(self) -> HistogramReport:
        """Mean, median, 10th and 90th percentiles and the counts by value."""
        moments = Moments()
        for value, times in self.counts.items():
            moments.add(value, times)
        return {
            **moments.report(),
            "median": self.quantile(0.5),
            "p10": self.quantile(0.1),
            "p90": self.quantile(0.9),
            "histogram": {str(value): self.counts[value] for value in sorted(self.counts)},
        }


class ExactReport(TypedDict):
    """An exact chance as the odds give it: the fraction as text and its percentage."""

    fraction: str
    percent: float


def exact(value: Fraction) -> ExactReport:
    """An exact chance for ``--json``: the fraction ``"n/d"`` (``"0/1"`` when impossible) and its percent.

    >>> exact(Fraction(1, 6)), exact(Fraction(0))
    ({'fraction': '1/6', 'percent': 16.6667}, {'fraction': '0/1', 'percent': 0.0})
    """
    return {"fraction": f"{value.numerator}/{value.denominator}", "percent": round(float(value) * 100, 4)}


def exact_text(report: ExactReport) -> str:
    """An exact chance for the terminal (impossible and sure ones as 0 and 1).

    >>> exact_text(exact(Fraction(5, 36))), exact_text(exact(Fraction(0))), exact_text(exact(Fraction(1)))
    ('5/36 (13.89%)', '0', '1')
    """
    sure = {"0/1": "0", "1/1": "1"}
    return sure.get(report["fraction"], f"{report['fraction']} ({report['percent']:.2f}%)")
