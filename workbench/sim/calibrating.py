"""A persona fitted to recorded decisions: a quantal-response model, its maximum likelihood and its uncertainty.
Family-agnostic.

Each recorded decision had options, and a bot of weights ``w`` values each option at ``v_i(w)``. A quantal-response
player of temperature ``T`` takes option ``i`` with chance ``exp(v_i / T) / sum_j exp(v_j / T)``: the best option
most often, the others the more often the closer they come to it. The weights and the temperature that make the
recorded choices likeliest are the fit (values in stars, so the temperature is in stars too).

The values depend on the weights only, so for each weights the best temperature is found at once (a one-dimensional
search over precomputed values); the weights are searched by Nelder-Mead. The bot's values jump where it changes its
mind (it rounds how many others it expects to play IN), so the likelihood has small steps and kinks: a simplex takes
them in its stride, and the intervals come from the likelihood itself, not from its curvature at one point. A
parameter kept positive (the temperature, a horizon) is searched on its logarithm.

Each interval is a profile-likelihood interval: the values of the parameter at which the likelihood, the other
parameters fitted again, falls by no more than 1.92 (half the 95 % point of a chi-square of one degree of freedom)
times a design effect. Decisions of one game are not independent (the same people, the same position), so that
threshold is widened by how much more the games' shares of the likelihood's slope spread than independent decisions
would (the sandwich's ratio, measured on the temperature, on which the likelihood is smooth): the intervals are
honest about games, not decisions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Parameter:
    """A parameter the fit may move: its range, the precision that settles it, and its meaning."""

    name: str
    low: float
    high: float
    settle: float  #: an interval this narrow (each side) settles it
    about: str
    log: bool = False  #: searched on its logarithm (it stays positive)

    def to_search(self, value: float) -> float:
        return math.log(value) if self.log else value

    def from_search(self, z: float) -> float:
        return math.exp(z) if self.log else z

    @property
    def bounds(self) -> tuple[float, float]:
        return (self.to_search(self.low), self.to_search(self.high))

    @property
    def step(self) -> float:
        """The step of the numerical derivatives on the searched scale."""
        return 0.05 if self.log else self.settle


#: The temperature of a quantal-response player, in stars: how far its choices stray from the best by its values.
TEMPERATURE = Parameter(
    "temperature", 0.005, 20.0, 0.05, "how far choices stray from the best, in stars (0: always the best)", log=True
)

#: Values of some weights for every decision: one list of option values a decision.
Valuation = Callable[[dict[str, float]], list[list[float]]]


class Decisions:
    """Recorded decisions as arrays: each one's option values padded to the most options, which was chosen, its game."""

    def __init__(self, chosen: Sequence[int], games: Sequence[int]):
        self.chosen = np.asarray(chosen, dtype=np.int64)
        self.games = np.asarray(games, dtype=np.int64)
        self.count = len(self.chosen)

    def matrix(self, values: list[list[float]]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """The values as a matrix (a row a decision) and which cells are options."""
        width = max(len(row) for row in values)
        matrix = np.full((len(values), width), -np.inf)
        for i, row in enumerate(values):
            matrix[i, : len(row)] = row
        return matrix, np.isfinite(matrix)

    def log_likelihoods(self, matrix: npt.NDArray[np.float64], temperature: float) -> npt.NDArray[np.float64]:
        """Each decision's log-chance of the option chosen, for a quantal-response player of ``temperature``."""
        scaled = matrix / temperature
        top = scaled.max(axis=1, keepdims=True)
        total = np.log(np.exp(scaled - top).sum(axis=1)) + top[:, 0]
        chosen: npt.NDArray[np.float64] = scaled[np.arange(self.count), self.chosen] - total
        return chosen

    def per_game(self, matrix: npt.NDArray[np.float64], temperature: float) -> npt.NDArray[np.float64]:
        """Each game's log-likelihood (games numbered from 0)."""
        return np.bincount(self.games, weights=self.log_likelihoods(matrix, temperature)).astype(np.float64)

    def best_temperature(self, matrix: npt.NDArray[np.float64]) -> tuple[float, float]:
        """The temperature that makes the choices likeliest for these values, and the log-likelihood there (a golden
        section search on its logarithm, within the temperature's range)."""
        low, high = TEMPERATURE.bounds

        def loss(z: float) -> float:
            return -float(self.log_likelihoods(matrix, math.exp(z)).sum())

        ratio = (math.sqrt(5) - 1) / 2
        a, b = low, high
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        fc, fd = loss(c), loss(d)
        for _ in range(60):
            if fc <= fd:
                b, d, fd = d, c, fc
                c = b - ratio * (b - a)
                fc = loss(c)
            else:
                a, c, fc = c, d, fd
                d = a + ratio * (b - a)
                fd = loss(d)
        z = (a + b) / 2
        return math.exp(z), -loss(z)

    def accuracy(self, matrix: npt.NDArray[np.float64]) -> float:
        """How often the option valued most (the first of equals) is the one chosen."""
        return float((matrix.argmax(axis=1) == self.chosen).mean())

    def uniform(self, options: npt.NDArray[np.bool_]) -> tuple[float, float]:
        """Choosing uniformly: the log-likelihood per decision and the expected share of choices guessed right."""
        counts = options.sum(axis=1)
        return -float(np.log(counts).mean()), float((1 / counts).mean())


@dataclass(frozen=True)
class Estimate:
    """A fitted parameter: its value and 95 % interval (NaN ends: the games do not tell it)."""

    parameter: Parameter
    value: float
    low: float
    high: float
    games: int

    @property
    def settled(self) -> bool:
        return self.high - self.value <= self.parameter.settle and self.value - self.low <= self.parameter.settle

    @property
    def games_to_settle(self) -> int | None:
        """Games (in all) that would narrow the interval to the parameter's precision, from how it narrows as one over
        the square root of the games (None: settled already, or not told at all)."""
        if self.settled:
            return None
        half = (self.high - self.low) / 2
        if not math.isfinite(half):
            return None
        return math.ceil(self.games * (half / self.parameter.settle) ** 2)


@dataclass
class Fit:
    """The fitted weights and temperature, the log-likelihood there, and each parameter's estimate."""

    weights: dict[str, float]
    temperature: float
    log_likelihood: float
    estimates: list[Estimate] = field(default_factory=list)
    design_effect: float = 1.0  #: how much more games vary than independent decisions would (1 or more)
    evaluations: int = 0  #: weights the bot valued every decision for


#: Half the 95 % point of a chi-square of one degree of freedom: the fall of the log-likelihood at a 95 % bound.
CHI2_HALF = 1.920729410347062


class Likelihood:
    """The recorded decisions' log-likelihood as a function of the searched weights (the temperature profiled out),
    the bot's values of every decision kept for each weights tried."""

    def __init__(self, decisions: Decisions, valuation: Valuation, parameters: Sequence[Parameter], budget: int):
        self.decisions, self.valuation, self.parameters, self.budget = decisions, valuation, list(parameters), budget
        self.seen: dict[tuple[float, ...], npt.NDArray[np.float64]] = {}

    def matrix(self, z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Every decision's option values for the weights at ``z`` (searched scale)."""
        key = tuple(round(float(x), 12) for x in z)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self.decisions.matrix(self.valuation(self.weights(z)))[0]
        return found

    def weights(self, z: npt.NDArray[np.float64]) -> dict[str, float]:
        return {p.name: p.from_search(float(x)) for p, x in zip(self.parameters, z)}

    def at(self, z: npt.NDArray[np.float64], temperature: float | None = None) -> float:
        """The log-likelihood at ``z``, at ``temperature`` or the best one."""
        matrix = self.matrix(z)
        if temperature is None:
            return self.decisions.best_temperature(matrix)[1]
        return float(self.decisions.log_likelihoods(matrix, temperature).sum())

    def best(
        self,
        start: npt.NDArray[np.float64],
        held: int | None = None,
        temperature: float | None = None,
        *,
        near: bool = True,
    ) -> tuple[npt.NDArray[np.float64], float]:
        """The weights of greatest likelihood from ``start``, the weight ``held`` (an index) kept at its value there and
        the temperature at ``temperature`` if given; and that likelihood. ``near``: the best is near ``start`` (a
        profile's next point), so the search starts with small steps and stops sooner (a tenth of a unit of
        log-likelihood is nothing against an interval's 1.92)."""
        from scipy.optimize import minimize

        free = [i for i in range(len(start)) if i != held]
        if not free:
            return start, self.at(start, temperature)

        def point(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            z = start.copy()
            z[free] = x
            return z

        bounds = [self.parameters[i].bounds for i in free]
        x0 = start[free]
        steps = [self.parameters[i].step if near else _first_step(self.parameters[i]) for i in free]
        simplex = np.clip([x0, *(x0 + np.eye(len(free))[k] * steps[k] for k in range(len(free)))], *np.array(bounds).T)

        def loss(x: npt.NDArray[np.float64]) -> float:
            return -self.at(point(x), temperature)

        tolerance = {"xatol": 1e-2, "fatol": 0.05} if near else {"xatol": 1e-3, "fatol": 1e-3}
        options: Any = {"initial_simplex": simplex, "maxfev": self.budget, **tolerance}
        found = minimize(loss, list(map(float, x0)), method="Nelder-Mead", bounds=bounds, options=options)
        return point(np.asarray(found.x, dtype=np.float64)), -float(found.fun)


def fit(
    decisions: Decisions,
    valuation: Valuation,
    parameters: Sequence[Parameter],
    start: dict[str, float],
    *,
    games: int,
    intervals: bool = True,
    budget: int = 300,
) -> Fit:
    """The weights ``parameters`` (from ``start``) and the temperature that make the recorded choices likeliest, with
    their 95 % profile-likelihood intervals (``intervals``); ``budget`` caps the weights tried by each search."""
    likelihood = Likelihood(decisions, valuation, parameters, budget)
    z0 = np.array([p.to_search(start[p.name]) for p in parameters])
    best, top = likelihood.best(z0, near=False)
    temperature, top = decisions.best_temperature(likelihood.matrix(best))
    result = Fit(likelihood.weights(best), temperature, top)
    if intervals:
        result.design_effect = _design_effect(decisions, likelihood.matrix(best), temperature)
        threshold = CHI2_HALF * result.design_effect
        result.estimates = [
            *(_profiled(likelihood, best, top, i, threshold, games) for i in range(len(parameters))),
            _temperature(likelihood, best, temperature, top, threshold, games),
        ]
    result.evaluations = len(likelihood.seen)
    return result


def _first_step(parameter: Parameter) -> float:
    """The initial simplex's step: a fifth of the range (a tenth of its logarithm's)."""
    low, high = parameter.bounds
    return (high - low) / (10 if parameter.log else 5)


def _design_effect(decisions: Decisions, matrix: npt.NDArray[np.float64], temperature: float) -> float:
    """How much more the games' shares of the likelihood's slope spread than independent decisions would: the
    sandwich's variance over the plain one, on the logarithm of the temperature (at least 1)."""
    z, h = math.log(temperature), 0.02
    up, down = (decisions.per_game(matrix, math.exp(z + d)) for d in (h, -h))
    centre = decisions.per_game(matrix, temperature)
    curvature = -float(up.sum() - 2 * centre.sum() + down.sum()) / h**2
    scores = (up - down) / (2 * h)
    if not curvature > 0:
        return 1.0
    return max(1.0, float((scores**2).sum()) / curvature)


def _walk(fall: Callable[[float], float], centre: float, edge: float, step: float, threshold: float) -> float:
    """The point between ``centre`` and ``edge`` where ``fall`` (0 at the centre) first passes ``threshold``: stepped
    out by ``step`` (doubling), then halved in between; ``edge`` if it never does."""
    inside, distance = centre, step
    direction = 1.0 if edge >= centre else -1.0
    while True:
        point = centre + direction * min(distance, abs(edge - centre))
        if fall(point) > threshold:
            outside = point
            break
        inside = point
        if point == edge:
            return edge
        distance *= 2
    for _ in range(3):
        middle = (inside + outside) / 2
        if fall(middle) > threshold:
            outside = middle
        else:
            inside = middle
    return (inside + outside) / 2


def _profiled(
    likelihood: Likelihood, best: npt.NDArray[np.float64], top: float, i: int, threshold: float, games: int
) -> Estimate:
    """Weight ``i``'s profile-likelihood interval: the others (and the temperature) fitted again at each value tried."""
    parameter = likelihood.parameters[i]
    start = best.copy()

    def fall(value: float) -> float:
        nonlocal start
        start[i] = value
        start, found = likelihood.best(start, held=i)
        return top - found

    ends = []
    for edge in parameter.bounds:
        start = best.copy()
        ends.append(parameter.from_search(_walk(fall, float(best[i]), edge, parameter.step, threshold)))
    return Estimate(parameter, parameter.from_search(float(best[i])), min(ends), max(ends), games)


def _temperature(
    likelihood: Likelihood, best: npt.NDArray[np.float64], temperature: float, top: float, threshold: float, games: int
) -> Estimate:
    """The temperature's profile-likelihood interval: the weights fitted again at each temperature tried."""
    start = best.copy()

    def fall(z: float) -> float:
        nonlocal start
        start, found = likelihood.best(start, temperature=math.exp(z))
        return top - found

    ends = []
    for edge in TEMPERATURE.bounds:
        start = best.copy()
        ends.append(math.exp(_walk(fall, math.log(temperature), edge, TEMPERATURE.step, threshold)))
    return Estimate(TEMPERATURE, temperature, min(ends), max(ends), games)
