"""``calibrate``: a persona fitted to recorded decisions recovers the bot that made them, within its intervals, and
plays games like theirs; what cannot be fitted is refused before any work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from workbench import api, calibrate, playtests
from workbench.cli import app
from workbench.errors import UsageError
from workbench.sim.backends import Local

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "variants" / "chance-it.yaml"
#: The persona the games come from: a gambler's taste for CHANCE IT, more fear for its last hearts than the default
#: heuristic (0 and 1.5), and choices that stray from its best (a quantal-response player of temperature 0.3).
HIDDEN = {"chance_it": 0.8, "danger": 2.5, "temperature": 0.3}


@pytest.fixture(scope="module")
def hidden_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("hidden")
    personas = folder / "hidden.yaml"
    personas.write_text(yaml.safe_dump({"bots": {"hidden": {"policy": "heuristic", **HIDDEN}}}))
    api.simulate(
        BASE, players=[4], games=30, seed=0, bots="hidden", personas=personas, engine="interpreter",
        out=folder / "report", create_out=True, record_scenarios=folder / "logs",
    )  # fmt: skip
    return sorted((folder / "logs").glob("game-*.yaml"))


def test_calibrate_recovers_the_hidden_persona_and_its_games(hidden_logs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "personas.yaml"
    found = calibrate.calibrate(BASE, hidden_logs, out)  # chance_it and danger, and the temperature
    written = yaml.safe_load(out.read_text())["bots"]["calibrated"]
    assert written["policy"] == "heuristic" and written["heart"] == 0.4  # what was not fitted stays the heuristic's
    assert [e.parameter.name for e in found.estimates] == ["chance_it", "danger", "temperature"]
    for estimate in found.estimates:
        assert estimate.low <= HIDDEN[estimate.parameter.name] <= estimate.high, estimate
        assert written[estimate.parameter.name] == pytest.approx(estimate.value, abs=1e-4)
    # the fit explains the choices better than the default heuristic at its own best temperature, and uniform choice
    assert found.fitted.likelihood > found.start_check.likelihood > found.uniform.likelihood
    assert found.held_out is not None and found.held_out.games == 8
    assert found.held_out.fitted.likelihood > found.held_out.start.likelihood > found.held_out.uniform.likelihood
    # bots of the fitted persona play games whose guide shares match the recorded games'
    compared = playtests.playtests(BASE, hidden_logs, games=600, bots="calibrated", personas=out, engine="interpreter")
    guides = [f for f in compared.tables[0].figures if f.name.startswith("guides.")]
    assert len(guides) == 4 and not any(f.differs for f in guides)
    chance_it = next(f for f in guides if f.name == "guides.chance-it.rate")
    assert chance_it.low <= chance_it.bots <= chance_it.high
    # against the default heuristic, the same games differ on their guides
    default = playtests.playtests(BASE, hidden_logs, games=600, engine="interpreter")
    assert "guides.chance-it.rate" in [f.name for f in default.tables[0].differing]


def test_the_personas_file_is_one_every_command_takes(hidden_logs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "group.yaml"
    arguments = [
        "calibrate",
        str(BASE),
        *map(str, hidden_logs[:6]),
        "--out",
        str(out),
        "--name",
        "our-group",
        "--fit",
        "chance_it",
    ]
    ran = CliRunner().invoke(app, arguments)
    assert ran.exit_code == 0, ran.output
    assert "fitting chance_it and the temperature to" in ran.output and "decisions of 6 games: about" in ran.output
    assert "no held-out check: fewer than 8 games" in ran.output
    assert f"Use it with\n  --personas {out} --bots our-group\n" in ran.output
    text = out.read_text()
    assert text.startswith("# made by chance-workbench: workbench calibrate") and "chance_it: " in text
    assert "# 95 % interval" in text
    summary = api.simulate(BASE, players=[4], games=20, bots="our-group", personas=out, engine="auto")
    assert summary.runs[0].engine == "interpreter"  # a temperature: only the interpreter plays it
    tuned = api.tune_stakes(
        BASE, [3], bots="our-group", personas=out, budget=100, exploit_games=0, backend=Local(1), out=tmp_path / "p.yaml"
    )  # fmt: skip
    assert f"--bots our-group --budget 100 --seed 1 --engine interpreter --personas {out}" in tuned.command
    assert tuned.written == [tmp_path / "p.yaml", tmp_path / "p.html"]
    shown = CliRunner().invoke(app, [*arguments, "--json", "--force"])
    body = json.loads(shown.stdout)
    assert [p["name"] for p in body["parameters"]] == ["chance_it", "temperature"]
    assert body["games"] == 6 and body["held_out"] is None and body["persona"]["policy"] == "heuristic"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"fitted": ["dangr"]}, "dangr: not a parameter calibrate fits (did you mean 'danger'?)"),
        ({"name": "gambler"}, "name gambler: a bot of this name exists already"),
        ({"start": "search"}, "start search: a heuristic persona is fitted, not a search one"),
        ({"start": "nobody"}, "start nobody: no bot of this name"),
        ({"name": "our group"}, "a bot's name is a letter, then letters, digits, - or _ (at most 40)"),
        ({"out": ROOT / "cards" / "chance-it-market.yaml", "force": True}, "this is one of the files read"),
    ],
)
def test_what_cannot_be_fitted_is_refused_before_any_work(hidden_logs: list[Path], options: dict, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        calibrate.calibrate(BASE, hidden_logs[:1], **options)
    assert message in str(caught.value)


def test_a_personas_file_of_the_users_is_not_replaced(hidden_logs: list[Path], tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("bots: {}\n")
    with pytest.raises(UsageError, match="this file exists: force replaces it"):
        calibrate.calibrate(BASE, hidden_logs[:2], mine)
    assert mine.read_text() == "bots: {}\n"
    with pytest.raises(UsageError, match="this is one of the files read"):
        calibrate.calibrate(BASE, hidden_logs[:2], hidden_logs[0], force=True)
