"""Target dice through the shared commands: simulate (its figures against the event logs), recording, compare of the
two under rules, skill, the report and the printed set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from workbench import api, studies
from workbench.cli import app
from workbench.errors import UsageError
from workbench.games import FAMILIES, load_variant
from workbench.games.target_dice.chance import RandomChance
from workbench.games.target_dice.engine import Game, compile_variant
from workbench.games.target_dice.schema import SPECIALS
from workbench.policies import make_bot
from workbench.sim.runner import Local
from workbench.sim.seeding import stream

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "target-dice.yaml"
MISS = ROOT / "variants" / "target-dice-miss.yaml"
FAMILY = FAMILIES["target-dice"]
runner = CliRunner()


def logged_game(index: int, seed: int, players: int, bot: str = "greedy") -> Game:
    """Game ``index`` of a run, as the simulator plays it, with its event log."""
    loaded = load_variant(BASE)
    personas = FAMILY.personas(loaded.variant)
    game = Game(compile_variant(loaded.variant), players, RandomChance.streams(seed, index))
    game.play([make_bot(personas[bot], stream(seed, index, "bot", seat)) for seat in range(players)])
    return game


def test_the_summary_counts_what_the_event_logs_show() -> None:
    """Every share of rounds and every total of ``summary.json``, counted again from the games' event logs."""
    games, players, seed = 60, 4, 3
    run = api.simulate(BASE, players=[players], games=games, seed=seed, bots="greedy").runs[0]
    summary = run.to_dict()
    logs = [logged_game(i, seed, players).events or [] for i in range(games)]
    ends = [e["reason"] for log in logs for e in log if e["type"] == "round_end"]
    rounds = len(ends)
    assert summary["rounds"]["mean"] == pytest.approx(rounds / games, abs=1e-4)
    assert summary["round_ends"]["hit"]["rate"] == pytest.approx(ends.count("hit") / rounds, abs=1e-4)
    held = sum(1 for log in logs for e in log if e["type"] == "held")
    assert summary["round_ends"]["held"]["rate"] == pytest.approx(held / rounds, abs=1e-4)
    scored = sum(e["points"] for log in logs for e in log if e["type"] in ("hit", "held"))
    assert summary["points"]["per_round"] == pytest.approx(scored / rounds, abs=1e-4)
    lost = -sum(e["points"] for log in logs for e in log if e["type"] == "over")
    assert summary["points"]["lost_per_game"]["mean"] == pytest.approx(lost / games, abs=1e-4)
    passes = sum(1 for log in logs for e in log if e["type"] == "pass")
    rolls = sum(1 for log in logs for e in log if e["type"] == "roll" and "seat" in e)
    assert summary["turns"]["passed"]["rate"] == pytest.approx(passes / (passes + rolls), abs=1e-4)
    # the last player of a round (the seat before its starting player) scores in it
    last = 0
    for log in logs:
        starter = None
        for e in log:
            if e["type"] == "round":
                starter = e["seat"]
            elif e["type"] in ("hit", "held") and starter is not None and e["seat"] == (starter - 1) % players:
                last += 1
    assert summary["last_player_scored"]["rate"] == pytest.approx(last / rounds, abs=1e-4)
    # the first-seat advantage follows the player the roll-off made start, not seat 0
    first_credit = 0.0
    for log in logs:
        first = next(e["seat"] for e in log if e["type"] == "start")
        winners = next(e["winners"] for e in log if e["type"] == "end")
        first_credit += (1 / len(winners)) if first in winners else (0.5 if not winners else 0.0)
    assert summary["first_seat_advantage"] == pytest.approx(first_credit / games, abs=1e-4)
    assert {next(e["seat"] for e in log if e["type"] == "start") for log in logs} == set(range(players))
    drawn = {c: sum(1 for log in logs for e in log if e["type"] == "special" and e["card"] == c) for c in SPECIALS}
    assert {c: summary["specials"][c]["drawn"] for c in SPECIALS} == drawn
    assert summary["games"] == games and summary["end_reasons"]["goal"]["n"] == games


def test_a_run_is_the_same_for_any_number_of_workers() -> None:
    one = api.simulate(BASE, players=[3, 5], games=300, seed=9, bots="search", backend=Local(1))
    two = api.simulate(BASE, players=[3, 5], games=300, seed=9, bots="search", backend=Local(2))
    strip = [{k: v for k, v in r.to_dict().items() if k != "timing"} for r in (*one.runs, *two.runs)]
    assert strip[:2] == strip[2:]


def test_recorded_games_replay_to_the_same_end(tmp_path: Path) -> None:
    mixed, six = tmp_path / "mixed", tmp_path / "six"
    mixed.mkdir()
    six.mkdir()
    api.simulate(BASE, players=[3], games=30, seed=2, bots="random,greedy,search", record_scenarios=mixed)
    api.simulate(BASE, players=[6], games=20, seed=2, bots="spoiler", record_scenarios=six)
    scripts = sorted([*mixed.glob("game-*.yaml"), *six.glob("game-*.yaml")])
    assert len(scripts) == 50
    for path in scripts:
        replayed = api.replay(path)
        assert replayed is not None and replayed[1].passed, path.name
    result = runner.invoke(app, ["simulate", str(BASE), "-g", "5", "--record-scenarios", str(tmp_path / "no" / "such")])
    assert result.exit_code == 1 and "--record-scenarios" in result.output and not (tmp_path / "no").exists()


def test_compare_of_the_two_under_rules_finds_what_the_rule_changes(tmp_path: Path) -> None:
    result = studies.compare([BASE, MISS], players=[4], games=400, seed=1, out=tmp_path)
    run = result.runs[0]
    figures = {s.name: s for s in run.statistics}
    held = figures["round_ends.held.rate"]
    assert held.values[0].value > 0.3 and held.values[1].value == 0  # under miss nobody holds a valid roll
    assert "round_ends.held.rate" in {s.name for s in run.significant}
    assert (tmp_path / "compare.json").is_file() and "Target dice" in (tmp_path / "compare.html").read_text()


def test_skill_ranks_the_target_dice_ladder(tmp_path: Path) -> None:
    skill = studies.skill(BASE, players=4, games=300, seed=1, out=tmp_path)
    assert [rung.name for rung in skill.rungs] == ["random", "greedy", "search"]
    assert skill.field_bot == "greedy"
    assert skill.rungs[0].win_rate.high < skill.rungs[1].win_rate.low  # random bots lose points on every over-roll


def test_the_report_has_the_target_dice_figures(tmp_path: Path) -> None:
    api.simulate(BASE, players=[3], games=100, seed=1, out=tmp_path)
    html = (tmp_path / "report.html").read_text()
    assert "Target dice · simulation report" in html
    assert "How rounds end" in html and "Special cards" in html
    for colour in SPECIALS:
        assert f"<td>{colour}</td>" in html
    assert "Stakes" not in html and "guide" not in html.lower()


def test_studies_a_family_does_not_have_are_refused() -> None:
    with pytest.raises(UsageError, match="Target dice has no cards a player buys"):
        studies.cards(BASE)
    with pytest.raises(UsageError, match="Target dice has no stakes sheets to tune"):
        api.tune_stakes(BASE, players=[3])


def test_the_printed_set_has_every_card_of_the_deck_and_the_rules() -> None:
    loaded = load_variant(BASE)
    html = FAMILY.print_html(loaded.variant, {"backs": False})
    deck = loaded.variant.deck
    for number, copies in deck.numbers.items():
        turned = " turnable" if number in (6, 9) else ""  # 6 and 9 are underlined: they read as each other upside down
        assert html.count(f'<div class="value{turned}">{number}</div>') == copies
    for colour, copies in deck.specials.copies().items():
        assert html.count(f'<div class="word">{colour.upper()}</div>') == copies
    assert "Rules summary" in html and f"reaches {loaded.variant.goal} points" in html
    only = FAMILY.print_html(loaded.variant, {"only": "rules"})
    assert "Rules summary" in only and 'class="value"' not in only
    with pytest.raises(UsageError, match="choose from cards, rules"):
        FAMILY.print_html(loaded.variant, {"only": "stakes"})


def test_the_miss_rule_summary_says_nothing_is_kept() -> None:
    html = FAMILY.print_html(load_variant(MISS).variant, {})
    assert "go back to the stock and nothing is kept" in html and "holding the last valid roll" not in html
    assert "already kept on the table" not in html and "stock is empty" not in html
    assert re.search(r"the next players roll for the difference", html) is None


def test_the_red_estimate_for_many_dice_is_the_direct_sum() -> None:
    """With too many different rolls to list, red is valued by the roll's sum: keep it, or add one die (a sliding
    window over the sums, checked here against the plain sum over the added die's faces)."""
    from workbench.games.target_dice.bots import NOBODY, greedy_planner, roll_odds, sum_odds

    plan = greedy_planner(12, True)
    taken, target, left, after = 5, 40, 3, 2
    assert roll_odds(taken, 12) is None  # the estimate by sums is the one in use
    direct = 0.0
    for s, p in sum_odds(taken, 12):
        keep = plan.outcome(s, taken, target, 0, left + taken, NOBODY, after)
        added = sum(plan.outcome(s + x, taken + 1, target, 0, left + taken, NOBODY, after) for x in range(1, 13)) / 12
        direct += p * max(keep, added)
    assert plan._red_value(taken, target, left, after) == pytest.approx(direct, rel=1e-12)


def test_a_run_lists_only_the_parameters_each_bot_reads() -> None:
    run = api.simulate(BASE, players=[3], games=5, seed=1, bots="random,greedy,spoiler").runs[0].to_dict()
    assert run["personas"] == {
        "random": {"policy": "random"},
        "greedy": {"policy": "greedy"},
        "spoiler": {"policy": "search", "depth": 5, "rivals": 1.0},
    }
