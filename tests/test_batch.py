"""The batch engine plays exactly the interpreter's games: the same rules, the same chance, the same bots.

Rules: a broken script gives the same located error (every shipped scenario ends in the
interpreter's final state: ``test_scenarios.py``). Games: for a seed the batch engine
deals, rolls and decides as the interpreter does, so on generated variants with random and
heuristic bots (and on the shipped ones through ``simulate``) both write the same
records, scenario scripts and summaries; a run is the same for any number of workers.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import strategies
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import api
from workbench.errors import ScenarioError, UsageError
from workbench.games import load_variant, replay_scenario
from workbench.games.chance_it.batch import Engine, kernel
from workbench.games.chance_it.compiled import BATCH, SEARCH
from workbench.games.chance_it.engine import compile_variant
from workbench.games.chance_it.policies import SEARCH_LEVEL
from workbench.games.chance_it.schema import Persona, PersonaFile, Variant, to_yaml
from workbench.games.chance_it.sim import SEAT_MEASURE, BatchSimulator, Simulator, table_measure
from workbench.sim.runner import Local

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
CARD_LAB = ROOT / "variants" / "card-lab.yaml"
SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*.yaml") if p.name != "variant-test.yaml")
BROKEN = sorted((ROOT / "tests" / "scenarios" / "broken").glob("*.yaml"))
#: The four policies, the search and equilibrium bots cheap enough for property tests.
PERSONAS = {
    "random": BUILTIN["random"],
    "heuristic": BUILTIN["heuristic"],
    "search": Persona(policy="search", playouts=2, depth=1),
    "equilibrium": Persona(policy="equilibrium", playouts=2, depth=1, samples=1, iterations=20),
}


# --- the same rules -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_a_broken_script_gives_the_interpreters_located_error(path: Path) -> None:
    def problems(engine: str) -> list[str] | str:
        try:
            _, result = replay_scenario(path, engine)
        except ScenarioError as exc:
            return [str(problem) for problem in exc.problems]
        return [str(problem) for problem in result.failures] or "passed"

    assert problems("batch") == problems("interpreter") != "passed"


def played_both_ways(
    variant: Variant, players: int, bots: tuple[str, ...], seed: int, games: int, personas: dict[str, Persona] = PERSONAS
) -> tuple[list[Any], list[Any], Any, Any]:
    """Games ``0 .. games - 1`` played and recorded (with their scripts) by the interpreter with the default bots and by
    the batch engine with ``personas``: each one's results and tally."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "variant.yaml"
        path.write_text(to_yaml(variant))
        record = (Path(folder), path)
        interpreter = Simulator(variant, players, bots, PERSONAS, seed, record=record)
        played = [interpreter.play(index) for index in range(games)]
        batch_tally, recorded = BatchSimulator(variant, players, bots, personas, seed, record=record).record_range(
            0, games, lambda: False
        )
    tally = interpreter.new_tally()
    for result in played:
        tally.add(result)
    return played, recorded, tally, batch_tally


@pytest.mark.slow
@settings(deadline=None)
@given(game=strategies.games(), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_generated_variants_play_the_same_games_on_both_engines(game: tuple[dict, int], seed: int, data: st.DataObject) -> None:
    """Any valid variant, seed and mix of random, heuristic and (now and then) search and equilibrium bots: the batch
    engine plays the interpreter's games, draw for draw and choice for choice, so their records, scenario scripts and
    tallies are the same."""
    raw, players = game
    # a search or equilibrium seat one time in 20 (they play on the interpreter for minutes: CI's time is bounded);
    # test_search_bots_play_the_same_games_on_both_engines plays them on every kind of decision
    bot = st.integers(0, 39).map(lambda i: {38: "search", 39: "equilibrium"}.get(i, ("random", "heuristic")[i % 2]))
    bots = tuple(data.draw(st.lists(bot, min_size=players, max_size=players)))
    variant = Variant.model_validate(raw)
    played, recorded, tally, batch_tally = played_both_ways(variant, players, bots, seed, 3)
    assert [r.record for r in recorded] == [r.record for r in played]
    assert [r.script for r in recorded] == [r.script for r in played]
    assert batch_tally.summary() == tally.summary()
    unrecorded = BatchSimulator(variant, players, bots, PERSONAS, seed).play_range(0, 3)
    assert unrecorded.summary() == tally.summary()


def test_a_heuristic_of_other_weights_is_caught_playing_other_games() -> None:
    """The check can fail: a batch heuristic that values hearts otherwise plays other games than the Python one."""
    variant = load_variant(BASE).variant
    careful = {"heuristic": Persona(policy="heuristic", heart=1.5, danger=4.0, min_hearts=6)}
    played, recorded, _, _ = played_both_ways(variant, 4, ("heuristic",) * 4, 3, 5, personas=careful)
    assert all(a.record != b.record for a, b in zip(played, recorded, strict=True))


@pytest.mark.parametrize("path", [BASE, CARD_LAB], ids=["base", "card-lab"])
def test_search_bots_play_the_same_games_on_both_engines(path: Path) -> None:
    """A search bot's sampled futures are keyed, dealt and played alike on both engines, so is every decision it weighs
    (guides, market moves, effect choices and victims on the card lab's cards): the same records and scripts."""
    variant = load_variant(path).variant
    played, recorded, tally, batch_tally = played_both_ways(variant, 4, ("search", "heuristic", "search", "random"), 5, 12)
    assert [r.record for r in recorded] == [r.record for r in played]
    assert [r.script for r in recorded] == [r.script for r in played]
    assert batch_tally.summary() == tally.summary()
    # the search level calls the batch engine's own functions with the types they were compiled for: nothing is
    # compiled into the batch engine's cache (which would then be damaged, and compiled again, on the next run)
    assert BATCH.damage() is None


def test_the_kernels_searchers_are_the_policies_that_play_at_the_search_level() -> None:
    """The family picks the search level's compiled code by the policies' forms; the kernel decides at it by codes."""
    assert {getattr(kernel, form) for form in SEARCH_LEVEL} == set(kernel.SEARCHERS)


@pytest.mark.parametrize("path", [BASE, CARD_LAB], ids=["base", "card-lab"])
def test_equilibrium_bots_play_the_same_games_on_both_engines(path: Path) -> None:
    """An equilibrium bot's joint choices are played on the same futures, its regret matching adds in the same order
    and its guide is drawn from the same number on both engines (with a forced seat, an eliminated one, a search bot
    beside it): the same records and scripts."""
    variant = load_variant(path).variant
    bots = ("equilibrium", "heuristic", "equilibrium", "search")
    played, recorded, tally, batch_tally = played_both_ways(variant, 4, bots, 2, 6)
    assert [r.record for r in recorded] == [r.record for r in played]
    assert [r.script for r in recorded] == [r.script for r in played]
    assert batch_tally.summary() == tally.summary()
    guides = tally.summary()["guides"]
    assert guides["forced_in"]["rate"] > 0 and tally.summary()["eliminations"]["games_with_elimination"]["rate"] > 0


def test_an_equilibrium_bot_of_other_iterations_is_caught_playing_other_games() -> None:
    """The check can fail: a batch equilibrium bot that stops its regret matching sooner mixes otherwise, and draws
    other guides from the same numbers."""
    variant = load_variant(BASE).variant
    bots = ("equilibrium", "heuristic", "heuristic", "heuristic")
    shorter = {**PERSONAS, "equilibrium": PERSONAS["equilibrium"].model_copy(update={"iterations": 3})}
    played, recorded, _, _ = played_both_ways(variant, 4, bots, 3, 4, personas=shorter)
    assert any(a.record != b.record for a, b in zip(played, recorded, strict=True))


def test_a_search_bot_of_other_playouts_is_caught_playing_other_games() -> None:
    """The check can fail: a batch search bot weighing 3 futures an option plays other games than one weighing 2."""
    variant = load_variant(BASE).variant
    wider = {**PERSONAS, "search": Persona(policy="search", playouts=3, depth=1)}
    played, recorded, _, _ = played_both_ways(variant, 4, ("search",) * 4, 3, 4, personas=wider)
    assert any(a.record != b.record for a, b in zip(played, recorded, strict=True))


def test_a_game_longer_than_the_log_is_recorded_whole() -> None:
    """The log grows when a game outlasts it (the game is played again with twice the room): the same record."""
    variant = load_variant(CARD_LAB).variant
    simulator = BatchSimulator(variant, 4, ("heuristic",) * 4, PERSONAS, 2)
    _, roomy = simulator.record_range(0, 3, lambda: False)
    engine = simulator.engine
    engine.logged = engine.with_log(4)
    _, cramped = simulator.record_range(0, 3, lambda: False)
    assert [r.record for r in cramped] == [r.record for r in roomy]
    assert len(engine.logged[3]) > 3 * 64, "the log grew"


# --- the same counts --------------------------------------------------------------------------------------------


def test_a_blocks_paired_rows_are_the_games_paired_rows() -> None:
    """The columns compare and the card and skill studies sum, per game: from a batch block as from the game."""
    variant = load_variant(CARD_LAB).variant
    bots = ("heuristic", "random", "heuristic")
    simulator = Simulator(variant, 3, bots, PERSONAS, 9)
    batch = BatchSimulator(variant, 3, bots, PERSONAS, 9)
    table = table_measure(3, bots, list(batch.engine.program.card_ids))
    assert table.rows is not None and SEAT_MEASURE.rows is not None
    for index in range(30):
        played = simulator.play(index)
        block = batch.play_block(index, index + 1)
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


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize("path", [BASE, CARD_LAB], ids=["base", "card-lab"])
def test_both_engines_write_the_same_summary_records_and_scripts(tmp_path: Path, path: Path, bots: str) -> None:
    """The same seed at 3 to 6 players: ``summary.json`` (its engine and timing aside), ``--records`` and
    ``--record-scenarios`` are the same, byte for byte, from the batch engine and from the interpreter."""
    written = {}
    for engine in ("batch", "interpreter"):
        out = tmp_path / engine
        api.simulate(
            path, players=[3, 4, 5, 6], games=40, seed=21, bots=bots, engine=engine, out=out,
            records=out / "games.jsonl", record_scenarios=out / "scripts",
        )  # fmt: skip
        body = json.loads((out / "summary.json").read_text())
        assert [run.pop("engine") for run in body["runs"]] == [engine] * 4
        for run in body["runs"]:
            run.pop("timing")
        scripts = {script.name: script.read_text() for script in sorted((out / "scripts").glob("*.yaml"))}
        written[engine] = (body, (out / "games.jsonl").read_text(), scripts)
    assert len(written["batch"][2]) == 4 * 40
    assert written["batch"] == written["interpreter"]


# --- which engine plays -----------------------------------------------------------------------------------------


@pytest.fixture
def compiled() -> None:
    """The batch engine's code in the cache, as on any machine after its first run (a cold cache's run plays on the
    interpreter: tests/test_compiled.py)."""
    BATCH.wait()


@pytest.mark.usefixtures("compiled")
def test_auto_takes_the_batch_engine_and_says_so(tmp_path: Path) -> None:
    heard: list[str] = []
    run = api.simulate(BASE, games=50, bots="random", out=tmp_path / "out", notice=heard.append)
    assert run.runs[0].engine == "batch" and heard[0] == "engine: batch"


def test_a_search_bot_plays_on_the_batch_engine_the_interpreters_games(tmp_path: Path) -> None:
    """``--engine batch`` with a search bot waits for the search level's compiled code, says so when it compiles, and
    writes what the interpreter writes (the engine and timing aside)."""
    heard: list[str] = []
    bots = "search-4,heuristic,random,heuristic"
    written = {}
    for engine in ("batch", "interpreter"):
        out = tmp_path / engine
        api.simulate(BASE, games=6, seed=3, bots=bots, engine=engine, out=out, records=out / "games.jsonl", notice=heard.append)
        body = json.loads((out / "summary.json").read_text())  # one run: its summary is the run's
        assert body.pop("engine") == engine
        body.pop("timing")
        written[engine] = (body, (out / "games.jsonl").read_text())
    assert written["batch"] == written["interpreter"]
    compiling = f"engine: batch, compiling its search bots first (once per installation, {SEARCH.about})..."
    assert heard[0] in ("engine: batch", compiling)


@pytest.mark.usefixtures("compiled")
def test_auto_takes_the_batch_engine_for_records_too(tmp_path: Path) -> None:
    run = api.simulate(BASE, games=5, bots="random", out=tmp_path / "out", records=tmp_path / "games.jsonl")
    assert run.runs[0].engine == "batch"
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 5


def test_an_unknown_engine_is_refused_before_any_game() -> None:
    with pytest.raises(UsageError, match=r"^engine 'fast': choose auto, batch or interpreter"):
        api.simulate(BASE, games=5, engine="fast")
    with pytest.raises(UsageError, match=r"^engine 'fast': choose auto, batch or interpreter"):
        api.replay(SCENARIOS[0], "fast")
    _, auto = api.replay(SCENARIOS[0], "auto")  # the interpreter: it keeps the event log
    assert "events" in auto.output
