"""Nothing a designer owns is ever lost (issue 9): every output, tried with real files in temporary folders.

- a full disk (a real tmpfs, and ``ENOSPC`` injected into ``open``/``fsync``): the old file intact, no temporary left;
- a kill during a write: the old file intact byte for byte;
- a device, FIFO or socket as an output: refused at once, nothing read, nothing blocked;
- a user's file in the way: refused without ``--force`` whatever it says, replaced with it;
- two runs on one folder: the second replaces the first's files, the manifest is exact, stale scripts go;
- a read-only folder, a missing parent, two options naming one file: refused before any game.

"Before any game" is proven two ways: in a subprocess by asking for :data:`HUGE` games
(or budget) under a timeout, and in this process by making the work itself fail the test
(:func:`no_work`). Interruptions are in ``test_interrupts.py``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from output_helpers import (
    AT_ONCE,
    BASE,
    HANG,
    HUGE,
    MANIFEST,
    Ran,
    assert_clean,
    assert_manifest_is_exact,
    assert_refused,
    fail_fsync,
    files,
    fill_disk,
    inside,
    invoke,
    leftovers,
    manifest,
    named,
    read_only,
    sha256,
    tmpfs,
    tunable_variant,
    workbench,
)

from workbench import api, outputs, runs
from workbench.errors import display_name, display_path
from workbench.games.chance_it import FAMILY
from workbench.outputs import read_manifest, write_atomic
from workbench.render import printing as print_set
from workbench.sim.runner import Stop

NO_SPACE = "No space left on device"


def sim(*args: Any, games: int = 5, seed: int = 1) -> list[str]:
    """``simulate`` arguments for a quick run: random bots, one worker."""
    quick = ["--games", str(games), "--seed", str(seed), "--bots", "random", "--workers", "1"]
    return ["simulate", str(BASE), *quick, *map(str, args)]


def tune(variant: Path, *args: Any, budget: int = 100) -> list[str]:
    """``tune-stakes`` arguments for a quick run of the 3-player sheet of a :func:`tunable_variant`."""
    return ["tune-stakes", str(variant), "--players", "3", "--budget", str(budget), "--workers", "1", *map(str, args)]


def printing(out: Path, *args: Any) -> list[str]:
    """``print`` arguments for a small set (the action board, no backs)."""
    return ["print", str(BASE), "--out", str(out), "--only", "board", "--no-backs", *map(str, args)]


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands run in this process work in the test's folder (a default ``reports/`` goes there, not in the project)."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing a game, tuning or printing fails the test: a command must refuse before any of it."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the work started before the outputs were checked")

    monkeypatch.setattr(runs, "run", boom)
    monkeypatch.setattr(type(FAMILY), "tune_stakes", boom)
    monkeypatch.setattr(type(FAMILY), "print_html", boom)
    monkeypatch.setattr(print_set, "render_pdf", boom)


# --- 1. a full disk ------------------------------------------------------------------------------------------


def test_simulate_on_a_full_tmpfs_fails_cleanly_and_keeps_the_earlier_summary(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "256k") as disk:
        out = disk / "report"
        first = invoke(*sim("--out", out, seed=1))
        assert first.code == 0, first.stderr
        before = files(out)
        assert set(before) == {"summary.json", "report.html", MANIFEST}
        with (disk / "filler").open("wb", buffering=0) as filler:  # fill every block that is left
            try:
                while True:
                    filler.write(b"\0" * 4096)
            except OSError:
                pass

        ran = invoke(*sim("--out", out, seed=2))

        assert_clean(ran)
        assert ran.code == 1, ran.stderr
        assert "cannot write disk/report/summary.json: No space left on device" in ran.lines, ran.stderr
        assert files(out) == before, "the earlier outputs are intact, byte for byte"
        assert leftovers(disk) == []


@pytest.mark.parametrize("failing", [1, 2], ids=["first-record", "second-record"])
def test_a_full_disk_at_the_record_leaves_every_output_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: int
) -> None:
    """The record of what the workbench wrote is written before any output is put in place: a disk that fills just
    then leaves both folders as they were (no output the next run would take for a stranger's and refuse)."""
    out, games = tmp_path / "out", tmp_path / "games" / "games.jsonl"
    games.parent.mkdir()
    assert invoke(*sim("--out", out, "--records", games, seed=1)).code == 0
    before = files(out) | {f"games/{name}": data for name, data in files(games.parent).items()}
    written = outputs._write_manifest
    calls = []

    def full(folder: Path, entries: dict[str, str], replacing: dict[str, str] | None = None) -> None:
        calls.append(folder)
        if len(calls) == failing:
            raise outputs.OutputError(folder / MANIFEST, NO_SPACE)
        written(folder, entries, replacing)

    monkeypatch.setattr(outputs, "_write_manifest", full)
    ran = invoke(*sim("--out", out, "--records", games, seed=2))
    assert_clean(ran)
    assert ran.code == 1, ran.stderr
    assert any(NO_SPACE in line for line in ran.lines), ran.stderr
    assert files(out) | {f"games/{name}": data for name, data in files(games.parent).items()} == before
    monkeypatch.setattr(outputs, "_write_manifest", written)
    assert invoke(*sim("--out", out, "--records", games, seed=2)).code == 0, "the next run replaces them, unasked"


def test_simulate_on_a_full_tmpfs_as_a_subprocess(tmp_path: Path) -> None:
    """The same through the installed command: one clear line, exit 1, the earlier run intact."""
    with tmpfs(tmp_path / "disk", "256k") as disk:
        out = disk / "report"
        assert workbench(*sim("--out", out, "--records", disk / "games.jsonl")).code == 0
        before = files(disk)
        subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'filler'}", "bs=4k"], capture_output=True)
        before_filler = before | {"filler": (disk / "filler").read_bytes()}

        ran = workbench(*sim("--out", out, "--records", disk / "games.jsonl", seed=2, games=20))

        assert_clean(ran)
        assert ran.code == 1
        assert any(line.startswith("cannot write ") and line.endswith(NO_SPACE) for line in ran.lines), ran.stderr
        assert files(disk) == before_filler
        assert leftovers(disk) == []


#: How a write fails: the disk fills during the write, or the data cannot be flushed to it (fsync).
FAILURES = {"write": fill_disk, "fsync": fail_fsync}


@pytest.fixture(params=sorted(FAILURES))
def failure(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    inject = FAILURES[request.param]
    return lambda hits: inject(monkeypatch, hits)


def assert_failed_cleanly(ran: Ran, target: Path) -> None:
    assert_clean(ran)
    assert ran.code == 1, f"exit {ran.code}: {ran.stderr}"
    assert any(line.startswith("cannot write ") and target.name in line and NO_SPACE in line for line in ran.lines), ran.stderr


def test_no_space_for_summary_json_keeps_the_earlier_outputs(tmp_path: Path, failure: Any) -> None:
    out = tmp_path / "report"
    assert invoke(*sim("--out", out, seed=1)).code == 0
    before = files(tmp_path)
    failure(named("summary.json"))

    ran = invoke(*sim("--out", out, seed=2))

    assert_failed_cleanly(ran, out / "summary.json")
    assert files(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_no_space_for_report_html_keeps_the_earlier_outputs_as_a_set(tmp_path: Path, failure: Any) -> None:
    out = tmp_path / "report"
    assert invoke(*sim("--out", out, seed=1)).code == 0
    before = files(tmp_path)
    failure(named("report.html"))

    ran = invoke(*sim("--out", out, seed=2))

    assert_failed_cleanly(ran, out / "report.html")
    assert leftovers(tmp_path) == []
    assert files(tmp_path) == before


def test_no_space_for_records_keeps_the_earlier_records(tmp_path: Path, failure: Any) -> None:
    records = tmp_path / "games.jsonl"
    assert invoke(*sim("--records", records, seed=1)).code == 0
    before = files(tmp_path)
    failure(named("games.jsonl"))

    ran = invoke(*sim("--records", records, seed=2))

    assert_failed_cleanly(ran, records)
    assert files(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_no_space_for_scenario_scripts_keeps_the_earlier_scripts(tmp_path: Path, failure: Any) -> None:
    scripts = tmp_path / "scripts"
    assert invoke(*sim("--record-scenarios", scripts, games=3, seed=1)).code == 0
    before = files(tmp_path)
    failure(lambda path: path.parent.name.startswith(".workbench-staging-"))

    ran = invoke(*sim("--record-scenarios", scripts, games=3, seed=2))

    assert_clean(ran)
    assert ran.code == 1 and NO_SPACE in ran.stderr, ran.stderr
    assert files(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_no_space_for_the_pdf_keeps_the_old_file(tmp_path: Path, failure: Any) -> None:
    pdf = tmp_path / "set.pdf"
    pdf.write_bytes(b"%PDF-1.7 the set I printed last week, with notes\n")
    failure(named("set.pdf"))

    ran = invoke(*printing(pdf, "--force"))

    assert_failed_cleanly(ran, pdf)
    assert pdf.read_bytes() == b"%PDF-1.7 the set I printed last week, with notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.pdf"]


def test_no_space_for_the_proposal_keeps_the_earlier_one(tmp_path: Path, failure: Any) -> None:
    variant = tunable_variant(tmp_path / "variants")
    proposal = tmp_path / "tuning" / "proposal.yaml"
    proposal.parent.mkdir()
    assert invoke(*tune(variant, "--out", proposal)).code == 0
    before = files(tmp_path)
    failure(named("proposal.yaml"))

    ran = invoke(*tune(variant, "--out", proposal, "--seed", 2))

    assert_failed_cleanly(ran, proposal)
    assert files(tmp_path) == before
    assert leftovers(tmp_path) == []


def test_no_space_for_tune_stakes_write_keeps_the_variant_byte_for_byte(tmp_path: Path, failure: Any) -> None:
    variant = tunable_variant(tmp_path / "variants")
    before = variant.read_bytes()
    failure(inside(variant.parent))

    ran = invoke(*tune(variant, "--out", tmp_path / "proposal.yaml", "--write"))

    assert variant.read_bytes() == before, "the variant file is intact"
    assert leftovers(tmp_path) == []
    assert_failed_cleanly(ran, variant)


# --- 2. a kill during a write --------------------------------------------------------------------------------

#: A child that makes every write into a folder slow (small pieces, a pause after each), creates a marker file when
#: the first piece is down, then runs a job: ``write_atomic`` of a big file, or the command line.
SLOW_CHILD = textwrap.dedent(
    """
    import io, builtins, os, sys, time
    from pathlib import Path
    folder, marker, piece, job = Path(sys.argv[1]).resolve(), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    real_open = io.open

    class Slow:
        def __init__(self, handle):
            self.handle = handle
        def write(self, data):
            for start in range(0, len(data), piece):
                self.handle.write(data[start:start + piece])
                self.handle.flush()
                marker.touch()
                time.sleep(0.02)
            return len(data)
        def __getattr__(self, name):
            return getattr(self.handle, name)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.handle.close()

    def where(file):
        if isinstance(file, int):
            return Path(os.readlink(f"/proc/self/fd/{file}"))
        return Path(os.fsdecode(file)).resolve()

    def slow_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        if any(c in mode for c in "wax+") and where(file).parent == folder:
            return Slow(handle)
        return handle

    io.open = builtins.open = slow_open
    if job == "write_atomic":
        from workbench.outputs import write_atomic
        write_atomic(folder / sys.argv[5], os.urandom(int(sys.argv[6])))
        print("finished", flush=True)
    else:
        sys.argv = ["workbench", *sys.argv[5:]]
        from workbench.cli import main
        main()
    """
)


def kill_while_writing(tmp_path: Path, folder: Path, piece: int, *job: Any) -> subprocess.CompletedProcess[str]:
    """Run :data:`SLOW_CHILD`, SIGKILL it a moment after its first slow piece is written; its result."""
    marker = tmp_path / "writing"
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_CHILD, str(folder), str(marker), str(piece), *map(str, job)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + HANG
        while not marker.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                out, err = child.communicate()
                pytest.fail(f"the child never started writing (exit {child.returncode}): {out}\n{err}")
            time.sleep(0.01)
        time.sleep(0.1)  # a few pieces down, many to go
        os.kill(child.pid, signal.SIGKILL)
        out, err = child.communicate(timeout=HANG)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def test_a_kill_during_write_atomic_leaves_the_old_file_intact(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    old = os.urandom(300_000)
    (folder / "big.bin").write_bytes(old)

    done = kill_while_writing(tmp_path, folder, 1 << 16, "write_atomic", "big.bin", 8 << 20)

    assert done.returncode == -signal.SIGKILL and "finished" not in done.stdout, done.stderr
    assert (folder / "big.bin").read_bytes() == old
    partial = [p for p in folder.iterdir() if p.name != "big.bin"]
    assert len(partial) == 1 and partial[0].name.startswith(".big.bin.") and partial[0].name.endswith(".tmp")
    assert 0 < partial[0].stat().st_size < 8 << 20, "the kill came in the middle of the write"


def test_a_kill_during_tune_stakes_write_leaves_the_variant_intact(tmp_path: Path) -> None:
    variant = tunable_variant(tmp_path / "variants")
    before = variant.read_bytes()

    done = kill_while_writing(tmp_path, variant.parent, 64, "cli", *tune(variant, "--out", tmp_path / "proposal.yaml", "--write"))

    assert done.returncode == -signal.SIGKILL, done.stderr
    assert variant.read_bytes() == before, f"the variant is cut: {variant.read_bytes()[-200:]!r}"


# --- 3. a device, a FIFO or a socket as an output ------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A FIFO holding a few bytes (kept open for reading and writing by the test, so nobody blocks on it)."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    handle = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    os.write(handle, b"still here\n")
    yield path, handle
    os.close(handle)


#: (command, option): every output option that takes a file, and the folder of simulate.
FIFO_TARGETS = {
    "simulate --out": lambda p: [*sim("--out", p, games=HUGE)],
    "simulate --records": lambda p: [*sim("--records", p, games=HUGE)],
    "simulate --record-scenarios": lambda p: [*sim("--record-scenarios", p, games=HUGE)],
    "print --out": lambda p: [*printing(p)],
    "tune-stakes --out": lambda p: ["tune-stakes", str(BASE), "--players", "3", "--budget", str(HUGE), "--out", str(p)],
}


@pytest.mark.parametrize("target", sorted(FIFO_TARGETS))
def test_a_fifo_as_an_output_is_refused_at_once_and_not_read(tmp_path: Path, fifo: tuple[Path, int], target: str) -> None:
    path, handle = fifo

    ran = workbench(*FIFO_TARGETS[target](path), cwd=tmp_path, timeout=AT_ONCE)

    line = assert_refused(ran, "pipe")
    assert "FIFO" in line
    assert os.read(handle, 100) == b"still here\n", "nothing was read from the FIFO"
    assert files(tmp_path) == {}


DEVICE_TARGETS = {
    "simulate --out": lambda d: sim("--out", d, games=HUGE),
    "simulate --records": lambda d: sim("--records", d, games=HUGE),
    "print --out": lambda d: printing(Path(d)),
    "tune-stakes --out": lambda d: ["tune-stakes", str(BASE), "--players", "3", "--budget", str(HUGE), "--out", d],
}


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null", "/dev/zero"])
@pytest.mark.parametrize("target", sorted(DEVICE_TARGETS))
def test_a_device_as_an_output_is_refused_at_once(tmp_path: Path, device: str, target: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"{device} does not exist here")
    ran = workbench(*DEVICE_TARGETS[target](device), cwd=tmp_path, timeout=AT_ONCE)

    assert_refused(ran, device, "a device")
    assert files(tmp_path) == {}


def test_a_socket_or_a_folder_as_records_is_refused_at_once(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(tmp_path / "sock"))
        ran = workbench(*sim("--records", tmp_path / "sock", games=HUGE), cwd=tmp_path, timeout=AT_ONCE)
        assert_refused(ran, "sock", "a socket")
    finally:
        server.close()
    (tmp_path / "folder").mkdir()
    ran = workbench(*sim("--records", tmp_path / "folder", games=HUGE), cwd=tmp_path, timeout=AT_ONCE)
    assert_refused(ran, "folder", "found a folder")


# --- 4. a user's file in the way -----------------------------------------------------------------------------

#: What a designer's own file may say: a mention of the tool, a line like a record, the report's generator tag.
USER_TEXTS = {
    "mentions the tool": "# notes on my chance-workbench runs: keep!\n",
    "starts like a record": '{"game": 0, "seed": 1, "note": "my own file"}\n',
    "has the generator tag": '<meta name="generator" content="chance-workbench">\n<p>my notes</p>\n',
}


def targets(tmp_path: Path) -> dict[str, tuple[Path, list[str]]]:
    """Per output: the file in the way and the command (refused before any work) that would write it."""
    out, scripts = tmp_path / "report", tmp_path / "scripts"
    variant = tunable_variant(tmp_path / "variants")
    return {
        "summary.json": (out / "summary.json", sim("--out", out)),
        "report.html": (out / "report.html", sim("--out", out)),
        "--records": (tmp_path / "games.jsonl", sim("--records", tmp_path / "games.jsonl")),
        "print --out": (tmp_path / "set.pdf", printing(tmp_path / "set.pdf")),
        "print --html": (tmp_path / "set.html", printing(tmp_path / "set.pdf", "--html")),
        "tune-stakes --out": (tmp_path / "proposal.yaml", tune(variant, "--out", tmp_path / "proposal.yaml")),
        "tune-stakes page": (tmp_path / "proposal.html", tune(variant, "--out", tmp_path / "proposal.yaml")),
        "scenario script": (scripts / "game-4p-000001.yaml", sim("--record-scenarios", scripts, games=3)),
    }


TARGET_NAMES = sorted(
    [
        "summary.json",
        "report.html",
        "--records",
        "print --out",
        "print --html",
        "tune-stakes --out",
        "tune-stakes page",
        "scenario script",
    ]
)


@pytest.mark.parametrize("text", sorted(USER_TEXTS))
@pytest.mark.parametrize("which", TARGET_NAMES)
def test_a_users_file_in_the_way_is_refused_without_force(tmp_path: Path, which: str, text: str, no_work: None) -> None:
    cases = targets(tmp_path)
    assert sorted(cases) == TARGET_NAMES
    mine, command = cases[which]
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(USER_TEXTS[text])
    before = files(tmp_path)

    ran = invoke(*command)

    assert_refused(ran, mine.name, "--force")
    assert files(tmp_path) == before, "nothing written, nothing removed"


@pytest.mark.parametrize(
    "which", [pytest.param(name, marks=pytest.mark.slow) if name.startswith("print") else name for name in TARGET_NAMES]
)
def test_a_file_in_the_way_is_replaced_with_force_and_an_edited_output_is_refused(tmp_path: Path, which: str) -> None:
    mine, command = targets(tmp_path)[which]
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(USER_TEXTS["mentions the tool"])

    forced = invoke(*command, "--force")
    assert forced.code == 0, forced.stderr
    written = mine.read_bytes()
    assert written != USER_TEXTS["mentions the tool"].encode()
    assert manifest(mine.parent)[mine.name] == sha256(written), "recorded as the workbench's"

    again = invoke(*command)  # its own output is replaced without --force
    assert again.code == 0, again.stderr

    with mine.open("ab") as handle:  # the designer edits what the workbench wrote
        handle.write(b"\n<!-- my edit -->\n")
    edited = mine.read_bytes()
    refused = invoke(*command)
    assert_refused(refused, mine.name, "--force")
    assert mine.read_bytes() == edited

    assert invoke(*command, "--force").code == 0
    assert mine.read_bytes() != edited
    assert leftovers(tmp_path) == []


# --- 5. two runs on one folder -------------------------------------------------------------------------------


def test_a_second_run_replaces_the_first_and_the_manifest_is_exact(tmp_path: Path) -> None:
    out = tmp_path / "report"
    records = out / "games.jsonl"
    first = invoke(*sim("--out", out, "--records", records, games=6, seed=1))
    assert first.code == 0, first.stderr
    assert_manifest_is_exact(out)
    earlier = files(out)

    second = invoke(*sim("--out", out, "--records", records, games=3, seed=2))

    assert second.code == 0, second.stderr
    assert_clean(second)
    assert sorted(files(out)) == sorted([MANIFEST, "summary.json", "report.html", "games.jsonl"])
    assert all(files(out)[name] != earlier[name] for name in ("summary.json", "games.jsonl"))
    assert json.loads((out / "summary.json").read_text())["games"] == 3
    assert len(records.read_text().splitlines()) == 3
    assert_manifest_is_exact(out)
    assert leftovers(tmp_path) == []


def test_recorded_scripts_of_an_earlier_run_go_and_nothing_else_does(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "notes.txt").write_text("what I learnt from game 5\n")
    (scripts / "game-4p-000009.yaml").write_text("# my own script, named like the workbench's\n")
    first = invoke(*sim("--record-scenarios", scripts, games=6))
    assert first.code == 0, first.stderr
    recorded = {f"game-4p-{i:06d}.yaml" for i in range(6)}
    assert set(manifest(scripts)) == recorded
    # The designer edits one of the workbench's scripts; a run of 3 games would remove it as stale.
    edited = scripts / "game-4p-000005.yaml"
    edited.write_text(edited.read_text() + "# my note on this game\n")
    kept = {name: (scripts / name).read_bytes() for name in ("notes.txt", "game-4p-000009.yaml", edited.name)}

    second = invoke(*sim("--record-scenarios", scripts, games=3, seed=2))

    assert second.code == 0, second.stderr
    assert_clean(second)
    ours = {f"game-4p-{i:06d}.yaml" for i in range(3)}
    assert {p.name for p in scripts.iterdir()} == ours | set(kept) | {MANIFEST}
    assert all((scripts / name).read_bytes() == data for name, data in kept.items())
    assert manifest(scripts) == {name: sha256((scripts / name).read_bytes()) for name in ours}
    assert "game-4p-000005.yaml" in second.stderr and "changed since" in second.stderr
    assert leftovers(tmp_path) == []

    # The edited script is the designer's now: a run that would write it again asks for --force.
    third = invoke(*sim("--record-scenarios", scripts, games=6))
    assert_refused(third, "game-4p-000005.yaml", "--force")
    assert edited.read_bytes() == kept[edited.name]


# --- 6. read-only folders, missing parents, collisions: refused before any game ------------------------------


def ro_commands(folder: Path, elsewhere: Path) -> dict[str, list[str]]:
    return {
        "simulate --out FOLDER": sim("--out", folder, games=HUGE),
        "simulate --out FOLDER/new": sim("--out", folder / "new", games=HUGE),
        "simulate --records": sim("--records", folder / "games.jsonl", games=HUGE),
        "simulate --record-scenarios FOLDER": sim("--record-scenarios", folder, games=HUGE),
        "simulate --record-scenarios FOLDER/new": sim("--record-scenarios", folder / "new", games=HUGE),
        "print --out": printing(folder / "set.pdf"),
        "tune-stakes --out": tune(BASE, "--out", folder / "proposal.yaml", budget=HUGE),
        "tune-stakes --write": tune(folder / "variant.yaml", "--out", elsewhere / "p.yaml", "--write", budget=HUGE),
    }


@pytest.mark.parametrize("which", sorted(ro_commands(Path(), Path())))
def test_a_read_only_folder_is_refused_before_any_game(tmp_path: Path, which: str) -> None:
    folder, elsewhere = tmp_path / "locked", tmp_path / "elsewhere"
    tunable_variant(folder)
    elsewhere.mkdir()
    before = files(tmp_path)
    with read_only(folder):
        ran = workbench(*ro_commands(folder, elsewhere)[which], cwd=tmp_path, timeout=AT_ONCE)
    assert_refused(ran, "locked")
    assert files(tmp_path) == before


MISSING = {
    "simulate --out": lambda m: sim("--out", m / "report", games=HUGE),
    "simulate --records": lambda m: sim("--records", m / "games.jsonl", "--out", m.parent.parent / "report", games=HUGE),
    "simulate --records, default --out": lambda m: sim("--records", m / "games.jsonl", games=HUGE),
    "simulate --record-scenarios": lambda m: sim("--record-scenarios", m / "scripts", games=HUGE),
    "print --out": lambda m: printing(m / "set.pdf"),
    "tune-stakes --out": lambda m: tune(BASE, "--out", m / "proposal.yaml", budget=HUGE),
}


@pytest.mark.parametrize("which", sorted(MISSING))
def test_a_missing_parent_folder_is_refused_before_any_game(tmp_path: Path, which: str, no_work: None) -> None:
    missing = tmp_path / "not-made-yet" / "deeper"
    ran = invoke(*MISSING[which](missing))
    assert_refused(ran, "not-made-yet", "does not exist")
    assert not (tmp_path / "not-made-yet").exists(), "the missing folders are not made"
    assert files(tmp_path) == {}


@pytest.mark.parametrize("which", sorted(MISSING))
def test_a_missing_parent_folder_is_refused_at_once_in_a_subprocess(tmp_path: Path, which: str) -> None:
    missing = tmp_path / "not-made-yet" / "deeper"
    ran = workbench(*MISSING[which](missing), cwd=tmp_path, timeout=AT_ONCE)
    assert_refused(ran, "not-made-yet", "does not exist")
    assert not (tmp_path / "not-made-yet").exists(), "the missing folders are not made"


def collisions(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    """Two options naming one file: the command and a word the refusal must name."""
    out, scripts = tmp_path / "report", tmp_path / "scripts"
    link = tmp_path / "link.jsonl"
    return {
        "--records = --out/summary.json": (sim("--out", out, "--records", out / "summary.json"), "names the same file"),
        "--records = --out/report.html": (sim("--out", out, "--records", out / "report.html"), "names the same file"),
        "--records = a symlink to summary.json": (sim("--out", out, "--records", link), "names the same file"),
        "--records = the manifest": (sim("--out", out, "--records", out / MANIFEST), "record of its outputs"),
        "--records = a script in --record-scenarios": (
            sim("--record-scenarios", scripts, "--records", scripts / "game-4p-000001.yaml"),
            "--record-scenarios",
        ),
        "--records = a script this run would not write": (
            sim("--record-scenarios", scripts, "--records", scripts / "game-3p-999999.yaml"),
            "--record-scenarios",
        ),
    }


@pytest.mark.parametrize("which", sorted(collisions(Path())))
def test_two_options_naming_one_file_are_refused_before_any_game(tmp_path: Path, which: str, no_work: None) -> None:
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "report" / "summary.json")
    command, words = collisions(tmp_path)[which]
    assert_refused(invoke(*command), words)
    assert not (tmp_path / "report" / "summary.json").exists()


def test_a_collision_is_also_refused_in_a_subprocess_with_a_huge_run(tmp_path: Path) -> None:
    out = tmp_path / "report"
    ran = workbench(*sim("--out", out, "--records", out / "summary.json", games=HUGE), cwd=tmp_path, timeout=AT_ONCE)
    assert_refused(ran, "summary.json", "--out")


def test_records_and_record_scenarios_naming_one_new_path_are_refused(tmp_path: Path, no_work: None) -> None:
    ran = invoke(*sim("--records", tmp_path / "x", "--record-scenarios", tmp_path / "x"))
    assert_refused(ran, "x")


def test_tune_stakes_out_naming_the_variant_it_writes_is_refused_even_with_force(tmp_path: Path) -> None:
    variant = tunable_variant(tmp_path)
    before = variant.read_bytes()
    ran = invoke(*tune(variant, "--out", variant, "--write", "--force"))
    assert variant.read_bytes() == before, "the variant file is intact"
    assert_refused(ran, "variant.yaml")


def inputs_as_outputs(tmp_path: Path) -> dict[str, tuple[list[str], Path]]:
    """An input file named as an output: the command (with --force) and the input that must stay as it is."""
    variant = tunable_variant(tmp_path / "v")
    personas = tmp_path / "personas.yaml"
    personas.write_text("bots: {careful: {policy: heuristic, min_hearts: 5}}\n")
    summary_named = tunable_variant(tmp_path / "odd", "summary.json")
    script_named = tunable_variant(tmp_path / "scripts", "game-4p-000001.yaml")
    quick = ["--games", str(HUGE), "--bots", "random", "--workers", "1", "--force"]
    return {
        "simulate --records VARIANT": (["simulate", str(variant), *quick, "--records", str(variant)], variant),
        "simulate --records PERSONAS": (
            ["simulate", str(variant), *quick, "--personas", str(personas), "--records", str(personas)],
            personas,
        ),
        "simulate --out (the variant is summary.json)": (
            ["simulate", str(summary_named), *quick, "--out", str(summary_named.parent)],
            summary_named,
        ),
        "simulate --record-scenarios (the variant is named like a script)": (
            ["simulate", str(script_named), *quick, "--record-scenarios", str(script_named.parent)],
            script_named,
        ),
        "print --out VARIANT": (["print", str(variant), "--out", str(variant), "--force"], variant),
        "tune-stakes --out VARIANT": ([*tune(variant, "--out", variant, "--force", budget=HUGE)], variant),
    }


INPUTS_AS_OUTPUTS = [
    "simulate --records VARIANT",
    "simulate --records PERSONAS",
    "simulate --out (the variant is summary.json)",
    "simulate --record-scenarios (the variant is named like a script)",
    "print --out VARIANT",
    "tune-stakes --out VARIANT",
]


@pytest.mark.parametrize("which", INPUTS_AS_OUTPUTS)
def test_an_input_is_never_an_output_even_with_force(tmp_path: Path, which: str, no_work: None) -> None:
    cases = inputs_as_outputs(tmp_path)
    assert sorted(cases) == sorted(INPUTS_AS_OUTPUTS)
    command, kept = cases[which]
    before = files(tmp_path)
    assert_refused(invoke(*command), kept.name)
    assert files(tmp_path) == before


def test_the_library_checks_before_it_plays_too(tmp_path: Path, no_work: None) -> None:
    """``api.simulate`` (the notebook's way in) refuses the same things as the command, with the same errors."""
    from workbench.errors import UsageError

    with pytest.raises(UsageError, match="names the same file"):
        api.simulate(BASE, games=HUGE, out=tmp_path / "o", records=tmp_path / "o" / "summary.json")
    with pytest.raises(UsageError, match="does not exist"):
        api.simulate(BASE, games=HUGE, records=tmp_path / "missing" / "games.jsonl")
    with pytest.raises(UsageError, match="a device"):
        api.print_set(BASE, "/dev/full")


def test_write_atomic_into_a_missing_folder_is_an_output_error(tmp_path: Path) -> None:
    from workbench.outputs import OutputError

    with pytest.raises(OutputError, match="No such file or directory"):
        write_atomic(tmp_path / "gone" / "x.json", "{}")
    assert list(tmp_path.iterdir()) == []


# --- a refused command leaves nothing behind -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--records", "same.jsonl", "--record-scenarios", "same.jsonl"], ("same.jsonl", "--record-scenarios", "as a folder")),
        (["--out", "z2", "--records", "z2"], ("z2", "--out", "as a folder")),
        (["--out", "x9", "--record-scenarios", "x9s", "--records", "missing/games.jsonl"], ("missing", "does not exist")),
    ],
)
def test_a_refused_run_makes_no_folder(tmp_path: Path, options: list[str], words: tuple[str, ...], no_work: None) -> None:
    assert_refused(invoke(*sim(*options, games=HUGE)), *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == [], "no folder made for a run that never started"


def test_a_file_named_as_an_output_folder_is_called_a_file(tmp_path: Path, no_work: None) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    for option in ("--out", "--record-scenarios"):
        line = assert_refused(invoke(*sim(option, "notes.txt", games=HUGE)), "notes.txt")
        assert line.endswith("expected a folder, found a file"), line
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


# --- found by review: paths that look missing, odd things in the way, changes during the run --------------------


def test_a_path_through_a_missing_folder_is_checked_where_it_really_points(tmp_path: Path, no_work: None) -> None:
    (tmp_path / "dd").mkdir()
    (tmp_path / "dd" / "notes.txt").write_text("mine\n")
    line = assert_refused(invoke(*sim("--records", "dd/nosuchdir/../notes.txt", games=HUGE)), "notes.txt")
    assert "not written by the workbench" in line
    assert assert_refused(invoke(*printing(Path("dd/x/../notes.txt")))).endswith("add --force to replace it")
    assert (tmp_path / "dd" / "notes.txt").read_text() == "mine\n"


def test_a_refused_default_output_is_said_as_the_default_not_as_an_option_typed(tmp_path: Path, no_work: None) -> None:
    """``simulate VARIANT`` without ``--out``, a file of the user's at the default place: the line names the path as
    the option's default (it said ``--out reports/...``, an option the user never typed)."""
    default = tmp_path / "reports" / BASE.stem
    default.mkdir(parents=True)
    (default / "report.html").write_text("mine\n")
    line = assert_refused(invoke("simulate", BASE, "--games", "5"))
    assert line == (
        f"{display_path(default / 'report.html')} (the default of --out): this file exists and was not written by the "
        "workbench (or was changed since); add --force to replace it"
    )
    typed = assert_refused(invoke("simulate", BASE, "--games", "5", "--out", default))
    assert typed.startswith(f"--out {display_path(default / 'report.html')}: this file exists")
    assert (default / "report.html").read_text() == "mine\n"


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_anything_but_a_file_named_like_a_script_is_refused_even_with_force(tmp_path: Path, kind: str, no_work: None) -> None:
    scripts = tmp_path / "sc"
    scripts.mkdir()
    odd = scripts / "game-4p-000001.yaml"
    odd.mkdir() if kind == "folder" else os.mkfifo(odd)
    line = assert_refused(invoke(*sim("--record-scenarios", scripts, "--force", games=HUGE)), "game-4p-000001.yaml")
    assert "expected a file, found a" in line


def test_a_manifest_that_is_not_a_file_is_refused_before_any_game(tmp_path: Path, no_work: None) -> None:
    (tmp_path / "out" / MANIFEST).mkdir(parents=True)
    assert "keeps its record of outputs here" in assert_refused(invoke(*sim("--out", tmp_path / "out", games=HUGE)))


def test_a_symlink_loop_as_an_output_is_one_line(tmp_path: Path, no_work: None) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for option in ("--out", "--records", "--record-scenarios"):
        assert "cannot use this path" in assert_refused(invoke(*sim(option, tmp_path / "loop", games=HUGE)))


def test_force_never_writes_through_a_link_out_of_the_named_folder(tmp_path: Path, no_work: None) -> None:
    """A file the workbench names in --out (summary.json) that is a link to a file elsewhere is refused, even with
    --force, and the file it points to stays as it is; a link within the folder is an ordinary output."""
    out, elsewhere = tmp_path / "out", tmp_path / "notes.txt"
    out.mkdir()
    elsewhere.write_text("the designer's notes\n")
    (out / "summary.json").symlink_to(elsewhere)
    for force in ([], ["--force"]):
        line = assert_refused(invoke(*sim("--out", out, *force, games=HUGE)))
        assert line == (  # paths said from the working folder, the test's
            "--out out/summary.json: a link to notes.txt, out of the folder out: the workbench writes no file through "
            "it, even with --force (remove the link)"
        )
    assert elsewhere.read_text() == "the designer's notes\n"


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path: Path, no_work: None) -> None:
    """A name longer than the file system allows (255 bytes here) is refused with its option, not an internal error."""
    for option in ("--out", "--records", "--record-scenarios"):
        line = assert_refused(invoke(*sim(option, tmp_path / ("a" * 300), games=HUGE)))
        assert line.startswith(f"{option} ") and line.endswith("cannot use this path (File name too long)"), line
    assert list(tmp_path.iterdir()) == []


def test_a_path_under_a_file_names_its_option(tmp_path: Path, no_work: None) -> None:
    (tmp_path / "afile").write_text("mine\n")
    for option, name in (("--out", "x"), ("--records", "x.jsonl"), ("--record-scenarios", "x")):
        line = assert_refused(invoke(*sim(option, tmp_path / "afile" / name, games=HUGE)))
        assert line.startswith(f"{option} ") and line.endswith("cannot use this path (Not a directory)"), line
    assert (tmp_path / "afile").read_text() == "mine\n"


def test_an_output_edited_during_the_run_is_not_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "race"
    assert invoke(*sim("--out", out, seed=1)).code == 0
    real = runs.run

    def edit_meanwhile(*args: Any, **kwargs: Any) -> Any:
        (out / "summary.json").write_text('{"edited": "by the designer while the games ran"}\n')
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "run", edit_meanwhile)
    before = files(tmp_path)
    ran = invoke(*sim("--out", out, seed=2))
    assert ran.code == 1 and "summary.json changed while the command ran; nothing was written" in ran.stderr
    edited = {**before, "race/summary.json": b'{"edited": "by the designer while the games ran"}\n'}
    assert files(tmp_path) == edited and leftovers(tmp_path) == []


@pytest.mark.parametrize("option", ["--out", "--records", "--record-scenarios"])
def test_an_output_folder_swapped_for_a_link_during_the_run_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """The folder checked before the games is the one written into: one replaced by a link meanwhile (here to a
    folder elsewhere) is said in one line, and nothing is written on either side of the link."""
    folder, elsewhere = tmp_path / "named", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    target = folder / "games.jsonl" if option == "--records" else folder
    real = runs.run

    def swap_meanwhile(*args: Any, **kwargs: Any) -> Any:
        folder.rename(tmp_path / "moved")
        folder.symlink_to(elsewhere)
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "run", swap_meanwhile)
    ran = invoke(*sim(option, target))
    line = ran.stderr.splitlines()[-1]
    assert ran.code == 1 and "Traceback" not in ran.stderr
    assert (
        line.startswith(f"{option} {display_name(folder)}: ")  # the folder as named, not where the link leads
        and "was replaced by a link (to " in line
        and "since the run started; nothing was written" in line
    ), line
    assert files(elsewhere) == {} and files(tmp_path / "moved") == {}


def test_every_file_a_variant_is_made_of_is_an_input_even_with_force(tmp_path: Path, no_work: None) -> None:
    variant = tmp_path / "short.yaml"
    variant.write_text(f"extends: {BASE}\nname: Short\nend: {{stars: 12}}\n")
    cards = BASE.parent.parent / "cards" / "chance-it-market.yaml"
    for source in (BASE, cards):
        before = source.read_bytes()
        ran = invoke("simulate", variant, "--games", HUGE, "--records", source, "--force")
        assert "the input" in assert_refused(ran, source.name)
        assert source.read_bytes() == before


def test_a_manifest_nested_thousands_deep_is_treated_as_unreadable(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).write_text("[" * 100_000 + "]" * 100_000)
    assert read_manifest(tmp_path) == {}


def test_a_run_that_writes_nothing_leaves_no_folder_it_made(tmp_path: Path) -> None:
    stop = Stop()
    stop.request()  # stopped before the first game: nothing to write
    result = api.simulate(BASE, games=10, out=tmp_path / "new" / "deeper", create_out=True, stop=stop)
    assert result.written == [] and not (tmp_path / "new").exists()
    done = api.simulate(BASE, games=10, out=tmp_path / "new" / "deeper", create_out=True)
    assert (tmp_path / "new" / "deeper" / "summary.json") in done.written  # a folder that holds outputs stays


def test_write_atomic_leaves_a_file_that_changed_since_its_version(tmp_path: Path) -> None:
    from workbench.outputs import FileChanged, sha256_of

    target = tmp_path / "variant.yaml"
    target.write_text("name: first\n")
    seen = sha256_of(target)
    target.write_text("name: changed by another editor\n")
    with pytest.raises(FileChanged):
        write_atomic(target, "name: mine\n", still=seen)
    assert target.read_text() == "name: changed by another editor\n"
    assert [p.name for p in tmp_path.iterdir()] == ["variant.yaml"]
    write_atomic(target, "name: mine\n", still=sha256_of(target))
    assert target.read_text() == "name: mine\n"


def test_those_listening_hear_each_result_as_it_stands_and_never_a_manifest(tmp_path: Path) -> None:
    """The command line learns from :func:`outputs.told` the instant its results are in place: each set once it is
    whole, named as the caller named it (the scripts folder too), a single atomic write once it is in place; never a
    manifest, which goes first, before the results it lists."""
    heard: list[list[Path]] = []

    def listener(placed: list[Path]) -> None:
        assert all(path.exists() for path in placed), "told only once in place"
        heard.append(placed)

    pattern = re.compile(r"game-\d+\.yaml")
    with outputs.told(listener), outputs.Outputs() as out:
        summary = out.file(tmp_path / "summary.json", "out")
        scripts = out.scripts(tmp_path / "scripts", "record_scenarios", pattern=pattern, names=pattern.fullmatch)
        out.ready()
        out.stage(summary, "{}")
        scripts.add("game-1.yaml", "seed: 1\n")
        assert heard == []
        out.commit()
        write_atomic(tmp_path / "variant.yaml", "name: x\n")
    write_atomic(tmp_path / "after.yaml", "name: y\n")  # no longer listening
    assert heard == [[tmp_path / "summary.json", tmp_path / "scripts"], [tmp_path / "variant.yaml"]]
    assert (tmp_path / MANIFEST).is_file() and (tmp_path / "scripts" / MANIFEST).is_file()
