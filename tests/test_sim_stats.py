"""``Tally.summary()`` recomputed from the event logs alone, Ludii's fairness figures, exact merging, and
the statistics helpers of ``workbench/sim/stats.py`` against independent answers.

Each batch is played twice, the way ``Simulator.play`` plays game ``i`` (the streams
``RandomChance.streams(seed, i)`` and ``stream(seed, i, "bot", seat)``): once by the simulator
itself (no log) for the tally, once with ``log=True``. Every figure of the summary is then
recomputed from the logged events only - never from the engine's per-game counters
(``picks``, ``stakes_paid``, ``peak``, ``dry``, ``trajectory``, ...) - and compared number
for number. Rates are compared as ``rate(...)`` of the recomputed counts; means, spreads and
quantiles are recomputed with ``statistics`` and a plain sorted-list quantile.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games import load_variant
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.games.chance_it.schema import PersonaFile
from workbench.games.chance_it.sim import Simulator
from workbench.policies import make_bot
from workbench.sim.stats import Histogram, Moments, rate, wilson

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
RESOURCES = ("coins", "hearts", "stars")
COINS, HEARTS = 0, 1
GUIDES = ("in", "out", "chance-it")
Z = statistics.NormalDist().inv_cdf(0.975)

#: A variant with a scarce coin and star supply (so supplies run dry in some games and not in
#: others), an unlimited heart supply, a tiebreak on stars alone (so wins are shared) and a
#: short game (so every end reason occurs).
TIGHT = """\
name: Tight supply
supply:
  coins: {small: 30, big: 4, big_value: 5}
  hearts: unlimited
  stars: {small: 22, big: 0}
end: {stars: 8, tiebreak: [stars], max_rounds: 10}
"""

#: Every event type the engine logs; an unknown one fails the replay (it might move tokens).
EVENT_TYPES = {
    "market",
    "roll",
    "guides",
    "all_out",
    "stakes",
    "die",
    "reroll",
    "gain",
    "lose",
    "use",
    "buy",
    "discard",
    "chance",
    "chance_it",
    "eliminated",
    "reshuffle",
    "market_empty",
    "market_limit",
    "end",
}


@dataclass(frozen=True)
class Batch:
    name: str
    variant: str  # "base" or "tight"
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int = 12


BATCHES = [
    Batch("4p-heuristic", "base", 4, ("heuristic",) * 4, seed=5),
    Batch("3p-mixed", "base", 3, ("random", "heuristic", "random"), seed=5),
    Batch("5p-tight-supply", "tight", 5, ("heuristic", "random", "heuristic", "random", "heuristic"), seed=11),
]


# --- what one game's event log says ----------------------------------------------------------------------------


@dataclass
class Facts:
    """One game, as read from its event log."""

    players: int
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None
    rounds: int = 0
    eliminated_rounds: list[int] = field(default_factory=list)
    picks: list[int] = field(default_factory=lambda: [0, 0, 0])  # in, out, chance-it
    forced: int = 0
    paid: int = 0  # stakes coins paid
    hearts_paid: int = 0  # stakes hearts paid for want of coins
    received: int = 0  # stakes coins taken by out-players
    bought: list[list[str]] = field(default_factory=list)  # per seat
    discarded: Counter = field(default_factory=Counter)
    bought_rounds: dict[str, list[int]] = field(default_factory=dict)  # card id -> the round of each purchase
    offered: set[str] = field(default_factory=set)  # cards a seat could buy at a market action (seen by OfferSpy)
    setup: list[int] = field(default_factory=list)  # held by the players right after setup
    gaps: list[int] = field(default_factory=list)  # heuristic bots' |value(IN) - value(OUT)| per free choice, thousandths
    peak: list[int] = field(default_factory=lambda: [0, 0, 0])  # most held, checked at step ends
    dry: list[bool] = field(default_factory=lambda: [False, False, False])
    trajectory: list[tuple[int, int, int, int]] = field(default_factory=list)  # coins, hearts, stars, living
    final: list[list[int]] = field(default_factory=list)
    eliminated: list[bool] = field(default_factory=list)


def supply_totals(variant) -> list[int | None]:
    """Each resource's token total, from the variant's token counts (None when unlimited)."""
    totals = []
    for name in RESOURCES:
        entry = getattr(variant.supply, name)
        totals.append(None if entry == "unlimited" else entry.small + entry.big * entry.big_value)
    return totals


def read_log(events: list[dict[str, Any]], variant, players: int) -> Facts:
    """Replay a game's event log: every token movement, step end and round end, from the events only.

    The supply is tracked from the variant's totals less the setup through every gain, lose,
    stakes, buy and eliminated event; it "ran dry" when a gain (a gain event, or the stakes an
    OUT player takes) leaves it empty. Holdings are checked at every step end (rule 13): just
    before each ``die`` (the stakes or the previous die ended), just before the round's first
    ``chance_it`` (the last die ended) and at the round's end (all-out, stakes, last die or the
    CHANCE IT action ended).
    """
    start = [getattr(variant.start, name) for name in RESOURCES]
    totals = supply_totals(variant)
    held = [list(start) for _ in range(players)]
    supply = [None if total is None else total - players * s for total, s in zip(totals, start)]
    alive = set(range(players))
    facts = Facts(players, bought=[[] for _ in range(players)])
    facts.setup = [players * s for s in start]
    guide: dict[int, str] = {}
    forced_next: set[int] = set()
    current = 0
    chance_it_seen = False

    def change(seat: int, r: int, delta: int, *, gain: bool) -> None:
        held[seat][r] += delta
        assert held[seat][r] >= 0, (current, seat, RESOURCES[r])
        if supply[r] is not None:
            supply[r] -= delta
            assert supply[r] >= 0, (current, RESOURCES[r])
            if gain and supply[r] == 0:
                facts.dry[r] = True

    def step_end() -> None:
        for r in range(len(RESOURCES)):
            facts.peak[r] = max(facts.peak[r], sum(h[r] for h in held))

    def round_end() -> None:
        step_end()
        living = sorted(alive)
        facts.trajectory.append((*(sum(held[s][r] for s in living) for r in range(len(RESOURCES))), len(living)))

    for event in events:
        kind, rnd = event["type"], event["round"]
        assert kind in EVENT_TYPES, event
        assert facts.end_reason is None, f"an event after the end: {event}"
        if rnd != current:
            assert rnd == current + 1, event
            if current:
                round_end()
            current, chance_it_seen = rnd, False
        seat = event.get("seat")
        if kind == "guides":
            guide = {}
            assert len(event["guides"]) == players
            for s, picked in enumerate(event["guides"]):
                assert (picked is None) == (s not in alive), event  # only the living pick (rule 2)
                if picked is None:
                    continue
                guide[s] = picked
                facts.picks[GUIDES.index(picked)] += 1
                if s in forced_next:
                    facts.forced += 1
                    assert picked == "in", event  # a forced player must pick in (rule 2)
            forced_next = set(event["forced_in"])
        elif kind == "stakes":
            if guide[seat] == "out":  # an OUT player takes coins from the supply
                assert event["hearts"] == 0 and event["coins"] >= 0, event
                facts.received += event["coins"]
                change(seat, COINS, event["coins"], gain=True)
            else:  # an IN or CHANCE IT player pays, in hearts for want of coins
                assert event["coins"] <= 0 and event["hearts"] <= 0, event
                facts.paid -= event["coins"]
                facts.hearts_paid -= event["hearts"]
                change(seat, COINS, event["coins"], gain=False)
                change(seat, HEARTS, event["hearts"], gain=False)
        elif kind in ("gain", "lose"):
            for r, name in enumerate(RESOURCES):
                if name in event:
                    amount = event[name]
                    assert amount >= 0, event
                    change(seat, r, amount if kind == "gain" else -amount, gain=kind == "gain")
        elif kind == "buy":
            change(seat, COINS, -event["cost"], gain=False)
            facts.bought[seat].append(event["card"])
            facts.bought_rounds.setdefault(event["card"], []).append(event["round"])
        elif kind == "discard":
            facts.discarded[event["card"]] += 1
        elif kind == "eliminated":
            assert seat in alive and held[seat][HEARTS] == 0, event
            for r in range(len(RESOURCES)):
                change(seat, r, -held[seat][r], gain=False)
            alive.discard(seat)
            facts.eliminated_rounds.append(rnd)
        elif kind == "die":
            step_end()
        elif kind == "chance_it" and not chance_it_seen:
            step_end()
            chance_it_seen = True
        elif kind == "end":
            facts.end_reason, facts.winners, facts.rounds = event["reason"], list(event["winners"]), rnd
            assert set(facts.winners) <= alive, event
        for r, total in enumerate(totals):  # rule 15, after every event
            if total is not None:
                assert sum(h[r] for h in held) + supply[r] == total, (event, RESOURCES[r])
    round_end()
    assert facts.end_reason is not None and len(facts.trajectory) == facts.rounds
    facts.final = [list(h) for h in held]
    facts.eliminated = [s not in alive for s in range(players)]
    return facts


# --- the summary, recomputed ----------------------------------------------------------------------------------


def quantile(values: list[int], q: float) -> float:
    """numpy's default ("linear") quantile over a plain sorted list; 0.0 when empty (the summary's convention)."""
    if not values:
        return 0.0
    xs = sorted(values)
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (h - lo)


def mean_report(values: list[int]) -> dict[str, Any]:
    """Mean, sample sd and the normal 95 % interval of the mean; all zero when empty (the summary's convention)."""
    n = len(values)
    if not n:
        return {"mean": 0.0, "sd": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    mean = float(statistics.mean(values))
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n)
    return {"mean": round(mean, 4), "sd": round(sd, 4), "low": round(mean - half, 4), "high": round(mean + half, 4), "n": n}


def histogram_report(values: list[int]) -> dict[str, Any]:
    return {
        **mean_report(values),
        "median": quantile(values, 0.5),
        "p10": quantile(values, 0.1),
        "p90": quantile(values, 0.9),
        "histogram": {str(v): c for v, c in sorted(Counter(values).items())},
    }


def credits(games: list[Facts], players: int) -> list[Fraction]:
    """Each seat's wins, a win shared by k tied winners counting 1/k."""
    credit = [Fraction(0)] * players
    for g in games:
        for seat in g.winners:
            credit[seat] += Fraction(1, len(g.winners))
    return credit


def ludii(games: list[Facts], players: int) -> tuple[Fraction, Fraction]:
    """Ludii's Balance (1 - the largest gap between two seats' win rates) and AdvantageP1
    (the first seat's win rate, a game nobody wins counting half), exactly."""
    n = len(games)
    seat_rate = [c / n for c in credits(games, players)]
    balance = 1 - max(abs(a - b) for a, b in combinations(seat_rate, 2))
    no_winner = sum(1 for g in games if not g.winners)
    advantage = (credits(games, players)[0] + Fraction(no_winner, 2)) / n
    return balance, advantage


def expected_summary(games: list[Facts], batch: Batch, card_ids: list[str]) -> dict[str, Any]:
    n, seats = len(games), range(batch.players)
    wins = [sum(1 for g in games if s in g.winners) for s in seats]
    by_bot = {
        name: rate(sum(wins[s] for s in seats if batch.bots[s] == name), n * batch.bots.count(name))
        for name in sorted(set(batch.bots))
    }
    balance, advantage = ludii(games, batch.players)
    picks = [sum(g.picks[i] for g in games) for i in range(len(GUIDES))]
    first_eliminations = [min(g.eliminated_rounds) for g in games if g.eliminated_rounds]
    cards = {}
    for cid in card_ids:
        owner = [(cid in g.bought[s], s in g.winners) for g in games for s in seats]
        bought = sum(g.bought[s].count(cid) for g in games for s in seats)
        cards[cid] = {
            "bought": bought,
            "discarded": sum(g.discarded[cid] for g in games),
            "bought_per_game": round(bought / n, 4),
            "round_bought": mean_report([r for g in games for r in g.bought_rounds.get(cid, [])]),
            "offered_games": sum(cid in g.offered for g in games),
            "bought_games": sum(any(cid in b for b in g.bought) for g in games),
            "owner_win_rate": rate(sum(won for owned, won in owner if owned), sum(owned for owned, _ in owner)),
            "non_owner_win_rate": rate(sum(won for owned, won in owner if not owned), sum(not owned for owned, _ in owner)),
        }
    last = max(g.rounds for g in games)
    rows = [[g.trajectory[r - 1] for g in games if g.rounds >= r] for r in range(1, last + 1)]
    trajectory: dict[str, Any] = {"round": list(range(1, last + 1)), "games": [len(row) for row in rows]}
    # Per living player, pooled: the holdings of all games that reached the round over their living
    # players (a game with nobody left adds to neither). This is the tally's reading; the mean over games
    # of each game's per-player average is a different figure (it differs in most cells of these batches).
    for i, name in enumerate(RESOURCES):
        trajectory[name] = [
            round(sum(t[i] for t in row) / sum(t[3] for t in row), 4) if sum(t[3] for t in row) else None for row in rows
        ]
    return {
        "games": n,
        "wins": {
            "by_seat": [rate(w, n) for w in wins],
            "by_bot": by_bot,
            "no_winner": rate(sum(1 for g in games if not g.winners), n),
            "shared": rate(sum(1 for g in games if len(g.winners) > 1), n),
        },
        "balance": round(float(balance), 4),
        "first_seat_advantage": round(float(advantage), 4),
        "end_reasons": {reason: rate(count, n) for reason, count in sorted(Counter(g.end_reason for g in games).items())},
        "rounds": histogram_report([g.rounds for g in games]),
        "eliminations": {
            "per_game": histogram_report([len(g.eliminated_rounds) for g in games]),
            "games_with_elimination": rate(sum(1 for g in games if g.eliminated_rounds), n),
            "first_round": histogram_report(first_eliminations),
        },
        "guides": {
            **{guide: rate(picks[i], sum(picks)) for i, guide in enumerate(GUIDES)},
            "forced_in": rate(sum(g.forced for g in games), sum(picks)),
            "in_out_gap": mean_report([gap / 1000 for g in games for gap in g.gaps]),
        },
        "stakes": {
            "coins_paid_per_game": mean_report([g.paid for g in games]),
            "hearts_paid_per_game": mean_report([g.hearts_paid for g in games]),
            "coins_received_per_game": mean_report([g.received for g in games]),
        },
        "cards": cards,
        "components": {
            name: {
                "most_held_at_once": max(max(g.peak[i], g.setup[i]) for g in games),
                "most_held_per_game": mean_report([max(g.peak[i], g.setup[i]) for g in games]),
                "supply_ran_dry": rate(sum(g.dry[i] for g in games), n),
            }
            for i, name in enumerate(RESOURCES)
        },
        "trajectory": trajectory,
        "notes": [  # the cards passed over: never bought, or in under 1 % of the games in which a seat could
            {
                "kind": "never_bought",
                "card": cid,
                "bots": sorted(set(batch.bots), key=batch.bots.index),
                "bought_games": card["bought_games"],
                "offered_games": card["offered_games"],
                "games": n,
            }
            for cid, card in cards.items()
            if not card["bought"] or 100 * card["bought_games"] < card["offered_games"]
        ],
    }


# --- the batches ----------------------------------------------------------------------------------------------


@dataclass
class Played:
    batch: Batch
    variant: Any
    sim: Simulator
    results: list  # Simulator.play(i), as `workbench simulate` plays them
    facts: list[Facts]  # the same games played with log=True, read from their logs


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("variants")
    tight = folder / "tight.yaml"
    tight.write_text(f"extends: {BASE.resolve().as_posix()}\n{TIGHT}")
    return {"base": load_variant(BASE).variant, "tight": load_variant(tight).variant}


class OfferSpy:
    """Passes a bot's choices through, noting the cards it could buy at each market action."""

    def __init__(self, bot, offered: set[str]):
        self.bot, self.offered = bot, offered

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def market(self, view, options):
        self.offered.update(card for action, card in options if action == "buy")
        return self.bot.market(view, options)


class GapSpy:
    """Passes a heuristic bot's choices through, noting |value(IN) - value(OUT)| of each free guide choice."""

    def __init__(self, bot, gaps: list[int]):
        self.bot, self.gaps = bot, gaps

    def guide(self, view, options):
        if len(options) > 1:
            values = self.bot.guide_values(view)
            self.gaps.append(round(1000 * abs(values["in"] - values["out"])))
        return self.bot.guide(view, options)

    def market(self, view, options):
        return self.bot.market(view, options)

    def use(self, view, options):
        return self.bot.use(view, options)


def play_logged(variant, batch: Batch, index: int, gaps: list[int], offered: set[str]) -> list[dict[str, Any]]:
    """Game ``index`` exactly as ``Simulator.play`` plays it, but with the event log on (and heuristic gaps and the
    cards each seat could buy noted)."""
    rules = compile_variant(variant)
    chance = RandomChance.streams(batch.seed, index)
    game = Game(rules, batch.players, chance, log=True)
    deciders = [make_bot(BUILTIN[name], bot_stream(batch.seed, index, seat)) for seat, name in enumerate(batch.bots)]
    spied = [GapSpy(bot, gaps) if name == "heuristic" else bot for bot, name in zip(deciders, batch.bots)]
    game.play(chance, [OfferSpy(bot, offered) for bot in spied])
    return game.events


@pytest.fixture(scope="module", params=BATCHES, ids=[b.name for b in BATCHES])
def played(request, variants) -> Played:
    batch: Batch = request.param
    variant = variants[batch.variant]
    sim = Simulator(variant, batch.players, batch.bots, BUILTIN, batch.seed)
    results = [sim.play(i) for i in range(batch.games)]
    facts = []
    for i in range(batch.games):
        gaps: list[int] = []
        offered: set[str] = set()
        facts.append(read_log(play_logged(variant, batch, i, gaps, offered), variant, batch.players))
        facts[-1].gaps, facts[-1].offered = gaps, offered
    return Played(batch, variant, sim, results, facts)


def tally_of(played: Played, results=None):
    tally = played.sim.new_tally()
    for result in played.results if results is None else results:
        tally.add(result)
    return tally


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every place where two summaries differ, as ``path: expected != actual``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = [f"{path}.{k}: missing from the summary" for k in expected if k not in actual]
        out += [f"{path}.{k}: not expected" for k in actual if k not in expected]
        for k in expected:
            if k in actual:
                out += differences(expected[k], actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in differences(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [f"{path}: {expected!r} != {actual!r}"]


# --- 1. every figure, from the event logs -----------------------------------------------------------------------


def test_the_logged_games_are_the_simulated_games(played: Played) -> None:
    """Logging changes nothing, and the event replay ends where the game ended (a check of the replay)."""
    for result, facts in zip(played.results, played.facts):
        record = result.record
        assert result.game.events is None  # the simulator plays without a log
        assert (record["winners"], record["end_reason"], record["rounds"]) == (facts.winners, facts.end_reason, facts.rounds)
        assert [[p[name] for name in RESOURCES] for p in record["final"]] == facts.final
        assert [p["eliminated"] for p in record["final"]] == facts.eliminated
        assert record["bought"] == facts.bought


def test_every_summary_figure_matches_the_event_logs(played: Played) -> None:
    card_ids = [card.id for card in played.variant.cards]
    expected = expected_summary(played.facts, played.batch, card_ids)
    actual = tally_of(played).summary()
    for note in actual["notes"]:  # its words: test_simulate.py
        said = note.pop("text")
        assert said.endswith("the bots may undervalue it" if note["offered_games"] else "its figures say nothing about it")
    assert differences(expected, actual) == []


def test_the_batches_exercise_every_figure(played: Played, variants) -> None:
    """Guards the test above against becoming vacuous (pick other seeds if a bot change breaks this)."""
    games = played.facts
    assert any(g.eliminated_rounds for g in games)
    assert sum(g.forced for g in games) > 0
    assert sum(g.picks[1] for g in games) > 0 and sum(g.received for g in games) > 0
    assert any(sum(g.discarded.values()) for g in games) and any(any(b) for g in games for b in g.bought)
    assert any(g.offered - {card for b in g.bought for card in b} for g in games)  # a card offered and not bought
    if played.batch.variant == "tight":
        assert {g.end_reason for g in games} == {"stars", "last_standing", "all_eliminated", "max_rounds"}
        assert any(len(g.winners) > 1 for g in games) and any(not g.winners for g in games)
        for r in (COINS, 2):  # a limited supply that runs dry in some games but not all
            assert 0 < sum(g.dry[r] for g in games) < len(games), RESOURCES[r]
        assert supply_totals(played.variant)[HEARTS] is None
        assert any(g.hearts_paid for g in games)


# --- 2. Ludii's Balance and AdvantageP1 --------------------------------------------------------------------------


def test_balance_and_first_seat_advantage_follow_ludii(played: Played) -> None:
    games, players = played.facts, played.batch.players
    n = len(games)
    # by hand: a shared win is worth 1/k to each of its k winners; a game nobody wins is half a win for seat 0
    credit = [Fraction(0)] * players
    for g in games:
        for seat in g.winners:
            credit[seat] += Fraction(1, len(g.winners))
    assert sum(credit) == sum(1 for g in games if g.winners)
    rates = [c / n for c in credit]
    balance = 1 - max(abs(rates[a] - rates[b]) for a in range(players) for b in range(players))
    advantage = (credit[0] + Fraction(sum(1 for g in games if not g.winners), 2)) / n
    summary = tally_of(played).summary()
    assert summary["balance"] == round(float(balance), 4)
    assert summary["first_seat_advantage"] == round(float(advantage), 4)
    if played.batch.variant == "tight":  # the batch tells a split win from a whole one, and a no-winner game from a loss
        whole = [sum(1 for g in games if s in g.winners) for s in range(players)]
        assert balance != 1 - Fraction(max(whole) - min(whole), n)
        assert any(0 in g.winners and len(g.winners) > 1 for g in games) and any(not g.winners for g in games)


# --- 3. merging is exact ------------------------------------------------------------------------------------------


def test_merging_chunks_in_any_order_gives_the_same_summary(played: Played) -> None:
    results = played.results
    whole = json.dumps(tally_of(played).summary())
    count = len(results)
    rng = random.Random(played.batch.seed)
    cuts = sorted(rng.sample(range(1, count), 4))
    splits = {
        "singletons": [[r] for r in results],
        "halves": [results[:5], results[5:]],
        "thirds": [results[:3], results[3:7], results[7:]],
        "interleaved": [results[0::3], results[1::3], results[2::3]],
        "random cuts": [results[a:b] for a, b in zip([0, *cuts], [*cuts, count])],
        "with an empty chunk": [results[:6], [], results[6:]],
    }
    for name, chunks in splits.items():
        tallies = [tally_of(played, chunk) for chunk in chunks]
        for order in (list(reversed(tallies)), rng.sample(tallies, len(tallies))):
            total = played.sim.new_tally()  # into an empty tally
            for tally in order:
                total.merge(tally)
            assert json.dumps(total.summary()) == whole, name
        chunks_again = [tally_of(played, chunk) for chunk in chunks]
        first, *rest = chunks_again[::-1]  # into the last chunk's own tally
        for tally in rest:
            first.merge(tally)
        assert json.dumps(first.summary()) == whole, name


# --- 4. workbench/sim/stats.py ------------------------------------------------------------------------------------


def wilson_by_bisection(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson interval as what it is: the rates p the score test does not reject,
    n (p_hat - p)^2 <= z^2 p (1 - p), found by bisection (no closed form)."""
    p_hat = successes / trials

    def rejected(p: float) -> bool:
        return trials * (p_hat - p) ** 2 > Z * Z * p * (1 - p)

    def boundary(inside: float, outside: float) -> float:
        for _ in range(100):
            mid = (inside + outside) / 2
            if rejected(mid):
                outside = mid
            else:
                inside = mid
        return (inside + outside) / 2

    low = 0.0 if not rejected(0.0) else boundary(p_hat, 0.0)
    high = 1.0 if not rejected(1.0) else boundary(p_hat, 1.0)
    return low, high


#: Wilson score intervals, 95 %: Newcombe (1998), Statistics in Medicine 17:857-872, table I (method 3),
#: and the extremes in closed form (0/n: upper z^2/(n+z^2); n/n: lower n/(n+z^2)).
WILSON_TABLE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (1, 4, 0.0456, 0.6994),
]


@pytest.mark.parametrize(("k", "n", "low", "high"), WILSON_TABLE)
def test_wilson_matches_the_reference_table(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)
    assert rate(k, n) == {"rate": round(k / n, 4), "low": low, "high": high, "n": n}


def test_wilson_extremes_in_closed_form() -> None:
    for n in (1, 4, 10, 37):
        # (the upper end of n/n comes out as 0.9999999999999999, not 1.0: harmless once rounded for the report)
        assert wilson(0, n)[0] == pytest.approx(0.0, abs=1e-12)
        assert wilson(0, n)[1] == pytest.approx(Z * Z / (n + Z * Z), abs=1e-12)
        assert wilson(n, n)[1] == pytest.approx(1.0, abs=1e-12)
        assert wilson(n, n)[0] == pytest.approx(n / (n + Z * Z), abs=1e-12)
        assert rate(0, n)["low"] == 0.0 and rate(n, n)["high"] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_is_the_score_test_inversion(case: tuple[int, int]) -> None:
    k, n = case
    low, high = wilson(k, n)
    ref_low, ref_high = wilson_by_bisection(k, n)
    assert 0.0 <= low <= k / n + 1e-12 and k / n - 1e-12 <= high <= 1.0
    assert low == pytest.approx(ref_low, abs=1e-9) and high == pytest.approx(ref_high, abs=1e-9)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (10, 10), (5, 10), (1, 4), (81, 263), (3, 1000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson(k, n)
    assert low == pytest.approx(ci.low, abs=1e-9) and high == pytest.approx(ci.high, abs=1e-9)


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4], 0.5, 2.5),
        ([1, 2, 3, 4], 0.1, 1.3),
        ([1, 2, 3, 4], 0.9, 3.7),
        ([7], 0.1, 7.0),
        ([1, 1, 2, 3, 5, 8, 13, 21, 34, 55], 0.1, 1.0),
        ([1, 1, 2, 3, 5, 8, 13, 21, 34, 55], 0.9, 36.1),
        ([1, 1, 2, 3, 5, 8, 13, 21, 34, 55], 0.5, 6.5),
    ],
)
def test_quantile_examples_of_numpys_linear_method(values: list[int], q: float, expected: float) -> None:
    histogram = Histogram()
    for v in values:
        histogram.add(v)
    assert histogram.quantile(q) == pytest.approx(expected, abs=1e-12)


@given(
    st.lists(st.integers(-50, 200), min_size=1, max_size=60),
    st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]), st.floats(0.0, 1.0)),
)
def test_histogram_quantile_is_numpys_linear_interpolation(values: list[int], q: float) -> None:
    one_by_one, grouped = Histogram(), Histogram()
    for v in values:
        one_by_one.add(v)
    for v, times in Counter(values).items():
        grouped.add(v, times)
    expected = quantile(values, q)
    assert one_by_one.quantile(q) == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert grouped.quantile(q) == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert min(values) <= one_by_one.quantile(q) <= max(values)
    assert one_by_one.n == len(values)


def test_empty_histogram_and_moments() -> None:
    assert Histogram().quantile(0.5) == 0.0 and Histogram().n == 0
    assert Moments().report() == {"mean": 0.0, "sd": 0.0, "low": 0.0, "high": 0.0, "n": 0}


@settings(max_examples=200)
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=100), st.integers(0, 100))
def test_moments_match_statistics(values: list[int], cut: int) -> None:
    moments, left, right = Moments(), Moments(), Moments()
    for i, v in enumerate(values):
        moments.add(v)
        (left if i < cut else right).add(v)
    left.merge(right)
    assert (left.n, left.total, left.squares) == (moments.n, moments.total, moments.squares)
    assert moments.mean == pytest.approx(statistics.mean(values), rel=1e-12, abs=1e-12)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    assert moments.sd == pytest.approx(sd, rel=1e-7, abs=1e-9)
    report = moments.report()
    assert report["n"] == len(values)
    half = Z * sd / math.sqrt(len(values))
    for key, value in (("mean", moments.mean), ("low", statistics.mean(values) - half), ("high", statistics.mean(values) + half)):
        assert report[key] == pytest.approx(value, abs=5e-5 + 1e-9)
