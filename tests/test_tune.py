"""The stakes tuner (``workbench tune-stakes``): search space, common random numbers, order, write-back, CLI.

Everything runs on small variants built in ``tmp_path``: a copy of the base game without
its stakes and with shorter games (8 stars, 40 rounds at most), extended by test files
that hold exactly the stakes block each test needs. Budgets and bounds are tiny; the
point is the tuner's mechanics, not the quality of its proposals.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from collections.abc import Callable
from itertools import pairwise, product
from pathlib import Path
from typing import Any

import pytest
import yaml
from output_helpers import tunable_variant
from typer.testing import CliRunner

from workbench import __version__, api
from workbench.cli import app
from workbench.errors import VariantError, WorkbenchError
from workbench.games import load_variant
from workbench.games.chance_it import FAMILY, tune
from workbench.games.chance_it.schema import TUNING_METRICS, Sheet
from workbench.games.chance_it.tune import (
    Candidate,
    Report,
    Tuned,
    Tuner,
    is_shaped,
    load_for_tuning,
    neighbours,
    proposal_yaml,
    render_tuning,
    space,
    tune_stakes,
    write_back,
)
from workbench.outputs import OutputError
from workbench.sim.race import Entry
from workbench.sim.runner import Local

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
runner = CliRunner()

#: The sheets the rulebook prints (copied from the base game).
PRINTED = {
    4: "{out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}",
    5: "{out: [4, 3, 2, 1, all_out], in: [0, 1, 2, 3, 3], source: printed}",
}
GUESSED = {
    2: "{out: [4, all_out], in: [1, 2], source: proposed}",
    3: "{out: [4, 2, all_out], in: [1, 2, 3], source: proposed}",
    6: "{out: [4, 3, 2, 2, 1, all_out], in: [0, 1, 2, 2, 3, 3], source: proposed}",
}
SHEETS = {**GUESSED, **PRINTED}
PRINTED_5 = Sheet.model_validate(yaml.safe_load(PRINTED[5]))

#: Targets for races that do not measure any: every metric, plausible values.
TARGETS = {
    "rounds_mean": 7.0,
    "rounds_sd": 2.0,
    "eliminations_per_player": 0.2,
    "out_share": 0.35,
    "in_share": 0.55,
    "chance_it_share": 0.1,
    "no_winner": 0.1,
    "balance": 0.9,
    "in_out_gap": 3.0,
}
assert set(TARGETS) == set(TUNING_METRICS)


# --- test variants ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base game without stakes, with short games, as a file the test variants extend."""
    data = yaml.safe_load(BASE.read_text())
    data.pop("stakes")
    data.pop("tuning", None)
    data["name"] = "Chance It, short test game"
    data["end"] = {**data["end"], "stars": 8, "max_rounds": 40}
    data["cards"] = [str((BASE.parent / item).resolve()) if isinstance(item, str) else item for item in data["cards"]]
    path = tmp_path_factory.mktemp("parent") / "short-base.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def stakes_lines(counts: list[int], indent: str = "  ") -> str:
    return "".join(f"{indent}{n}: {SHEETS[n]}\n" for n in counts)


def variant(path: Path, parent: Path, counts: list[int], *, tuning: str = "{out_max: 0, in_max: 1}", extra: str = "") -> Path:
    """A variant extending ``parent`` with the sheets for ``counts`` (one line each) and tuner bounds."""
    path.write_text(f"extends: {parent}\nname: Test variant\nstakes:\n{stakes_lines(counts)}tuning: {tuning}\n{extra}")
    return path


def run_cli(*args: Any) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- 1. the search space ---------------------------------------------------------------------------------------


def brute_force(n: int, out_max: int, in_max: int) -> set[Candidate]:
    """Every shaped sheet, from all tuples (independently of ``space``)."""
    outs = [o for o in product(range(out_max + 1), repeat=n - 1) if all(a >= b for a, b in pairwise(o))]
    ins = [i for i in product(range(in_max + 1), repeat=n) if all(a <= b for a, b in pairwise(i))]
    return {Candidate(o, i) for o in outs for i in ins}


@pytest.mark.parametrize(
    "n, out_max, in_max",
    [(2, 0, 0), (2, 3, 2), (3, 6, 4), (3, 2, 0), (4, 2, 3), (5, 2, 2), (6, 1, 2), (6, 2, 1)],
)
def test_space_is_every_shaped_sheet_once(n: int, out_max: int, in_max: int) -> None:
    found = space(n, out_max, in_max)
    assert len(found) == math.comb(out_max + n - 1, n - 1) * math.comb(in_max + n, n)
    assert len(set(found)) == len(found), "duplicates"
    assert set(found) == brute_force(n, out_max, in_max)
    for candidate in found:
        assert is_shaped(candidate, out_max, in_max)
        assert len(candidate.out) == n - 1 and len(candidate.in_) == n and candidate.players == n
        assert all(a >= b for a, b in zip(candidate.out, candidate.out[1:]))  # OUT never rises
        assert all(a <= b for a, b in zip(candidate.in_, candidate.in_[1:]))  # IN never falls
        assert all(0 <= v <= out_max for v in candidate.out) and all(0 <= v <= in_max for v in candidate.in_)
    assert found == space(n, out_max, in_max), "a fixed order"


def test_default_space_matches_the_docstring() -> None:
    assert len(space(3, 6, 4)) == 980


@pytest.mark.parametrize(
    "candidate, shaped",
    [
        (Candidate((4, 2, 1), (1, 2, 3, 3)), True),
        (Candidate((2, 4, 1), (1, 2, 3, 3)), False),  # OUT rises
        (Candidate((4, 2, 1), (1, 3, 2, 3)), False),  # IN falls
        (Candidate((7, 2, 1), (1, 2, 3, 3)), False),  # OUT above out_max
        (Candidate((4, 2, 1), (1, 2, 3, 5)), False),  # IN above in_max
        (Candidate((4, 2, -1), (1, 2, 3, 3)), False),  # negative
        (Candidate((4, 2, 1), (-1, 2, 3, 3)), False),
    ],
)
def test_is_shaped(candidate: Candidate, shaped: bool) -> None:
    assert is_shaped(candidate, 6, 4) is shaped


@pytest.mark.parametrize("n, out_max, in_max", [(2, 3, 3), (3, 3, 2), (4, 2, 2)])
def test_neighbours_are_exactly_the_shaped_sheets_one_coin_away(n: int, out_max: int, in_max: int) -> None:
    whole = space(n, out_max, in_max)
    for candidate in whole:
        found = neighbours(candidate, out_max, in_max)
        assert len(set(found)) == len(found), "duplicates"
        assert candidate not in found
        for other in found:
            assert is_shaped(other, out_max, in_max)
            diffs = [b - a for a, b in zip(candidate.out + candidate.in_, other.out + other.in_)]
            assert sorted(abs(d) for d in diffs if d) == [1], f"{other} is not one coin from {candidate}"
        expected = {
            other for other in whole if sum(abs(b - a) for a, b in zip(candidate.out + candidate.in_, other.out + other.in_)) == 1
        }
        assert set(found) == expected


def test_neighbours_stay_within_bounds_at_the_edges() -> None:
    corner = Candidate((0, 0), (0, 0, 0))
    assert set(neighbours(corner, 6, 4)) == {Candidate((1, 0), (0, 0, 0)), Candidate((0, 0), (0, 0, 1))}
    top = Candidate((6, 6), (4, 4, 4))
    assert set(neighbours(top, 6, 4)) == {Candidate((6, 5), (4, 4, 4)), Candidate((6, 6), (3, 4, 4))}


@pytest.mark.parametrize("candidate", [Candidate((4, 2), (1, 2, 3)), Candidate((0,), (0, 0)), *space(4, 1, 1)[::7]])
def test_candidate_sheet_is_a_proposed_sheet_with_all_out_last(candidate: Candidate) -> None:
    sheet = candidate.sheet()
    assert isinstance(sheet, Sheet)
    assert Sheet.model_validate(sheet.model_dump(by_alias=True)) == sheet
    assert sheet.out == (*candidate.out, "all_out")
    assert sheet.in_ == candidate.in_
    assert sheet.source == "proposed"
    assert Candidate.from_sheet(sheet) == candidate
    assert candidate.sheet(provenance={"seed": 1}).provenance == {"seed": 1}


# --- 2. common random numbers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full(parent: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete variant: every sheet from 2 to 6, the 4- and 5-player ones printed."""
    return variant(tmp_path_factory.mktemp("full") / "full.yaml", parent, [2, 3, 4, 5, 6], tuning="{out_max: 1, in_max: 1}")


def tuner_for(path: Path, *, seed: int = 3, budget: int = 60, workers: int = 1) -> Tuner:
    loaded = load_variant(path).variant
    return Tuner(FAMILY, loaded, "heuristic", FAMILY.personas(loaded), seed=seed, budget=budget, backend=Local(workers))


@pytest.mark.parametrize("workers", [1, 2])
def test_two_identical_candidates_raced_together_score_identically(full: Path, workers: int) -> None:
    tuner = tuner_for(full, workers=workers)
    same = Candidate((1, 0), (0, 1, 1))
    first, second = tuner._race(tuner.variant, 3, [same, same], TARGETS, 60, 3, "crn")
    assert first.games == second.games == 30
    assert first.summary == second.summary
    assert first.figures == second.figures
    assert first.distance == second.distance and math.isfinite(first.distance)


def test_play_gives_identical_tallies_to_copies_of_a_variant(full: Path) -> None:
    tuner = tuner_for(full)
    one = tuner.with_sheet(tuner.variant, 3, Candidate((1, 1), (0, 1, 1)))
    two = tuner.with_sheet(tuner.variant, 3, Candidate((1, 1), (0, 1, 1)))
    a, b = tuner.play([one, two], 3, [(5, 35), (5, 35)], "crn")
    assert a.summary() == b.summary()
    assert a.games == b.games == 30


def test_a_candidates_score_does_not_depend_on_what_it_races(full: Path) -> None:
    tuner = tuner_for(full)
    mine = Candidate((1, 0), (0, 1, 1))
    with_one = {e.candidate: e for e in tuner._race(tuner.variant, 3, [mine, Candidate((0, 0), (0, 0, 0))], TARGETS, 60, 3, "a")}
    with_two = {e.candidate: e for e in tuner._race(tuner.variant, 3, [Candidate((1, 1), (1, 1, 1)), mine], TARGETS, 60, 3, "b")}
    assert with_one[mine].summary == with_two[mine].summary
    assert with_one[mine].distance == with_two[mine].distance


def test_every_round_of_a_race_plays_all_candidates_on_the_same_games(full: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[tuple[int, int]]] = []
    real = tune.run_many

    def recording(factories: list[Any], ranges: list[tuple[int, int]], **kwargs: Any) -> list[Any]:
        calls.append(list(ranges))
        return real(factories, ranges, **kwargs)

    monkeypatch.setattr(tune, "run_many", recording)
    tuner = tuner_for(full)
    pool = space(3, 1, 1)  # 12 sheets, keep 3: several rounds
    entries = tuner._race(tuner.variant, 3, pool, TARGETS, 100, 3, "crn")
    assert len(calls) >= 3
    stop = 0
    for ranges in calls:
        assert len(set(ranges)) == 1, f"candidates of one round play different games: {ranges}"
        start, new_stop = ranges[0]
        assert start == stop, "each round continues where the previous one stopped"
        stop = new_stop
    assert sorted(e.candidate for e in entries) == sorted(pool)
    survivors = [e for e in entries if e.games == stop]
    assert len(survivors) == 3 and entries[:3] == survivors
    assert [e.distance for e in survivors] == sorted(e.distance for e in survivors)


def test_the_sampled_pool_depends_on_the_seed_only(parent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A space bigger than the pool (48 at most, fewer on a small budget) is sampled: by the seed and player count,
    not by the sheet the variant holds now (so a tune run again on its own output proposes the same sheets)."""
    pools: list[list[Candidate]] = []

    def fake_race(self: Tuner, variant: Any, players: int, pool: list[Candidate], *args: Any) -> list[Entry]:
        pools.append(list(pool))
        return [Entry(c, distance=float(i)) for i, c in enumerate(pool)]

    monkeypatch.setattr(Tuner, "_race", fake_race)
    path = variant(tmp_path / "wide.yaml", parent, [2, 3, 4, 5, 6], tuning="{out_max: 4, in_max: 3}")
    other = tmp_path / "other.yaml"
    other.write_text(
        path.read_text().replace("3: {out: [4, 2, all_out], in: [1, 2, 3]", "3: {out: [1, 1, all_out], in: [0, 0, 1]")
    )
    for seed, tuned in ((1, path), (1, other), (2, path)):
        tuner_for(tuned, seed=seed, budget=48 * 150).tune(3, TARGETS)  # a budget that races the full pool of 48
    (search_a, refine_a), (search_b, refine_b), (search_c, _) = pools[0:2], pools[2:4], pools[4:6]
    whole = space(3, 4, 3)
    assert len(whole) > 48
    assert search_a == search_b and refine_a == refine_b
    assert search_a != search_c
    assert len(set(search_a)) == len(search_a) == 48
    assert set(search_a) <= set(whole)


def run_tune(path: Path, counts: list[int], *, workers: int = 1, seed: int = 1, budget: int = 100) -> Report:
    return tune_stakes(FAMILY, path, counts, bots="heuristic", seed=seed, budget=budget, backend=Local(workers))


def fingerprint(report: Report) -> list[Any]:
    return [
        [(t.players, t.space, t.evaluated, t.games)] + [(e.candidate, e.games, e.distance, e.summary) for e in t.ranking]
        for t in [*report.tuned, *(t for _, t in report.left_out)]
    ]


@pytest.fixture(scope="module")
def determinism(parent: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, Report, Report]:
    """Three runs of one tune (the 2-player space of 60 sheets is sampled): workers 1, 1 and 2."""
    path = tmp_path_factory.mktemp("det") / "det.yaml"
    path.write_text(
        f"extends: {parent}\nname: Determinism\nstakes:\n{stakes_lines([3])}"
        f"  4: {{out: [4, 2, 1, all_out], in: [1, 2, 3, 3]}}\n  5: {PRINTED[5]}\n{stakes_lines([6])}"
        "tuning: {out_max: 3, in_max: 4}\n"
    )
    return run_tune(path, [2]), run_tune(path, [2]), run_tune(path, [2], workers=2)


@pytest.mark.slow
def test_tune_stakes_is_deterministic_for_a_seed(determinism: tuple[Report, Report, Report]) -> None:
    first, second, _ = determinism
    assert [t.players for t in first.tuned] == [2]
    assert first.tuned[0].space == 60 and first.tuned[0].evaluated >= 4  # a small budget races a small pool
    assert sorted(first.measured) == [5]
    assert fingerprint(first) == fingerprint(second)
    assert proposal_yaml(first, "p.html") == proposal_yaml(second, "p.html")
    assert render_tuning(first) == render_tuning(second)


@pytest.mark.slow
def test_tune_stakes_does_not_depend_on_workers(determinism: tuple[Report, Report, Report]) -> None:
    first, _, parallel = determinism
    assert fingerprint(first) == fingerprint(parallel)
    assert proposal_yaml(first, "p.html") == proposal_yaml(parallel, "p.html")
    assert render_tuning(first) == render_tuning(parallel)


# --- 3. order --------------------------------------------------------------------------------------------------


def test_missing_sheets_below_a_requested_count_are_tuned_too(parent: Path, tmp_path: Path) -> None:
    path = variant(tmp_path / "no-2-3.yaml", parent, [4, 5, 6])
    loaded, wanted = load_for_tuning(path, [3])
    assert wanted == [2, 3]
    assert set(loaded.stakes) == {2, 3, 4, 5, 6}
    assert loaded.stakes[5] == PRINTED_5
    with pytest.raises(VariantError, match="tune it as well: players 3"):  # the library names its parameter
        load_for_tuning(path, [2])  # the 3-player sheet is missing above it
    assert load_for_tuning(path, [2, 3])[1] == [2, 3]
    assert load_for_tuning(path, [6])[1] == [2, 3, 6]  # present sheets are tuned only when asked for


def test_missing_sheets_above_every_requested_count_are_an_error(parent: Path, tmp_path: Path) -> None:
    path = variant(tmp_path / "no-2-3-6.yaml", parent, [4, 5])
    assert load_for_tuning(path, [3, 6])[1] == [2, 3, 6]
    assert load_for_tuning(path, [6])[1] == [2, 3, 6]
    with pytest.raises(VariantError) as caught:
        load_for_tuning(path, [3])
    message = str(caught.value)
    assert "6-player sheet is missing" in message and "players 6" in message and "--" not in message
    result = run_cli("tune-stakes", path, "--players", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1
    assert "--players 6" in result.output
    no_traceback(result)
    assert not (tmp_path / "p.yaml").exists()


def test_validate_rejects_a_missing_sheet_and_points_at_the_tuner(parent: Path, tmp_path: Path) -> None:
    path = variant(tmp_path / "no-3.yaml", parent, [2, 4, 5, 6])
    result = run_cli("validate", path)
    assert result.exit_code == 1
    assert "missing the 3-player stakes sheet" in result.output
    assert "workbench tune-stakes" in result.output
    no_traceback(result)
    with pytest.raises(VariantError, match="tune-stakes"):
        load_variant(path)
    loaded, wanted = load_for_tuning(path, [3])  # ... while the tuner takes it
    assert wanted == [3] and 3 in loaded.stakes


@pytest.fixture(scope="module")
def ordered(parent: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, list[tuple[int, dict[int, Sheet]]]]:
    """Tune 3 and 6 on a variant without 2, 3 and 6; record the stakes of every variant the simulations play."""
    path = variant(tmp_path_factory.mktemp("ordered") / "no-2-3-6.yaml", parent, [4, 5])
    played: list[tuple[int, dict[int, Sheet]]] = []
    real = Tuner.play

    def recording(self: Tuner, variants: list[Any], players: int, games: list[tuple[int, int]], label: str) -> list[Any]:
        played.extend((players, dict(v.stakes)) for v in variants)
        return real(self, variants, players, games, label)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Tuner, "play", recording)
        report = run_tune(path, [6, 3])
    return report, played


@pytest.mark.slow
def test_the_smallest_missing_count_is_tuned_first(ordered: tuple[Report, list]) -> None:
    report, played = ordered
    assert [t.players for t in report.tuned] == [2, 3, 6]
    tuning_order = [players for players, _ in played if players in (2, 3, 6)]
    assert tuning_order == sorted(tuning_order), "all 2-player games, then 3, then 6"


@pytest.mark.slow
def test_bigger_tables_play_with_the_tuned_smaller_sheets(ordered: tuple[Report, list]) -> None:
    report, played = ordered
    best = {t.players: t.best.candidate for t in report.tuned}
    three = [stakes for players, stakes in played if players == 3]
    six = [stakes for players, stakes in played if players == 6]
    assert three and six
    for stakes in three:
        assert Candidate.from_sheet(stakes[2]) == best[2]
        assert stakes[2].source == "proposed"
    for stakes in six:
        assert Candidate.from_sheet(stakes[2]) == best[2] and Candidate.from_sheet(stakes[3]) == best[3]
        assert stakes[5] == PRINTED_5, "a 6-player game that falls to 5 uses the printed 5-player sheet"


@pytest.mark.slow
def test_the_reports_variant_holds_the_tuned_sheets_and_the_printed_ones(ordered: tuple[Report, list]) -> None:
    report, _ = ordered
    for t in report.tuned:
        assert Candidate.from_sheet(report.variant.stakes[t.players]) == t.best.candidate
        assert report.variant.stakes[t.players].source == "proposed"
    assert report.variant.stakes[5] == PRINTED_5
    assert report.variant.stakes[4].source == "printed"
    assert [t.players for _, t in report.left_out] == [4, 5]
    assert sorted(report.measured) == [4, 5]


# --- 4. YAML write-back ----------------------------------------------------------------------------------------


def fake_report(sheets: dict[int, Candidate]) -> Report:
    """A report proposing ``sheets``, without playing a game."""
    tuned = [Tuned(n, [Entry(c, distance=1.25, games=400)], space=10, evaluated=6, games=900) for n, c in sorted(sheets.items())]
    return Report(None, "heuristic", 7, 400, 500, {4: {}, 5: {}}, {}, {}, tuned, [])  # type: ignore[arg-type]


C2, C3, C6 = Candidate((3,), (1, 1)), Candidate((3, 1), (1, 2, 2)), Candidate((5, 3, 2, 1, 0), (0, 0, 1, 2, 3, 4))


def assert_holds(path: Path, proposals: dict[int, Candidate], page: str | None = "tuning/page.html") -> Any:
    """The file loads as a variant with the proposed sheets, marked proposed, with their provenance."""
    loaded = load_variant(path).variant
    for n, candidate in proposals.items():
        sheet = loaded.stakes[n]
        assert Candidate.from_sheet(sheet) == candidate
        assert sheet.out[-1] == "all_out"
        assert sheet.source == "proposed"
        assert isinstance(sheet.provenance, dict)
        assert sheet.provenance["workbench"] == f"chance-workbench {__version__}"
        assert sheet.provenance["seed"] == 7 and sheet.provenance["bots"] == "heuristic"
        if page:
            assert sheet.provenance["report"] == page
    return loaded


def changed_lines(before: list[str], after: list[str]) -> list[int]:
    assert len(before) == len(after)
    return [i for i, (a, b) in enumerate(zip(before, after)) if a != b]


ONE_LINE = """\
# A designer's variant: every comment and space here must survive.
extends: {parent}
name: Write-back test   # trailing comment on a key
stakes:
    # out[k-1]: coins each OUT player takes when k played OUT
    2: {{out: [4, all_out], in: [1, 2], source: proposed}}
    3: {{out: [4, 2, all_out], in: [1, 2, 3], source: proposed}}   # provisional, from the 4-player sheet

    4: {{out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}}
    5: {{out: [4, 3, 2, 1, all_out], in: [0, 1, 2, 3, 3], source: printed}}
    6: {{out: [4, 3, 2, 2, 1, all_out], in: [0, 1, 2, 2, 3, 3], source: proposed}}  # guess
# the tuner's bounds
tuning:   {{out_max: 6, in_max: 4}}
description: >
  Folded text
  that stays.
"""


def test_write_back_changes_only_the_lines_of_the_tuned_sheets(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "one-line.yaml"
    path.write_text(ONE_LINE.format(parent=parent))
    before = path.read_text().splitlines(keepends=True)
    write_back(path, fake_report({3: C3, 6: C6}), "tuning/page.html")
    after = path.read_text().splitlines(keepends=True)
    assert changed_lines(before, after) == [6, 10]
    assert after[6].startswith("    3: {out: [3, 1, all_out], in: [1, 2, 2], source: proposed, provenance: {")
    assert after[6].endswith("  # provisional, from the 4-player sheet\n")
    assert after[10].startswith("    6: {out: [5, 3, 2, 1, 0, all_out], in: [0, 0, 1, 2, 3, 4], source: proposed, provenance: {")
    assert after[10].endswith("# guess\n")
    loaded = assert_holds(path, {3: C3, 6: C6})
    assert loaded.stakes[2].provenance is None and loaded.stakes[5] == PRINTED_5
    assert loaded.description == "Folded text that stays.\n"


def test_write_back_inserts_missing_sheets_in_place_with_the_siblings_indentation(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "missing.yaml"
    text = (
        f"extends: {parent}\n"
        "name: Missing sheets\n"
        "stakes:\n"
        "    # the printed sheets, then a guess\n"
        f"    4: {PRINTED[4]}\n"
        f"    5: {PRINTED[5]}   # printed\n"
        "    # the 6-player sheet is a guess\n"
        f"    6: {GUESSED[6]}\n"
        "\n"
        "# the end\n"
        "market: {face_up: 4, reshuffle_discard: true}\n"
    )
    path.write_text(text)
    with pytest.raises(VariantError, match="tune-stakes"):
        load_variant(path)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({2: C2, 3: C3}), "tuning/page.html")
    after = path.read_text().splitlines(keepends=True)
    assert len(after) == len(before) + 2
    inserted = [i for i, line in enumerate(after) if line.lstrip().startswith(("2: ", "3: "))]
    assert [after[i][:7] for i in inserted] == ["    2: ", "    3: "]
    assert inserted[0] < inserted[1] < after.index(f"    4: {PRINTED[4]}\n"), "in order of player count, before 4"
    assert inserted[0] > after.index("stakes:\n")
    assert [line for i, line in enumerate(after) if i not in inserted] == before, "every other line as it was"
    assert_holds(path, {2: C2, 3: C3})


def test_write_back_inserts_a_sheet_between_its_siblings_and_after_the_last(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "gaps.yaml"
    text = (
        f"extends: {parent}\n"
        "stakes:\n"
        f"   2: {GUESSED[2]}\n"
        "   # the printed ones\n"
        f"   4: {PRINTED[4]}\n"
        f"   5: {PRINTED[5]}\n"
        "   # that is all\n"
        "\n"
        "name: Gaps   # after the stakes\n"
    )
    path.write_text(text)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({3: C3, 6: C6}), None)
    after = path.read_text().splitlines(keepends=True)
    assert after[:3] == before[:3]
    assert after[3].startswith("   3: {out: [3, 1, all_out]")  # right after 2, before the comment about 4
    assert after[4:7] == before[3:6]
    assert after[7].startswith("   6: {out: [5, 3, 2, 1, 0, all_out]")  # right after 5
    assert after[8:] == before[6:]
    assert_holds(path, {3: C3, 6: C6}, page=None)


def test_write_back_replaces_a_block_sheet_by_one_line_and_keeps_what_follows(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "block.yaml"
    text = (
        f"extends: {parent}\n"
        "name: Block sheets\n"
        "stakes:\n"
        f"  2: {GUESSED[2]}\n"
        "  3:\n"
        "    out: [4, 2, all_out]\n"
        "    in:\n"
        "      - 1\n"
        "      - 2\n"
        "      - 3\n"
        "    source: proposed\n"
        "  # the printed sheets, from the rulebook\n"
        f"  4: {PRINTED[4]}\n"
        f"  5: {PRINTED[5]}\n"
        "  6:\n"
        "    out: [4, 3, 2, 2, 1, all_out]\n"
        "    in: [0, 1, 2, 2, 3, 3]\n"
        "\n"
        "# after the stakes\n"
        "tuning:\n"
        "  out_max: 6\n"
        "  in_max: 4\n"
    )
    path.write_text(text)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({3: C3, 6: C6}), "tuning/page.html")
    after = path.read_text().splitlines(keepends=True)
    assert len(after) == len(before) - 6 - 2
    assert after[:4] == before[:4]
    assert after[4].startswith("  3: {out: [3, 1, all_out], in: [1, 2, 2], source: proposed, provenance: {")
    assert after[5:8] == before[11:14]  # the comment, 4 and 5
    assert after[8].startswith("  6: {out: [5, 3, 2, 1, 0, all_out]")
    assert after[9:] == before[17:]  # the blank line, the comment and the next key
    loaded = assert_holds(path, {3: C3, 6: C6})
    assert loaded.tuning.out_max == 6


def test_write_back_adds_a_stakes_key_to_a_file_without_one(tmp_path: Path) -> None:
    path = tmp_path / "child.yaml"
    text = f"extends: {BASE}\nname: No stakes here   # they come from the base\n"
    path.write_text(text)
    write_back(path, fake_report({3: C3}), "tuning/page.html")
    after = path.read_text()
    assert after.startswith(text)
    assert after[len(text) :].startswith("stakes:\n  3: {out: [3, 1, all_out]")
    loaded = assert_holds(path, {3: C3})
    assert loaded.stakes[4].source == "printed"


def test_write_back_keeps_a_trailing_comment_with_brackets(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "comment.yaml"
    text = f"extends: {parent}\nstakes:\n{stakes_lines([2])}  3: {GUESSED[3]}  # was out [5, 3]\n{stakes_lines([4, 5, 6])}"
    path.write_text(text)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({3: C3}), None)
    after = path.read_text().splitlines(keepends=True)
    assert changed_lines(before, after) == [3]
    assert after[3].endswith("# was out [5, 3]\n")


def test_write_back_into_a_flow_style_stakes_mapping(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "flow.yaml"
    flow = ", ".join(f"{n}: {SHEETS[n]}" for n in (2, 3, 4, 5, 6))
    text = f"extends: {parent}\nname: Flow stakes\nstakes: {{{flow}}}\nend: {{stars: 8}}\n"
    path.write_text(text)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({3: C3}), None)
    after = path.read_text().splitlines(keepends=True)
    assert [line for i, line in enumerate(after) if i != 2] == [line for i, line in enumerate(before) if i != 2]
    loaded = assert_holds(path, {3: C3}, page=None)
    assert loaded.stakes[5] == PRINTED_5 and Candidate.from_sheet(loaded.stakes[2]) == Candidate((4,), (1, 2))


def test_write_back_with_sheets_in_descending_order(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "descending.yaml"
    text = (
        f"extends: {parent}\n"
        "stakes:\n"
        "  6:\n"
        "    out: [4, 3, 2, 2, 1, all_out]\n"
        "    in: [0, 1, 2, 2, 3, 3]\n"
        f"{stakes_lines([5, 4])}"
        "  3:\n"
        "    out: [4, 2, all_out]\n"
        "    in: [1, 2, 3]\n"
        f"{stakes_lines([2])}"
        "name: Descending\n"
    )
    path.write_text(text)
    before = text.splitlines(keepends=True)
    write_back(path, fake_report({3: C3, 6: C6}), None)
    after = path.read_text().splitlines(keepends=True)
    assert after[0:2] == before[0:2] and after[3:5] == before[5:7] and after[6:] == before[10:]
    loaded = assert_holds(path, {3: C3, 6: C6}, page=None)
    assert Candidate.from_sheet(loaded.stakes[2]) == Candidate((4,), (1, 2))


# --- 5. the command line ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_proposes_a_sheet_and_checks_the_method_without_touching_the_variant(full: Path, tmp_path: Path) -> None:
    before = full.read_bytes()
    out_file = tmp_path / "tuning" / "proposal.yaml"
    args = ("tune-stakes", full, "--players", 3, "--budget", 400, "--seed", 1, "--workers", 1, "--out", out_file)
    missing = run_cli(*args)
    assert missing.exit_code == 1 and f"the folder {out_file.parent} does not exist" in missing.output
    out_file.parent.mkdir()
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    no_traceback(result)
    assert full.read_bytes() == before, "without --write the variant is untouched"

    proposal = yaml.safe_load(out_file.read_text())
    assert list(proposal) == ["stakes"] and list(proposal["stakes"]) == [3]
    entry = proposal["stakes"][3]
    assert entry["source"] == "proposed"
    assert entry["out"][-1] == "all_out" and len(entry["out"]) == 3 and len(entry["in"]) == 3
    candidate = Candidate.from_sheet(Sheet.model_validate(entry))
    assert is_shaped(candidate, 1, 1)
    provenance = entry["provenance"]
    assert provenance["workbench"] == f"chance-workbench {__version__}"
    assert provenance["bots"] == "heuristic" and provenance["seed"] == 1 and provenance["budget"] == 400
    assert (
        provenance["command"] == f"workbench tune-stakes {full} --players 3 --bots heuristic --budget 400 --seed 1 --engine batch"
    )
    assert provenance["report"] == "proposal.html"
    assert "4, 5" in provenance["targets_from"]
    metrics = provenance["metrics"]
    assert set(metrics) == set(TUNING_METRICS)
    assert all(set(figure) == {"measured", "target", "difference", "share"} for figure in metrics.values())
    assert all(
        figure["difference"] == pytest.approx(figure["measured"] - figure["target"], abs=2e-4) for figure in metrics.values()
    )
    assert sum(figure["share"] for figure in metrics.values()) == pytest.approx(1, abs=0.01)  # each metric's part of the distance
    stability = provenance["stability"]  # the winner and its runners-up played again on games of another seed
    assert stability["seed"] == 1 + 1_000_000_000 and stability["games"] == 100
    low_high = stability["distance"]
    assert low_high[1] <= low_high[0] <= low_high[2]
    assert isinstance(stability["winner_again"], bool) and ("closest" in stability) != stability["winner_again"]
    for alternative in provenance["alternatives"]:  # runners-up the check cannot tell apart from the winner
        value, low, high = alternative["difference"]
        assert low <= 0 and low <= value <= high and is_shaped(Candidate.from_sheet(Sheet.model_validate(
            {"out": [*map(int, alternative["sheet"].split(" all")[0].split()[1:]), "all_out"],
             "in": list(map(int, alternative["sheet"].split("| in ")[1].split()))})), 1, 1)  # fmt: skip
    exploit = provenance["exploitability"]  # a search bot in one seat, on budget / 20 games of each sheet
    assert exploit["bot"] == "search" and exploit["games"] == 20 and list(exploit["printed_gains"]) == [4, 5]
    for value, low, high in (exploit["win_rate"], exploit["fair_share"], exploit["gain"], *exploit["printed_gains"].values()):
        assert low <= value <= high
    assert exploit["gain"][0] == pytest.approx(exploit["win_rate"][0] - exploit["fair_share"][0], abs=2e-4)
    assert exploit["more_than_printed"] == (exploit["gain"][1] > max(high for _, _, high in exploit["printed_gains"].values()))
    assert out_file.read_text().startswith("# Stakes sheets proposed by `workbench tune-stakes` (chance-workbench)")

    page = out_file.with_suffix(".html").read_text()
    assert '<meta name="generator" content="chance-workbench">' in page
    assert candidate.label() in page

    out = result.stdout
    out_text, in_text = " ".join(map(str, candidate.out)), " ".join(map(str, candidate.in_))
    assert f"3 players: out [{out_text} all_out], in [{in_text}] (distance " in out
    assert re.search(r"\n  played again on 100 games of another seed: distance [\d.]+ \([\d.]+ to [\d.]+\), ", out)
    assert re.search(r"\n  a search bot in one seat wins [\d.]+% where a field bot wins [\d.]+%: [+-][\d.]+ pp \(", out)
    assert re.search(r"\nprinted 4-player sheet: a search bot in one seat wins ", out)
    assert re.search(
        r"check: the printed 4-player sheet, hidden and tuned from the others, comes back as out .* "
        r"\(\d of 7 entries within one coin\)",
        out,
    )
    assert re.search(r"check: the printed 5-player sheet, .* \(\d of 9 entries within one coin\)", out)
    assert "proposal.yaml" in out and "proposal.html" in out


@pytest.mark.slow
def test_cli_write_fills_a_missing_sheet_in_place(parent: Path, tmp_path: Path) -> None:
    path = tmp_path / "variant.yaml"
    text = (
        "# My variant.\n"
        f"extends: {parent}\n"
        "name: Needs a 3-player sheet   # the box has none\n"
        "stakes:\n"
        "    # one line per player count\n"
        f"    2: {GUESSED[2]}   # a guess\n"
        f"    4: {PRINTED[4]}\n"
        f"    5: {PRINTED[5]}\n"
        f"    6: {GUESSED[6]}\n"
        "tuning: {out_max: 0, in_max: 1}   # tiny, for the test\n"
    )
    path.write_text(text)
    assert run_cli("validate", path).exit_code == 1
    out_file = tmp_path / "sheets.yaml"
    result = run_cli("tune-stakes", path, "-p", 3, "--budget", 100, "--seed", 2, "--workers", 1, "--out", out_file, "--write")
    assert result.exit_code == 0, result.output
    no_traceback(result)
    assert "variant.yaml" in result.stdout.splitlines()[-1]

    before = text.splitlines(keepends=True)
    after = path.read_text().splitlines(keepends=True)
    assert len(after) == len(before) + 1
    assert after[:6] == before[:6] and after[7:] == before[6:]
    assert after[6].startswith("    3: {out: [")

    proposed = yaml.safe_load(out_file.read_text())["stakes"][3]
    loaded = load_variant(path).variant
    sheet = loaded.stakes[3]
    assert list(sheet.out) == proposed["out"] and list(sheet.in_) == proposed["in"]
    assert sheet.source == "proposed"
    assert isinstance(sheet.provenance, dict) and sheet.provenance["seed"] == 2
    assert sheet.provenance["report"] == os.path.relpath(out_file.with_suffix(".html"), path.parent)
    assert loaded.stakes[5] == PRINTED_5
    validated = run_cli("validate", path)
    assert validated.exit_code == 0 and "3 proposed" in validated.output


@pytest.mark.parametrize("name", ["proposal.yaml", "proposal.html"])
def test_cli_does_not_overwrite_other_files_without_force(full: Path, tmp_path: Path, name: str) -> None:
    full = Path(shutil.copy(full, tmp_path / "variant.yaml"))
    out_file = tmp_path / "proposal.yaml"
    mine = tmp_path / name
    mine.write_text("stakes: my own notes\n")
    before = full.read_bytes()
    result = run_cli("tune-stakes", full, "--players", 3, "--budget", 100, "--workers", 1, "--out", out_file, "--write")
    assert result.exit_code == 1
    assert "--force" in result.output and name in result.output
    no_traceback(result)
    assert mine.read_text() == "stakes: my own notes\n"
    assert full.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "variant.yaml"])


def test_cli_rejects_an_unknown_bot(full: Path, tmp_path: Path) -> None:
    result = run_cli("tune-stakes", full, "--players", 3, "--bots", "nobody", "--budget", 100, "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1
    assert "unknown bot 'nobody'" in result.output and "heuristic" in result.output
    no_traceback(result)
    assert not (tmp_path / "p.yaml").exists()


def test_cli_rejects_a_variant_with_another_problem(parent: Path, tmp_path: Path) -> None:
    path = variant(tmp_path / "broken.yaml", parent, [2, 4, 5, 6], extra="board: {6: [{gain: {hearst: 1}}]}\n")
    result = run_cli("tune-stakes", path, "--players", 3, "--budget", 100, "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1
    assert "board.6" in result.output and "hearst" in result.output
    assert "3-player" not in result.output  # the missing sheet is the tuner's to fill
    no_traceback(result)
    missing = run_cli("tune-stakes", tmp_path / "nowhere.yaml", "--players", 3, "--out", tmp_path / "p.yaml")
    assert missing.exit_code == 1 and "file not found" in missing.output
    no_traceback(missing)


@pytest.mark.parametrize(
    "players",
    [
        7,
        1,
        0,
    ],
)
def test_cli_rejects_a_player_count_outside_2_to_players_max(full: Path, tmp_path: Path, players: int) -> None:
    result = run_cli("tune-stakes", full, "--players", players, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1
    no_traceback(result)
    assert "--players" in result.output and str(players) in result.output
    assert "--players 1" not in result.output or players == 1
    assert not (tmp_path / "p.yaml").exists()


def test_targets_from_the_tuning_block_alone(parent: Path, tmp_path: Path) -> None:
    targets = ", ".join(f"{name}: {value}" for name, value in TARGETS.items())
    path = tmp_path / "no-printed.yaml"
    path.write_text(
        f"extends: {parent}\nname: Nothing printed\nstakes:\n{stakes_lines([2, 3])}"
        f"  4: {{out: [4, 2, 1, all_out], in: [1, 2, 3, 3]}}\n  5: {{out: [4, 3, 2, 1, all_out], in: [0, 1, 2, 3, 3]}}\n"
        f"{stakes_lines([6])}tuning: {{out_max: 0, in_max: 1, targets: {{{targets}}}}}\n"
    )
    report = run_tune(path, [3])
    assert report.targets == TARGETS
    assert [t.players for t in report.tuned] == [3]


def test_the_proposal_cannot_be_written_as_html(full: Path, tmp_path: Path) -> None:
    result = run_cli("tune-stakes", full, "--players", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "z.html")
    assert result.exit_code == 1 and "the proposal is YAML" in result.output
    assert not (tmp_path / "z.html").exists()


# --- guards: printed sheets, the designer's bytes, the budget ----------------------------------------------------


def test_write_refuses_to_replace_a_printed_sheet_of_the_base_variant(tmp_path: Path) -> None:
    before = BASE.read_bytes()
    out_file = tmp_path / "p.yaml"
    result = run_cli("tune-stakes", BASE, "--players", 4, "--write", "--budget", 100, "--out", out_file)
    assert result.exit_code == 1
    assert "the 4-player sheet of chance-it.yaml is printed (source: printed)" in result.output
    assert "--replace-printed" in result.output
    no_traceback(result)
    assert BASE.read_bytes() == before and not out_file.exists()


@pytest.mark.slow
def test_replace_printed_puts_the_proposal_over_a_printed_sheet(full: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(full, tmp_path / "variant.yaml"))
    args = ("tune-stakes", path, "--players", 4, "--budget", 100, "--seed", 1, "--workers", 1, "--write")
    assert run_cli(*args, "--out", tmp_path / "a.yaml").exit_code == 1
    result = run_cli(*args, "--replace-printed", "--out", tmp_path / "b.yaml")
    assert result.exit_code == 0, result.output
    sheet = load_variant(path).variant.stakes[4]
    assert sheet.source == "proposed" and "--replace-printed" in sheet.provenance["command"]
    assert sheet.provenance["replaces"] == "the printed sheet out 4 2 1 all | in 1 2 3 3"
    alone = run_cli("tune-stakes", path, "--players", 4, "--replace-printed", "--out", tmp_path / "c.yaml")
    assert alone.exit_code == 1 and "--replace-printed: only with --write" in alone.output


@pytest.mark.slow
def test_write_keeps_crlf_line_endings_and_every_comment_of_a_block_sheet(parent: Path, tmp_path: Path) -> None:
    lines = [
        "# My variant, written on Windows.",
        f"extends: {parent}",
        "name: CRLF variant",
        "stakes:",
        "  2: {out: [1, all_out], in: [1, 1], source: proposed}",
        "  3:",
        "    # playtest 2 said the lone OUT player took too much",
        "    out: [1, 1, all_out]   # lone OUT takes 1",
        "    in: [1, 1, 1]",
        "    source: proposed",
        f"  4: {PRINTED[4]}  # from the box",
        f"  5: {PRINTED[5]}",
        f"  6: {GUESSED[6]}",
        "tuning: {out_max: 1, in_max: 1}",
    ]
    path = tmp_path / "crlf.yaml"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    result = run_cli("tune-stakes", path, "-p", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml", "--write")
    assert result.exit_code == 0, result.output
    written = path.read_bytes().decode()
    assert written.count("\r\n") == written.count("\n"), "every line still ends in CRLF"
    for comment in ("# My variant, written on Windows.", "# playtest 2 said", "# lone OUT takes 1", "# from the box"):
        assert comment in written
    assert load_variant(path).variant.stakes[3].source == "proposed"


def _edited(path: Path) -> str:
    path.write_text(path.read_text() + "# edited by the designer while the tuner ran\n")
    return "changed on disk while the tuner ran; not written"


def _removed(path: Path) -> str:
    path.unlink()
    return "was removed while the tuner ran; not written"


def _made_a_link(path: Path) -> str:  # to a copy of the same text: the file the designer named is no longer there
    copy = path.with_name("elsewhere.yaml")
    path.rename(copy)
    path.symlink_to(copy.name)
    return "is now a link (to elsewhere.yaml) since the tuner started; not written"


def _made_read_only(path: Path) -> str:
    path.chmod(0o444)
    return "was made read-only while the tuner ran; not written"


@pytest.mark.slow
@pytest.mark.parametrize("change", [_edited, _removed, _made_a_link, _made_read_only])
def test_write_refuses_when_the_variant_changed_during_the_run(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[Path], str]
) -> None:
    """The variant file is written back only if it is still the file, and the text, the tuner read; whatever the
    designer did to it meanwhile stays done."""
    path = Path(shutil.copy(full, tmp_path / "variant.yaml"))
    real = tune.tune_stakes
    said: list[str] = []

    def change_meanwhile(*args: Any, **kwargs: Any) -> Report:
        report = real(*args, **kwargs)
        said.append(change(path))
        return report

    monkeypatch.setattr(tune, "tune_stakes", change_meanwhile)
    result = run_cli("tune-stakes", path, "-p", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml", "--write")
    assert result.exit_code == 1 and said[0] in result.output and "(the proposal is in " in result.output, result.output
    assert "Traceback" not in result.output
    left = {p.name: (p.is_symlink(), p.read_bytes() if p.exists() else None) for p in tmp_path.glob("*.yaml")}
    text = full.read_bytes()
    expected = {
        _edited: {"variant.yaml": (False, text + b"# edited by the designer while the tuner ran\n")},
        _removed: {},
        _made_a_link: {"variant.yaml": (True, text), "elsewhere.yaml": (False, text)},
        _made_read_only: {"variant.yaml": (False, text)},
    }[change]
    assert left == {**expected, "p.yaml": left["p.yaml"]}, "the proposal itself is kept, the variant left as it was made"


@pytest.mark.slow
def test_a_small_budget_warns_with_the_measured_uncertainty(full: Path, tmp_path: Path) -> None:
    result = run_cli("tune-stakes", full, "-p", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml")
    assert result.exit_code == 0, result.output
    warning = re.search(
        r"warning: 3 players: --budget 100 is too small for this proposal to mean much: its figures rest on (\d+) games "
        r"and are uncertain by up to ±([\d.]+) noticeable differences \((.+): ±([\d.e-]+)\); a budget of about ([\d,]+) brings",
        result.output,
    )
    assert warning, result.output
    spread, needed = float(warning.group(2)), int(warning.group(5).replace(",", ""))
    assert spread > 1.0
    assert needed >= 100 * spread**2 - 1000  # half-widths shrink as 1/sqrt(games)

    # the library says the same, naming the parameter as the library calls it
    tuning = api.tune_stakes(full, [3], budget=100, backend=Local(1))
    (said,) = tuning.warnings
    assert str(said).startswith("3 players: budget 100 is too small") and "--" not in str(said)


# --- reproducible proposals ----------------------------------------------------------------------------------------

#: A committed short tune of the base variant; regenerate it (from the project folder) with the command in its provenance.
COMMITTED = ROOT / "tests" / "data" / "tuning" / "chance-it-3p.yaml"


@pytest.mark.slow
def test_a_short_tune_reproduces_the_committed_proposal_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    committed = yaml.safe_load(COMMITTED.read_text())
    command = committed["stakes"][3]["provenance"]["command"]
    assert (
        command
        == "workbench tune-stakes variants/chance-it.yaml --players 3 --bots heuristic --budget 300 --seed 1 --engine batch"
    )
    monkeypatch.chdir(ROOT)
    out_file = tmp_path / COMMITTED.name
    result = run_cli(*command.split()[1:], "--workers", 2, "--out", out_file)
    assert result.exit_code == 0, result.output
    regenerate = f"regenerate with: {command} --out {COMMITTED.relative_to(ROOT)}"
    assert out_file.read_bytes() == COMMITTED.read_bytes(), regenerate
    assert out_file.with_suffix(".html").read_bytes() == COMMITTED.with_suffix(".html").read_bytes(), regenerate


@pytest.mark.slow
def test_a_tune_run_again_on_its_own_output_proposes_the_same_sheets(full: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(full, tmp_path / "variant.yaml"))
    args = ("tune-stakes", path, "-p", 2, "-p", 3, "--budget", 150, "--seed", 5, "--workers", 1, "--out", tmp_path / "p.yaml")
    first = run_cli(*args, "--write")
    assert first.exit_code == 0, first.output
    proposal, variant_text = (tmp_path / "p.yaml").read_bytes(), path.read_bytes()
    second = run_cli(*args, "--write")
    assert second.exit_code == 0, second.output
    assert (tmp_path / "p.yaml").read_bytes() == proposal
    assert path.read_bytes() == variant_text


def test_targets_are_measured_with_the_printed_sheet_cut_down_for_the_counts_being_tuned(full: Path) -> None:
    variant = load_variant(full).variant
    measured = tune.stand_ins(variant, [2, 3, 6], [4, 5])
    assert Candidate.from_sheet(measured.stakes[3]) == Candidate((4, 2), (1, 2, 3))  # the printed 4-player sheet, cut
    assert Candidate.from_sheet(measured.stakes[2]) == Candidate((4,), (1, 2))
    assert measured.stakes[6] == variant.stakes[6], "no game at a printed count reaches 6 players"
    assert measured.stakes[4] == variant.stakes[4] and measured.stakes[5] == variant.stakes[5]


def no_tuning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game of a race fails the test: the command must refuse before the work."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the tuner started before the variant was checked")

    monkeypatch.setattr(Tuner, "play", boom)


def test_a_sheet_the_designer_marked_tuned_is_kept_like_a_printed_one(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "variant.yaml"
    path.write_text(full.read_text().replace("source: proposed}", "source: tuned}  # after 12 playtests", 1))
    no_tuning(monkeypatch)
    result = run_cli("tune-stakes", path, "-p", 2, "--write", "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1 and "the 2-player sheet of variant.yaml is tuned (source: tuned)" in result.output


@pytest.mark.parametrize("problem", ["read-only", "hard link", "anchor", "tab"])
def test_write_refuses_a_variant_it_cannot_edit_before_any_game(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, problem: str
) -> None:
    path = tmp_path / "variant.yaml"
    text = full.read_text()
    if problem == "anchor":
        text = text.replace("  3: {", "  3: &three {", 1)
    if problem == "tab":
        text = text.replace("\n  3: {", "\n  3:\t{", 1)
    path.write_text(text)
    if problem == "read-only":
        path.chmod(0o444)
    if problem == "hard link":
        os.link(path, tmp_path / "other-name.yaml")
    no_tuning(monkeypatch)
    result = run_cli("tune-stakes", path, "-p", 3, "--write", "--out", tmp_path / "p.yaml")
    assert result.exit_code == 1, result.output
    no_traceback(result)
    expected = {"read-only": "is read-only", "hard link": "2 hard links", "anchor": "cannot edit", "tab": "cannot edit"}
    assert expected[problem] in result.output
    assert path.read_text() == text


def test_write_goes_through_a_symlinked_variant_to_the_real_file(full: Path, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = Path(shutil.copy(full, real / "v.yaml"))
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    result = run_cli("tune-stakes", link, "-p", 3, "--budget", 100, "--workers", 1, "--write", "--out", tmp_path / "p.yaml")
    assert result.exit_code == 0, result.output
    assert link.is_symlink(), "the link stays a link"
    sheet = load_variant(target).variant.stakes[3]
    assert sheet.provenance["command"].startswith(f"workbench tune-stakes {link} ")
    assert sheet.provenance["report"] == os.path.relpath(tmp_path / "p.html", real)


def test_a_variant_that_cannot_be_written_after_the_tune_says_where_the_proposal_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = tunable_variant(tmp_path / "v")
    before = variant.read_bytes()

    def full_disk(path: Path, data: bytes | str, *, still: str | None = None) -> None:
        raise OutputError(path, "No space left on device")

    monkeypatch.setattr(tune, "write_atomic", full_disk)  # the variant's write, after the proposal went in
    with pytest.raises(WorkbenchError) as info:
        api.tune_stakes(variant, [3], budget=100, seed=1, out=tmp_path / "p.yaml", write=True)
    assert "No space left on device" in str(info.value.problems[0])
    assert info.value.note == f"{variant} is unchanged; the proposal is in {tmp_path / 'p.yaml'}"
    assert variant.read_bytes() == before and (tmp_path / "p.yaml").is_file()


def test_the_default_budget_is_a_few_minutes_for_the_bot_on_the_engine() -> None:
    """600,000 heuristic games a count on the batch engine, 30,000 on the interpreter; a search bot's decisions each play
    ``playouts`` futures of ``depth`` + 1 rounds an option, so the default search gets 200 times fewer (3,000 and 150),
    a lighter one more; an equilibrium bot's guide plays ``samples`` futures for each of 3 ** players joint choices
    (4 for each of 27 at 3 players: 2.25 times the default search's 16 for each of 3 guides), and never fewer than
    100."""
    from workbench.games.chance_it.schema import Persona

    def budget(engine: str, persona: Persona | None, players: int = 4) -> int:
        return FAMILY.tuning_budget(engine, persona, players)

    assert (budget("batch", Persona(policy="heuristic")), budget("interpreter", Persona(policy="heuristic"))) == (600_000, 30_000)
    assert (budget("batch", Persona(policy="search")), budget("interpreter", Persona(policy="search"))) == (3_000, 150)
    assert budget("batch", Persona(policy="search", playouts=4)) == 12_000
    assert budget("interpreter", Persona(policy="search", playouts=10_000, depth=200)) == 100
    assert budget("batch", Persona(policy="equilibrium"), 3) == 3_000 * 48 // 108 == 1_333
    assert budget("batch", Persona(policy="equilibrium"), 6) == 100  # 729 joint choices: 49, held at 100
    assert budget("batch", None) == 600_000  # a bot the tuner will refuse, naming the known ones


def test_a_figure_the_bots_never_gave_is_left_out_of_the_distance_and_said() -> None:
    """Search bots value no IN/OUT choice (they play the guides out): the closeness of IN and OUT rests on no
    observation, so it is no target (a 0 against a 0 would read as perfectly close) and the report says so."""

    def summary(choices: int) -> dict[str, Any]:
        return {"guides": {"in_out_gap": {"mean": 0.0, "sd": 0.0, "low": 0.0, "high": 0.0, "n": choices}}}

    assert tune.unmeasured({4: summary(0), 5: summary(120)}) == ["in_out_gap"]
    assert tune.unmeasured({4: summary(7), 5: summary(120)}) == []
    assert tune.unmeasured({}) == []


def test_the_check_says_which_runners_up_cannot_be_told_apart_and_whether_the_winner_holds() -> None:
    """A runner-up whose difference from the winner's distance has an interval holding 0 is an alternative; the winner
    is stable when it is the closest again on the check's games."""
    from workbench.sim.paired import Estimate

    sheets = [Candidate((2, 1), (1, 2, 3)), Candidate((3, 1), (1, 2, 3)), Candidate((2, 2), (1, 2, 3))]

    def at(value: float, se: float) -> Estimate:
        return Estimate(value, se, 500)

    check = tune.Check(7, 500, sheets, [at(5.0, 1), at(5.5, 1), at(9.0, 1)], [at(0, 0), at(0.5, 0.4), at(4.0, 1)])
    assert check.stable and check.alternatives() == [1]
    assert check.said() == (
        "played again on 500 games of another seed: distance 5.00 (3.04 to 6.96), the closest again; "
        "cannot be told apart from it at 95 %: out 3 1 all | in 1 2 3 (5.50)"
    )
    moved = tune.Check(7, 500, sheets, [at(5.0, 1), at(4.0, 1), at(9.0, 1)], [at(0, 0), at(-1.0, 0.2), at(4.0, 1)])
    assert not moved.stable and moved.best == sheets[1] and moved.alternatives() == []  # clearly closer: told apart
    assert moved.said().endswith(
        "not the closest: out 3 1 all | in 1 2 3 is (4.00); every runner-up is told apart from it at 95 %"
    )


def test_exploitability_is_refused_before_any_game_when_asked_wrongly_and_skipped_for_the_same_bot(
    full: Path, tmp_path: Path
) -> None:
    """An unknown strong bot or a negative number of games is refused before any game; the tuning bots as the strong
    bot measure nothing and say why; 0 games measure nothing."""
    args = ("tune-stakes", full, "--players", 3, "--budget", 100, "--workers", 1, "--out", tmp_path / "p.yaml")
    unknown = run_cli(*args, "--exploit-bot", "genius")
    assert unknown.exit_code == 1 and "--exploit-bot: unknown bot 'genius'; known: " in unknown.output
    negative = run_cli(*args, "--exploit-games", "-1")
    assert negative.exit_code != 0 and not (tmp_path / "p.yaml").exists()
    with pytest.raises(WorkbenchError, match="exploit_games -1: give 0"):
        api.tune_stakes(full, [3], budget=100, exploit_games=-1)
    same = run_cli(*args, "--exploit-bot", "heuristic")
    assert same.exit_code == 0, same.output
    said = "not measured: the tuning bots are heuristic bots already (name a stronger one to measure it)"
    assert f"exploitability: {said}" in same.stdout
    assert yaml.safe_load((tmp_path / "p.yaml").read_text())["stakes"][3]["provenance"]["exploitability"] == said
    none = run_cli(*args, "--exploit-games", "0", "--force")
    assert (
        none.exit_code == 0
        and "exploitability" not in yaml.safe_load((tmp_path / "p.yaml").read_text())["stakes"][3]["provenance"]
    )


def test_a_proposal_is_more_exploitable_only_beyond_every_printed_sheet() -> None:
    """A strong seat's gain on a proposal counts as more than on the printed sheets only when its interval lies above
    every printed sheet's."""
    from workbench.sim.paired import Estimate

    def gain(value: float) -> tune.Exploit:
        return tune.Exploit(3, "search", 1000, Estimate(0.5, 0.01, 1000), Estimate(0.3, 0.01, 1000), Estimate(value, 0.01, 1000))

    report = tune.Report.__new__(tune.Report)
    report.measured = {4: {}, 5: {}}
    report.exploits = {3: gain(0.30), 4: gain(0.20), 5: gain(0.25)}
    assert report.exploitable(3) is True
    report.exploits = {3: gain(0.26), 4: gain(0.20), 5: gain(0.25)}
    assert report.exploitable(3) is False  # within 5 players' interval
    report.exploits = {3: gain(0.40)}
    assert report.exploitable(3) is None and report.exploitable(6) is None


def test_a_strong_seat_weaker_than_the_field_is_said_to_measure_no_clever_player() -> None:
    """``--exploit-bot random`` loses to the field: its negative gain says nothing about a clever player, and says so;
    a bot an interval from zero gets no such word, nor does one that gains."""
    from workbench.sim.paired import Estimate

    def seat(bot: str, gain: float) -> tune.Exploit:
        return tune.Exploit(3, bot, 1000, Estimate(0.1, 0.01, 1000), Estimate(0.3, 0.01, 1000), Estimate(gain, 0.01, 1000))

    assert seat("random", -0.2).said() == (
        "a random bot in one seat wins 10.0% where a field bot wins 30.0%: -20.0 pp (-22.0 to -18.0) "
        "(the random bot plays worse than the field: it tells nothing of a clever player)"
    )
    assert seat("equilibrium", -0.01).said().startswith("an equilibrium bot") and "worse" not in seat("x", -0.01).said()
    assert "worse" not in seat("search", 0.2).said()
