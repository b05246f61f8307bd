"""The stakes tuner: propose the stakes sheets the box never printed, with the evidence.

1. Targets: play the printed sheets (4 and 5 players in the base game) and measure how
   the game plays: length, eliminations, guide shares, games nobody wins, balance, and how
   close the bots' choice between IN and OUT is. The target is their average; a
   ``tuning:`` block in the variant may override targets and weights. A game that falls
   to a count being tuned plays on with the next printed sheet cut down (:func:`stand_ins`),
   so the proposals do not depend on what the variant held before.
2. Candidates: every sheet shaped like the printed ones (OUT coins never rise with more
   OUT players, IN coins never fall with more IN players, whole numbers within bounds).
3. A race: all candidates play the same games (common random numbers); after each round
   the worse half drops out and the rest play twice as many games (successive halving).
   The winner's neighbours (one coin up or down) then race the finalists.
4. A check: the race's winner and its runners-up play again, paired (the same games for
   every sheet), on games of another seed. Their distances there, each with its 95 %
   interval, say which runners-up cannot be told apart from the winner (the proposal's
   ``alternatives``) and whether the winner is the best again (its stability). The race's
   own figures cannot: the winner is the sheet whose games went luckiest among many.
5. Leave one out: each printed sheet is hidden and tuned from the other printed count;
   how far the proposal lands from the printed sheet says how far to trust the others.
6. Exploitability: on each proposed sheet and each printed one, a strong bot (``search``)
   takes one rotating seat against a field of the tuning bots; what it wins more than a
   field bot wins in that seat on the same games (a fair share) is its gain. A proposal
   whose gain is beyond every printed sheet's, at 95 %, is more exploitable than the
   sheets the designer settled: a clever player would take more from it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from workbench import GENERATOR, __version__
from workbench.errors import Naming, Problem, Remark, UsageError, VariantError
from workbench.games.chance_it.schema import TUNING_METRICS, Players, Sheet, Variant
from workbench.loading import Document, load_document, validate
from workbench.outputs import write_atomic
from workbench.policies import said
from workbench.render import a
from workbench.sim.outcome import credit_scale
from workbench.sim.paired import Estimate, Measure, PairedFactory, Statistic, difference, estimate, of_arm, ratio
from workbench.sim.race import Entry, race
from workbench.sim.runner import Backend, run_many
from workbench.yamledit import put_entry

#: A difference of one unit costs 1 in the distance (before weights): what counts as "noticeably different".
SCALES = {
    "rounds_mean": 1.0,
    "rounds_sd": 1.0,
    "eliminations_per_player": 0.05,
    "out_share": 0.03,
    "in_share": 0.03,
    "chance_it_share": 0.02,
    "no_winner": 0.03,
    "balance": 0.05,
    "in_out_gap": 0.4,
}
DESCRIPTIONS = {
    "rounds_mean": "rounds per game, mean",
    "rounds_sd": "rounds per game, spread (sd)",
    "eliminations_per_player": "eliminations per game, per player",
    "out_share": "share of OUT picks",
    "in_share": "share of IN picks",
    "chance_it_share": "share of CHANCE IT picks",
    "no_winner": "games nobody wins",
    "balance": "balance (1 - largest gap between seats)",
    "in_out_gap": "closeness of IN and OUT (bots' value gap)",
}
assert set(SCALES) == set(TUNING_METRICS) == set(DESCRIPTIONS)
#: Sheets a designer settled (from the box, or tuned by playtests): ``--write`` replaces them only when asked to.
KEPT = ("printed", "tuned")
#: One noticeable difference (a unit of SCALES): a proposal whose figures are less certain than this (half its 95 %
#: interval) cannot tell noticeably different sheets apart.
CERTAIN = 1.0

#: (value, low, high) of a figure; low and high are None when no interval applies.
Figure = tuple[float, float | None, float | None]


def figures(summary: dict[str, Any], players: int) -> dict[str, Figure]:
    """The tuned metrics of one simulation summary."""
    rounds, per_game = summary["rounds"], summary["eliminations"]["per_game"]
    guides = summary["guides"]

    def share(figure: dict[str, Any]) -> Figure:
        return (figure["rate"], figure["low"], figure["high"])

    gap = guides["in_out_gap"]
    return {
        "rounds_mean": (rounds["mean"], rounds["low"], rounds["high"]),
        "rounds_sd": (rounds["sd"], None, None),
        "eliminations_per_player": (per_game["mean"] / players, per_game["low"] / players, per_game["high"] / players),
        "out_share": share(guides["out"]),
        "in_share": share(guides["in"]),
        "chance_it_share": share(guides["chance-it"]),
        "no_winner": share(summary["wins"]["no_winner"]),
        "balance": (summary["balance"] or 0.0, None, None),
        "in_out_gap": (gap["mean"], gap["low"], gap["high"]),
    }


def tuning_statistics(at: dict[str, int], players: int) -> dict[str, Callable[[Any], float]]:
    """Each tuned figure as a function of one arm's column means in the family's paired measure (``at``: column name
    -> index), as :func:`figures` reads it from a summary; the spread of rounds over the games, n rather than n - 1."""
    per_game = partial(_per, at)
    credits = [at[f"credit.{seat}"] for seat in range(players)]
    scale = credit_scale(players)

    def rounds_sd(arm: Any) -> float:
        mean = arm[at["rounds"]] / arm[at["games"]]
        return math.sqrt(max(0.0, arm[at["rounds.squared"]] / arm[at["games"]] - mean * mean))

    def balance(arm: Any) -> float:
        rates = [arm[c] / scale / arm[at["games"]] for c in credits]
        return float(1 - (max(rates) - min(rates)))

    return {
        "rounds_mean": per_game("rounds", "games"),
        "rounds_sd": rounds_sd,
        "eliminations_per_player": ratio(at["eliminations"], at["games"], players),
        "out_share": per_game("picks.out", "picks"),
        "in_share": per_game("picks.in", "picks"),
        "chance_it_share": per_game("picks.chance-it", "picks"),
        "no_winner": per_game("no_winner", "games"),
        "balance": balance,
        "in_out_gap": ratio(at["gaps.sum"], at["gaps"], 1000),
    }


def _per(at: dict[str, int], numerator: str, denominator: str) -> Callable[[Any], float]:
    return ratio(at[numerator], at[denominator])


def unmeasured(measured: dict[int, dict[str, Any]]) -> list[str]:
    """The tuned figures that rest on no observation in ``measured`` (summaries by player count): the closeness of IN
    and OUT when no heuristic bot chose (a search bot values no guide: it plays them out)."""
    return ["in_out_gap"] if any(not summary["guides"]["in_out_gap"]["n"] for summary in measured.values()) else []


def distance(measured: dict[str, Figure], targets: dict[str, float], weights: dict[str, float]) -> float:
    """How far measured figures are from the targets: the weighted sum of squared differences in scale units."""
    return sum(weights.get(name, 1.0) * ((measured[name][0] - target) / SCALES[name]) ** 2 for name, target in targets.items())


@dataclass(frozen=True, order=True)
class Candidate:
    """A stakes sheet for n players: coins each OUT player takes (k = 1..n-1) and each IN player pays (m = 1..n)."""

    out: tuple[int, ...]
    in_: tuple[int, ...]

    @property
    def players(self) -> int:
        """The player count the sheet is for."""
        return len(self.in_)

    def label(self) -> str:
        """Short text: ``out 4 2 all | in 1 2 3``."""
        return f"out {' '.join(map(str, self.out))} all | in {' '.join(map(str, self.in_))}"

    def sheet(self, **extra: Any) -> Sheet:
        """As a variant's sheet (``all_out`` last), marked proposed."""
        return Sheet.model_validate({"out": [*self.out, "all_out"], "in": list(self.in_), "source": "proposed", **extra})

    @classmethod
    def from_sheet(cls, sheet: Sheet) -> Candidate:
        """The candidate of an existing sheet."""
        return cls(tuple(sheet.out[:-1]), tuple(sheet.in_))  # type: ignore[arg-type]


def is_shaped(candidate: Candidate, out_max: int, in_max: int) -> bool:
    """Shaped like the printed sheets: OUT never rises with more OUT players, IN never falls, within bounds.

    >>> is_shaped(Candidate((4, 2, 1), (1, 2, 3, 3)), 6, 4), is_shaped(Candidate((2, 4, 1), (1, 2, 3, 3)), 6, 4)
    (True, False)
    """
    out, in_ = candidate.out, candidate.in_
    return (
        all(0 <= v <= out_max for v in out)
        and all(0 <= v <= in_max for v in in_)
        and all(a >= b for a, b in pairwise(out))
        and all(a <= b for a, b in pairwise(in_))
    )


def space_size(players: int, out_max: int, in_max: int) -> int:
    """How many shaped sheets there are for ``players``: OUT columns times IN columns (multisets of coin values).

    >>> space_size(3, 6, 4), space_size(12, 20, 20)  # 28 x 35; the second is never listed, only sampled
    (980, 19118402473224600)
    """
    return math.comb(out_max + players - 1, players - 1) * math.comb(in_max + players, players)


def _multiset_at(index: int, values: int, size: int) -> tuple[int, ...]:
    """The ``index``-th non-decreasing tuple of ``size`` positions in ``range(values)``, in lexicographic order
    (the order of ``itertools.combinations_with_replacement(range(values), size)``), without listing the others.

    >>> _multiset_at(0, 3, 2), _multiset_at(3, 3, 2), _multiset_at(5, 3, 2)
    ((0, 0), (1, 1), (2, 2))
    """
    found: list[int] = []
    low = 0
    for slot in range(size):
        rest = size - slot - 1
        position = low
        while index >= (block := math.comb(values - position + rest - 1, rest)):  # tuples starting at ``position``
            index -= block
            position += 1
        found.append(position)
        low = position
    return tuple(found)


def candidate_at(index: int, players: int, out_max: int, in_max: int) -> Candidate:
    """The ``index``-th shaped sheet in the fixed order of :func:`space` (OUT columns high to low, then IN columns)."""
    ins = math.comb(in_max + players, players)
    out_index, in_index = divmod(index, ins)
    out = tuple(out_max - position for position in _multiset_at(out_index, out_max + 1, players - 1))
    return Candidate(out, _multiset_at(in_index, in_max + 1, players))


def space(players: int, out_max: int, in_max: int) -> list[Candidate]:
    """Every shaped sheet for ``players``, in a fixed order (only for small spaces: the tuner samples by index).

    >>> len(space(3, 6, 4))  # 28 OUT columns x 35 IN columns
    980
    """
    return [candidate_at(i, players, out_max, in_max) for i in range(space_size(players, out_max, in_max))]


def neighbours(candidate: Candidate, out_max: int, in_max: int) -> list[Candidate]:
    """The shaped sheets one coin away in one entry."""
    found = []
    for column in ("out", "in_"):
        values = getattr(candidate, column)
        for index in range(len(values)):
            for step in (-1, 1):
                changed = values[:index] + (values[index] + step,) + values[index + 1 :]
                other = Candidate(changed, candidate.in_) if column == "out" else Candidate(candidate.out, changed)
                if is_shaped(other, out_max, in_max):
                    found.append(other)
    return found


#: A strong seat plays at most this many games on each sheet (``budget / 20`` below that).
EXPLOIT_GAMES = 2_000

#: The check plays the race's winner and this many runners-up again.
CHECKED = 5
#: The check's games are those of another seed: the run's seed plus this.
CHECK_SEED = 1_000_000_000


@dataclass
class Check:
    """The race's winner and runners-up played again, paired, on ``games`` games of another seed (see the module's
    docstring): each one's distance there, and each one's difference from the winner's (winner first)."""

    seed: int
    games: int
    candidates: list[Candidate]
    distances: list[Estimate]
    differences: list[Estimate]

    @property
    def best(self) -> Candidate:
        """The sheet closest to the targets on the check's games (the first of equals)."""
        return self.candidates[min(range(len(self.candidates)), key=lambda i: self.distances[i].value)]

    @property
    def stable(self) -> bool:
        """Whether the race's winner is the closest again."""
        return self.best == self.candidates[0]

    def said(self) -> str:
        """The check in a sentence or two, for the terminal."""
        winner = self.distances[0]
        best = self.candidates.index(self.best)
        again = (
            "the closest again" if self.stable else f"not the closest: {self.best.label()} is ({self.distances[best].value:.2f})"
        )
        said = f"played again on {self.games:,} games of another seed: distance {winner.value:.2f} ({winner.low:.2f} to {winner.high:.2f}), {again}"
        close = self.alternatives()
        if not close:
            return f"{said}; every runner-up is told apart from it at 95 %"
        sheets = "; ".join(f"{self.candidates[i].label()} ({self.distances[i].value:.2f})" for i in close)
        return f"{said}; cannot be told apart from it at 95 %: {sheets}"

    def alternatives(self) -> list[int]:
        """The runners-up whose distance cannot be told apart from the winner's at 95 % (their interval of the
        difference holds 0), by their place in :attr:`candidates`."""
        return [i for i in range(1, len(self.candidates)) if self.differences[i].low <= 0 <= self.differences[i].high]


@dataclass(frozen=True)
class Exploit:
    """What a strong bot takes on one sheet in a rotating seat against a field of the tuning bots, on ``games`` games:
    its win rate, a field bot's in that seat on the same games (a fair share), and the paired difference (its gain)."""

    players: int
    bot: str
    games: int
    win: Estimate
    share: Estimate
    gain: Estimate

    def said(self) -> str:
        """The strong seat's gain in words."""
        weaker = f" (the {self.bot} bot plays worse than the field: it tells nothing of a clever player)"
        return (
            f"{a(self.bot)} bot in one seat wins {self.win.value:.1%} where a field bot wins {self.share.value:.1%}: "
            f"{100 * self.gain.value:+.1f} pp ({100 * self.gain.low:+.1f} to {100 * self.gain.high:+.1f})"
            + (weaker if self.gain.high < 0 else "")
        )


@dataclass
class Tuned:
    """The outcome of tuning one player count."""

    players: int
    ranking: list[Entry[Candidate]]  # best first: the finalists, then the others by their last distance
    space: int
    evaluated: int
    games: int
    check: Check | None = None  # None for a leave-one-out tune

    @property
    def best(self) -> Entry[Candidate]:
        """The proposal."""
        return self.ranking[0]


class Tuner:
    """Tunes stakes sheets of one variant with one table of bots (see the module docstring)."""

    def __init__(
        self,
        family: Any,
        variant: Variant,
        bots: str,
        personas: dict[str, Any],
        *,
        seed: int,
        budget: int,
        backend: Backend,
        engine: str = "interpreter",
        progress: Callable[[str, int], Callable[[int], None]] | None = None,
        stop: Callable[[], bool] = lambda: False,
    ):
        self.family = family
        self.engine = engine
        self.variant = variant
        self.bots = bots
        self.personas = personas
        self.seed = seed
        self.budget = budget
        self.backend = backend
        self.progress = progress
        self.stop = stop
        self.tuning = variant.tuning

    def weights(self) -> dict[str, float]:
        """Each metric's weight: 1 unless the variant's ``tuning.weights`` says otherwise."""
        given: dict[str, float] = {str(name): weight for name, weight in self.tuning.weights.items()}
        return {name: given.get(name, 1.0) for name in TUNING_METRICS}

    def _factory(self, variant: Variant, players: int, seed: int | None = None, seat_bot: str | None = None) -> Any:
        if players < variant.players.min:  # a sheet used after eliminations: play that table from the start
            variant = variant.model_copy(update={"players": Players(min=players, max=variant.players.max)})
        table = (self.bots,) * players
        seed = self.seed if seed is None else seed
        return self.family.simulator(variant, players, table, self.personas, seed, seat_bot=seat_bot, engine=self.engine)

    def exploit(self, variant: Variant, players: int, bot: str, games: int) -> Exploit:
        """A strong ``bot`` in a rotating seat of ``variant`` at ``players`` against a field of the tuning bots, paired
        with a field bot in that seat on the same ``games`` games (see the module's docstring)."""
        measure = self.family.seat_measure()
        win = next(statistic.of for statistic in measure.statistics if statistic.name == "win_rate")
        arms = (self._factory(variant, players), self._factory(variant, players, seat_bot=bot))
        advance = self.progress(f"{players} players, {a(bot)} seat", games) if self.progress else None
        (tally,) = run_many(
            [PairedFactory.of(arms, measure)], [(0, games)], backend=self.backend, progress=advance, stop=self.stop
        )
        sums, rate = tally.sums, (0.0, 1.0)
        return Exploit(
            players, bot, games, estimate(sums, 2, of_arm(win, 1), rate), estimate(sums, 2, of_arm(win, 0), rate),
            estimate(sums, 2, difference(win, 1)),
        )  # fmt: skip

    def play(self, variants: list[Variant], players: int, games: list[tuple[int, int]], label: str) -> list[Any]:
        """Tallies of ``variants`` at ``players``, each on its own range of game indices."""
        advance = self.progress(label, sum(b - a for a, b in games)) if self.progress else None
        factories = [self._factory(variant, players) for variant in variants]
        return run_many(factories, games, backend=self.backend, progress=advance, stop=self.stop)

    def measure(self, counts: list[int], games: int, *, variant: Variant | None = None) -> dict[int, dict[str, Any]]:
        """Summaries of the variant (as it is, or ``variant``) at each of ``counts``."""
        found = {}
        for count in counts:
            (tally,) = self.play([variant or self.variant], count, [(0, games)], f"targets: {count} players")
            found[count] = tally.summary()
        return found

    def targets(self, measured: dict[int, dict[str, Any]]) -> dict[str, float]:
        """The average of the measured figures over the given counts, with the designer's overrides; a figure the bots
        never gave (:func:`unmeasured`) is left out unless the designer set its target."""
        averaged = (
            {
                name: sum(figures(summary, count)[name][0] for count, summary in measured.items()) / len(measured)
                for name in TUNING_METRICS
                if name not in unmeasured(measured)
            }
            if measured
            else {}
        )
        averaged.update({str(name): target for name, target in self.tuning.targets.items()})
        return {name: value for name, value in averaged.items() if self.weights()[name] > 0}

    def with_sheet(self, variant: Variant, players: int, candidate: Candidate) -> Variant:
        """The variant with this candidate as its sheet for ``players``."""
        return variant.model_copy(update={"stakes": {**variant.stakes, players: candidate.sheet()}})

    def tune(self, players: int, targets: dict[str, float], *, variant: Variant | None = None, keep: int = 3) -> Tuned:
        """Race the candidate sheets for ``players`` towards ``targets``."""
        variant = variant or self.variant
        t = self.tuning
        whole = space_size(players, t.out_max, t.in_max)
        rng = random.Random(f"{self.seed}:tune:{players}")
        size = max(keep + 1, min(48, self.budget // 150))  # a small budget races fewer sheets, not fewer games each
        chosen = range(whole) if whole <= size else rng.sample(range(whole), size)  # by index: the space is never listed
        pool = [candidate_at(i, players, t.out_max, t.in_max) for i in chosen]
        first = self._race(variant, players, pool, targets, int(self.budget * 0.6), keep, "search")
        leaders = [entry.candidate for entry in first[:keep]]
        around = sorted({n for leader in leaders[:2] for n in neighbours(leader, t.out_max, t.in_max)} - set(leaders))
        second = self._race(variant, players, leaders + around, targets, self.budget - int(self.budget * 0.6), keep, "refine")
        seen = {entry.candidate for entry in second}
        ranking = second + [entry for entry in first if entry.candidate not in seen]
        evaluated = len({entry.candidate for entry in ranking})
        return Tuned(players, ranking, whole, evaluated, sum(e.games for e in first) + sum(e.games for e in second))

    def check(self, tuned: Tuned, targets: dict[str, float]) -> Check:
        """Play the winner of ``tuned`` and up to :data:`CHECKED` runners-up again, paired, on ``budget / 20`` games
        each (at least 100) of the seed plus :data:`CHECK_SEED`: their distances and differences from the winner."""
        players, weights = tuned.players, self.weights()
        candidates = [entry.candidate for entry in tuned.ranking[: CHECKED + 1]]
        games = max(100, self.budget // 20)
        seed = self.seed + CHECK_SEED
        measure: Measure = self.family.table_measure([self.variant], players, (self.bots,) * players)
        shown = tuning_statistics({name: i for i, name in enumerate(measure.columns)}, players)

        def apart(arm: Any) -> float:
            return distance({name: (shown[name](arm), None, None) for name in targets}, targets, weights)

        arms = tuple(self._factory(self.with_sheet(self.variant, players, c), players, seed) for c in candidates)
        paired = PairedFactory.of(arms, Measure(measure.columns, measure.measure, (Statistic("distance", apart),), measure.rows))
        advance = self.progress(f"{players} players, check", games) if self.progress else None
        (tally,) = run_many([paired], [(0, games)], backend=self.backend, progress=advance, stop=self.stop)
        count = len(candidates)
        return Check(
            seed,
            games,
            candidates,
            [estimate(tally.sums, count, of_arm(apart, i), (0.0, math.inf)) for i in range(count)],
            [estimate(tally.sums, count, difference(apart, i)) for i in range(count)],
        )

    def _race(
        self, variant: Variant, players: int, pool: list[Candidate], targets: dict[str, float], budget: int, keep: int, stage: str
    ) -> list[Entry[Candidate]]:
        """The race of ``pool`` (see :func:`workbench.sim.race.race`), every entry best first."""
        weights = self.weights()

        def play(candidates: list[Candidate], ranges: list[tuple[int, int]], label: str) -> list[Any]:
            return self.play([self.with_sheet(variant, players, c) for c in candidates], players, ranges, label)

        def score(summary: dict[str, Any]) -> tuple[dict[str, Figure], float]:
            measured = figures(summary, players)
            return measured, distance(measured, targets, weights)

        return race(pool, play, score, budget, keep, f"{players} players, {stage}", "sheets")


def cut(sheet: Sheet, players: int) -> Sheet:
    """A sheet for fewer players: the first entries of each column (OUT ending in ``all_out``), marked proposed.

    >>> printed = Sheet.model_validate({"out": [4, 2, 1, "all_out"], "in": [1, 2, 3, 3], "source": "printed"})
    >>> Candidate.from_sheet(cut(printed, 3)).label()
    'out 4 2 all | in 1 2 3'
    """
    whole = Candidate.from_sheet(sheet)
    return Candidate(whole.out[: players - 1], whole.in_[:players]).sheet()


def stand_ins(variant: Variant, tuned: list[int], printed: list[int]) -> Variant:
    """The variant the targets are measured on: a sheet being tuned is replaced by the next printed sheet, cut down.

    Games at a printed count fall to fewer players after eliminations; when such a count's
    sheet is one this run proposes, the game plays on with the smallest printed sheet for
    more players, cut to the players left. So the targets never depend on the proposals'
    earlier values, and a tune run again on its own output proposes the same sheets.
    """
    stakes = dict(variant.stakes)
    for n in tuned:
        larger = [m for m in printed if m > n]
        if larger:
            stakes[n] = cut(variant.stakes[min(larger)], n)
    return variant.model_copy(update={"stakes": stakes})


def load_for_tuning(path: Path, counts: list[int]) -> tuple[Variant, list[int]]:
    """Load a variant whose sheets for ``counts`` (or smaller counts) may be missing; returns it and every count to tune.

    Missing sheets below a requested count are tuned first (a game falls to fewer players
    after eliminations); a missing sheet above every requested count stays an error.
    """
    doc = load_document(path, includes=("cards",))
    stakes = doc.data.get("stakes") if isinstance(doc.data, dict) else None
    present = {int(k) for k in stakes if str(k).isdigit()} if isinstance(stakes, dict) else set()
    players = doc.data.get("players") if isinstance(doc.data, dict) else None
    given = players.get("max") if isinstance(players, dict) else None
    top: int = given if isinstance(given, int) else max(counts)
    for n in counts:
        if not 2 <= n <= top:
            raise UsageError("players", f"a stakes sheet is for 2 to {top} players (players.max of {path.name} is {top})", str(n))
    wanted = sorted(set(counts) | {n for n in range(2, max(counts)) if n not in present})
    if isinstance(stakes, dict):
        filled = dict(stakes)
        for n in wanted:
            if n not in present:
                filled[n] = {"out": [0] * (n - 1) + ["all_out"], "in": [0] * n, "source": "proposed"}
        doc = Document({**doc.data, "stakes": filled}, doc.marks, doc.path)
    missing_above = [n for n in range(max(counts) + 1, top + 1) if n not in present]
    if missing_above:
        raise VariantError(
            [
                doc.problem(
                    ("stakes",),
                    Remark(None, partial(_tune_as_well, missing_above[0])),
                )
            ]
        )
    return validate(Variant, doc), wanted


def _tune_as_well(players: int, name: Naming) -> str:
    """The refusal of a run that would leave a larger sheet missing, the player count named as the caller names it."""
    return f"the {players}-player sheet is missing too; tune it as well: {name('players')} {players}"


def _budget_words(players: int, budget: int, words: str, name: Naming) -> str:
    """The warning of a budget too small: ``3 players: budget 300 is too small ...``, the budget named as the caller
    names it."""
    return f"{players} players: {name('budget')} {budget:,} {words}"


@dataclass
class Report:
    """Everything a tuning run found: targets, the tuned counts and the leave-one-out check."""

    variant: Variant
    bots: str
    seed: int
    budget: int
    target_games: int
    measured: dict[int, dict[str, Any]]  # printed count -> summary
    targets: dict[str, float]
    weights: dict[str, float]
    tuned: list[Tuned]
    left_out: list[tuple[Candidate, Tuned]]  # (printed sheet, its tune from the other printed counts)
    command: str | None = None  # the command that reproduces the run
    replaced: dict[int, str] = field(default_factory=dict)  # tuned counts that had a printed sheet -> its label
    exploits: dict[int, Exploit] = field(default_factory=dict)  # a strong seat's gain on each tuned and printed sheet
    unexploited: str | None = None  # why no strong seat played, when none did

    def exploitable(self, players: int) -> bool | None:
        """Whether a strong seat gains more on the proposal for ``players`` than on every printed sheet, at 95 % (its
        gain's interval above theirs); None when that was not measured."""
        mine = self.exploits.get(players)
        printed = [self.exploits[n] for n in self.measured if n in self.exploits]
        if mine is None or not printed:
            return None
        return mine.gain.low > max(exploit.gain.high for exploit in printed)

    def exploitability(self, players: int) -> dict[str, Any]:
        """A strong seat's gain on the proposal for ``players`` and on the printed sheets, for the proposal file."""
        mine = self.exploits.get(players)
        if mine is None:
            return {"exploitability": self.unexploited} if self.unexploited else {}

        def triple(estimate: Estimate) -> list[float]:
            return [round(estimate.value, 4), round(estimate.low, 4), round(estimate.high, 4)]

        return {
            "exploitability": {
                "bot": mine.bot,
                "games": mine.games,
                "win_rate": triple(mine.win),
                "fair_share": triple(mine.share),
                "gain": triple(mine.gain),
                "printed_gains": {n: triple(self.exploits[n].gain) for n in self.measured if n in self.exploits},
                "more_than_printed": self.exploitable(players),
            }
        }

    def provenance(self, tuned: Tuned, report: str | None = None) -> dict[str, Any]:
        """Where a proposed sheet came from, as stored with it."""
        best = tuned.best
        found: dict[str, Any] = {
            "workbench": f"{GENERATOR} {__version__}",
            **({"command": self.command} if self.command else {}),
            "targets_from": (
                f"printed sheets for {', '.join(map(str, sorted(self.measured)))} players"
                if self.measured
                else "the tuning block's targets"
            ),
            "bots": self.bots,
            "seed": self.seed,
            "budget": self.budget,
            "games_measured": best.games,  # the games behind the figures (the finalists' last race)
            "distance": round(best.distance, 3),
            "candidates": f"{tuned.evaluated} raced of {tuned.space}",
        }
        if tuned.players in self.replaced:
            found["replaces"] = f"the {self.replaced[tuned.players]}"
        if report:
            found["report"] = report
        return found

    def uncertainty(self, entry: Entry[Candidate]) -> dict[str, float]:
        """Half the 95 % interval of each targeted figure of ``entry``, in units of a noticeable difference (SCALES).

        Figures without an interval (the spread of rounds, balance) are left out.
        """
        return {
            name: (high - low) / 2 / SCALES[name]
            for name in self.targets
            for _, low, high in [entry.figures[name]]
            if low is not None and high is not None
        }

    def warnings(self) -> list[Remark]:
        """A warning for a figure the bots never gave (left out of the distance), and for each proposal whose figures
        are too uncertain to tell noticeably different sheets apart."""
        found = [
            Remark(None, f"the {self.bots} bots never gave the {DESCRIPTIONS[name]}: it is left out of the distance")
            for name in unmeasured(self.measured)
            if name not in self.targets
        ]
        for tuned in self.tuned:
            spread = self.uncertainty(tuned.best)
            if not spread:
                continue
            worst = max(spread, key=lambda name: (spread[name], name))
            if spread[worst] <= CERTAIN:
                continue
            needed = math.ceil(self.budget * (spread[worst] / CERTAIN) ** 2 / 1000) * 1000
            words = (
                f"is too small for this proposal to mean much: its figures rest on {tuned.best.games:,} games and are "
                f"uncertain by up to ±{spread[worst]:.1f} noticeable differences ({DESCRIPTIONS[worst]}: "
                f"±{spread[worst] * SCALES[worst]:.3g}); a budget of about {needed:,} brings that to ±{CERTAIN}"
            )
            found.append(Remark(None, partial(_budget_words, tuned.players, self.budget, words)))
        return found

    def metrics(self, entry: Entry[Candidate]) -> dict[str, Any]:
        """A candidate's figures next to the targets, for the proposal file: the difference in each one's own units, and
        its share of the distance (a difference of one noticeable unit, :data:`SCALES`, costs 1 before weights)."""
        total = entry.distance
        found = {}
        for name, target in self.targets.items():
            measured = entry.figures[name][0]
            part = self.weights[name] * ((measured - target) / SCALES[name]) ** 2
            found[name] = {
                "measured": round(measured, 4),
                "target": round(target, 4),
                "difference": round(measured - target, 4),
                "share": round(part / total, 3) if total else 0.0,
            }
        return found

    def checked(self, tuned: Tuned) -> dict[str, Any]:
        """What the check found, for the proposal file: whether the winner is the best again on the check's games, and
        the runners-up that cannot be told apart from it there (``alternatives``), each with its distance and the 95 %
        interval of its difference from the winner's."""
        check = tuned.check
        if check is None:
            return {}
        winner = check.distances[0]
        return {
            "stability": {
                "seed": check.seed,
                "games": check.games,
                "distance": [round(winner.value, 3), round(winner.low, 3), round(winner.high, 3)],
                "winner_again": check.stable,
                **({} if check.stable else {"closest": check.best.label()}),
            },
            "alternatives": [
                {
                    "sheet": check.candidates[i].label(),
                    "distance": round(check.distances[i].value, 3),
                    "difference": [
                        round(value, 3)
                        for value in (check.differences[i].value, check.differences[i].low, check.differences[i].high)
                    ],
                }
                for i in check.alternatives()
            ],
        }


def tune_stakes(
    family: Any,
    path: Path,
    counts: list[int],
    *,
    bots: str,
    personas: dict[str, Any] | None = None,
    seed: int,
    budget: int,
    backend: Backend,
    engine: str = "interpreter",
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
    stop: Callable[[], bool] = lambda: False,
    command: str | None = None,
    keep_printed: bool = False,
    exploit_bot: str | None = None,
    exploit_games: int | None = None,
) -> Report:
    """Tune the sheets for ``counts`` (and any smaller missing count), smallest first, and check the method on the printed ones.

    ``keep_printed`` refuses, before any game, to tune a count whose sheet is printed or
    tuned by the designer (``source: printed`` or ``tuned``): for a run that will write its
    proposals into the variant. ``exploit_bot`` (None: nobody) then plays a rotating seat
    on every proposed and printed sheet, ``exploit_games`` games each (None: ``budget /
    20``, at most :data:`EXPLOIT_GAMES`).
    """
    variant, wanted = load_for_tuning(path, counts)
    if keep_printed:
        kept = [n for n in counts if n in variant.stakes and variant.stakes[n].source in KEPT]
        if kept:
            n = kept[0]
            source = variant.stakes[n].source
            raise UsageError(
                "players",
                lambda name: (
                    f"the {n}-player sheet of {path.name} is {source} (source: {source}); {name('write')} would "
                    f"replace it with a proposal. Add {name('replace_printed')} to do that, or leave out {name('write')} to see "
                    "the proposal only"
                ),
                str(n),
            )
    personas = personas if personas is not None else family.personas(variant)
    for option, bot in (("bots", bots), ("exploit_bot", exploit_bot)):
        if bot is not None and bot not in personas:
            raise UsageError(option, f"unknown bot {bot!r}; known: {', '.join(sorted(personas))}")
    printed = sorted(n for n, sheet in variant.stakes.items() if sheet.source == "printed" and n not in wanted)
    if not printed and not variant.tuning.targets:
        raise VariantError(
            [
                Problem(
                    path,
                    None,
                    "stakes",
                    "no printed sheet to take targets from; mark one `source: printed` or give targets in a `tuning:` block",
                )
            ]
        )
    target_games = max(500, budget // 8)
    tuner = Tuner(
        family, variant, bots, personas, seed=seed, budget=budget, backend=backend, engine=engine, progress=progress, stop=stop
    )
    measured = tuner.measure(printed, target_games, variant=stand_ins(variant, wanted, printed))
    targets = tuner.targets(measured)
    tuned = []
    for n in wanted:
        result = tuner.tune(n, targets)
        result.check = tuner.check(result, targets)
        tuned.append(result)
        tuner.variant = tuner.with_sheet(tuner.variant, n, result.best.candidate)  # bigger tables fall back on it
    left_out = []
    if len(printed) >= 2:
        for n in printed:
            others = {count: summary for count, summary in measured.items() if count != n}
            result = tuner.tune(n, tuner.targets(others), variant=tuner.variant)
            left_out.append((Candidate.from_sheet(variant.stakes[n]), result))
    replaced = {
        n: f"{variant.stakes[n].source} sheet {Candidate.from_sheet(variant.stakes[n]).label()}"
        for n in wanted
        if variant.stakes[n].source in KEPT
    }
    games = min(EXPLOIT_GAMES, budget // 20) if exploit_games is None else exploit_games
    exploits, unexploited = {}, None
    if exploit_bot == bots:
        unexploited = f"not measured: the tuning bots are {bots} bots already (name a stronger one to measure it)"
    elif exploit_bot is not None and games:
        exploits = {n: tuner.exploit(tuner.variant, n, exploit_bot, games) for n in [*wanted, *printed]}
    return Report(
        tuner.variant, bots, seed, budget, target_games, measured, targets, tuner.weights(), tuned, left_out, command,
        replaced, exploits, unexploited,
    )  # fmt: skip


# --- what a tuning run writes ----------------------------------------------------------------------------------


def _cell(figure: Figure, name: str) -> dict[str, str]:
    value, low, high = figure
    digits = 2 if name.startswith(("rounds", "in_out")) else 3
    interval = f"{low:.{digits}f}-{high:.{digits}f}" if low is not None and high is not None else ""
    return {"value": f"{value:.{digits}f}", "interval": interval}


def render_tuning(report: Report, top: int = 6) -> str:
    """The HTML page comparing the top candidates with the printed sheets' figures."""
    from workbench.games.chance_it.report import environment

    names = list(report.targets)
    metrics = [
        {
            "description": DESCRIPTIONS[name],
            "measured": [_cell(figures(summary, count)[name], name) for count, summary in report.measured.items()],
            "target": f"{report.targets[name]:.3f}",
            "scale": SCALES[name],
            "weight": report.weights[name],
        }
        for name in names
    ]
    tuned = [
        {
            "players": t.players,
            "best": t.best.candidate.label(),
            "evaluated": t.evaluated,
            "space": t.space,
            "games": t.games,
            "rows": [
                {
                    "label": entry.candidate.label(),
                    "distance": f"{entry.distance:.2f}",
                    "games": f"{entry.games:,}",
                    "cells": [_cell(entry.figures[name], name) for name in names],
                }
                for entry in t.ranking[:top]
            ],
            "made_of": [
                {
                    "description": DESCRIPTIONS[name],
                    "measured": part["measured"],
                    "target": part["target"],
                    "difference": f"{part['difference']:+.3g}",
                    "percent": f"{part['share']:.0%}",
                }
                for name, part in report.metrics(t.best).items()
            ],
            "check": _check_rows(t.check),
        }
        for t in report.tuned
    ]
    left_out = [_left_out_row(printed, t) for printed, t in report.left_out]
    exploits = [
        {
            "players": n,
            "sheet": ("printed " if n in report.measured else "proposed ")
            + Candidate.from_sheet(report.variant.stakes[n]).label(),
            "win": f"{exploit.win.value:.1%}",
            "share": f"{exploit.share.value:.1%}",
            "gain": f"{100 * exploit.gain.value:+.1f} pp",
            "interval": f"{100 * exploit.gain.low:+.1f} to {100 * exploit.gain.high:+.1f}",
            "verdict": {True: "more than every printed sheet", False: "no more than a printed sheet", None: ""}[
                report.exploitable(n) if n not in report.measured else None
            ],
        }
        for n, exploit in sorted(report.exploits.items())
    ]
    return (
        environment()
        .get_template("tuning.html.j2")
        .render(
            variant=report.variant.name,
            bots=report.bots,
            seed=report.seed,
            budget=report.budget,
            target_games=report.target_games,
            measured=list(report.measured),
            metrics=metrics,
            tuned=tuned,
            left_out=left_out,
            all_close=all(row["within"] == row["entries"] for row in left_out),
            exploits=exploits,
            exploit=next(iter(report.exploits.values()), None),
            unexploited=report.unexploited,
            proposals=_proposals([t.players for t in report.tuned]),
        )
    )


def _proposals(counts: list[int]) -> str:
    """The proposals of a run in words: "the 3- and 6-player proposals", "the 3-player proposal".

    >>> _proposals([2, 3, 6]), _proposals([3])
    ('the 2-, 3- and 6-player proposals', 'the 3-player proposal')
    """
    if not counts:
        return "the proposals"
    *first, last = counts
    return f"the {said([*(f'{n}-' for n in first), f'{last}-player'], 'and')} proposal{'s' if first else ''}"


def _check_rows(check: Check | None) -> dict[str, Any] | None:
    """The check of a proposal as the page shows it."""
    if check is None:
        return None
    close = set(check.alternatives())
    return {
        "games": check.games,
        "seed": check.seed,
        "stable": check.stable,
        "closest": check.best.label(),
        "rows": [
            {
                "label": candidate.label(),
                "distance": f"{check.distances[i].value:.2f}",
                "interval": f"{check.distances[i].low:.2f}-{check.distances[i].high:.2f}",
                "difference": "" if not i else f"{check.differences[i].value:+.2f}",
                "difference_interval": "" if not i else f"{check.differences[i].low:+.2f} to {check.differences[i].high:+.2f}",
                "verdict": _verdict(check, i, close),
            }
            for i, candidate in enumerate(check.candidates)
        ],
    }


def _verdict(check: Check, i: int, close: set[int]) -> str:
    """How candidate ``i`` of a check compares with the proposal (candidate 0)."""
    if not i:
        return "the proposal"
    if i in close:
        return "cannot be told apart"
    return "clearly closer" if check.differences[i].high < 0 else "clearly further"


def _left_out_row(printed: Candidate, tuned: Tuned) -> dict[str, Any]:
    proposed = tuned.best.candidate
    diffs = [b - a for a, b in zip(printed.out + printed.in_, proposed.out + proposed.in_)]
    out_part = " ".join(f"{d:+d}" for d in diffs[: len(printed.out)])
    in_part = " ".join(f"{d:+d}" for d in diffs[len(printed.out) :])
    return {
        "players": tuned.players,
        "printed": printed.label(),
        "proposed": proposed.label(),
        "within": sum(abs(d) <= 1 for d in diffs),
        "entries": len(diffs),
        "diffs": f"out {out_part} | in {in_part}",
    }


def proposal_yaml(report: Report, page: str | None = None) -> str:
    """The proposed sheets as a YAML file: ``stakes:`` entries with their provenance and measured figures."""

    stakes = {}
    for tuned in report.tuned:
        provenance = {
            **report.provenance(tuned, page),
            **report.checked(tuned),
            **report.exploitability(tuned.players),
            "metrics": report.metrics(tuned.best),
        }
        stakes[tuned.players] = {
            "out": [*tuned.best.candidate.out, "all_out"],
            "in": list(tuned.best.candidate.in_),
            "source": "proposed",
            "provenance": provenance,
        }
    header = (
        f"# Stakes sheets proposed by `workbench tune-stakes` (chance-workbench) for {report.variant.name}.\n"
        "# Copy the entries into your variant's `stakes:`, or run the tuner with --write.\n"
    )
    return header + yaml.safe_dump({"stakes": stakes}, sort_keys=False, default_flow_style=None, width=110)


def check_write_back(path: Path, counts: list[int]) -> None:
    """Refuse, before any game, a variant file whose sheets for ``counts`` :func:`write_back` could not edit."""
    text = path.read_bytes().decode("utf-8")
    for n in counts:
        put_entry(text, path, "stakes", n, {"out": [0] * (n - 1) + ["all_out"], "in": [0] * n, "source": "proposed"})


def write_back(path: Path, report: Report, page: str | None = None, *, still: str | None = None) -> None:
    """Put the proposed sheets into the variant file, changing only their lines (see :func:`workbench.yamledit.put_entry`).

    Every other byte stays as the designer wrote it: comments (those inside a replaced
    block-style sheet move above or after its new line), key order, spacing, line endings.
    The file is replaced atomically, so an interrupted write leaves it as it was; with ``still`` (a sha256), only if
    it still has those bytes as it is replaced (else :class:`~workbench.outputs.FileChanged`, the file left as it is).
    """
    text = path.read_bytes().decode("utf-8")
    for tuned in report.tuned:
        sheet = {
            "out": [*tuned.best.candidate.out, "all_out"],
            "in": list(tuned.best.candidate.in_),
            "source": "proposed",
            "provenance": report.provenance(tuned, page),
        }
        text = put_entry(text, path, "stakes", tuned.players, sheet)
    write_atomic(path, text.encode("utf-8"), still=still)


__all__ = [
    "Candidate",
    "Report",
    "Tuned",
    "Tuner",
    "distance",
    "figures",
    "load_for_tuning",
    "neighbours",
    "space",
    "tune_stakes",
    "unmeasured",
    "write_back",
]
