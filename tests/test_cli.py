"""The command line: schema output, play, and errors that never show a traceback."""

import fcntl
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import BinaryIO

import jsonschema
import pytest
import yaml
from output_helpers import HANG
from typer.testing import CliRunner

from workbench import api
from workbench.cli import app
from workbench.errors import display_path
from workbench.games import FAMILIES

ROOT = Path(__file__).parent.parent
BASE = str(ROOT / "variants" / "chance-it.yaml")
runner = CliRunner()
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
DATA_FILES = sorted(
    [
        *ROOT.glob("variants/*.yaml"),
        *ROOT.glob("cards/**/*.yaml"),
        *ROOT.glob("sweeps/*.yaml"),
        *ROOT.glob("tests/scenarios/**/*.yaml"),
    ]
)


def test_schema_prints_variant_scenario_and_card_schemas() -> None:
    result = runner.invoke(app, ["schema", "--game", "chance-it"])
    assert result.exit_code == 0
    schemas = json.loads(result.stdout)
    assert set(schemas) == {"variant", "scenario", "cards"}
    assert {"stakes", "board", "cards", "extends"} <= set(schemas["variant"]["properties"])
    assert {"rounds", "expect", "market"} <= set(schemas["scenario"]["properties"])
    one = json.loads(runner.invoke(app, ["schema", "scenario", "--game", "chance-it"]).stdout)
    assert one == schemas["scenario"]


def test_committed_schema_files_are_current() -> None:
    for kind, body in FAMILIES["chance-it"].schemas().items():
        committed = ROOT / "schemas" / f"chance-it.{kind}.schema.json"
        assert json.loads(committed.read_text()) == body, f"run: workbench schema --out schemas --force ({kind})"


def test_the_sweep_schema_is_every_games_and_committed() -> None:
    printed = json.loads(runner.invoke(app, ["schema", "sweep"]).stdout)
    assert printed == api.schemas(None, "sweep")["sweep"] == json.loads((ROOT / "schemas" / "sweep.schema.json").read_text())
    assert {"variant", "grid", "points", "goal", "figures"} <= set(printed["properties"])


def test_schema_out_does_not_overwrite_a_different_file_without_force(tmp_path: Path) -> None:
    target = tmp_path / "chance-it.variant.schema.json"
    target.write_text("{}")
    result = runner.invoke(app, ["schema", "variant", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "--force" in result.output
    assert target.read_text() == "{}"
    assert runner.invoke(app, ["schema", "variant", "--out", str(tmp_path), "--force"]).exit_code == 0
    assert json.loads(target.read_text())["title"] == "Variant"


@pytest.mark.parametrize("path", DATA_FILES, ids=[str(p.relative_to(ROOT)) for p in DATA_FILES])
def test_data_files_name_a_schema_that_accepts_them(path: Path) -> None:
    first = path.read_text().splitlines()[0]
    match = SCHEMA_LINE.match(first)
    assert match, f"{path.name} must start with a yaml-language-server schema line"
    schema_file = (path.parent / match.group(1)).resolve()
    assert schema_file.is_file()
    if "broken" in path.parts:
        return
    data = yaml.safe_load(path.read_text())
    jsonschema.validate(json.loads(json.dumps(data, default=str)), json.loads(schema_file.read_text()))


def test_play_prints_the_final_table_and_is_deterministic() -> None:
    first = runner.invoke(app, ["play", BASE, "--players", "5", "--seed", "3", "--json"])
    second = runner.invoke(app, ["play", BASE, "--players", "5", "--seed", "3", "--json"])
    assert first.exit_code == 0 and first.stdout == second.stdout
    state = json.loads(first.stdout)
    assert len(state["players"]) == 5 and state["end_reason"] is not None
    table = runner.invoke(app, ["play", BASE, "--players", "5", "--seed", "3"])
    assert f"ended after {state['rounds']} rounds: {state['end_reason']}" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", BASE, "--players", "7"], "--players 7: variants/chance-it.yaml is for 3 to 6 players"),
        (["play", "missing.yaml"], "missing.yaml: file not found"),
        (["schema", "--game", "chess"], "--game chess: unknown game"),
        (["schema", "boards", "--game", "chance-it"], "unknown schema 'boards' for chance-it"),
        (["replay", "missing.yaml"], "missing.yaml: file not found"),
    ],
)
def test_bad_arguments_exit_1_with_a_message(args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_replay_json_prints_the_normative_output() -> None:
    result = runner.invoke(app, ["replay", str(ROOT / "tests/scenarios/issue-example.yaml"), "--json"])
    assert result.exit_code == 0
    state = json.loads(result.stdout)
    assert list(state) == ["rounds", "end_reason", "winners", "players", "supply", "market", "pile", "discard", "events"]
    assert state["players"][2] == {
        "seat": 2,
        "coins": 5,
        "hearts": 6,
        "stars": 1,
        "cards": ["lucky"],
        "eliminated": False,
        "forced_in": True,
    }
    assert state["supply"] == {"coins": 56, "hearts": 57, "stars": 117}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", BASE, "--games", "0"], "workbench simulate: --games 0: give 1 or more"),
        (["simulate", BASE, "--gmaes", "5"], "workbench simulate: no option --gmaes (did you mean '--games'?)"),
        (["simulate", BASE, "--nosuch"], "workbench simulate: no option --nosuch (see"),  # no guess from a few letters
        (["simulate"], "workbench simulate: VARIANT is missing (variant file)"),
        (["playtests", BASE], "workbench playtests: LOG is missing (games played at a table: scenario scripts of"),
        (["record", BASE], "workbench record: --out is missing (scenario file to write the game to"),
        (["tune-stakes", BASE, "--budget", "50"], "workbench tune-stakes: --budget 50: give 100 or more"),
        (["frobnicate"], "workbench: No such command 'frobnicate'."),
    ],
)
def test_a_mistyped_command_or_option_is_one_line_and_exit_1(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(message) and lines[0].endswith("--help)"), lines


#: What a command that runs no game must not import (issue 26: `--help` and `validate` start at once).
HEAVY = {"numpy", "numba", "dask", "distributed", "weasyprint", "starlette", "jinja2", "icepool", "rich", "multiprocessing"}
RUN_MACHINERY = ("workbench.api", "workbench.sim.runner")


@pytest.mark.parametrize(
    "argv", [["--help"], *(["validate", str(path.relative_to(ROOT))] for path in sorted(ROOT.glob("variants/*.yaml")))]
)
def test_help_and_validate_import_no_heavy_module_nor_the_run_machinery(argv: list[str]) -> None:
    """A check imports the loader and its file's family only: no engine, bot, renderer or run machinery; python-chess
    only for a chess variant (its schema checks the starting position)."""
    watched = sorted(HEAVY | {"chess"})
    code = (
        "import sys; from workbench.cli import main; sys.argv = ['workbench', *sys.argv[1:]]\n"
        "try: main()\nexcept SystemExit as exc: assert not exc.code, exc.code\n"
        f"print(*sorted(m for m in sys.modules if m.split('.')[0] in {watched} or m in {RUN_MACHINERY}), file=sys.stderr)"
    )
    ran = subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    imported = set(ran.stderr.split())
    chess = {"chess"} if argv[-1].endswith("chance-chess.yaml") else set()
    assert {m.split(".")[0] for m in imported} - chess == set(), imported


def test_a_reason_that_names_two_options_names_both_as_options() -> None:
    result = runner.invoke(app, ["replay", str(ROOT / "tests/scenarios/rule04-stakes.yaml"), "--trace", "--engine", "batch"])
    assert result.exit_code == 1
    assert result.output.strip() == "--trace prints the event log, which only the interpreter keeps: leave out --engine batch"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["simulate", "variants/chance-it.yaml", "--workers", "0"], "workbench simulate: --workers 0: give 1 or more"),
        (["simulate", "variants/chance-it.yaml", "--games=-5"], "workbench simulate: --games -5: give 1 or more"),
        (["simulate", "variants/chance-it.yaml", "-g", "0"], "workbench simulate: --games 0: give 1 or more"),
        (["simulate", "variants/chance-it.yaml", "--seed", "abc"], "workbench simulate: --seed abc: expected a whole number"),
        (
            ["tune-stakes", "variants/chance-it.yaml", "-p", "3", "--budget", "5"],
            "workbench tune-stakes: --budget 5: give 100 or more",
        ),
    ],
)
def test_an_option_out_of_its_bounds_is_said_in_the_workbenchs_words(arguments: list[str], said: str) -> None:
    script = Path(sys.executable).with_name("workbench")  # the installed command, as a designer types it
    ran = subprocess.run([script, *arguments], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 1
    assert ran.stderr.strip() == f"{said} (see {said.split(':')[0]} --help)"


@pytest.mark.parametrize(
    "command",
    [
        "odds variants/chance-it.yaml",  # rich's tables
        "validate variants/chance-it.yaml variants/card-lab.yaml variants/target-dice.yaml",  # plain lines (it exited 1)
        "replay tests/scenarios/rule01-setup.yaml --trace",
        "--help",  # the command line's own help (Typer exited 1 for it)
        "simulate --help",
    ],
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(command: str) -> None:
    """``workbench ... | head -1``: the shell's convention for a closed pipe (128 + SIGPIPE), nothing said. The pipe's
    reader is gone before the command writes (as ``head`` is, soon after its first line), so every run sees it."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "workbench", *command.split()], cwd=ROOT, stdout=writer, stderr=subprocess.PIPE, text=True
        )
    finally:
        os.close(writer)
    assert (ran.returncode, ran.stderr) == (141, "")


@pytest.mark.parametrize("command", ["", "--debug", "simulate", "--debug print"])
def test_a_command_line_with_nothing_to_work_on_exits_1(command: str) -> None:
    """Bare ``workbench`` (or a command without its file) shows the help, or says what is missing, and ends with 1 as
    any missing input does (the framework's 2 is the workbench's code for an internal error)."""
    ran = subprocess.run([sys.executable, "-m", "workbench", *command.split()], cwd=ROOT, capture_output=True, text=True)
    assert ran.returncode == 1, ran.stderr
    said = ran.stdout + ran.stderr
    assert said.startswith("Usage: python -m workbench [OPTIONS] COMMAND") or "missing" in said.lower(), said
    assert "Traceback" not in ran.stderr


@pytest.mark.parametrize(
    ("command", "written"),
    [
        ("print variants/chance-it.yaml --only calibration --out {tmp}/set.pdf", ["set.pdf"]),
        ("schema --game chance-it --out {tmp}/schemas", ["schemas"]),
    ],
)
def test_a_reader_gone_before_a_writing_command_says_what_it_wrote_stands(
    tmp_path: Path, command: str, written: list[str]
) -> None:
    """The files are in place before the command's first line: 141 for the closed pipe, and standard error names
    them (print ended with 141 and nothing said, its PDF written)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "workbench", *command.format(tmp=tmp_path).split()],
            cwd=ROOT,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(writer)
    assert ran.returncode == 141, ran.stderr
    line = ran.stderr.strip().splitlines()[-1]
    assert line.startswith("the reader of the output stopped reading once the results were written; they stand: ")
    assert all(name in line and (tmp_path / name).exists() for name in written), line


def read_until(pipe: BinaryIO, text: bytes) -> bool:
    """Read ``pipe`` a byte at a time until ``text`` has come (True) or the pipe ends (False)."""
    seen = b""
    while not seen.endswith(text):
        byte = pipe.read(1)
        if not byte:
            return False
        seen += byte
    return True


@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="Linux: a pipe of one page")
def test_a_reader_that_stops_once_the_table_starts_leaves_the_results_and_hears_where(tmp_path: Path) -> None:
    """``workbench simulate ... | head``, the reader gone as the table starts (after the run wrote its results; a pipe
    of one page holds the rest back): the results stand, and standard error says so, every one of them (the scenarios'
    folder was left out), before the shell's 141."""
    out, scripts = tmp_path / "out", tmp_path / "scripts"
    command = ["simulate", "variants/chance-it.yaml", "--games", "5", "--workers", "1", "--players", "3,4,5,6"]
    command += ["--record-scenarios", str(scripts)]
    reading, writing = os.pipe()
    fcntl.fcntl(writing, fcntl.F_SETPIPE_SZ, 4096)
    child = subprocess.Popen(
        [sys.executable, "-m", "workbench", *command, "--out", str(out)],
        cwd=ROOT,
        stdout=writing,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(writing)
    with os.fdopen(reading, "rb", buffering=0) as pipe:  # a byte at a time: what is not read stays in the pipe
        assert read_until(pipe, b"; seed 1"), "the table's title"
    said = child.communicate(timeout=HANG)[1]
    assert child.returncode == 141, said
    assert [run["games"] for run in json.loads((out / "summary.json").read_text())["runs"]] == [5] * 4
    written = ", ".join(display_path(path) for path in (out / "summary.json", out / "report.html", scripts))
    assert (
        said.strip().splitlines()[-1]
        == f"the reader of the output stopped reading once the results were written; they stand: {written}"
    )


def test_a_replay_of_variant_files_only_says_there_is_nothing_to_replay() -> None:
    ran = CliRunner().invoke(app, ["replay", str(ROOT / "variants" / "chance-it.yaml")])
    assert ran.exit_code == 1
    assert "these are variant files, not scenario scripts: there is nothing to replay" in ran.output


def test_a_resource_named_twice_in_the_tiebreak_is_refused_at_its_line(tmp_path: Path) -> None:
    variant = tmp_path / "tie.yaml"
    variant.write_text(f"extends: {ROOT / 'variants' / 'chance-it.yaml'}\nname: Tie\nend: {{tiebreak: [stars, stars, coins]}}\n")
    ran = CliRunner().invoke(app, ["validate", str(variant)])
    assert ran.exit_code == 1
    assert f"{variant}:3: end.tiebreak: stars named more than once: name each resource once" in ran.output


def test_a_command_leaves_the_signal_handlers_as_it_found_them(tmp_path: Path) -> None:
    """A run's command hears a late signal with handlers of its own; run in this process (a notebook, a test), it puts
    the caller's back (one left behind broke the next test's handling of Ctrl-C)."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    result = runner.invoke(app, ["simulate", str(BASE), "--games", "3", "--workers", "1", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert {signum: signal.getsignal(signum) for signum in before} == before


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["simulate", "VARIANT", "--out="], "workbench simulate: --out: an empty value"),
        (["simulate", "VARIANT", "--records", ""], "workbench simulate: --records: an empty value"),
        (["compare", "VARIANT", "VARIANT", "-o", ""], "workbench compare: -o: an empty value"),
        (["schema", "--out="], "workbench schema: --out: an empty value"),
        (["validate", ""], "workbench validate: an empty argument"),
    ],
)
def test_an_empty_value_is_refused_not_taken_for_the_current_folder(tmp_path: Path, arguments: list[str], said: str) -> None:
    """``--out "$DIR"`` with DIR unset: the results were written in the folder the command ran from."""
    script = Path(sys.executable).with_name("workbench")
    given = [str(ROOT / "variants" / "chance-it.yaml") if arg == "VARIANT" else arg for arg in arguments]
    ran = subprocess.run([script, *given], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 1 and ran.stderr.startswith(said) and len(ran.stderr.splitlines()) == 1, ran.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("given", [" ", " chance-it.yaml", "chance-it.yaml "])
def test_a_path_with_blanks_at_an_end_is_said_quoted(tmp_path: Path, given: str) -> None:
    """A stray blank (a copied name, a script's quoting) gave ' : file not found', the path unseen."""
    ran = runner.invoke(app, ["validate", given])
    assert (ran.exit_code, ran.output) == (1, f"'{given}': file not found\n'{given}': 1 problem(s)\n"), ran.output
