"""Target dice: scripted scenarios, located errors, invariants over generated games, bots and odds against
independent answers (brute-force enumeration, hand-computed fractions)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from workbench import api
from workbench.cli import app
from workbench.errors import ScenarioError, UsageError
from workbench.games import FAMILIES, load_variant, replay_scenario
from workbench.games.target_dice.bots import (
    ME,
    NOBODY,
    RandomBot,
    greedy_planner,
    planner,
    sum_odds,
)
from workbench.games.target_dice.chance import RandomChance
from workbench.games.target_dice.engine import SCORING, Game, Rules, compile_variant
from workbench.games.target_dice.invariants import InvariantError, Invariants
from workbench.games.target_dice.odds import odds, odds_tables
from workbench.games.target_dice.schema import SPECIALS, Persona, PersonaFile, Variant
from workbench.policies import make_bot
from workbench.sim.seeding import stream

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).parent.parent
FOLDER = ROOT / "tests" / "scenarios" / "target-dice"
BROKEN = FOLDER / "broken"
BASE = ROOT / "variants" / "target-dice.yaml"
MISS = ROOT / "variants" / "target-dice-miss.yaml"
SCENARIOS = sorted(p for p in FOLDER.glob("*.yaml") if not p.name.startswith("variant-"))
FAMILY = FAMILIES["target-dice"]
runner = CliRunner()


def rules_of(path: Path = BASE) -> Rules:
    return compile_variant(load_variant(path).variant)


# --- scripted scenarios -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_meets_its_expectations(path: Path) -> None:
    replayed = replay_scenario(path)
    assert replayed is not None
    family, result = replayed
    assert family is FAMILY
    assert result.checks > 0, "every scenario here states what it expects"
    assert result.failures == []


def test_the_replay_command_passes_every_scenario_of_the_folder() -> None:
    result = runner.invoke(app, ["replay", *map(str, sorted(FOLDER.glob("*.yaml")))])
    assert result.exit_code == 0, result.output
    assert f"{len(SCENARIOS)} passed, 0 failed" in result.stdout


def test_replay_json_prints_exactly_the_normative_output() -> None:
    result = runner.invoke(app, ["replay", str(FOLDER / "rulebook-example-2.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert list(state) == ["rounds", "end_reason", "winners", "players", "deck", "discard", "events"]
    assert state["players"] == [{"seat": s, "score": score} for s, score in enumerate([0, 0, -4, 11, 0])]
    assert state["end_reason"] is None and state["winners"] == [] and state["discard"] == 4
    assert state["deck"][:3] == [2, 3, 4] and state["deck"][-1] == "purple"  # the unscripted rest, in the variant's order
    assert all({"round", "type"} <= set(event) for event in state["events"])


def test_replay_trace_reads_the_rulebook_example() -> None:
    result = runner.invoke(app, ["replay", str(FOLDER / "rulebook-example-1.yaml"), "--trace"])
    assert result.exit_code == 0, result.output
    assert "round 1: seat 1 is over: 13 for 12, -1 point" in result.stdout
    assert "round 1: seat 2 holds the last valid roll: +11 points" in result.stdout


def test_the_batch_engine_is_refused_with_a_message() -> None:
    with pytest.raises(UsageError, match="Target dice has no batch engine"):
        replay_scenario(FOLDER / "stock-empty.yaml", "batch")
    result = runner.invoke(app, ["replay", str(FOLDER / "stock-empty.yaml"), "--engine", "batch"])
    assert result.exit_code == 1 and "Target dice has no batch engine" in result.output and "Traceback" not in result.output


# --- broken scripts ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    key: str
    words: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}: " + (f"{self.key}: " if self.key else "")


CASES = [
    Case("wrong-seat.yaml", 10, "rounds.0.turns.1.seat", ("round 1", "it is seat 1's turn", "the script gives seat 2")),
    Case("face-seven.yaml", 9, "rounds.0.turns.0.roll.1", ("round 1", "7 is not a face of a 6-sided die")),
    Case("return-not-rolled.yaml", 9, "rounds.0.turns.0.return", ("round 1", "seat 0", "cannot return a 5", "roll is 3 6")),
    Case("return-only-die.yaml", 9, "rounds.0.turns.0.return", ("seat 0", "only die rolled", "at least one die")),
    Case("add-empty-stock.yaml", 9, "rounds.0.turns.0.add", ("seat 0", "cannot add a die", "stock is empty")),
    Case("too-many-dice.yaml", 10, "rounds.0.turns.1.roll", ("round 1", "seat 1 takes 3 dice", "stock holds 2")),
    Case("decision-no-special.yaml", 9, "rounds.0.turns.0.adjust", ("orange card's decision", "no special card is in play")),
    Case("decision-wrong-special.yaml", 9, "rounds.0.turns.0.add", ("red card's decision", "special card is orange")),
    Case(
        "decision-not-starter.yaml",
        10,
        "rounds.0.turns.1.adjust",
        (
            "seat 1",
            "only the starting player's roll (seat 0)",
        ),
    ),
    Case("yellow-no-card.yaml", 9, "rounds.0.turns.0", ("yellow card in play", "card: 6 or card: 11")),
    Case("yellow-wrong-card.yaml", 9, "rounds.0.turns.0.card", ("seat 0", "cannot choose 7", "number cards are 6 and 11")),
    Case("reroll-count.yaml", 9, "rounds.0.turns.0.reroll", ("purple rolls the 3 dice again", "gives 2 face(s)")),
    Case("out-of-deck.yaml", 6, "deck", ("round 2", "seat 1 (the starting player) draws a card", "no more (it lists 1)")),
    Case("card-not-in-deck.yaml", 6, "deck.1", ("round 2", "draws 12", "no 12 is left in the deck", "1 in the discard pile")),
    Case("unknown-card.yaml", 6, "deck.1", ("no number card 25 in the variant's deck",)),
    Case("misspelt-colour.yaml", 6, "deck.0", ("got 'purpel'", "did you mean 'purple'?")),
    Case("missing-turn.yaml", 8, "rounds.0.turns", ("round 1", "seat 2's turn", "no more turns this round")),
    Case("extra-turn.yaml", 10, "rounds.0.turns.1", ("round 1", "a HIT ended it", "1 more turn(s)")),
    Case("rounds-after-end.yaml", 11, "rounds.1", ("ended in round 1 (goal)", "1 more round(s)")),
    Case("pass-and-roll.yaml", 9, "rounds.0.turns.0", ("either passes (pass: true) or rolls",)),
    Case("pass-false.yaml", 9, "rounds.0.turns.0", ("pass: false says nothing",)),
    Case("misspelt-key.yaml", 9, "rounds.0.turns.0.rolls", ("unknown key 'rolls' (did you mean 'roll'?)",)),
    Case("start-out-of-range.yaml", 5, "start", ("seat 3 does not exist with 3 players",)),
    Case("players-out-of-range.yaml", 4, "players", ("for 2 to 6 players, not 7",)),
]


def test_every_broken_script_has_a_case() -> None:
    assert {case.file for case in CASES} | {"failed-expectation.yaml"} == {p.name for p in BROKEN.glob("*.yaml")}


@pytest.mark.parametrize("case", CASES, ids=[c.file for c in CASES])
def test_a_broken_script_stops_with_a_located_message(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    with pytest.raises(ScenarioError) as caught:
        replay_scenario(Path(case.file))
    message = str(caught.value.problems[0])
    assert message.startswith(case.where), message
    for words in case.words:
        assert words in message, message
    result = runner.invoke(app, ["replay", case.file])
    assert result.exit_code == 1
    assert case.where in result.stderr and "Traceback" not in result.output


def test_a_failed_expectation_is_located_at_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    replayed = replay_scenario(Path("failed-expectation.yaml"))
    assert replayed is not None
    assert [str(p) for p in replayed[1].failures] == ["failed-expectation.yaml:11: expect.players.0.score: expected 11, got 12"]
    assert runner.invoke(app, ["replay", "failed-expectation.yaml"]).exit_code == 1


def test_a_broken_script_traces_the_events_before_the_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    result = runner.invoke(app, ["replay", "too-many-dice.yaml", "--trace"])
    assert result.exit_code == 1
    assert "round 1: seat 0 is under: 10 for 20, the dice stay on the table" in result.stdout


# --- generated variants and games ---------------------------------------------------------------------------------


@st.composite
def variants(draw: st.DrawFn) -> dict[str, Any]:
    """A valid target-dice variant as the plain data of a YAML file, small enough for quick games."""
    low = draw(st.integers(2, 4))
    count, sides = draw(st.integers(1, 5)), draw(st.integers(2, 6))
    numbers = draw(st.dictionaries(st.integers(1, count * sides), st.integers(1, 2), min_size=1, max_size=6))
    specials = draw(st.fixed_dictionaries({colour: st.integers(0, 2) for colour in SPECIALS}))
    if sum(numbers.values()) < 2:
        specials["yellow"] = 0
    return {
        "name": "generated",
        "game": "target-dice",
        "players": {"min": low, "max": draw(st.integers(low, 5))},
        "dice": {"count": count, "sides": sides},
        "deck": {"numbers": numbers, "specials": specials},
        "goal": draw(st.integers(1, 40)),
        "under": draw(st.sampled_from(["keep", "miss"])),
        "max_rounds": draw(st.integers(1, 30)),
    }


personas = st.one_of(
    st.just(Persona(policy="random")),
    st.just(Persona(policy="greedy")),
    st.builds(Persona, policy=st.just("search"), depth=st.integers(0, 3), rivals=st.sampled_from([0.0, 0.5, 1.0])),
)


def play(rules: Rules, bots: list[Persona], seed: int, *, check: bool = True) -> Game:
    game = Game(rules, len(bots), RandomChance.streams(seed, 0))
    if check:
        game.after_step = Invariants(game)
    game.play([make_bot(persona, stream(seed, 0, "bot", seat)) for seat, persona in enumerate(bots)])
    return game


@given(data=variants(), seats=st.lists(personas, min_size=5, max_size=5), seed=st.integers(0, 2**32))
def test_generated_games_keep_every_invariant_end_and_repeat(data: dict[str, Any], seats: list[Persona], seed: int) -> None:
    rules = compile_variant(Variant.model_validate(data))
    bots = seats[: rules.min_players + seed % (rules.max_players - rules.min_players + 1)]
    game = play(rules, bots, seed)
    assert game.end_reason in ("goal", "max_rounds")
    assert 1 <= game.round <= rules.max_rounds
    assert isinstance(game.after_step, Invariants) and game.after_step.steps >= game.round
    again = play(rules, bots, seed, check=False)
    assert again.events == game.events and again.snapshot() == game.snapshot()


@given(data=variants(), seed=st.integers(0, 2**32))
def test_the_counters_agree_with_the_event_log(data: dict[str, Any], seed: int) -> None:
    rules = compile_variant(Variant.model_validate(data))
    game = play(rules, [Persona(policy="random")] * rules.min_players, seed, check=False)
    events = game.events or []
    kinds = Counter(event["type"] for event in events)
    assert (game.hits, game.held, game.turns, game.passes) == (kinds["hit"], kinds["held"], kinds["roll"], kinds["pass"])
    assert game.scoreless == game.round - game.hits - game.held
    assert game.points_scored == sum(e["points"] for e in events if e["type"] in ("hit", "held"))
    assert game.points_lost == -sum(e["points"] for e in events if e["type"] == "over")
    assert game.reshuffles == kinds["reshuffle"]
    for i, colour in enumerate(SPECIALS):
        assert game.specials_drawn[i] == sum(1 for e in events if e["type"] == "special" and e["card"] == colour)
        assert game.specials_ignored[i] == sum(1 for e in events if e["type"] == "ignored" and e["card"] == colour)
        assert game.specials_offered[i] == kinds[colour]
        assert game.specials_used[i] <= game.specials_offered[i]
    # the last seat to act scored; the sole leader changed: recomputed from the events
    players, scores, leader, changes, last = len(game.scores), [0] * len(game.scores), None, 0, 0
    starter = 0
    for event in events:
        if event["type"] == "round":
            starter = event["seat"]
        if event["type"] in SCORING:
            scores[event["seat"]] += event["points"]
            if event["type"] != "over" and event["seat"] == (starter - 1) % players:
                last += 1
            best = max(scores)
            if scores.count(best) == 1 and scores.index(best) != leader:
                changes += leader is not None
                leader = scores.index(best)
    assert (game.last_scored, game.lead_changes, game.scores) == (last, changes, scores)


@pytest.mark.parametrize("path", [BASE, MISS], ids=["keep", "miss"])
def test_the_shipped_variants_play_to_an_end_with_every_bot(path: Path) -> None:
    rules = rules_of(path)
    for players in (rules.min_players, rules.max_players):
        for seed, policy in enumerate(("random", "greedy", "search")):
            game = play(rules, [BUILTIN[policy]] * players, seed)
            assert game.is_over


def test_family_play_is_deterministic_and_the_cli_shows_the_table() -> None:
    variant = load_variant(BASE).variant
    bots = [FAMILY.personas(variant)["random"]] * 4
    assert FAMILY.play(variant, 4, 5, bots, {}) == FAMILY.play(variant, 4, 5, bots, {})
    assert FAMILY.play(variant, 4, 5, bots, {}) != FAMILY.play(variant, 4, 6, bots, {})
    first = runner.invoke(app, ["play", str(BASE), "--players", "5", "--seed", "3", "--json"])
    assert first.exit_code == 0 and first.stdout == runner.invoke(app, ["play", str(BASE), "-p", "5", "-s", "3", "--json"]).stdout
    state = json.loads(first.stdout)
    table = runner.invoke(app, ["play", str(BASE), "--players", "5", "--seed", "3"])
    assert f"ended after {state['rounds']} rounds: {state['end_reason']}" in table.stdout


def test_paired_games_of_two_variants_roll_the_same_dice() -> None:
    """Common random numbers: a game of the keep and of the miss variant with the same (seed, index) draw the same
    roll-off, deal and first rolls, each point of chance from a stream of its own."""
    games = []
    for path in (BASE, MISS):
        game = Game(rules_of(path), 4, RandomChance.streams(9, 3))
        game.play([make_bot(BUILTIN["greedy"], stream(9, 3, "bot", seat)) for seat in range(4)])
        games.append(game.events or [])
    first = [[e for e in events if e["type"] in ("rolloff", "start", "card", "special")][:3] for events in games]
    assert first[0] == first[1]
    assert next(e for e in games[0] if e["type"] == "roll") == next(e for e in games[1] if e["type"] == "roll")


# --- the invariant checker catches broken bookkeeping ---------------------------------------------------------------


def _game_in_progress() -> tuple[Game, Invariants]:
    game = Game(rules_of(FOLDER / "variant-test.yaml"), 3, RandomChance.streams(1, 0))
    checker = Invariants(game)
    game.after_step = checker
    game.play_round([RandomBot(random.Random(seat)) for seat in range(3)])
    return game, checker


def test_the_checker_names_a_die_that_vanished() -> None:
    game, checker = _game_in_progress()
    game.stock -= 1
    with pytest.raises(InvariantError, match="dice conservation"):
        checker.check()


def test_the_checker_names_a_score_without_its_event() -> None:
    game, checker = _game_in_progress()
    game.scores[1] += 3
    with pytest.raises(InvariantError, match="score bookkeeping: seat 1"):
        checker.check()


def test_the_checker_names_a_turn_out_of_order_and_a_lost_card() -> None:
    game, checker = _game_in_progress()
    assert game.events is not None
    game.events.append({"round": game.round, "type": "round", "seat": game.starting_player})
    game.events.append({"round": game.round, "type": "pass", "seat": (game.starting_player + 2) % 3})
    with pytest.raises(InvariantError, match="turn order"):
        checker.check()
    game, checker = _game_in_progress()
    game.deck.pop()
    with pytest.raises(InvariantError, match="card conservation"):
        checker.check()


# --- bots against brute force -------------------------------------------------------------------------------------


def brute_points(total: int, target: int, *, keep: bool, sure: bool) -> int:
    """Greedy's points for a roll ending at ``total``: the rulebook's arithmetic, written out again."""
    if total == target:
        return target
    if total > target:
        return target - total
    return total if keep and sure else 0


def brute_greedy(target: int, kept: int, stock: int, after: int, sides: int, *, keep: bool) -> list[Fraction]:
    """The expected points of passing and of each number of dice, by enumerating every ordered roll."""
    values = [Fraction(0)]
    for taken in range(1, stock + 1):
        rolls = list(itertools.product(range(1, sides + 1), repeat=taken))
        sure = after == 0 or taken == stock
        total = sum(brute_points(kept + sum(roll), target, keep=keep, sure=sure) for roll in rolls)
        values.append(Fraction(total, len(rolls)))
    return values


def first_of_best(values: list[Fraction]) -> int:
    return values.index(max(values))


POSITIONS = [  # target, kept, stock, after, keep
    (12, 0, 6, 4, True),
    (12, 8, 3, 2, True),
    (12, 8, 3, 0, True),
    (20, 5, 4, 1, True),
    (20, 5, 4, 0, True),
    (7, 0, 6, 3, False),
    (18, 0, 6, 2, False),
    (3, 0, 5, 1, True),
    (17, 11, 2, 0, True),
]


@pytest.mark.parametrize("position", POSITIONS, ids=[str(p) for p in POSITIONS])
def test_greedy_takes_the_dice_brute_force_finds_best(position: tuple[int, int, int, int, bool]) -> None:
    target, kept, stock, after, keep = position
    expected = brute_greedy(target, kept, stock, after, 6, keep=keep)
    values = greedy_planner(6, keep).dice_values(target, kept, stock, NOBODY, after)
    assert values == pytest.approx([float(v) for v in expected])
    assert greedy_planner(6, keep).best_dice(target, kept, stock, NOBODY, after) == first_of_best(expected)


def test_greedy_plays_each_special_as_brute_force_values_it() -> None:
    plan, sides, stock, after = greedy_planner(6, True), 6, 6, 3

    def value(total: int, target: int, left: int) -> int:
        return brute_points(total, target, keep=True, sure=left == 0)

    for target in (5, 11, 16):
        orange, purple, red = [0.0], [0.0], [0.0]
        for taken in range(1, stock + 1):
            rolls = list(itertools.product(range(1, sides + 1), repeat=taken))
            left = stock - taken
            plain = Fraction(sum(value(sum(r), target, left) for r in rolls), len(rolls))
            orange.append(sum(max(value(sum(r) + a, target, left) for a in (-1, 0, 1)) for r in rolls) / len(rolls))
            purple.append(sum(max(value(sum(r), target, left), plain) for r in rolls) / len(rolls))
            total = Fraction(0)
            for r in rolls:
                options = [Fraction(value(sum(r), target, left))]
                if taken > 1:
                    options += [Fraction(value(sum(r) - face, target, left + 1)) for face in set(r)]
                if left:
                    options.append(Fraction(sum(value(sum(r) + x, target, left - 1) for x in range(1, 7)), 6))
                total += max(options)
            red.append(float(total / len(rolls)))
        assert plan.special_values("orange", (target,), stock, after) == pytest.approx(orange)
        assert plan.special_values("purple", (target,), stock, after) == pytest.approx(purple)
        assert plan.special_values("red", (target,), stock, after) == pytest.approx(red)
    yellow = [0.0]
    for taken in range(1, stock + 1):
        rolls = list(itertools.product(range(1, sides + 1), repeat=taken))
        yellow.append(sum(max(value(sum(r), t, stock - taken) for t in (6, 11)) for r in rolls) / len(rolls))
    assert plan.special_values("yellow", (6, 11), stock, after) == pytest.approx(yellow)


def test_greedy_decides_after_the_roll_by_expected_points() -> None:
    plan = greedy_planner(6, True)
    # red, target 8, rolled 5 6 (stock 4 left, 3 players after): returning the 6 leaves 5 (under, not sure: 0);
    # returning the 5 leaves 6 (0); adding a die hits with a 2 only but is over otherwise; keeping is 3 over (-3)
    # (not sure to end the round: 3 players after); adding a die x makes 11 + x, over by 3 + x
    assert dict(plan.red_options((5, 6), 8, 4, 3)) == {None: -3, 5: 0, 6: 0, "add": pytest.approx(-6.5)}
    # orange, target 10, rolled 4 5: +1 hits
    assert dict(plan.orange_options(9, 2, 10, 4, 3)) == {0: 0, -1: 0, 1: 10}
    # purple, target 12, rolled 6 6 6 = 18 (over by 6): a fresh 3d6 roll is worth more
    keep, again = plan.purple_options(18, 3, 12, 3, 3)
    assert keep == (False, -6) and again[0] is True and again[1] > -6


def test_the_search_bot_values_a_holding_by_the_chance_it_survives() -> None:
    """Brute force: seat 0 holds P = 9 for the 12; seat 1, the last to act, replies as greedy would (its choice
    from the brute-force greedy values). Seat 0 keeps its 9 only when seat 1 passes or rolls over."""
    target, kept, stock = 12, 9, 4
    choice = first_of_best(brute_greedy(target, kept, stock, 0, 6, keep=True))
    rolls = list(itertools.product(range(1, 7), repeat=choice))
    survives = Fraction(sum(kept + sum(r) > target for r in rolls), len(rolls)) if choice else Fraction(1)
    mine, _ = planner(6, True, 1, 0.0).future(target, kept, stock, ME, 1, 1)
    assert mine == pytest.approx(float(kept * survives))
    # depth 0 does not look: an open holding counts for nothing, as greedy counts it
    assert planner(6, True, 0, 0.0).future(target, kept, stock, ME, 1, 0) == (0.0, 0.0)


def test_search_with_depth_0_and_no_rivals_plays_as_greedy() -> None:
    rules = rules_of()
    for seed in range(3):
        greedy = play(rules, [BUILTIN["greedy"]] * 4, seed, check=False)
        search = play(rules, [Persona(policy="search", depth=0, rivals=0.0)] * 4, seed, check=False)
        assert greedy.events == search.events


def test_under_miss_search_differs_from_greedy_only_by_what_it_leaves_to_others() -> None:
    rules = rules_of(MISS)
    for seed in range(2):
        greedy = play(rules, [BUILTIN["greedy"]] * 3, seed, check=False)
        search = play(rules, [Persona(policy="search", depth=3, rivals=0.0)] * 3, seed, check=False)
        assert greedy.events == search.events  # under miss nothing is held: its own points are greedy's


def test_sum_odds_match_enumeration() -> None:
    for count, sides in ((1, 6), (2, 6), (3, 4)):
        rolls = Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=count))
        total = sides**count
        assert dict(sum_odds(count, sides)) == pytest.approx({s: n / total for s, n in rolls.items()})


# --- odds -------------------------------------------------------------------------------------------------------


def test_odds_are_exact_fractions_computed_by_hand() -> None:
    data = odds(load_variant(BASE).variant).to_dict()
    by_dice = data["by_dice"]
    assert by_dice["2"]["7"]["hit"] == {"fraction": "1/6", "percent": 16.6667}
    assert [by_dice["1"]["3"][k]["fraction"] for k in ("hit", "over", "under")] == ["1/6", "1/2", "1/3"]
    assert by_dice["3"]["10"]["hit"]["fraction"] == "1/8"  # 27 of 216
    assert by_dice["3"]["2"]["hit"]["fraction"] == "0/1" and by_dice["3"]["2"]["over"]["fraction"] == "1/1"
    assert by_dice["6"]["20"]["hit"]["fraction"] == "469/5184"  # 4221 of the 46656 rolls of 6d6 sum to 20
    assert data["best"]["7"] == {"dice": 2, "hit": {"fraction": "1/6", "percent": 16.6667}}
    assert data["best"]["2"]["dice"] == 1  # 1/6 with one die against 1/36 with two
    for n, by_target in by_dice.items():
        for target, chances in by_target.items():
            parts = [Fraction(chances[k]["fraction"]) for k in ("hit", "over", "under")]
            assert sum(parts) == 1, (n, target)
    tables = odds_tables(data)
    assert [title.split(":")[0] for title, _, _ in tables][:1] == [data["variant"]]
    assert tables[0][1] == ["target", "1 die", *(f"{n} dice" for n in range(2, 7))]
    assert tables[0][2][11][0] == "12*"  # a number card of the deck is starred


def test_the_odds_command_prints_tables_and_json() -> None:
    result = runner.invoke(app, ["odds", str(BASE)])
    assert result.exit_code == 0 and "1/6 (16.67%)" in result.stdout
    data = json.loads(runner.invoke(app, ["odds", str(BASE), "--json"]).stdout)
    assert data["dice"] == {"count": 6, "sides": 6} and data["cards"] == list(range(2, 21))


# --- validation ---------------------------------------------------------------------------------------------------

GOOD = """\
name: test
game: target-dice
players:
  min: 2
  max: 4
dice: {count: 2, sides: 6}
deck:
  numbers:
    5: 1
    9: 2
  specials: {red: 1}
"""


def test_the_example_variant_of_these_tests_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    assert api.validate(path).ok


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            GOOD.replace("    9: 2", "    13: 2"),
            "10: deck.numbers.13: ",
            "13 can never be hit: the stock's 2 dice with 6 sides roll at most 12",
        ),
        (GOOD.replace("  min: 2", "  min: 5"), "5: players.max: ", "max (4) is below min (5)"),
        (GOOD.replace("  numbers:\n    5: 1\n    9: 2\n", "  numbers: {}\n"), "8: deck.numbers: ", "at least one number card"),
        (
            GOOD.replace("    9: 2\n", "").replace("{red: 1}", "{yellow: 1}"),
            "10: deck.specials.yellow: ",
            "needs a second number card",
        ),
        (GOOD.replace("{red: 1}", "{purpel: 1}"), "11: deck.specials.purpel: ", "unknown key 'purpel' (did you mean 'purple'?)"),
        (GOOD + "under: kep\n", "12: under: ", "did you mean 'keep'?"),
        (
            GOOD + "bots:\n  lazy: {policy: greedy, depth: 2}\n",
            "13: bots.lazy: ",
            "the greedy policy takes no parameters (got depth)",
        ),
        (GOOD + "bots:\n  greedy: {policy: search}\n", "13: bots.greedy: ", "'greedy' is a built-in bot name"),
        (GOOD.replace("sides: 6", "sides: 1"), "6: dice.sides: ", "must be at least 2, got 1"),
    ],
)
def test_validate_locates_every_problem(tmp_path: Path, text: str, where: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    checked = api.validate(path)
    assert not checked.ok
    assert any(f"bad.yaml:{where}" in problem and message in problem for problem in checked.problems), checked.problems


def test_validate_summarises_a_good_variant() -> None:
    checked = api.validate(BASE)
    assert checked.ok and checked.title == "Target dice"
    summary = dict(checked.summary)
    assert summary["number cards"] == "19: 19 different, 2 to 20 (1 of each)"
    assert summary["special cards"] == "8: red 2, orange 2, yellow 2, purple 2"
    assert summary["under"].startswith("keep") and dict(api.validate(MISS).summary)["under"].startswith("miss")


def test_personas_come_from_the_builtins_the_variant_and_a_file(tmp_path: Path) -> None:
    variant = load_variant(BASE).variant
    assert set(FAMILY.personas(variant)) == {"random", "greedy", "search", "cautious", "spoiler"}
    extra = tmp_path / "personas.yaml"
    extra.write_text("bots:\n  greedy: {policy: search, depth: 1}\n  deep: {policy: search, depth: 5}\noverrides: [greedy]\n")
    found = FAMILY.personas(variant, extra)
    assert found["greedy"].depth == 1 and found["deep"].policy == "search"
    assert isinstance(make_bot(found["random"], random.Random(0)), RandomBot)


class _RollOff(RandomChance):
    """Seeded chance whose roll-off dice are given: the first starting player is known."""

    def __init__(self, faces: list[list[int]]):
        super().__init__(random.Random(0))
        self.faces = faces

    def rolloff(self, seats: tuple[int, ...], sides: int) -> list[int]:
        faces = self.faces.pop(0)
        assert len(faces) == len(seats)
        return faces


def test_the_tied_highest_roll_off_again_and_the_winner_starts() -> None:
    game = Game(rules_of(), 3, _RollOff([[5, 5, 3], [2, 6]]))
    assert game.starting_player == 1  # seats 0 and 1 tied on 5; seat 1 rolled the 6 again
    assert [e["seats"] for e in game.events or [] if e["type"] == "rolloff"] == [[0, 1, 2], [0, 1]]
    game.play_round([RandomBot(random.Random(seat)) for seat in range(3)])
    assert game.starting_player == 2  # the next round starts with the player to the left
