"""``workbench sweep`` (issue 14): a grid or a list of rules ideas, each played beside its base variant on the same
games; located errors, the same table on every backend, and a stopped sweep that resumes with only what is missing."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from output_helpers import BASE, HANG, ROOT, Ran, assert_clean, fail_fsync, invoke, leftovers, named, spawn, workbench

from workbench import __version__, studies, sweep
from workbench.errors import WorkbenchError, display_path
from workbench.loading import Document, set_key
from workbench.sim.runner import Local, Stop, WorkerDied
from workbench.sweep import Best, Goal, Row, _best, load_sweep, run_sweep

TARGET = ROOT / "variants" / "target-dice.yaml"
SHIPPED = ROOT / "sweeps" / "dagger-cost.yaml"


def sweep_file(folder: Path, body: str, name: str = "sweep.yaml") -> Path:
    """A sweep file in ``folder`` whose ``variant:`` is the base game (written as {base})."""
    path = folder / name
    path.write_text(body.format(base=BASE, target=TARGET))
    return path


SMALL = """\
name: Dagger cost
variant: {base}
players: [3, 4]
games: 150
seed: 3
grid:
  - name: dagger cost
    set: cards.dagger.cost
    values: [1, 3]
figures: [rounds.mean, cards.dagger.bought_per_game]
goal: {{figure: cards.dagger.bought_per_game, aim: max}}
"""


def problems(path: Path) -> list[str]:
    with pytest.raises(WorkbenchError) as caught:
        load_sweep(path)
    return [str(p) for p in caught.value.problems]


# --- the file ------------------------------------------------------------------------------------------------


def test_a_grid_makes_every_combination_of_its_axes(tmp_path: Path) -> None:
    path = sweep_file(
        tmp_path,
        SMALL.replace(
            "    values: [1, 3]\n",
            "    values: [1, 3]\n  - set: stakes.4.in\n    values: [[1, 2, 3, 3], [2, 3, 4, 4]]\n    labels: [printed, dearer]\n",
        ),
    )
    _, _, points, base = load_sweep(path)
    assert [p.name for p in points] == [
        "dagger cost 1, stakes.4.in printed",
        "dagger cost 1, stakes.4.in dearer",
        "dagger cost 3, stakes.4.in printed",
        "dagger cost 3, stakes.4.in dearer",
    ]
    assert [p.id for p in points][:2] == ["dagger-cost-1-stakes-4-in-printed", "dagger-cost-1-stakes-4-in-dearer"]
    dagger = [next(c.cost for c in p.loaded.variant.cards if c.id == "dagger") for p in points]
    assert dagger == [1, 1, 3, 3]
    assert [list(p.loaded.variant.stakes[4].in_) for p in points] == [[1, 2, 3, 3], [2, 3, 4, 4]] * 2
    assert next(c.cost for c in base.variant.cards if c.id == "dagger") == 2, "the base variant is left as written"
    assert points[0].values == {"dagger cost": 1, "stakes.4.in": [1, 2, 3, 3]}


def test_points_take_settings_and_overrides_with_card_files(tmp_path: Path) -> None:
    (tmp_path / "extra.yaml").write_text(
        "- {id: pickpocket, name: Pickpocket, when: die-5, cost: 2, copies: 2, effects: [{steal: {coins: 1}}]}\n"
    )
    path = sweep_file(
        tmp_path,
        """\
name: Ideas
variant: {base}
games: 100
points:
  - name: as printed
  - name: with a pickpocket
    overrides: {{cards_add: [extra.yaml]}}
  - name: longer games
    set: {{end.stars: 30}}
figures: [rounds.mean]
""",
    )
    _, _, points, base = load_sweep(path)
    assert [p.id for p in points] == ["as-printed", "with-a-pickpocket", "longer-games"]
    assert points[0].loaded.variant == base.variant
    assert "pickpocket" in {c.id for c in points[1].loaded.variant.cards}
    assert points[2].loaded.variant.end.stars == 30 != base.variant.end.stars


def test_set_key_finds_mapping_keys_list_items_by_id_or_index_and_may_add_a_key() -> None:
    doc = Document({"stakes": {4: {"in": [1]}}, "cards": [{"id": "a", "cost": 1}, {"id": "b", "cost": 2}]})
    where = Document({})
    set_key(doc, "stakes.4.in", [9], where, ())
    set_key(doc, "cards.b.cost", 5, where, ())
    set_key(doc, "cards.0.copies", 3, where, ())
    assert doc.data == {"stakes": {4: {"in": [9]}}, "cards": [{"id": "a", "cost": 1, "copies": 3}, {"id": "b", "cost": 5}]}
    set_key(doc, "stakes.7", {"in": [1]}, where, ())
    assert 7 in doc.data["stakes"], "a new key among numbered keys is a number"
    for odd in ("cards.²", "cards.\u0661", "cards.-1"):  # a superscript, an Arabic-Indic one: not indexes
        with pytest.raises(WorkbenchError, match="no item"):
            set_key(doc, odd, 1, where, ())
    with pytest.raises(WorkbenchError, match=r"cards\.b\.cost is a number, with no 'x' inside"):
        set_key(doc, "cards.b.cost.x", 1, where, ())


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ("set: cards.dagger.cost", "set: cards.daggr.cost"),
            "sweep.yaml:8: grid.0.set: cards.daggr.cost: no item 'daggr' in cards (did you mean 'dagger'?)",
        ),
        (
            ("set: cards.dagger.cost", "set: card.dagger.cost"),
            "sweep.yaml:8: grid.0.set: card.dagger.cost: no key 'card' in the variant (did you mean 'cards'?)",
        ),
        (("values: [1, 3]", "values: [1, -3]"), "sweep.yaml:9: cards.dagger.cost: "),
        (("games: 150", "games: 0"), "sweep.yaml:4: games: "),
        (("grid:", "grids:"), "sweep.yaml:6: grids: unknown key 'grids' (did you mean 'grid'?)"),
        (
            ("figures: [rounds.mean,", "figures: [rounds.meen,"),
            "sweep.yaml:10: figures.0: no figure 'rounds.meen' (did you mean 'rounds.mean'?)",
        ),
        (("figure: cards.dagger", "figure: cards.dager"), "sweep.yaml:11: goal.figure: no figure 'cards.dager.bought_per_game'"),
        (("aim: max", "aim: most"), "sweep.yaml:11: goal.aim: expected max, min, base or a number, got 'most'"),
        (("players: [3, 4]", "players: [3, 9]"), "sweep.yaml:3: players: 9: "),
    ],
    ids=["set-item", "set-key", "bad-value", "games", "unknown-key", "figure", "goal-figure", "aim", "players"],
)
def test_every_mistake_is_located_in_the_sweep_file(tmp_path: Path, edit: tuple[str, str], expected: str) -> None:
    path = sweep_file(tmp_path, SMALL.replace(*edit))
    with pytest.raises(WorkbenchError) as caught:
        run_sweep(path)
    found = [str(p) for p in caught.value.problems]
    assert any(expected in line for line in found), found


def test_a_sweep_needs_one_of_grid_and_points_and_something_to_show(tmp_path: Path) -> None:
    both = sweep_file(tmp_path, SMALL + "points: [{{name: x}}]\n", "both.yaml")
    assert any("either a grid" in p and "not both" in p for p in problems(both))
    bare = sweep_file(tmp_path, SMALL.split("grid:")[0], "bare.yaml")
    assert any("give a grid" in p for p in problems(bare))
    assert any("name the figures" in p for p in problems(bare))
    twins = sweep_file(
        tmp_path,
        "name: x\nvariant: {base}\ngames: 10\nfigures: [rounds.mean]\npoints: [{{name: a b}}, {{name: a-b}}]\n",
        "twins.yaml",
    )
    assert any("points.1.name: 'a-b' and 'a b' would share the file points/a-b.*.json: rename one" in p for p in problems(twins))
    repeats = sweep_file(tmp_path, SMALL.replace("values: [1, 3]", "values: [1, 1]"), "repeats.yaml")
    assert any("repeats.yaml:6: grid: two points would both be 'dagger cost 1'" in p for p in problems(repeats))
    twice = SMALL.replace("    values: [1, 3]\n", "    values: [1, 3]\n  - {{set: cards.dagger.cost, values: [4]}}\n")
    assert any(
        "grid.1.set: grid.0 sets cards.dagger.cost already" in p for p in problems(sweep_file(tmp_path, twice, "twice.yaml"))
    )
    short = sweep_file(tmp_path, SMALL.replace("values: [1, 3]", "values: [1, 3]\n    labels: [cheap]"), "short.yaml")
    assert any("short.yaml:10: grid.0.labels: give one label per value (2), not 1" in p for p in problems(short))
    for aim in (".nan", ".inf", "true"):
        odd = sweep_file(tmp_path, SMALL.replace("aim: max", f"aim: {aim}"), "odd.yaml")
        assert any("goal.aim: expected max, min, base or a number" in p for p in problems(odd)), aim
    lost = sweep_file(tmp_path, SMALL.replace("variant: {base}", "variant: nowhere.yaml"), "lost.yaml")
    assert any("lost.yaml:2: variant: no such variant file: nowhere.yaml" in p for p in problems(lost))


# --- playing it ----------------------------------------------------------------------------------------------


def test_each_point_is_the_comparison_of_its_variant_with_the_base(tmp_path: Path) -> None:
    """A point's figures are exactly those of ``compare`` of the base and the point's variant on the same games."""
    path = sweep_file(tmp_path, SMALL)
    swept = run_sweep(path, out=tmp_path / "out")
    point = tmp_path / "dagger-3.yaml"
    point.write_text(
        f"extends: {BASE}\nname: Dagger 3\ncards_add:\n"
        "  - {id: dagger, name: Dagger, when: flash, cost: 3, copies: 2, effects: [{others_lose: {hearts: 1}}]}\n"
    )
    compared = studies.compare([BASE, point], players=[4], games=150, seed=3)
    (row,) = [r for r in swept.rows if r.point == "dagger-cost-3" and r.players == 4]
    for statistic in compared.runs[0].statistics:
        assert row.figures[statistic.name]["value"] == statistic.values[1].report()["value"]
        assert row.figures[statistic.name]["reference"] == statistic.values[0].report()
        assert row.figures[statistic.name]["change"]["value"] == statistic.differences[0].report()["value"]
    body = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert body["interrupted"] is False and body["missing"] == []
    assert [(r["point"], r["players"]) for r in body["table"]] == [
        ("dagger-cost-1", 3),
        ("dagger-cost-1", 4),
        ("dagger-cost-3", 3),
        ("dagger-cost-3", 4),
    ]
    cheap, dear = (
        next(r for r in body["table"] if r["point"] == p and r["players"] == 4) for p in ("dagger-cost-1", "dagger-cost-3")
    )
    assert cheap["figures"]["cards.dagger.bought_per_game"]["value"] > dear["figures"]["cards.dagger.bought_per_game"]["value"]
    assert body["best"]["4"]["point"] == "dagger-cost-1", "the goal: the dagger bought as often as possible"
    assert set(body["table"][0]["figures"]) == {"rounds.mean", "cards.dagger.bought_per_game"}
    page = (tmp_path / "out" / "sweep.html").read_text()
    assert page.count('class="band"') == 4 and 'class="best"' in page and "Best by the goal: dagger cost 1" in page


def test_the_same_table_for_any_number_of_workers(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    run_sweep(path, out=tmp_path / "one", backend=Local(1))
    run_sweep(path, out=tmp_path / "two", backend=Local(2))
    assert (tmp_path / "one" / "sweep.json").read_bytes() == (tmp_path / "two" / "sweep.json").read_bytes()


def _stopping_after(points: int, stop: Stop) -> Callable[[str, int], Callable[[int], None]]:
    """A progress display that asks the sweep to stop once ``points`` points have started (during the last one)."""
    started: list[str] = []

    def progress(label: str, games: int) -> Callable[[int], None]:
        started.append(label)
        return lambda finished: stop.request() if len(started) > points else None

    return progress


def test_a_stopped_sweep_keeps_its_finished_points_and_resumes_with_the_rest(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL.replace("games: 150", "games: 3000"))
    stop = Stop()
    first = run_sweep(path, out=tmp_path / "out", progress=_stopping_after(2, stop), stop=stop)
    assert [(r.point, r.players) for r in first.rows] == [("dagger-cost-1", 3), ("dagger-cost-1", 4)]
    assert first.missing == [("dagger-cost-3", 3), ("dagger-cost-3", 4)]
    body = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert body["interrupted"] is True and len(body["missing"]) == 2
    assert sorted(p.name for p in (tmp_path / "out" / "points").iterdir() if not p.name.startswith(".")) == [
        "dagger-cost-1.3p.json",
        "dagger-cost-1.4p.json",
    ]
    labels: list[str] = []
    second = run_sweep(path, out=tmp_path / "out", progress=lambda label, games: labels.append(label) or (lambda n: None))
    assert labels == ["dagger cost 3, 3 players", "dagger cost 3, 4 players"], "only the missing points are played"
    assert [(r.point, r.reused) for r in second.rows] == [
        ("dagger-cost-1", True),
        ("dagger-cost-1", True),
        ("dagger-cost-3", False),
        ("dagger-cost-3", False),
    ]
    run_sweep(path, out=tmp_path / "whole")
    assert (tmp_path / "out" / "sweep.json").read_bytes() == (tmp_path / "whole" / "sweep.json").read_bytes()


def test_a_point_whose_inputs_changed_is_played_again(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    run_sweep(path, out=tmp_path / "out")
    path.write_text(path.read_text().replace("values: [1, 3]", "values: [1, 4]").replace("seed: 3", "seed: 3"))
    labels: list[str] = []
    run_sweep(path, out=tmp_path / "out", progress=lambda label, games: labels.append(label) or (lambda n: None))
    assert labels == ["dagger cost 4, 3 players", "dagger cost 4, 4 players"]
    path.write_text(path.read_text().replace("games: 150", "games: 160"))
    labels.clear()
    run_sweep(path, out=tmp_path / "out", progress=lambda label, games: labels.append(label) or (lambda n: None))
    assert len(labels) == 4, "more games: every point again"


def test_a_point_finished_by_other_code_is_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reuse is keyed by the code, not the release number (which stays 0.1.0 from one commit to the next)."""
    path = sweep_file(tmp_path, SMALL)
    run_sweep(path, out=tmp_path / "out")
    labels: list[str] = []
    progress = lambda label, games: labels.append(label) or (lambda n: None)  # noqa: E731
    run_sweep(path, out=tmp_path / "out", progress=progress)
    assert labels == [], "the same code reuses every point"
    monkeypatch.setattr(sweep, "code_version", lambda: f"{__version__}+0123456789ab")  # an update: same release, other code
    swept = run_sweep(path, out=tmp_path / "out", progress=progress)
    assert len(labels) == 4 and not any(row.reused for row in swept.rows)


def test_a_point_file_edited_by_hand_is_neither_trusted_nor_replaced(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    run_sweep(path, out=tmp_path / "out")
    edited = tmp_path / "out" / "points" / "dagger-cost-1.4p.json"
    edited.write_text(edited.read_text().replace('"games": 150', '"games": 151'))
    ran = invoke("sweep", path, "--out", tmp_path / "out", "--workers", "1")
    assert ran.code == 1 and "dagger-cost-1.4p.json: this file exists and was not written by the workbench" in ran.stderr
    assert '"games": 151' in edited.read_text()
    ran = invoke("sweep", path, "--out", tmp_path / "out", "--workers", "1", "--force")
    assert ran.code == 0, ran.stderr
    assert '"games": 150' in edited.read_text(), "with --force it is played again and replaced"


def test_target_dice_sweeps_too(tmp_path: Path) -> None:
    path = sweep_file(
        tmp_path,
        """\
name: Game end
variant: {target}
games: 100
grid:
  - {{set: goal, values: [30, 50]}}
figures: [rounds.mean]
goal: {{figure: rounds.mean, aim: 20}}
""",
    )
    swept = run_sweep(path, out=tmp_path / "out")
    short, long = (row.figures["rounds.mean"]["value"] for row in swept.rows)
    assert short < long
    assert swept.best[4] is not None


def test_without_players_a_sweep_plays_the_count_the_command_line_would(tmp_path: Path) -> None:
    """No ``players:``: 4, or as near as the base variant allows (2 for Chance Chess), as ``--players`` left out."""
    chess = ROOT / "variants" / "chance-chess.yaml"
    path = tmp_path / "deck.yaml"
    path.write_text(
        f"name: Any cards\nvariant: {chess}\ngames: 4\nbots: random\nengine: interpreter\n"
        "points:\n  - {name: more any, set: {deck.cards.any: 26, deck.cards.pawn: 12}}\nfigures: [rounds.mean]\n"
    )
    swept = run_sweep(path, out=tmp_path / "out")
    assert swept.counts == [2] == [row.players for row in swept.rows]


def test_a_point_that_breaks_a_rule_over_several_keys_is_named_with_its_line(tmp_path: Path) -> None:
    """The deck's total is the base variant's rule (located there); the note says which point, at which line."""
    path = tmp_path / "pawns.yaml"
    path.write_text(
        f"name: Pawns\nvariant: {ROOT / 'variants' / 'chance-chess.yaml'}\ngames: 4\n"
        "grid:\n  - {set: deck.cards.pawn, values: [13, 12]}\nfigures: [rounds.mean]\n"
    )
    with pytest.raises(WorkbenchError) as raised:
        run_sweep(path, out=tmp_path / "out")
    assert "deck.cards: the copies add up to 100" in str(raised.value)
    assert raised.value.note == f"the point 'deck.cards.pawn 12' makes this variant ({display_path(path)}:5: grid.0.values.1)"
    assert not (tmp_path / "out").exists()


# --- the command ----------------------------------------------------------------------------------------------


def test_the_command_prints_the_table_and_the_best_point(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    ran = invoke("sweep", path, "--out", tmp_path / "out", "--workers", "1")
    assert ran.code == 0, ran.stderr
    assert "Dagger cost, 4 players, 150 games per point" in ran.stdout
    assert "best at 4 players: dagger cost 1" in ran.stdout
    again = invoke("sweep", path, "--out", tmp_path / "out", "--workers", "1")
    assert "4 of 4 point(s) finished in an earlier run" in again.stdout
    assert "engine:" not in again.stdout, "nothing left to play: no engine is readied"


@pytest.mark.slow
def test_the_shipped_sweep_gives_the_same_table_locally_and_on_dask(tmp_path: Path) -> None:
    """The issue's example, as a designer runs it: the local pool and a LocalCluster, byte-identical sweep.json."""
    pytest.importorskip("distributed", reason="the Dask backend needs the extra: pip install -e '.[dask]'")
    local = workbench("sweep", SHIPPED, "--out", tmp_path / "local", "--workers", "2", timeout=HANG)
    dask = workbench("sweep", SHIPPED, "--out", tmp_path / "dask", "--backend", "dask", "--workers", "2", timeout=HANG)
    for ran in (local, dask):
        assert ran.code == 0, ran.stderr
        assert_clean(ran)
    assert (tmp_path / "local" / "sweep.json").read_bytes() == (tmp_path / "dask" / "sweep.json").read_bytes()
    body = json.loads((tmp_path / "local" / "sweep.json").read_text())
    assert [p["values"]["dagger cost"] for p in body["points"]] == [1, 2, 3, 4, 5]
    bought = [row["figures"]["cards.dagger.bought_per_game"]["value"] for row in body["table"]]
    assert bought == sorted(bought, reverse=True), "a dearer dagger is bought less"
    at_two = next(r for r in body["table"] if r["point"] == "dagger-cost-2")
    assert all(f["change"]["value"] == 0 for f in at_two["figures"].values()), "the printed price is the base game"
    # the figures docs/how-to/sweeps.md quotes
    assert [round(b, 3) for b in bought] == [0.125, 0.082, 0.046, 0.026, 0.013]
    eliminations = [row["figures"]["eliminations.per_game.mean"] for row in body["table"]]
    assert (round(eliminations[0]["value"], 2), round(eliminations[-1]["value"], 2)) == (2.03, 1.99)
    change = eliminations[-1]["change"]
    assert (round(change["value"], 3), round(change["low"], 3), round(change["high"], 3)) == (-0.028, -0.032, -0.024)
    assert body["best"]["4"] == {"point": "dagger-cost-5", "value": eliminations[-1]["value"], "close": ["dagger-cost-4"]}
    rounds = [row["figures"]["rounds.mean"]["value"] for row in body["table"]]
    assert (round(rounds[0], 2), round(rounds[-1], 2)) == (12.14, 12.21)
    assert {round(row["figures"]["first_seat_advantage"]["value"], 3) for row in body["table"]} <= {0.285, 0.286}


@pytest.mark.slow
def test_ctrl_c_then_the_same_command_plays_only_the_missing_points(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL.replace("games: 150", "games: 20000").replace("values: [1, 3]", "values: [1, 2, 3, 4]"))
    out = tmp_path / "out"
    job = spawn("sweep", path, "--out", out, "--workers", "2", cwd=tmp_path)
    deadline = time.monotonic() + HANG
    while not list((out / "points").glob("*.json")) if (out / "points").is_dir() else True:
        assert job.poll() is None, job.communicate()
        assert time.monotonic() < deadline, "no point finished"
        time.sleep(0.05)
    os.killpg(job.pid, signal.SIGINT)
    stdout, stderr = job.communicate(timeout=HANG)
    first = Ran(job.returncode, stdout, stderr, 0)
    assert_clean(first)
    assert first.code == 130, stderr
    body = json.loads((out / "sweep.json").read_text())
    done = {(r["point"], r["players"]) for r in body["table"]}
    assert body["interrupted"] is True and 0 < len(done) < 8
    assert "run the sweep again to play the rest" in stderr
    again = workbench("sweep", path, "--out", out, "--workers", "2", timeout=HANG)
    assert again.code == 0, again.stderr
    assert f"{len(done)} of 8 point(s) finished in an earlier run" in again.stdout
    final = json.loads((out / "sweep.json").read_text())
    assert final["interrupted"] is False and len(final["table"]) == 8
    assert [r for r in final["table"] if (r["point"], r["players"]) in done] == body["table"], "kept as they were"


def test_without_out_the_table_goes_under_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --out the table goes to reports/<sweep file's name> under the current folder."""
    path = sweep_file(tmp_path, SMALL)
    monkeypatch.chdir(tmp_path)
    ran = invoke("sweep", path, "--workers", "1")
    assert ran.code == 0, ran.stderr
    assert (tmp_path / "reports" / "sweep" / "sweep.json").is_file()


@pytest.mark.parametrize("path", sorted((ROOT / "sweeps").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_sweep_loads_with_known_figures(path: Path) -> None:
    """Every example in sweeps/ is a valid sweep whose figures and goal the game measures (checked before any game)."""
    plan, _, points, base = load_sweep(path)
    assert len(points) >= 3
    assert plan.goal is not None, "every example says what its best point is"
    stop = Stop()
    stop.request()  # everything is checked, then nothing is played
    swept = run_sweep(path, stop=stop)
    assert swept.rows == [] and len(swept.missing) == len(points) * len(swept.counts)
    assert base.path is not None and base.path.is_file()


def _row(point: str, value: float, change: float, spread: float) -> Row:
    figure = {"value": value, "low": value - spread, "high": value + spread}
    figure["change"] = {"value": change, "low": change - spread, "high": change + spread}
    return Row(point, 4, 100, {"x": figure})


@pytest.mark.parametrize(
    ("aim", "best"), [("max", "c"), ("min", "a"), ("base", "b"), (2.2, "b"), (9.0, "c")], ids=["max", "min", "base", "2.2", "9"]
)
def test_the_goal_picks_the_best_point(aim: str | float, best: str) -> None:
    rows = [_row("a", 1.0, -1.0, 0.1), _row("b", 2.1, 0.05, 0.1), _row("c", 3.0, 1.0, 0.1)]
    found = _best(Goal(figure="x", aim=aim), rows)
    assert found is not None and found.point == best and found.close == []
    wide = [_row("a", 1.0, -1.0, 0.6), _row("b", 2.1, 0.05, 0.6)]
    assert _best(Goal(figure="x", aim="max"), wide) == Best("b", 2.1, ["a"]), "overlapping changes: not told apart"


class DiesOnItsThirdRun(Local):
    """The local backend, but the machine is lost at the third run (as a pool whose worker is killed would say)."""

    runs = 0

    def results(self, factories: Any, tasks: Any, stop: Any) -> Any:
        DiesOnItsThirdRun.runs += 1
        if DiesOnItsThirdRun.runs == 3:
            raise WorkerDied("a worker process was killed during the run; nothing was written")
        return super().results(factories, tasks, stop)


def test_a_lost_worker_stops_the_sweep_and_keeps_the_finished_points(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    with pytest.raises(WorkerDied) as caught:
        run_sweep(path, out=tmp_path / "out", backend=DiesOnItsThirdRun(1))
    message = caught.value.problems[0].message
    assert "nothing was written" not in message and "the 2 finished point(s) are kept in" in message
    kept = sorted(p.name for p in (tmp_path / "out" / "points").glob("dagger*.json"))
    assert kept == ["dagger-cost-1.3p.json", "dagger-cost-1.4p.json"]
    assert json.loads((tmp_path / "out" / "sweep.json").read_text())["interrupted"] is True, "the table of what finished"
    labels: list[str] = []
    run_sweep(path, out=tmp_path / "out", progress=lambda label, games: labels.append(label) or (lambda n: None))
    assert labels == ["dagger cost 3, 3 players", "dagger cost 3, 4 players"]


def test_a_point_file_changed_during_the_sweep_stops_it_with_the_finished_points_kept(tmp_path: Path) -> None:
    path = sweep_file(tmp_path, SMALL)
    run_sweep(path, out=tmp_path / "out")
    path.write_text(path.read_text().replace("seed: 3", "seed: 4"))  # every point is played again
    later = tmp_path / "out" / "points" / "dagger-cost-3.4p.json"

    def progress(label: str, games: int) -> Callable[[int], None]:
        if label == "dagger cost 1, 3 players":
            later.write_text(later.read_text() + " ")  # the designer touches a file the sweep will replace
        return lambda finished: None

    with pytest.raises(WorkbenchError) as caught:
        run_sweep(path, out=tmp_path / "out", progress=progress)
    message = str(caught.value.problems[0])
    assert "dagger-cost-3.4p.json changed while the command ran" in message
    assert "nothing was written" not in message and "the 3 finished point(s) are kept" in message
    assert later.read_text().endswith(" "), "the designer's change stays"
    body = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert body["interrupted"] is True and body["seed"] == 4 and len(body["table"]) == 3


def test_a_full_disk_at_the_table_keeps_the_points_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The points are written as they finish; a disk that fills before the table keeps them, and the next run (with
    room again) reads them and writes the table without playing anything."""
    path = sweep_file(tmp_path, SMALL)
    fail_fsync(monkeypatch, named("sweep.json"))
    with pytest.raises(WorkbenchError) as caught:
        run_sweep(path, out=tmp_path / "out")
    message = str(caught.value.problems[0])
    assert "sweep.json" in message and "the 4 finished point(s) are kept in" in message
    assert "run the sweep again to write their table" in message
    assert not (tmp_path / "out" / "sweep.json").exists()
    assert leftovers(tmp_path / "out") == []
    monkeypatch.undo()
    labels: list[str] = []
    run_sweep(path, out=tmp_path / "out", progress=lambda label, games: labels.append(label) or (lambda n: None))
    assert labels == [] and json.loads((tmp_path / "out" / "sweep.json").read_text())["interrupted"] is False
