"""workbench simulate: the same games for any worker count, the normative outputs, clear errors."""

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from workbench.cli import app
from workbench.games import FAMILIES, load_variant
from workbench.sim import runner

ROOT = Path(__file__).parent.parent
BASE = str(ROOT / "variants" / "chance-it.yaml")
cli = CliRunner()


def simulate(tmp_path: Path, *args: str) -> tuple[object, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "out"
    result = cli.invoke(app, ["simulate", BASE, "--out", str(out), *args])
    return result, out


def without_timing(path: Path) -> dict:
    summary = json.loads(path.read_text())
    summary.pop("timing")
    return summary


@pytest.mark.slow
def test_summary_and_records_are_identical_for_any_worker_count(tmp_path: Path) -> None:
    outputs = []
    for workers in ("1", "2", "3"):
        result, out = simulate(
            tmp_path / workers,
            "--games",
            "120",
            "--seed",
            "9",
            "--workers",
            workers,
            "--records",
            str(tmp_path / f"{workers}.jsonl"),
        )
        assert result.exit_code == 0, result.output
        outputs.append((without_timing(out / "summary.json"), (tmp_path / f"{workers}.jsonl").read_text()))
    assert outputs[0] == outputs[1] == outputs[2]


def test_chunking_does_not_change_the_tally() -> None:
    loaded = load_variant(Path(BASE))
    family = FAMILIES["chance-it"]
    factory = family.simulator(loaded.variant, 4, ("heuristic",) * 4, family.personas(loaded.variant), 4)
    whole = runner.run(factory, 40).tally.summary()
    simulator = factory()
    pieces = [runner.play_chunk(simulator, (0, start, stop, False, False)).tally for start, stop in ((30, 40), (0, 7), (7, 30))]
    merged = simulator.new_tally()
    for piece in pieces:
        merged.merge(piece)
    assert merged.summary() == whole


def test_normative_summary_and_record_fields(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    result, out = simulate(
        tmp_path,
        "--games",
        "30",
        "--seed",
        "2",
        "--bots",
        "random,heuristic,random,heuristic",
        "--records",
        str(records),
        "--workers",
        "1",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["games"], summary["players"], summary["seed"]) == (30, 4, 2)
    assert summary["bots"] == ["random", "heuristic", "random", "heuristic"]
    assert summary["rounds"]["mean"] > 0
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert [line["game"] for line in lines] == list(range(30))
    for line in lines:
        assert {"game", "seed", "players", "bots", "winners", "end_reason", "rounds", "final", "bought"} <= set(line)
        assert len(line["final"]) == 4 and set(line["final"][0]) == {"coins", "hearts", "stars", "eliminated"}
        assert all(isinstance(cards, list) for cards in line["bought"])
        assert (line["end_reason"] == "all_eliminated") == (line["winners"] == [])
    assert sum(line["rounds"] for line in lines) / 30 == pytest.approx(summary["rounds"]["mean"], abs=1e-4)
    assert "<svg" in (out / "report.html").read_text()


def test_several_player_counts_side_by_side(tmp_path: Path) -> None:
    result, out = simulate(tmp_path, "--games", "20", "--players", "3,5", "--workers", "1")
    assert result.exit_code == 0, result.output
    body = json.loads((out / "summary.json").read_text())
    assert [run["players"] for run in body["runs"]] == [3, 5]
    assert "3 players" in result.stdout and "5 players" in result.stdout


def test_personas_from_the_variant_and_from_a_file(tmp_path: Path) -> None:
    personas = tmp_path / "bots.yaml"
    personas.write_text("bots:\n  careful: {policy: heuristic, min_hearts: 5}\n  wild: {policy: random}\n")
    result, out = simulate(
        tmp_path, "--games", "10", "--bots", "careful,wild,cautious,gambler", "--personas", str(personas), "--workers", "1"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["wins"]["by_bot"]) == {"careful", "wild", "cautious", "gambler"}


def test_players_may_be_a_list_or_a_repeated_option(tmp_path: Path) -> None:
    result, out = simulate(tmp_path, "--games", "5", "--workers", "1", "--players", "3", "--players", "4,5")
    assert result.exit_code == 0, result.output
    assert [run["players"] for run in json.loads((out / "summary.json").read_text())["runs"]] == [3, 4, 5]


def test_a_personas_file_replaces_a_variant_persona_only_when_it_says_so(tmp_path: Path) -> None:
    personas = tmp_path / "bots.yaml"
    personas.write_text("bots:\n  careful: {policy: heuristic}\n  cautious: {policy: random}\n")
    result, out = simulate(tmp_path, "--games", "5", "--bots", "cautious", "--personas", str(personas), "--workers", "1")
    assert result.exit_code == 1 and not out.exists()
    assert f"{personas}:3: bots.cautious:" in result.output and "overrides" in result.output
    personas.write_text(personas.read_text() + "overrides: [cautious]\n")
    replaced, _ = simulate(tmp_path, "--games", "20", "--bots", "cautious", "--personas", str(personas), "--workers", "1")
    assert replaced.exit_code == 0, replaced.output
    randomly, _ = simulate(tmp_path / "random", "--games", "20", "--bots", "random", "--workers", "1")
    assert randomly.exit_code == 0, randomly.output
    mine, plain = without_timing(out / "summary.json"), without_timing(tmp_path / "random" / "out" / "summary.json")
    assert (mine["wins"]["by_seat"], mine["rounds"]) == (plain["wins"]["by_seat"], plain["rounds"]), "cautious plays as random"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristc"], "unknown bot 'heuristc' (did you mean 'heuristic'?)"),
        (["--bots", "random,random"], "--bots: 2 bots named, but a 4-player table has 4 seats"),
        (["--players", "7"], "--players 7: variants/chance-it.yaml is for 3 to 6 players"),
        (["--players", "four"], "--players four: expected a number or a list"),
    ],
)
def test_bad_arguments_exit_1_with_a_clear_message(
    tmp_path: Path, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result, _ = simulate(tmp_path, "--games", "5", *args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_an_invalid_variant_exits_1_with_its_problems(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {BASE}\nend: {{stars: -1}}\n")
    result = cli.invoke(app, ["simulate", str(bad), "--games", "5", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "end.stars: must be at least 1, got -1" in result.output


def test_files_the_workbench_did_not_write_are_kept_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text('{"mine": true}')
    result, _ = simulate(tmp_path, "--games", "5", "--workers", "1")
    assert result.exit_code == 1 and "not written by the workbench" in result.output
    assert (out / "summary.json").read_text() == '{"mine": true}'
    result, _ = simulate(tmp_path, "--games", "5", "--workers", "1", "--force")
    assert result.exit_code == 0
    result, _ = simulate(tmp_path, "--games", "5", "--workers", "1")  # its own output may be replaced
    assert result.exit_code == 0


def test_recorded_games_replay_to_the_identical_final_state(tmp_path: Path) -> None:
    from workbench.games import replay_scenario

    folder = tmp_path / "scripts"
    result, _ = simulate(
        tmp_path,
        "--games",
        "40",
        "--players",
        "3",
        "--seed",
        "4",
        "--workers",
        "2",
        "--bots",
        "random,heuristic,gambler",
        "--record-scenarios",
        str(folder),
        "--records",
        str(tmp_path / "games.jsonl"),
    )
    assert result.exit_code == 0, result.output
    scripts = sorted(folder.glob("*.yaml"))
    assert len(scripts) == 40
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    reshuffled = 0
    for script, record in zip(scripts, records):
        _, replayed = replay_scenario(script)
        assert replayed.failures == [] and replayed.checks > 0
        assert (replayed.output["winners"], replayed.output["rounds"]) == (record["winners"], record["rounds"])
        reshuffled += "reshuffles:" in script.read_text()
    assert reshuffled, "some recorded game should reshuffle the discard pile"


def test_a_wrong_bot_count_stops_before_any_game_or_file(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    records.write_text('{"game":0}\n')
    result, out = simulate(
        tmp_path, "--games", "5", "--players", "3,4", "--bots", "random,random,random", "--records", str(records)
    )
    assert result.exit_code == 1 and "a 4-player table has 4 seats" in result.output
    assert records.read_text() == '{"game":0}\n' and not out.exists()


def test_recorded_scenarios_do_not_replace_files_the_workbench_did_not_write(tmp_path: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    mine = folder / "game-4p-000001.yaml"
    mine.write_text("my notes\n")
    result, _ = simulate(tmp_path, "--games", "3", "--workers", "1", "--record-scenarios", str(folder))
    assert result.exit_code == 1 and "not written by the workbench" in result.output
    assert mine.read_text() == "my notes\n"
    mine.unlink()
    result, _ = simulate(tmp_path, "--games", "3", "--workers", "1", "--record-scenarios", str(folder))
    assert result.exit_code == 0 and "wrote 3 scenario scripts" in result.output
    again, _ = simulate(tmp_path, "--games", "3", "--workers", "1", "--record-scenarios", str(folder))
    assert again.exit_code == 0  # its own scripts may be replaced


def test_a_stop_between_two_player_counts_keeps_the_finished_count_only(tmp_path: Path) -> None:
    from workbench import api
    from workbench.sim.runner import Stop

    stop = Stop()

    def progress(label: str, total: int) -> Any:
        done = [0]

        def advance(finished: int) -> None:
            done[0] += finished
            if label == "3 players" and done[0] == total:
                stop.request()  # the 3-player games are all in: the 4-player count must not start

        return advance

    simulation = api.simulate(
        BASE, players=[3, 4], games=30, seed=2, bots="random", out=tmp_path / "o", progress=progress, stop=stop
    )
    assert simulation.interrupted and [run.players for run in simulation.runs] == [3]
    body = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert (body["players"], body["interrupted"], [run["players"] for run in body["runs"]]) == ([3, 4], True, [3])
    assert body["runs"][0]["games"] == 30 and body["runs"][0]["interrupted"] is False


def test_summary_records_what_each_bot_name_meant(tmp_path: Path) -> None:
    personas = tmp_path / "bots.yaml"
    personas.write_text("bots:\n  heuristic: {policy: random}\noverrides: [heuristic]\n")
    result, out = simulate(
        tmp_path,
        "--games",
        "5",
        "--workers",
        "1",
        "--players",
        "3",
        "--personas",
        str(personas),
        "--bots",
        "heuristic,cautious,random",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["personas"]["heuristic"]["policy"] == "random", "the override shows"
    assert summary["personas"]["cautious"]["policy"] == "heuristic" and summary["personas"]["cautious"]["min_hearts"] == 4
    assert summary["personas"]["heuristic"] == {"policy": "random"}  # only what its policy reads
    assert "playouts" not in summary["personas"]["cautious"] and "samples" not in summary["personas"]["cautious"]
    assert list(summary)[:10] == [
        "generator", "game", "variant", "variant_file", "players", "seed", "bots", "personas", "engine", "games"
    ]  # fmt: skip


def test_a_refused_parameter_is_named_by_the_library_the_command_line_and_the_studio_each_in_its_own_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The library's error names the parameter (``players``) and no option; the command line names its option, the
    studio its form field, from the same error."""
    from workbench import api
    from workbench.errors import UsageError
    from workbench.studio.sessions import RUN_FIELDS, said

    monkeypatch.chdir(ROOT)
    with pytest.raises(UsageError) as refused:
        api.simulate("variants/chance-it.yaml", players=[9], games=10)
    error = refused.value
    assert (error.field, error.value) == ("players", "9")
    assert str(error) == "players 9: variants/chance-it.yaml is for 3 to 6 players" and "--" not in str(error)
    assert said(error, RUN_FIELDS) == "Players 9: variants/chance-it.yaml is for 3 to 6 players"
    result = CliRunner().invoke(app, ["simulate", "variants/chance-it.yaml", "--players", "9", "--games", "10"])
    assert result.exit_code == 1
    assert "--players 9: variants/chance-it.yaml is for 3 to 6 players" in result.output.splitlines()


def test_an_option_named_in_a_reason_is_named_as_the_caller_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench import api
    from workbench.errors import UsageError

    monkeypatch.chdir(ROOT)
    with pytest.raises(UsageError) as refused:
        api.tune_stakes("variants/chance-it.yaml", players=[3], replace_printed=True)
    assert str(refused.value) == "replace_printed: only with write (without it the variant file is not changed)"
    result = CliRunner().invoke(app, ["tune-stakes", "variants/chance-it.yaml", "--players", "3", "--replace-printed"])
    assert "--replace-printed: only with --write (without it the variant file is not changed)" in result.output


# --- the bots' blind spots: cards passed over ---------------------------------------------------------------------


def test_a_card_counts_the_games_in_which_some_seat_could_buy_it() -> None:
    """``offered_games``: the games with a market action at which the card was face up and the seat had its price,
    counted here from the options each decider was shown; ``bought_games``: the games in which some seat bought it."""
    from collections import Counter

    from deciders import FirstOption

    from workbench.games.chance_it.chance import RandomChance
    from workbench.games.chance_it.engine import BUY, Game, compile_variant
    from workbench.games.chance_it.sim import Result, Tally
    from workbench.sim.stats import Moments

    rules = compile_variant(load_variant(BASE).variant)
    tally = Tally(4, ("first",) * 4, tuple(card.id for card in rules.cards))
    offered: Counter[str] = Counter()
    bought: Counter[str] = Counter()

    class Watching(FirstOption):
        def __init__(self, shown: set[str]):
            self.shown = shown

        def market(self, view: Any, options: tuple[Any, ...]) -> Any:
            self.shown.update(card for action, card in options if action == BUY)
            return super().market(view, options)

    for seed in range(25):
        shown: set[str] = set()
        chance = RandomChance.streams(seed, 0)
        game = Game(rules, 4, chance)
        game.play(chance, [Watching(shown) for _ in range(4)])
        offered.update(shown)
        bought.update({card for player in game.players for card in player.bought})
        tally.add(Result({}, game, Moments()))
    assert sum(offered.values()) > 100 and sum(bought.values()) > 50  # the counts mean something
    for card, counted in tally.cards.items():
        assert (counted.offered_games, counted.bought_games) == (offered[card], bought[card]), card


def test_notes_name_each_card_the_bots_pass_over() -> None:
    """Never bought, or bought in under 1 % of the games in which some seat could: a note; 1 % and more: none."""
    from workbench.games.chance_it.sim import Tally

    tally = Tally(4, ("heuristic", "heuristic", "random", "heuristic"), ("never", "rare", "some", "edge", "dear"))
    tally.outcomes.add([0], "stars", 10)  # one game counted, so the notes can say how many
    counts = {"never": (0, 0, 50), "rare": (1, 1, 150), "some": (2, 2, 150), "edge": (1, 1, 100), "dear": (0, 0, 0)}
    for card, (bought, bought_games, offered_games) in counts.items():
        counted = tally.cards[card]
        counted.bought, counted.bought_games, counted.offered_games = bought, bought_games, offered_games
    notes = {note["card"]: note for note in tally.notes()}
    assert sorted(notes) == ["dear", "never", "rare"]
    assert {(n["kind"], tuple(n["bots"]), n["bought_games"], n["offered_games"]) for n in notes.values()} == {
        ("never_bought", ("heuristic", "random"), 0, 50),
        ("never_bought", ("heuristic", "random"), 1, 150),
        ("never_bought", ("heuristic", "random"), 0, 0),
    }
    assert notes["never"]["text"].startswith("the heuristic and random bots never bought never, though some seat could in 50")
    assert "in 1 of the 150 games in which some seat could (under 1 %)" in notes["rare"]["text"]
    assert (
        notes["dear"]["text"]
        == "no seat could buy dear in 1 game (never face up with the coins to pay for it): its figures say nothing about it"
    )
    assert notes["never"]["text"].endswith(": its figures say little about it, and the bots may undervalue it")


def test_simulate_says_which_cards_the_bots_never_bought(tmp_path: Path) -> None:
    """A card priced out of every purse is never bought: the terminal and ``summary.json`` say so, for these bots."""
    variant = tmp_path / "dear.yaml"
    variant.write_text(
        f"extends: {BASE}\nname: A dear card\ncards_add:\n"
        "  - {id: crown, name: Crown, when: die-4, cost: 99, copies: 2, effects: [{gain: {stars: 5}}]}\n"
    )
    out = tmp_path / "out"
    result = cli.invoke(app, ["simulate", str(variant), "--games", "30", "--bots", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (note,) = [n for n in json.loads((out / "summary.json").read_text())["notes"] if n["card"] == "crown"]
    assert (note["kind"], note["bots"], note["bought_games"], note["offered_games"], note["games"]) == (
        "never_bought", ["random"], 0, 0, 30
    )  # fmt: skip
    assert "note: no seat could buy crown in 30 games" in " ".join(result.output.split())


DEAR = "  - {id: crown, name: Crown, when: die-4, cost: 99, copies: 2, effects: [{gain: {stars: 5}}]}\n"


def dear_variant(folder: Path) -> Path:
    """The base game with a card no purse can pay for (a blind spot of every bot)."""
    path = folder / "dear.yaml"
    path.write_text(f"extends: {BASE}\nname: A dear card\ncards_add:\n{DEAR}")
    return path


def test_compare_carries_each_variants_notes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli.invoke(
        app, ["compare", BASE, str(dear_variant(tmp_path)), "--games", "20", "--bots", "random", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    (run,) = json.loads((out / "compare.json").read_text())["runs"]
    assert [(n["variant"], n["card"], n["offered_games"], n["games"]) for n in run["notes"] if n["card"] == "crown"] == [
        (1, "crown", 0, 20)
    ]
    assert run["notes"] == [{"variant": i, **n} for i, s in enumerate(run["summaries"]) for n in s["notes"]]
    said = " ".join(result.output.split())
    assert "note: B: no seat could buy crown in 20 games" in said
    assert "not tested at 4 players (fewer than 30 games): win rate, seat 0" in said


def test_cards_puts_what_a_passed_over_card_did_when_given_beside_its_note(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["cards", str(dear_variant(tmp_path)), "--card", "crown", "--games", "30", "--bots", "random", "--out", str(out)]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    body = json.loads((out / "cards.json").read_text())
    (note,) = [n for n in body["notes"] if n["card"] == "crown"]
    (crown,) = body["cards"]
    assert (note["coins_equivalent"], note["flag"]) == (crown["coins_equivalent"], crown["flag"])
    assert note["text"].startswith("no seat could buy crown in 30 games")
    assert "given to a seat it was worth" in note["text"] and "for its price of 99" in note["text"]
    assert "note: no seat could buy crown" in " ".join(result.output.split())


def test_sweep_carries_each_points_notes(tmp_path: Path) -> None:
    dear_variant(tmp_path)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        "name: Stars\nvariant: dear.yaml\nplayers: [3]\ngames: 20\nseed: 1\nbots: random\n"
        "grid:\n  - {name: stars, set: end.stars, values: [15, 25]}\nfigures: [rounds.mean]\n"
    )
    out = tmp_path / "out"
    result = cli.invoke(app, ["sweep", str(sweep), "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = json.loads((out / "sweep.json").read_text())["table"]
    assert [[n["card"] for n in row["notes"] if n["card"] == "crown"] for row in table] == [["crown"], ["crown"]]
    said = " ".join(result.output.split())
    assert "note: stars 15, 3 players: no seat could buy crown" in said and "note: stars 25, 3 players:" in said
