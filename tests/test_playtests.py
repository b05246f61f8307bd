"""``playtests``: the figures of games played at a table beside the bots', with intervals for a few dozen games.

The "people" here are bots whose games were recorded as scenario scripts: games of the default heuristic must show
no difference from the heuristic's own, and games of a noisy gambler (a heuristic with a taste for CHANCE IT and a
temperature) must show the guide shares it changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from workbench import api, playtests
from workbench.cli import app
from workbench.errors import ScenarioError, UsageError

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "variants" / "chance-it.yaml"


def logs_of(folder: Path, bots: str, seed: int, personas: Path | None = None, games: int = 20) -> list[Path]:
    """``games`` games of ``bots`` at four players, recorded as scenario scripts in ``folder``."""
    api.simulate(
        BASE, players=[4], games=games, seed=seed, bots=bots, personas=personas, engine="interpreter",
        out=folder / "report", create_out=True, record_scenarios=folder / "logs",
    )  # fmt: skip
    return sorted((folder / "logs").glob("game-*.yaml"))


def test_games_of_the_default_heuristic_differ_in_nothing_from_the_heuristic(tmp_path: Path) -> None:
    logs = logs_of(tmp_path, "heuristic", seed=5)
    found = playtests.playtests(BASE, logs, games=1000, seed=1, engine="interpreter")
    (table,) = found.tables
    assert (table.players, table.people_games, table.bot_games) == (4, 20, 1000)
    assert table.differing == []
    assert found.tests > 30  # the figures were tested, not skipped
    by_name = {f.name: f for f in table.figures}
    seat = by_name["wins.by_seat.0.rate"]
    wins = sum(yaml.safe_load(log.read_text())["expect"]["winners"] in ([0],) for log in logs)  # seat 0 alone
    assert seat.people == pytest.approx(wins / 20)
    assert seat.method == "Wilson interval; exact binomial test"
    assert by_name["rounds.mean"].method.startswith("Student t interval")
    assert not any(name.startswith("wins.by_bot.") for name in by_name)


def test_a_noisy_gambler_table_is_told_apart_on_its_guides(tmp_path: Path) -> None:
    """Twenty games of bots that like CHANCE IT, fear for their last hearts and stray from their best choices (a
    quantal-response heuristic of temperature 0.3): the guide shares they change are named, first."""
    personas = tmp_path / "hidden.yaml"
    personas.write_text("bots:\n  hidden: {policy: heuristic, chance_it: 0.8, danger: 2.5, temperature: 0.3}\n")
    logs = logs_of(tmp_path, "hidden", seed=5, personas=personas)
    found = playtests.playtests(BASE, logs, games=1000, seed=1, engine="interpreter")
    (table,) = found.tables
    differing = [f.name for f in table.differing]
    assert "guides.chance-it.rate" in differing
    assert all(f.differs for f in table.ordered()[: len(differing)])  # the differing figures come first
    chance_it = next(f for f in table.figures if f.name == "guides.chance-it.rate")
    assert chance_it.low > chance_it.bots  # the people's interval lies above the bots' share


def test_the_command_writes_its_report_and_refuses_a_game_of_another_variant(tmp_path: Path) -> None:
    logs = logs_of(tmp_path, "heuristic", seed=9, games=6)
    unfinished = tmp_path / "logs" / "stopped.yaml"
    script = yaml.safe_load(logs[0].read_text())
    script["rounds"] = script["rounds"][:2]
    script.pop("expect")
    script["variant"] = str(BASE)
    unfinished.write_text(yaml.safe_dump(script, sort_keys=False))
    out = tmp_path / "out"
    ran = CliRunner().invoke(
        app,
        [
            "playtests",
            str(BASE),
            *map(str, logs),
            str(unfinished),
            "--games",
            "300",
            "--engine",
            "interpreter",
            "--out",
            str(out),
        ],
    )
    assert ran.exit_code == 0, ran.output
    assert "6 games at the table against 300 games of heuristic bots" in ran.output
    assert "left out: 1 unfinished game(s)" in ran.output
    body = json.loads((out / "playtests.json").read_text())
    assert body["unfinished"] == [
        str(unfinished.relative_to(Path.cwd()) if unfinished.is_relative_to(Path.cwd()) else unfinished)
    ]
    assert body["tables"][0]["people_games"] == 6 and "People against heuristic bots" in (out / "playtests.html").read_text()

    other = tmp_path / "other.yaml"
    other.write_text(f"extends: {BASE}\nname: Dearer\nchance_it: [{{gain: {{coins: 1}}}}]\n")
    with pytest.raises(ScenarioError, match="this game was played on another variant than"):
        playtests.read_logs(api.load_variant(other), logs[:1])
    with pytest.raises(UsageError, match="none of these games was played to its end"):
        playtests.playtests(BASE, [unfinished], games=10)
    with pytest.raises(UsageError, match="this is a variant file, not a recorded game"):
        playtests.read_logs(api.load_variant(BASE), [BASE])


@pytest.mark.parametrize("variant", ["chance-it.yaml", "target-dice.yaml", "chance-chess.yaml"])
def test_one_game_of_an_evening_is_set_beside_the_bots(tmp_path: Path, variant: str) -> None:
    """A single game has an interval for its rates but none for its means: the report says so ('–') rather than
    failing (it exited 2, in every game)."""
    path = ROOT / "variants" / variant
    api.simulate(
        path, games=1, seed=3, bots="random", engine="interpreter", out=tmp_path / "r", record_scenarios=tmp_path / "logs"
    )
    (log,) = sorted((tmp_path / "logs").glob("game-*.yaml"))
    found = playtests.playtests(path, [log], games=30, bots="random", engine="interpreter", out=tmp_path / "out")
    assert found.tables[0].people_games == 1
    page = (tmp_path / "out" / "playtests.html").read_text()
    assert "<td>–</td>" in page or ">–<" in page


def test_a_game_counts_once_and_a_script_whose_expect_is_not_its_game_is_refused(tmp_path: Path) -> None:
    logs = logs_of(tmp_path, "heuristic", seed=3, games=2)
    with pytest.raises(UsageError, match="this is the same game as"):
        playtests.read_logs(api.load_variant(BASE), [logs[0], logs[1], logs[0]])
    copy = tmp_path / "logs" / "copy.yaml"
    copy.write_bytes(logs[0].read_bytes())
    with pytest.raises(UsageError, match="this is the same game as"):
        playtests.read_logs(api.load_variant(BASE), [logs[0], copy])
    edited = tmp_path / "logs" / "edited.yaml"
    edited.write_text(logs[1].read_text().replace("  rounds: ", "  rounds: 1", 1))
    with pytest.raises(ScenarioError, match=r"edited.yaml:\d+: expect.rounds: expected 1\d+, got \d+") as caught:
        playtests.read_logs(api.load_variant(BASE), [edited])
    assert caught.value.note == "its expect: is not the state its game ends in (replay it to see)"
