"""`workbench compare`: paired games, paired intervals, Holm's correction, and what a designer reads."""

import json
import math
import random
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from workbench import api, studies
from workbench.cli import app
from workbench.errors import UsageError
from workbench.sim.paired import Sums, difference, estimate, holm, of_arm, ratio
from workbench.sim.runner import Local

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
runner = CliRunner()


def dearer_in(folder: Path) -> Path:
    """The base game with a 4-player sheet where every IN player pays one coin more."""
    path = folder / "dearer-in.yaml"
    path.write_text(
        f"name: IN costs one more\nextends: {BASE}\nstakes:\n  4: {{out: [4, 2, 1, all_out], in: [2, 3, 4, 4], source: printed}}\n"
    )
    return path


def without_timing(body: dict) -> dict:
    for run in body["runs"]:
        run.pop("timing")
        for summary in run["summaries"]:
            summary.pop("timing", None)
    return body


# --- the statistics, against independent calculations ------------------------------------------------------


def test_a_paired_difference_of_means_is_the_mean_difference_with_the_sd_of_the_differences() -> None:
    rng = random.Random(3)
    rows = []
    for _ in range(500):
        shared = rng.randint(0, 20)  # what both arms have in common (the luck of the game)
        rows.append([1, shared + rng.randint(0, 3), 1, shared + rng.randint(1, 5)])
    sums = Sums(4)
    for row in rows:
        sums.add(row)
    found = estimate(sums, 2, difference(ratio(1, 0), 1))
    diffs = [b - a for _, a, _, b in rows]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    assert found.value == pytest.approx(mean)
    assert found.se == pytest.approx(sd / math.sqrt(len(diffs)), rel=1e-5)
    # unpaired, the same data would give an interval about 5 times as wide (the shared part cancels in pairs)
    apart = [math.sqrt(np.var([r[c] for r in rows], ddof=1) / len(rows)) for c in (1, 3)]
    assert math.hypot(*apart) > 4 * found.se


def test_a_ratio_of_sums_has_the_delta_method_interval() -> None:
    rng = random.Random(5)
    rows = [[rng.randint(0, 4), rng.randint(1, 6)] for _ in range(400)]
    sums = Sums(2)
    for row in rows:
        sums.add(row)
    found = estimate(sums, 1, of_arm(ratio(0, 1), 0))
    x, y = np.array(rows, dtype=float).T
    r = x.sum() / y.sum()
    residual = (x - r * y) / y.mean()  # the linearisation of a ratio estimator
    assert found.value == pytest.approx(r)
    assert found.se == pytest.approx(residual.std(ddof=1) / math.sqrt(len(rows)), rel=1e-4)


def test_sums_merge_exactly_in_any_split() -> None:
    rng = random.Random(1)
    rows = [[rng.randint(0, 9) for _ in range(3)] for _ in range(700)]
    whole, left, right = Sums(3), Sums(3), Sums(3)
    for i, row in enumerate(rows):
        whole.add(row)
        (left if i < 333 else right).add(row)
    left.merge(right)
    assert left.n == whole.n == 700
    for mine, theirs in zip(left.moments(), whole.moments()):
        assert np.array_equal(mine, theirs)
    assert (left.total == whole.total).all() and (left.cross == whole.cross).all()  # exact integers


def test_one_game_tests_nothing_and_a_few_games_test_nothing_either() -> None:
    sums = Sums(2)
    sums.add([1, 3])
    one = estimate(sums, 2, difference(lambda arm: float(arm[0]), 1))
    assert math.isnan(one.se) and not one.tested and math.isnan(one.p)
    few = studies.compare([BASE, BASE.parent / "dearer-in.yaml"], players=[4], games=12, seed=1)
    assert few.tests == 0 and few.runs[0].significant == []  # fewer than 30 games: shown, never called significant


def test_holm_against_hand_values() -> None:
    # sorted: 0.001 * 4 = 0.004; 0.01 * 3 = 0.03; 0.02 * 2 = 0.04; 0.5 * 1 = 0.5
    assert holm([0.5, 0.01, 0.001, 0.02]) == [0.5, 0.03, 0.004, 0.04]
    assert holm([0.04, 0.04]) == [0.08, 0.08]


# --- compare, end to end -----------------------------------------------------------------------------------


def test_a_variant_compared_with_itself_differs_in_nothing_and_each_value_is_what_simulate_gives(tmp_path: Path) -> None:
    result = studies.compare([BASE, BASE], players=[4], games=120, seed=7, out=tmp_path)
    (run,) = result.runs
    assert run.significant == []
    # the very same games: every difference is zero in every game, so there is nothing to test
    assert all(d.value == 0 and not d.tested and math.isnan(p) for s in run.statistics for d, p in zip(s.differences, s.adjusted))
    assert result.tests == 0
    alone = api.simulate(BASE, players=[4], games=120, seed=7).runs[0]
    for s in run.statistics:
        reason = s.name.split(".")[1:2]
        if s.name.startswith("end_reasons.") and reason[0] not in alone.figures["end_reasons"]:
            assert s.values[0].value == 0, s.name  # simulate lists only the reasons that happened
            continue
        assert s.values[0].value == pytest.approx(alone.figure(s.name), abs=1e-4), s.name
    body = json.loads((tmp_path / "compare.json").read_text())
    assert body["correction"]["method"] == "holm" and body["correction"]["tests"] == 0
    assert {d["p_adjusted"] for s in body["runs"][0]["statistics"] for d in s["differences"]} == {None}
    assert "<svg" in (tmp_path / "compare.html").read_text()


def test_a_dearer_in_sheet_moves_the_guides_as_expected(tmp_path: Path) -> None:
    result = studies.compare([BASE, dearer_in(tmp_path)], players=[4], games=400, seed=3)
    by_name = {s.name: s for s in result.runs[0].statistics}
    for name, sign in (
        ("guides.in.rate", -1),
        ("guides.out.rate", +1),
        ("guides.chance-it.rate", -1),
        ("wins.no_winner.rate", +1),
    ):
        s = by_name[name]
        assert s.significant, name
        assert sign * s.differences[0].value > 0, name
    # the reference's values do not depend on what it is compared with
    alone = studies.compare([BASE, BASE], players=[4], games=400, seed=3).runs[0]
    assert [s.values[0] for s in alone.statistics] == [s.values[0] for s in result.runs[0].statistics]


def test_the_same_figures_whatever_the_number_of_workers(tmp_path: Path) -> None:
    other = dearer_in(tmp_path)
    one = studies.compare([BASE, other], players=[4], games=60, seed=2, backend=Local(1), out=tmp_path / "one")
    two = studies.compare([BASE, other], players=[4], games=60, seed=2, backend=Local(2), out=tmp_path / "two")
    assert one.runs[0].games == two.runs[0].games == 60
    read = [without_timing(json.loads((tmp_path / d / "compare.json").read_text())) for d in ("one", "two")]
    assert read[0] == read[1]


def test_three_variants_are_each_compared_with_the_first(tmp_path: Path) -> None:
    other = dearer_in(tmp_path)
    result = studies.compare([BASE, other, BASE], players=[4], games=40, seed=1)
    s = next(s for s in result.runs[0].statistics if s.name == "guides.in.rate")
    assert len(s.values) == 3 and len(s.differences) == 2
    assert s.differences[1].value == 0 and s.differences[0].value < 0


def test_cli_compare_prints_a_table_that_fits_100_columns(tmp_path: Path) -> None:
    other = dearer_in(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["compare", str(BASE), str(other), "-g", "200", "-w", "1", "-o", str(out), "--all"], env={"COLUMNS": "100"}
    )
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 100
    assert "guide in" in result.stdout and "Holm" in result.stdout
    assert "4 players, heuristic bots, 200 games per variant" in result.stdout  # whose answer it is
    lines = result.stdout.splitlines()
    # first the figures a designer acts on, in the family's order, changed or not
    lead = lines.index(next(line for line in lines if "the figures to look at first" in line))
    every = lines.index(next(line for line in lines if "figures changed significantly" in line))
    labels = " ".join(line.split("│")[1].strip() for line in lines[lead:every] if line.startswith("│"))
    assert " ".join(labels.split()) == "balance rounds eliminations per game guide in no winner"  # wrapped or not
    # then every figure, the significant changes first
    first_row = next(i for i in range(every, len(lines)) if lines[i].startswith("│"))
    assert re.search(r"\* +│$", lines[first_row].rstrip())
    said = " ".join(result.stdout.split())
    assert "not tested at 4 players (a maximum minus a minimum: the delta method gives it no interval): balance" in said
    assert (out / "compare.json").is_file() and (out / "compare.html").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", str(BASE)], "at least two variant files"),
        (["compare", str(BASE), str(BASE), "-p", "9"], "--players 9"),
        (["compare", str(BASE), str(BASE), "-b", "nobody"], "unknown bot 'nobody'"),
        (["compare", str(BASE), "missing.yaml"], "missing.yaml"),
    ],
)
def test_cli_compare_refuses_bad_input_with_a_clear_message(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, [*args, "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert message in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_dearer_in_sheet_shortens_the_games_over_ten_thousand_games(tmp_path: Path) -> None:
    """More players sit OUT, the all-OUT rule eliminates more of them, and games end sooner: a small effect that
    2,000 games leave unsettled (see docs/how-to/compare.md), and 10,000 settle."""
    result = studies.compare([BASE, dearer_in(tmp_path)], players=[4], games=10_000, seed=1, backend=Local(2))
    rounds = next(s for s in result.runs[0].statistics if s.name == "rounds.mean")
    assert rounds.significant and rounds.differences[0].high < 0


def test_a_change_to_the_4_player_sheet_changes_nothing_at_3_players(tmp_path: Path) -> None:
    """Only the 4-player sheet differs, and a 3-player game never uses it: the games are the same, move for move
    (the bots once judged every table's dice with the 4-player sheet, so such a change leaked into 3-player games)."""
    result = studies.compare([BASE, dearer_in(tmp_path)], players=[3], games=150, seed=2)
    assert result.tests == 0 and all(d.value == 0 for s in result.runs[0].statistics for d in s.differences)


def test_a_bot_that_only_one_variant_defines_is_refused_naming_the_other(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"name: Mine\nextends: {BASE}\nbots: {{careful: {{policy: heuristic, min_hearts: 5}}}}\n")
    result = runner.invoke(app, ["compare", str(mine), str(BASE), "--bots", "careful", "-o", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "unknown bot 'careful'" in result.output and "(in " in result.output and "chance-it.yaml" in result.output


def test_the_library_takes_one_player_count_and_refuses_odd_types_in_words() -> None:
    assert studies.compare([BASE, BASE], players=4, games=5).counts == [4]
    for options, message in (({"players": "4"}, "players '4': "), ({"games": 2.5}, "games 2.5: ")):
        with pytest.raises(UsageError, match=message) as refused:  # named as the library's parameter, not an option
            studies.compare([BASE, BASE], **({"players": [4], "games": 5} | options))
        assert "--" not in str(refused.value)
