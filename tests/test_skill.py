"""`workbench skill`: a ladder of bots, each at one seat against the same field and the same dice."""

import json
from pathlib import Path

from typer.testing import CliRunner

from workbench import studies
from workbench.cli import app
from workbench.errors import UsageError

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
runner = CliRunner()


def test_a_bot_like_the_field_wins_exactly_what_the_field_wins_and_a_search_bot_climbs(tmp_path: Path) -> None:
    result = studies.skill(BASE, players=4, games=60, seed=1, ladder=["random", "heuristic", "search-4"], out=tmp_path)
    rungs = {r.name: r for r in result.rungs}
    # the heuristic at the seat is the field's own bot with the same stream: the very same games
    assert rungs["heuristic"].over_field.value == 0 and rungs["heuristic"].over_field.se == 0
    assert rungs["search-4"].over_field.low > 0  # playouts beat the heuristic in the same games
    assert result.edge == rungs["search-4"].over_field
    assert result.equal == rungs["heuristic"].win_rate  # the yardstick: a field bot in the rotating seat
    body = json.loads((tmp_path / "skill.json").read_text())
    assert body["equal_share"]["n"] == 60 and [r["bot"] for r in body["rungs"]] == ["random", "heuristic", "search-4"]
    assert "no better than the others" in body["verdict"] and "first_seat_advantage" in body["field_alone"]
    page = (tmp_path / "skill.html").read_text()
    assert "<svg" in page and "Ludii" in page and "TAG" in page


def test_cli_skill_fits_100_columns_and_refuses_bad_input(tmp_path: Path) -> None:
    ok = runner.invoke(
        app,
        ["skill", str(BASE), "-g", "12", "-w", "1", "--ladder", "random,heuristic", "-o", str(tmp_path / "o")],
        env={"COLUMNS": "100"},
    )
    assert ok.exit_code == 0, ok.output
    assert max(len(line) for line in ok.stdout.splitlines()) <= 100
    assert "no better than the others" in " ".join(ok.stdout.split())
    for args, message in (
        (["--ladder", "random,nobody"], "unknown bot 'nobody'"),
        (["--ladder", "random"], "at least two bots"),
        (["--ladder", "random,heuristic,random"], "random is named twice"),
        (["--ladder", ""], "--ladder: an empty value (an unset shell variable?)"),
        (["--ladder", ",,,"], "(got 0)"),
        (["-b", "random,heuristic,random,heuristic"], "one bot at every seat"),
        (["-p", "9"], "--players 9"),
    ):
        bad = runner.invoke(app, ["skill", str(BASE), *args, "-o", str(tmp_path / "x")])
        assert bad.exit_code == 1 and message in bad.output, (args, bad.output)
    assert not (tmp_path / "x").exists()


def test_the_library_plays_one_table_and_reads_a_ladder_as_the_command_line_writes_it() -> None:
    """A study of one table refuses several player counts by the parameter's name; a ladder may be one text."""
    for study in (studies.skill, studies.cards):
        try:
            study(BASE, players=[3, 4], games=10)
        except UsageError as exc:
            assert exc.field == "players" and str(exc) == "players 3, 4: name one player count: this plays one table"
        else:
            raise AssertionError(f"{study.__name__} played two tables")
    by_text = studies.skill(BASE, players=3, games=20, ladder="random, heuristic", engine="interpreter")
    by_list = studies.skill(BASE, players=3, games=20, ladder=["random", "heuristic"], engine="interpreter")
    assert [rung.name for rung in by_text.rungs] == ["random", "heuristic"]
    assert [r.to_dict() for r in by_text.rungs] == [r.to_dict() for r in by_list.rungs]


def test_a_ladder_listed_strongest_first_is_said_so_in_the_verdict() -> None:
    """The summary figure is the last rung's; when a rung below it wins more beyond the paired interval, the verdict
    says the ladder was not listed weakest first (a ladder in order says nothing of the kind)."""
    wrong = studies.skill(BASE, players=3, games=200, ladder=["heuristic", "random"], engine="interpreter")
    heuristic, random = wrong.rungs
    assert heuristic.win_rate.value > random.win_rate.value and wrong.above_top == ["heuristic"]
    assert wrong.verdict().endswith(
        "But heuristic, lower on the ladder, won more than random (beyond the 95 % interval of the paired difference): "
        "the ladder is read weakest first, so the top rung here is not the strongest bot."
    )
    right = studies.skill(BASE, players=3, games=200, ladder=["random", "heuristic"], engine="interpreter")
    assert right.above_top == [] and "lower on the ladder" not in right.verdict()
