"""Questions answered on paired games: compare variants, measure cards by intervention, skill against luck.

Every study plays several *arms* (variants, a seat's gift, a bot at a seat) on the same
game indices with the same seeded streams (common random numbers, see
:mod:`workbench.sim.paired`), through the runner of ``simulate``: many cores,
deterministic for a seed whatever the number of workers, a progress bar, Ctrl-C keeps
the games that finished, outputs checked before the first game and written atomically.
In a notebook::

    from workbench import studies
    result = studies.compare(["variants/mine.yaml", "variants/my-change.yaml"], players=[4], games=2000)
    [s.label for s in result.runs[0].significant]
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench import GENERATOR
from workbench.errors import UsageError, display_path
from workbench.games import CardInfo, Family, Loaded, Ranked, Studied, family_of_file
from workbench.loading import did_you_mean
from workbench.policies import said
from workbench.render import a
from workbench.render.pages import interval, number, p_value, render_cards, render_compare, render_skill
from workbench.runs import (
    Notice,
    Plan,
    Progress,
    RunOptions,
    VariantLike,
    as_loaded,
    bot_names,
    check_bots,
    check_run,
    choose_engine,
    job,
    named,
    one_count,
    plain_persona,
    plan,
    player_counts,
)
from workbench.sim.paired import Estimate, Measure, PairedFactory, PairedTally, difference, estimate, holm, of_arm
from workbench.sim.runner import LOCAL, Backend, Stop

#: Family-wise error rate of the significance calls (Holm's correction over every test of a study).
ALPHA = 0.05
#: Fewer games than this give no test: the normal intervals are not to be trusted on so few.
TEST_GAMES = 30
#: The bounds of a rate: its interval stops at 0 and 1.
RATE = (0.0, 1.0)
CORRECTION = (
    "Holm-Bonferroni over every difference tested in this comparison ({tests} tests: each figure, variant and "
    "player count; balance, a maximum minus a minimum, and a difference that is zero in every game are not tested), "
    "family-wise error rate {alpha:.0%}; the intervals are 95 % paired intervals, not corrected"
)


# --- compare -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Compared:
    """One statistic at one player count: each variant's value and each variant's difference from the first."""

    name: str  #: as in ``summary.json`` (``rounds.mean``, ``guides.in.rate``)
    label: str  #: the figure in words
    percent: bool
    tested: bool  #: False for a figure the delta method cannot judge (balance, a maximum): shown, not tested
    values: list[Estimate]  #: one per variant
    differences: list[Estimate]  #: variant i+1 minus variant 0
    adjusted: list[float] = field(default_factory=list)  #: Holm-adjusted p-values of the differences (NaN: not tested)
    untested: str = ""  #: why the figure is not tested at all (empty when it is): see :func:`compared_run`

    def why_not(self, i: int) -> str:
        """Why difference ``i`` was not tested (empty when it was)."""
        if not math.isnan(self.adjusted[i]):
            return ""
        return self.untested or "the same in every game in every variant"

    @property
    def significant(self) -> bool:
        """Whether any variant differs from the first after the correction."""
        return any(p <= ALPHA for p in self.adjusted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "percent": self.percent,
            "values": [value.report() for value in self.values],
            "differences": [
                {**d.report(), "p": rounded_p(d.p), "p_adjusted": rounded_p(adjusted), "significant": adjusted <= ALPHA}
                for d, adjusted in zip(self.differences, self.adjusted)
            ],
        }


def rounded_p(p: float) -> float | None:
    """A p-value for the JSON: four significant digits, null when nothing was tested."""
    return None if math.isnan(p) else float(f"{p:.4g}")


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
        first = sorted(self.significant, key=lambda s: min(p for p in s.adjusted if not math.isnan(p)))
        return first + [s for s in self.statistics if not s.significant]

    @property
    def notes(self) -> list[dict[str, Any]]:
        """Each variant's notes (``summary.json``'s: the bots' blind spots), with the variant's index (0: A)."""
        return [{"variant": i, **note} for i, summary in enumerate(self.summaries) for note in summary.get("notes", [])]

    def to_dict(self) -> dict[str, Any]:
        noted = any("notes" in summary for summary in self.summaries)  # a family whose summaries have notes
        return {
            "players": self.players,
            "games": self.games,
            "interrupted": self.interrupted,
            "statistics": [s.to_dict() for s in self.ordered()],
            **({"notes": self.notes} if noted else {}),
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
    engine: str  #: ``batch`` or ``interpreter``
    runs: list[ComparedRun]
    written: list[Path]

    def report(self) -> str:
        """``compare.html``: every figure's change with its paired interval, as charts and tables."""
        return render_compare(self.to_dict(), self.family.title, self.family.figures.length[1])

    @property
    def tests(self) -> int:
        """Differences tested (and so counted by the correction)."""
        return sum(not math.isnan(p) for r in self.runs for s in r.statistics for p in s.adjusted)

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
            "engine": self.engine,
            "correction": {"method": "holm", "alpha": ALPHA, "tests": self.tests, "about": self.correction},
            "interrupted": self.interrupted,
            "runs": [r.to_dict() for r in self.runs],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def letters(self) -> list[str]:
        """``A: name (file)`` for each variant, as the terminal table names them."""
        return [f"{chr(65 + i)}: {v['name']} ({v['file'] or 'not from a file'})" for i, v in enumerate(self.variants)]

    def note_lines(self) -> list[str]:
        """Each run's notes, one line each: the variant's letter (and the player count when there are several)."""
        many = len(self.runs) > 1
        return [
            f"{chr(65 + note['variant'])}{f', {done.players} players' if many else ''}: {note['text']}"
            for done in self.runs
            for note in done.notes
        ]

    def tables(self, every: bool = False) -> list[tuple[str, list[str], list[list[str]]]]:
        """The terminal tables, two per player count: the figures a designer acts on first (the family's headline,
        changed or not), then the significant changes (every figure with ``every``)."""
        headers = ["figure", "A", "vs", "value", "change", "95 % interval", "p (Holm)"]
        headline = self.family.figures.headline
        found = []
        for done in self.runs:
            named = {s.name: s for s in done.statistics}
            lead = [row for name in headline if name in named for row in _compared_rows(named[name])]
            found.append(
                (
                    f"{done.players} players, {', '.join(self.bots)} bots, {done.games:,} games per variant: the figures "
                    "to look at first",
                    headers,
                    lead,
                )
            )
            rows = [row for s in (done.ordered() if every else done.significant) for row in _compared_rows(s)]
            title = f"{done.players} players: {len(done.significant)} of {len(done.statistics)} figures changed significantly (*)"
            found.append((title, headers, rows))
        return found

    def untested_lines(self) -> list[str]:
        """Per player count, the figures not tested, grouped by why (a figure may be tested for one variant only)."""
        lines = []
        for done in self.runs:
            why: dict[str, list[str]] = {}
            for s in done.statistics:
                for i in range(len(s.differences)):
                    reason = s.why_not(i)
                    if reason:
                        label = s.label if len(s.differences) == 1 else f"{s.label} ({chr(66 + i)})"
                        why.setdefault(reason, []).append(label)
            for reason, labels in sorted(why.items()):  # the same order whatever figure comes first
                lines.append(f"not tested at {done.players} players ({reason}): {', '.join(labels)}")
        return lines


def _compared_rows(s: Compared) -> list[list[str]]:
    """A figure's rows of a terminal table: one per variant against the first."""
    rows = []
    for i, (value, d, p) in enumerate(zip(s.values[1:], s.differences, s.adjusted)):
        first = i == 0
        rows.append(
            [
                s.label if first else "",
                number(s.values[0].value, s.percent) if first else "",
                chr(66 + i),
                number(value.value, s.percent),
                number(d.value, s.percent, signed=True),
                interval(d.low, d.high, s.percent, signed=True),
                p_value(p) + (" *" if p <= ALPHA else ""),
            ]
        )
    return rows


def compare(
    variants: Sequence[VariantLike],
    *,
    players: int | Sequence[int] | None = None,
    games: int = 1000,
    seed: int = 1,
    bots: str | Sequence[str] | None = None,
    backend: Backend = LOCAL,
    personas: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    engine: str = "auto",
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Comparison:
    """Play every variant on the same game indices and seeds, and test each statistic's difference from the first.

    Each difference gets a paired 95 % interval (from the per-game differences) and a
    p-value; significance is called after Holm's correction over every test of the
    comparison. ``out`` gets ``compare.json`` and ``compare.html``. A stop keeps the games
    that finished (the same prefix of game indices in every variant).
    """
    check_run(games)
    plans = _compared_plans(variants, players, bots, personas)
    family = plans[0].family
    counts, first = plans[0].counts, plans[0].tables[plans[0].counts[0]]
    seated = [(p.loaded.variant, p.seated) for p in plans]  # the same names at every table, each as its variant says
    choice = choose_engine(family, seated, engine)
    options = RunOptions(backend, engine, force, create_out, progress, notice, stop, yes)
    with job(family, choice, options, [given for p in plans for given in p.inputs]) as work:
        targets = work.out_files(out, "compare.json", "compare.html")
        runs: list[ComparedRun] = []
        with work.running():
            for count in work.each(counts):
                measure = family.table_measure([p.loaded.variant for p in plans], count, plans[0].tables[count])
                arms = tuple(
                    family.simulator(p.loaded.variant, count, p.tables[count], p.known, seed, engine=work.engine) for p in plans
                )
                tally, interrupted, timing = work.play_paired(PairedFactory.of(arms, measure), games, f"{count} players")
                if tally.games:
                    runs.append(compared_run(count, tally, measure, interrupted, timing))
            result = Comparison(
                family,
                [{"name": p.loaded.variant.name, "file": display_path(p.path) if p.path else None} for p in plans],
                counts,
                seed,
                bot_names(first),
                work.engine,
                _corrected(runs),
                [],
            )
            if not runs:
                return result
            written = work.commit(
                {targets[0]: result.to_json(), targets[1]: result.report()} if targets else {}, interrupted=result.interrupted
            )
    return replace(result, written=written)


def _compared_plans(
    variants: Sequence[VariantLike],
    players: int | Sequence[int] | None,
    bots: str | Sequence[str] | None,
    personas: str | os.PathLike[str] | None,
) -> list[Plan]:
    """The plan of each variant compared: variants of one game, each taking every player count, with the same bot
    names at every table (each meaning what its own variant and ``personas`` say)."""
    if len(variants) < 2:
        raise UsageError(None, "compare: name at least two variant files (the first is the reference)")
    if len(variants) > 26:
        raise UsageError(None, f"compare: at most 26 variants at once (they are lettered A to Z), not {len(variants)}")
    loaded = [as_loaded(v) for v in variants]
    family = loaded[0][0].family
    for other, other_path in loaded[1:]:
        if other.family is not family:
            what = display_path(other_path) if other_path else other.variant.name
            raise UsageError(None, f"{what} is a {other.family.title} variant; compare variants of one game ({family.title})")
    for variant, path in loaded:  # every variant must take every count
        player_counts(variant, players, path)
    plans: list[Plan] = []
    for variant, path in loaded:
        try:
            plans.append(plan(variant, players, bots, personas))
        except UsageError as exc:  # say which variant lacks the bot: the others may define it
            what = display_path(path) if path is not None else repr(variant.variant.name)
            raise exc.adding(f"(in {what})") from None
    return plans


def compared_run(count: int, tally: PairedTally, measure: Measure, interrupted: bool, timing: dict[str, Any]) -> ComparedRun:
    arms = len(tally.arms)
    statistics = []
    for statistic in measure.statistics:
        bounds = RATE if statistic.percent else (-math.inf, math.inf)
        values = [estimate(tally.sums, arms, of_arm(statistic.of, a), bounds) for a in range(arms)]
        differences = [estimate(tally.sums, arms, difference(statistic.of, a)) for a in range(1, arms)]
        untested = (
            "a maximum minus a minimum: the delta method gives it no interval"
            if not statistic.tested
            else f"fewer than {TEST_GAMES} games"
            if tally.games < TEST_GAMES
            else ""
        )
        statistics.append(
            Compared(statistic.name, statistic.label, statistic.percent, not untested, values, differences, untested=untested)
        )
    summaries = [arm.summary() for arm in tally.arms]
    return ComparedRun(count, tally.games, interrupted, statistics, summaries, timing)


def _corrected(runs: list[ComparedRun]) -> list[ComparedRun]:
    """The runs with Holm-adjusted p-values over every difference tested in every run (NaN for the others: a
    figure not tested, or a difference that is zero in every game)."""
    flat = [d.p if s.tested else math.nan for r in runs for s in r.statistics for d in s.differences]
    tested = [p for p in flat if not math.isnan(p)]
    adjusted = iter(holm(tested))
    corrected = iter([math.nan if math.isnan(p) else next(adjusted) for p in flat])
    return [
        replace(r, statistics=[replace(s, adjusted=[next(corrected) for _ in s.differences]) for s in r.statistics]) for r in runs
    ]


# --- cards by intervention -----------------------------------------------------------------------------------

#: How a card's coins-equivalent is judged against its price (the rule is printed with every verdict).
CARD_RULE = (
    "too strong when the whole 95 % interval of its coins-equivalent lies above 1.5 × price + 1 coins; too weak when "
    "it lies below 2/3 × price; in line when it lies between those bounds; unclear when it straddles one (more games "
    "narrow it)"
)


#: Fewer games than this give no verdict: the normal intervals are not to be trusted on so few.
VERDICT_GAMES = 100


def card_verdict(cost: int, worth: Estimate) -> tuple[str, str]:
    """The flag of a card whose coins-equivalent is ``worth`` (with its interval), and the evidence in words.

    >>> card_verdict(1, Estimate(9.0, 1.0, 500))[0], card_verdict(6, Estimate(2.0, 0.5, 500))[0]
    ('too strong', 'too weak')
    >>> card_verdict(3, Estimate(4.0, 0.5, 500))[0], card_verdict(3, Estimate(4.0, 3.0, 500))[0]
    ('in line', 'unclear')
    """
    high_bound, low_bound = 1.5 * cost + 1, round(2 * cost / 3, 2)
    if worth.n < VERDICT_GAMES:
        return "unclear", f"only {worth.n} game{'s' if worth.n != 1 else ''}: too few for a verdict (at least {VERDICT_GAMES})"
    if math.isnan(worth.value):  # the coins had no measurable effect
        return "unclear", "the extra coins had no measurable effect on the win rate, so nothing converts to coins"
    where = f"worth {worth.value:.1f} coins (95 % {worth.low:.1f} to {worth.high:.1f}) for a price of {cost}"
    if worth.low > high_bound:
        return "too strong", f"{where}: all above {high_bound:g}"
    if worth.high < low_bound:
        return "too weak", f"{where}: all below {low_bound:g}"
    if worth.low >= low_bound and worth.high <= high_bound:
        return "in line", f"{where}: within {low_bound:g} to {high_bound:g}"
    return "unclear", f"{where}: the interval straddles {low_bound:g} or {high_bound:g}"


@dataclass(frozen=True)
class CardEffect:
    """One card, given to a seat: what it did to that seat's game, against the same games without it."""

    card: CardInfo
    source: str  #: ``variant``, or the card file it came from
    effects: dict[str, Estimate]  #: by the seat measure's statistic (``win_rate``, ``coins``, ...): card minus none
    worth: Estimate  #: its coins-equivalent
    flag: str
    evidence: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.card.id,
            "name": self.card.name,
            "cost": self.card.cost,
            "when": self.card.when,
            "source": self.source,
            "effect": {name: {**e.report(), "p": rounded_p(e.p)} for name, e in self.effects.items()},
            "coins_equivalent": self.worth.report(),
            "flag": self.flag,
            "evidence": self.evidence,
        }


@dataclass(frozen=True)
class CardStrength:
    """What :func:`cards` measured: each card's effect and coins-equivalent, and the market as the bots used it."""

    family: Studied
    variant: dict[str, str | None]
    extra: str | None  #: the card file given with ``--with``
    players: int
    seed: int
    bots: list[str]
    games: int
    coins: int  #: coins given in the reference arm that prices a win
    baseline: dict[str, Estimate]  #: the seat's figures without a gift
    coin_effect: dict[str, Estimate]  #: what ``coins`` extra coins did
    cards: list[CardEffect]
    observed: dict[str, Any]  #: the market as the bots used it without a gift (observational): see ``card_usage``
    interrupted: bool
    timing: dict[str, Any]
    written: list[Path] = field(default_factory=list)
    engine: str = "interpreter"  #: ``batch`` or ``interpreter``
    #: The bots' blind spots in the games without a gift (``summary.json``'s notes), each with what the card did when
    #: given to a seat (``coins_equivalent``, ``flag``) when it was studied.
    notes: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The body of ``cards.json``."""
        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "variant": self.variant,
            "with": self.extra,
            "players": self.players,
            "seed": self.seed,
            "bots": self.bots,
            "engine": self.engine,
            "games": self.games,
            "method": {
                "gift": self.family.gift,
                "pairing": "each card's games are the same game indices, seeds and seats as the games without it",
                "coins_equivalent": (
                    f"the card's effect on the seat's win rate divided by the effect of {self.coins} extra coins at the "
                    f"start, times {self.coins} (delta-method 95 % interval)"
                ),
                "rule": CARD_RULE,
                "intervals": (
                    "95 % for each card on its own, not corrected for the number of cards; the coins-equivalent "
                    "takes the win rate to grow in proportion to the coins given"
                ),
            },
            "baseline": {name: e.report() for name, e in self.baseline.items()},
            "coins_given": self.coins,
            "coin_effect": {name: {**e.report(), "p": rounded_p(e.p)} for name, e in self.coin_effect.items()},
            "cards": [card.to_dict() for card in self.cards],
            "observed": {"about": OBSERVED, "cards": self.observed},
            "notes": self.notes,
            "interrupted": self.interrupted,
            "timing": self.timing,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def table(self) -> tuple[str, list[str], list[list[str]]]:
        """The terminal table: one row per card, strongest first."""
        headers = ["card", "cost", "win rate ±", "95 % interval", "coins-equivalent", "verdict"]
        rows = []
        for c in sorted(self.cards, key=lambda c: -c.effects["win_rate"].value):
            win = c.effects["win_rate"]
            rows.append(
                [
                    c.card.id,
                    str(c.card.cost),
                    number(win.value, True, signed=True),
                    interval(win.low, win.high, True, signed=True),
                    f"{number(c.worth.value)} ({interval(c.worth.low, c.worth.high, False)})",
                    c.flag,
                ]
            )
        title = (
            f"{self.players} players, {', '.join(self.bots)} bots, {self.games:,} games per card: each card given to one "
            "seat, against the same games without it"
        )
        return title, headers, rows

    def lines(self) -> list[str]:
        """What the terminal says besides the table: the reference the cards are priced by, and each verdict's reason."""
        base, coins = self.baseline["win_rate"], self.coin_effect["win_rate"]
        said = [
            f"Without a gift the seat wins {number(base.value, True)} of its games; {self.coins} extra coins change that by "
            f"{number(coins.value, True, signed=True)} ({interval(coins.low, coins.high, True, True)}), the yardstick of "
            "the coins-equivalents."
        ]
        return said + [
            f"{c.card.id}: {c.flag}, {c.evidence}" for c in sorted(self.cards, key=lambda c: -c.effects["win_rate"].value)
        ]

    def observed_table(self) -> tuple[str, list[str], list[list[str]]]:
        """The market as it is (observational): how often the bots bought each card, and when."""
        headers = ["card", "bought per game", "discarded", "mean round bought"]
        rows = [
            [
                card_id,
                number(t["bought_per_game"]),
                f"{t['discarded']:,}",
                number(t["round_bought"]["mean"]) if t["bought"] else "never bought",
            ]
            for card_id, t in self.observed.items()
        ]
        return f"The market as the bots used it ({self.games:,} games without a gift; observational)", headers, rows


OBSERVED = (
    "how often the bots bought each card and when, in the games without a gift; observational: buyers choose their "
    "cards, so a buyer's win rate says little about the card (the intervention above does)"
)


def cards(
    variant: str | os.PathLike[str],
    *,
    extra: str | os.PathLike[str] | None = None,
    only: Sequence[str] = (),
    players: int | None = None,
    games: int = 2000,
    seed: int = 1,
    bots: str | Sequence[str] | None = None,
    backend: Backend = LOCAL,
    personas: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    engine: str = "auto",
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> CardStrength:
    """Measure each card by intervention: one seat is given it, on the same games as without it.

    ``extra`` (a card file) adds its cards to the market for this study (no file is
    edited; a card with the id of one of the variant's replaces it) and studies only them;
    ``only`` names the cards to study (default: every card of the variant). Besides the
    games without a gift, a reference arm gives the seat some coins (the family says how
    many, :meth:`~workbench.games.Studied.reference_coins`), which turns a card's effect on
    the win rate into coins. ``out`` gets ``cards.json`` and ``cards.html``.
    """
    check_run(games)
    path = Path(variant)
    found, _ = family_of_file(path)
    family = found.studied
    if family is None:
        raise UsageError(
            None, f"{found.title} has no cards a player buys, so none to study (cards gives one to a seat and measures it)"
        )
    if extra is not None and not Path(extra).is_file():
        raise UsageError("extra", "no such card file", display_path(Path(extra)))
    loaded, added = family.with_cards(path, Path(extra)) if extra is not None else (as_loaded(path)[0], [])
    count = one_count(player_counts(loaded, players, path))
    market = family.card_list(loaded.variant)
    studied = [c for c in market if (c.id in only if only else extra is None or c.id in added)]
    for name in only:
        if name not in {c.id for c in market}:
            raise UsageError("only", f"no such card{did_you_mean(name, [c.id for c in market])}", name)
    if not studied:
        raise UsageError(None, "no card to study: the variant has no cards" if not market else "no card to study")
    seating = plan(loaded, count, bots, personas)
    known, table = seating.known, seating.tables[count]
    coins = family.reference_coins(loaded.variant, count)
    choice = choose_engine(family, [(loaded.variant, seating.seated)], engine)
    options = RunOptions(backend, engine, force, create_out, progress, notice, stop, yes)
    with job(family, choice, options, seating.inputs) as work:
        targets = work.out_files(out, "cards.json", "cards.html")
        arms = (
            family.simulator(loaded.variant, count, table, known, seed, engine=work.engine),
            family.gifted_simulator(loaded.variant, count, table, known, seed, coins=coins, engine=work.engine),
            *(family.gifted_simulator(loaded.variant, count, table, known, seed, card=c.id, engine=work.engine) for c in studied),
        )
        measure = family.seat_measure()
        with work.running():
            label = f"{len(studied)} card{'s' if len(studied) != 1 else ''}"
            tally, interrupted, timing = work.play_paired(PairedFactory.of(arms, measure), games, label)
            result = _card_strength(family, loaded, path, extra, count, seed, table, coins, studied, added, measure, tally)
            result = replace(result, interrupted=interrupted, timing=timing, engine=work.engine)
            if not tally.games:
                return result
            written = work.commit(
                {targets[0]: result.to_json(), targets[1]: render_cards(result.to_dict(), family.title)} if targets else {},
                interrupted=result.interrupted,
            )
    return replace(result, written=written)


def _card_strength(
    family: Studied,
    loaded: Loaded,
    path: Path,
    extra: str | os.PathLike[str] | None,
    players: int,
    seed: int,
    table: tuple[str, ...],
    coins: int,
    studied: list[CardInfo],
    added: list[str],
    measure: Measure,
    tally: PairedTally,
) -> CardStrength:
    arms = len(tally.arms)
    sums = tally.sums
    stats = {s.name: s.of for s in measure.statistics}
    win = stats["win_rate"]

    coin_effect = {name: estimate(sums, arms, difference(of, 1)) for name, of in stats.items()}
    priced = coin_effect["win_rate"].low > 0  # only coins that surely help put a price on a win

    def worth(arm: int) -> Callable[[Any], float]:
        """The card's effect on the win rate over that of the coins, times the coins."""

        def value(means: Any) -> float:
            bought = win(means[1]) - win(means[0])
            return coins * (win(means[arm]) - win(means[0])) / bought if priced and bought > 0 else math.nan

        return value

    effects = []
    for i, card in enumerate(studied, start=2):
        worth_ = estimate(sums, arms, worth(i))
        flag, evidence = card_verdict(card.cost, worth_)
        effects.append(
            CardEffect(
                card,
                display_path(Path(extra)) if extra is not None and card.id in added else "variant",
                {name: estimate(sums, arms, difference(of, i)) for name, of in stats.items()},
                worth_,
                flag,
                evidence,
            )
        )
    baseline = tally.arms[0].summary()
    observed = family.card_usage(baseline)
    measured = {effect.card.id: effect for effect in effects}
    notes = []
    for note in baseline.get("notes", []):
        effect = measured.get(note["card"])
        if effect is None:
            notes.append(note)
            continue
        coins_worth = effect.worth
        given = (
            f"; given to a seat it was worth {number(coins_worth.value)} coins "
            f"({interval(coins_worth.low, coins_worth.high, False)}) for its price of {effect.card.cost}: {effect.flag}"
        )
        notes.append({**note, "coins_equivalent": coins_worth.report(), "flag": effect.flag, "text": note["text"] + given})
    return CardStrength(
        family,
        {"name": loaded.variant.name, "file": display_path(path)},
        display_path(Path(extra)) if extra is not None else None,
        players,
        seed,
        bot_names(table),
        tally.games,
        coins,
        {
            name: estimate(sums, arms, of_arm(of, 0), RATE if name == "win_rate" else (-math.inf, math.inf))
            for name, of in stats.items()
        },
        coin_effect,
        effects,
        observed,
        False,
        {},
        notes=notes,
    )


# --- skill against luck --------------------------------------------------------------------------------------

SKILL_ABOUT = (
    "Each rung of the ladder takes one seat (seat i mod N in game i, so every seat takes its turn) against a field of "
    "the same fixed bot, on the same games: the same dice and shuffles for every rung. The yardstick is what a field "
    "bot wins in that seat in those games: the share of a player no better than the others (1/N, less the games "
    "nobody wins, more the shared ones). The further the stronger bots climb above it, the more skill decides."
)


@dataclass(frozen=True)
class Rung:
    """One bot of the ladder, at one seat against the field."""

    name: str
    persona: Any
    win_rate: Estimate
    over_field: Estimate  #: win rate minus the field bot's at the same seat in the same games (paired)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.name,
            "persona": plain_persona(self.persona),
            "win_rate": self.win_rate.report(),
            "over_field": {**self.over_field.report(), "p": rounded_p(self.over_field.p)},
        }


@dataclass(frozen=True)
class Skill:
    """What :func:`skill` measured: each rung's win rate against the field, and what it says about skill."""

    family: Family
    variant: dict[str, str | None]
    players: int
    seed: int
    field_bot: str
    games: int
    equal: Estimate  #: a field bot's win rate in the rotating seat: the share of a player as good as the others
    rungs: list[Rung]  #: as the ladder lists them, the bottom (weakest) first
    spread: Estimate  #: the top rung's win rate minus the bottom rung's, paired
    table_figures: dict[str, Any]  #: the field alone, as ``simulate`` reports it (first-seat advantage, seats)
    interrupted: bool
    timing: dict[str, Any]
    written: list[Path] = field(default_factory=list)
    engine: str = "interpreter"  #: ``batch`` or ``interpreter``
    above_top: list[str] = field(default_factory=list)  #: rungs below the top that won more than it, at 95 %

    @property
    def edge(self) -> Estimate:
        """The summary figure: the top rung's win rate over a field bot's in the same seat and games."""
        return self.rungs[-1].over_field

    def verdict(self) -> str:
        """The summary figure in plain words."""
        top, bottom, edge = self.rungs[-1], self.rungs[0], self.edge
        return (
            f"The top rung of the ladder ({top.name}) wins {number(top.win_rate.value, True)} of its games against "
            f"{self.players - 1} {self.field_bot} bots; in the same seat and games {a(self.field_bot)} bot, no better "
            f"than the others, wins {number(self.equal.value, True)}: {number(edge.value, True, signed=True)} "
            f"(95 % {interval(edge.low, edge.high, True, True)}). From the bottom rung ({bottom.name}) to the top, "
            f"the win rate changes by {number(self.spread.value, True, signed=True)} "
            f"(95 % {interval(self.spread.low, self.spread.high, True, True)})." + self._out_of_order()
        )

    def _out_of_order(self) -> str:
        """A word when the ladder was not listed weakest first: rungs below the top that won more than it."""
        if not self.above_top:
            return ""
        return (
            f" But {said(self.above_top, 'and')}, lower on the ladder, won more than {self.rungs[-1].name} (beyond the 95 % interval of "
            "the paired difference): the ladder is read weakest first, so the top rung here is not the strongest bot."
        )

    def to_dict(self) -> dict[str, Any]:
        """The body of ``skill.json``."""
        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "variant": self.variant,
            "players": self.players,
            "seed": self.seed,
            "field": self.field_bot,
            "engine": self.engine,
            "games": self.games,
            "about": SKILL_ABOUT,
            "equal_share": self.equal.report(),
            "rungs": [r.to_dict() for r in self.rungs],
            "skill_edge": {
                **self.edge.report(),
                "p": rounded_p(self.edge.p),
                "about": "the top rung's win rate minus equal_share",
            },
            "skill_spread": {
                **self.spread.report(),
                "p": rounded_p(self.spread.p),
                "about": "the top rung minus the bottom rung",
            },
            "verdict": self.verdict(),
            "field_alone": {
                "first_seat_advantage": self.table_figures["first_seat_advantage"],
                "wins_by_seat": self.table_figures["wins"]["by_seat"],
                "no_winner": self.table_figures["wins"]["no_winner"],
            },
            "interrupted": self.interrupted,
            "timing": self.timing,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def table(self) -> tuple[str, list[str], list[list[str]]]:
        """The terminal table: one row per rung, weakest first."""
        headers = ["bot", "win rate", "95 % interval", f"over {a(self.field_bot)} bot in its seat", "95 % interval"]
        rows = [
            [
                r.name,
                number(r.win_rate.value, True),
                interval(r.win_rate.low, r.win_rate.high, True),
                number(r.over_field.value, True, signed=True),
                interval(r.over_field.low, r.over_field.high, True, True),
            ]
            for r in self.rungs
        ]
        title = (
            f"{self.players} players, {self.games:,} games per rung: one seat against {self.players - 1} {self.field_bot} bots"
        )
        return title, headers, rows


def skill(
    variant: VariantLike,
    *,
    players: int | None = None,
    games: int = 300,
    seed: int = 1,
    bots: str | None = None,
    ladder: str | Sequence[str] | None = None,
    backend: Backend = LOCAL,
    personas: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    engine: str = "auto",
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Skill:
    """Skill against luck: a ladder of bots of rising strength, each at one seat against a field of ``bots``.

    ``ladder`` names the rungs, weakest first, as a list or one comma-separated text (default:
    the family's ladder of built-in bots); ``bots`` the field (default: the family's default
    bot). ``out`` gets ``skill.json`` and ``skill.html``.
    """
    check_run(games)
    loaded, path = as_loaded(variant)
    family = loaded.family.ranked
    if family is None:
        raise UsageError(None, f"{loaded.family.title} has no bots to rank")
    seating = plan(loaded, players, bots, personas)
    count = one_count(seating.counts)
    known, table = seating.known, seating.tables[count]
    if len(set(table)) > 1:
        raise UsageError("bots", "the field is one bot at every seat", str(bots))
    rungs = _ladder(family, ladder, known)
    choice = choose_engine(family, [(loaded.variant, [known[table[0]], *rungs.values()])], engine)
    options = RunOptions(backend, engine, force, create_out, progress, notice, stop, yes)
    with job(family, choice, options, seating.inputs) as work:
        targets = work.out_files(out, "skill.json", "skill.html")
        arms = (
            family.simulator(loaded.variant, count, table, known, seed, engine=work.engine),
            *(family.simulator(loaded.variant, count, table, known, seed, seat_bot=name, engine=work.engine) for name in rungs),
        )
        measure = family.seat_measure()
        with work.running():
            tally, interrupted, timing = work.play_paired(PairedFactory.of(arms, measure), games, f"{len(rungs)} bots")
            win = next(s.of for s in measure.statistics if s.name == "win_rate")
            sums, arms_ = tally.sums, len(tally.arms)
            found = [
                Rung(name, persona, estimate(sums, arms_, of_arm(win, i), RATE), estimate(sums, arms_, difference(win, i)))
                for i, (name, persona) in enumerate(rungs.items(), start=1)
            ]
            top = len(rungs)
            above_top = [
                name
                for i, name in enumerate(list(rungs)[:-1], start=1)
                if estimate(sums, arms_, difference(win, top, i)).high < 0
            ]
            result = Skill(
                family,
                {"name": loaded.variant.name, "file": display_path(path) if path else None},
                count,
                seed,
                table[0],
                tally.games,
                estimate(sums, arms_, of_arm(win, 0), RATE),
                found,
                estimate(sums, arms_, difference(win, len(rungs), 1)),
                tally.arms[0].summary(),
                interrupted,
                timing,
                engine=work.engine,
                above_top=above_top,
            )
            if not tally.games:
                return result
            written = work.commit(
                {targets[0]: result.to_json(), targets[1]: render_skill(result.to_dict(), family.title)} if targets else {},
                interrupted=result.interrupted,
            )
    return replace(result, written=written)


def _ladder(family: Ranked, ladder: str | Sequence[str] | None, known: dict[str, Any]) -> dict[str, Any]:
    """The rungs of the ladder, weakest first (default: the family's), each name with its persona."""
    names = named(family.ladder() if ladder is None else ladder)
    twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
    if twice is not None:
        raise UsageError("ladder", f"{twice} is named twice")
    if len(names) < 2:
        raise UsageError("ladder", f"name at least two bots, weakest first (got {len(names)})")
    check_bots(names, known, "ladder")
    return {name: known[name] for name in names}


__all__ = ["CardStrength", "Comparison", "Skill", "cards", "compare", "skill"]
