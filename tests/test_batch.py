"""The batch engine plays exactly the interpreter's rules, and its heuristic chooses as the Python heuristic does.

Rules: every shipped scenario, and games the interpreter plays and records on generated
variants, end in the identical final state when the batch engine replays their scripts;
a broken script gives the same located error. Bots: replayed with the batch heuristic
checking every recorded choice of the Python heuristic (positions sampled by play). The
tally of a block of batch games counts what the interpreter's tally counts, game by game;
a run is the same for any number of workers; and the statistics of both engines agree.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import strategies
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import api
from workbench.errors import ScenarioError, UsageError
from workbench.expect import count_checks
from workbench.games import load_variant, replay_scenario
from workbench.games.chance_it.batch import Engine, kernel
from workbench.games.chance_it.batch.replay import play_script, replay_batch
from workbench.games.chance_it.bots import BUILTIN
from workbench.games.chance_it.effects import steal
from workbench.games.chance_it.engine import compile_variant
from workbench.games.chance_it.scenario import Scenario
from workbench.games.chance_it.schema import Persona, Variant, to_yaml
from workbench.games.chance_it.sim import SEAT_MEASURE, Simulator, table_measure
from workbench.loading import Document
from workbench.sim.runner import Local

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
CARD_LAB = ROOT / "variants" / "card-lab.yaml"
SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*.yaml") if p.name != "variant-test.yaml")
BROKEN = sorted((ROOT / "tests" / "scenarios" / "broken").glob("*.yaml"))
PERSONAS = {"random": BUILTIN["random"], "heuristic": BUILTIN["heuristic"]}


def without_events(output: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in output.items() if key != "events"}


# --- the same rules -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_shipped_scenario_ends_in_the_interpreters_final_state(path: Path) -> None:
    _, interpreted = replay_scenario(path)
    _, batch = replay_scenario(path, "batch")
    assert batch.output == without_events(interpreted.output)
    expect = yaml.safe_load(path.read_text())["expect"]
    assert batch.passed and batch.checks == count_checks(without_events(expect)) > 0
    assert batch.unchecked == count_checks(expect) - batch.checks, "the events are left unchecked, and said so"


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_a_broken_script_gives_the_interpreters_located_error(path: Path) -> None:
    def problems(engine: str) -> list[str] | str:
        try:
            _, result = replay_scenario(path, engine)
        except ScenarioError as exc:
            return [str(problem) for problem in exc.problems]
        return [str(problem) for problem in result.failures] or "passed"

    assert problems("batch") == problems("interpreter") != "passed"


def record(variant: Variant, players: int, bots: tuple[str, ...], seed: int, index: int) -> tuple[Scenario, Document, str]:
    """Game ``index`` played by the interpreter with ``bots``, recorded as a scenario script (and its text)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "variant.yaml"
        path.write_text(to_yaml(variant))
        played = Simulator(variant, players, bots, PERSONAS, seed, record=(Path(folder), path)).play(index)
    assert played.script is not None
    text = played.script[1]
    data = yaml.safe_load(text)
    return Scenario.model_validate(data), Document(data, {}, None), text


def replayed_checked(variant: Variant, players: int, bots: tuple[str, ...], seed: int, index: int) -> None:
    """Record a game, replay it with the batch engine (heuristic seats checking each choice): the same final state."""
    scenario, doc, text = record(variant, players, bots, seed, index)
    checked = [BUILTIN["heuristic"] if name == "heuristic" else None for name in bots]
    try:
        result = replay_batch(scenario, doc, compile_variant(variant), checked)
    except kernel.Differs:
        pytest.fail(f"the batch heuristic chose otherwise than the Python one in:\n{text}")
    assert result.failures == [] and result.checks > 0, text


bot_mixes = st.integers(2, 6).flatmap(lambda n: st.tuples(*[st.sampled_from(["random", "heuristic"])] * n))


@pytest.mark.slow
@settings(deadline=None)
@given(game=strategies.games(), seed=st.integers(0, 2**32), data=st.data())
def test_a_game_recorded_by_the_interpreter_replays_identically_in_the_batch_engine(
    game: tuple[dict, int], seed: int, data: st.DataObject
) -> None:
    raw, players = game
    bots = tuple(data.draw(st.lists(st.sampled_from(["random", "heuristic"]), min_size=players, max_size=players)))
    replayed_checked(Variant.model_validate(raw), players, bots, seed, 0)


@pytest.mark.parametrize("path", [BASE, CARD_LAB], ids=["base", "card-lab"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_batch_heuristic_chooses_as_the_python_heuristic(path: Path, players: int) -> None:
    variant = load_variant(path).variant
    for index in range(3):
        replayed_checked(variant, players, ("heuristic",) * players, 11, index)


def test_the_kernel_numbers_steal_victims_as_the_effect_kind_lists_them() -> None:
    assert [steal.VICTIMS.index(v) for v in ("each", "richest", "choose")] == [
        kernel.STEAL_EACH, kernel.STEAL_RICHEST, kernel.STEAL_CHOSEN
    ]  # fmt: skip


def test_a_heuristic_of_other_weights_is_caught_choosing_otherwise() -> None:
    """The check can fail: a batch heuristic that values hearts otherwise differs from the recorded Python one."""
    variant = load_variant(BASE).variant
    careful = Persona(policy="heuristic", heart=1.5, danger=4.0, min_hearts=6)
    caught = 0
    for index in range(5):
        scenario, doc, _ = record(variant, 4, ("heuristic",) * 4, 3, index)
        try:
            replay_batch(scenario, doc, compile_variant(variant), [careful] * 4)
        except kernel.Differs:
            caught += 1
    assert caught == 5


# --- the same counts --------------------------------------------------------------------------------------------


def test_a_block_is_tallied_as_the_interpreter_tallies_its_games() -> None:
    """Games the interpreter plays, replayed by the batch engine: Tally.add_block gives Tally.add's summary."""
    variant = load_variant(CARD_LAB).variant
    rules = compile_variant(variant)
    bots = ("random", "random", "heuristic", "random")
    simulator = Simulator(variant, 4, bots, PERSONAS, 5)
    by_game, by_block = simulator.new_tally(), simulator.new_tally()
    for index in range(40):
        played = simulator.play(index)
        by_game.add(played)
        scenario, doc, _ = record(variant, 4, bots, 5, index)
        checked = [BUILTIN["heuristic"] if name == "heuristic" else None for name in bots]  # they weigh IN and OUT too
        _, block = play_script(scenario, doc, rules, checked)
        by_block.add_block(block)
    assert by_block.summary() == by_game.summary()
    assert by_game.summary()["guides"]["in_out_gap"]["n"] > 0


def test_a_blocks_paired_rows_are_the_games_paired_rows() -> None:
    """The columns compare and the card and skill studies sum, per game: from a batch block as from the game."""
    variant = load_variant(CARD_LAB).variant
    rules = compile_variant(variant)
    bots = ("heuristic", "random", "heuristic")
    simulator = Simulator(variant, 3, bots, PERSONAS, 9)
    table = table_measure(3, bots, [card.id for card in rules.cards])
    assert table.rows is not None and SEAT_MEASURE.rows is not None
    for index in range(30):
        played = simulator.play(index)
        scenario, doc, _ = record(variant, 3, bots, 9, index)
        _, block = play_script(scenario, doc, rules)
        assert table.rows(0, block, index).tolist() == [table.measure(0, played, index)]
        assert SEAT_MEASURE.rows(0, block, index).tolist() == [SEAT_MEASURE.measure(0, played, index)]


COUNTING_GIFT = """\
extends: {base}
name: A gift that counts dice
cards_add:
  - {{id: bounty, name: Bounty, when: flash, cost: 3, effects: [{{for_each: {{face: 6, effects: [{{gain: {{stars: 3}}}}]}}}}]}}
"""


def test_a_gift_before_round_1_sees_no_dice_and_a_game_is_the_same_in_any_block(tmp_path: Path) -> None:
    """Game i is game i alone or inside a block: a gift handed out before round 1 counts no dice (the interpreter's
    game has none yet), never the last roll of the game the engine played before."""
    path = tmp_path / "gift.yaml"
    path.write_text(COUNTING_GIFT.format(base=BASE.as_posix()))
    rules = compile_variant(load_variant(path).variant)
    engine = Engine(rules, 4, [BUILTIN["heuristic"]] * 4)
    block = engine.play(3, 0, 8, card="bounty")
    for index in range(8):
        alone = engine.play(3, index, 1, card="bounty")
        assert alone.game.tolist() == block.game[index : index + 1].tolist()
        assert alone.seat.tolist() == block.seat[index : index + 1].tolist()


def summary(tmp_path: Path, name: str, **options: Any) -> list[dict[str, Any]]:
    """The runs of ``summary.json`` (timing aside)."""
    out = tmp_path / name
    api.simulate(BASE, out=out, **options)
    body = json.loads((out / "summary.json").read_text())
    runs = body.get("runs", [body])
    for run in runs:
        run.pop("timing")
    return runs


def test_a_batch_run_is_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    options = {"players": [3, 5], "games": 3000, "seed": 4, "bots": "heuristic", "engine": "batch"}
    one = summary(tmp_path, "one", backend=Local(1), **options)
    two = summary(tmp_path, "two", backend=Local(2), **options)
    assert one == two
    assert {run["engine"] for run in one} == {"batch"}


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_both_engines_agree_within_their_intervals(tmp_path: Path, players: int) -> None:
    """The same bots on the base game: every rate and mean of one engine's summary lies within the other's reach
    (four standard errors of the difference; 20-odd figures per count, so a fixed seed gives a lasting verdict)."""
    options = {"players": [players], "games": 4000, "seed": 8, "bots": "heuristic", "backend": Local(2)}
    batch = summary(tmp_path, "batch", engine="batch", **options)[0]
    interpreted = summary(tmp_path, "interpreter", engine="interpreter", **options)[0]
    figures = [
        "rounds", "eliminations.per_game", "wins.no_winner", "wins.shared", "stakes.coins_paid_per_game",
        "stakes.hearts_paid_per_game", "stakes.coins_received_per_game", "guides.in", "guides.out", "guides.chance-it",
        "guides.forced_in", *(f"end_reasons.{reason}" for reason in batch["end_reasons"]),
        *(f"wins.by_seat.{seat}" for seat in range(players)),
    ]  # fmt: skip
    for name in figures:
        a, b = pick(batch, name), pick(interpreted, name)
        value = "rate" if "rate" in a else "mean"
        units = min(a["n"], batch["games"])
        se = np.hypot(standard_error(a, value, units), standard_error(b, value, units))
        assert abs(a[value] - b[value]) <= 4 * se + 1e-4, (name, a, b)


def pick(run: dict[str, Any], dotted: str) -> dict[str, Any]:
    node: Any = run
    for part in dotted.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def standard_error(figure: dict[str, Any], value: str, units: int) -> float:
    n = max(1, units)
    if value == "rate":
        p = figure["rate"]
        return float(np.sqrt(max(p * (1 - p), 1 / n) / n))
    return float(figure["sd"] / np.sqrt(n))


# --- which engine plays -----------------------------------------------------------------------------------------


def test_auto_takes_the_batch_engine_and_says_so(tmp_path: Path) -> None:
    heard: list[str] = []
    run = api.simulate(BASE, games=50, bots="random", out=tmp_path / "out", notice=heard.append)
    assert run.runs[0].engine == "batch" and heard[0] == "engine: batch"


def test_auto_falls_back_to_the_interpreter_for_a_search_bot_and_says_why(tmp_path: Path) -> None:
    heard: list[str] = []
    bots = "search-4,random,random,random"
    run = api.simulate(BASE, games=2, bots=bots, out=tmp_path / "out", notice=heard.append)
    assert run.runs[0].engine == "interpreter"
    assert heard == ["engine: interpreter (the search bot plays only in the interpreter)"]
    with pytest.raises(UsageError, match="--engine batch: the search bot plays only in the interpreter"):
        api.simulate(BASE, games=2, bots=bots, out=tmp_path / "out", engine="batch")


def test_records_are_written_by_the_interpreter(tmp_path: Path) -> None:
    run = api.simulate(BASE, games=5, bots="random", out=tmp_path / "out", records=tmp_path / "games.jsonl")
    assert run.runs[0].engine == "interpreter"
    with pytest.raises(UsageError, match="--records and --record-scenarios are written by the interpreter"):
        api.simulate(BASE, games=5, bots="random", records=tmp_path / "more.jsonl", engine="batch")


def test_an_unknown_engine_is_refused_before_any_game() -> None:
    with pytest.raises(UsageError, match="--engine 'fast': choose auto, batch or interpreter"):
        api.simulate(BASE, games=5, engine="fast")
    with pytest.raises(UsageError, match="--engine 'fast': choose auto, batch or interpreter"):
        api.replay(SCENARIOS[0], "fast")
    _, auto = api.replay(SCENARIOS[0], "auto")  # the interpreter: it keeps the event log
    assert "events" in auto.output
