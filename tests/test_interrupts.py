"""Interruptions of ``workbench simulate --workers 2`` (issue 9): Ctrl-C once, twice or in a storm, SIGTERM to the
command or to its whole process group, and SIGKILL.

Each run is a real subprocess in its own process group (as a shell starts a job), with
``--records``, ``--record-scenarios`` and ``--out``. A signal is sent once games have
finished (the records' temporary file has lines in it). What must hold after a stop:
exit 130; ``summary.json`` marked ``"interrupted": true`` with a game count n; the records
file with exactly games 0..n-1; exactly the n scripts of those games; a report that says
so; no traceback, no "internal error", no temporary file or staging folder, no process
left. A SIGKILL cannot be handled: the previous run's outputs must then be untouched.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from output_helpers import BASE, HANG, MANIFEST, ROOT, Ran, assert_clean, assert_manifest_is_exact, files, leftovers, spawn

from workbench import api
from workbench.games import FAMILIES
from workbench.runs import LATE_STOP
from workbench.sim.runner import Stop, signals_held

pytestmark = pytest.mark.slow

#: Random bots keep scripted games quick; 800 games in chunks of 50 take far longer than the wait for the first chunks.
GAMES = 800


@dataclass
class Job:
    """A simulate run in its own process group, and where it writes."""

    process: subprocess.Popen[str]
    folder: Path
    games: int

    @property
    def out(self) -> Path:
        return self.folder / "report"

    @property
    def records(self) -> Path:
        return self.folder / "games.jsonl"

    @property
    def scripts(self) -> Path:
        return self.folder / "scripts"

    def started_records(self) -> list[str]:
        """The whole lines in the records' temporary file so far (the run writes there until it ends; a line being
        written, without its end yet, is not one)."""
        lines: list[str] = []
        for path in self.folder.glob(".games.jsonl.*.tmp"):
            with contextlib.suppress(OSError):  # replaced by the real file at that moment
                text = path.read_text()
                lines += text[: text.rfind("\n") + 1].splitlines()
        return lines

    def wait_for_games(self, enough: Callable[[list[str]], bool] = bool, timeout: float = HANG) -> None:
        """Wait until the run has finished some games (``enough`` of the records' lines)."""
        deadline = time.monotonic() + timeout
        while not enough(self.started_records()):
            if self.process.poll() is not None:
                out, err = self.process.communicate()
                pytest.fail(f"the run ended before the signal (exit {self.process.returncode}):\n{out}\n{err}")
            if time.monotonic() > deadline:
                pytest.fail(f"no game finished within {timeout:.0f} s")
            time.sleep(0.02)

    def signal(self, signum: int, *, group: bool = False) -> None:
        if group:
            os.killpg(self.process.pid, signum)
        else:
            self.process.send_signal(signum)

    def finish(self, timeout: float = HANG) -> Ran:
        """Wait for the end; a run still going after ``timeout`` fails the test (and is killed)."""
        started = time.monotonic()
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            out, err = self.process.communicate()
            pytest.fail(f"the run did not stop within {timeout:.0f} s of the signal:\n{err[-3000:]}")
        return Ran(self.process.returncode, out, err, time.monotonic() - started)

    def group_is_gone(self, timeout: float = HANG) -> bool:
        """Whether every process of the run's group (the workers too) has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return True
            time.sleep(0.05)
        return False


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Job]]:
    """Start ``simulate`` runs writing into ``tmp_path``; any still running at the end are killed."""
    jobs: list[Job] = []

    def starter(*extra: str, games: int = GAMES, bots: str = "random", scripts: bool = True) -> Job:
        folder = tmp_path
        args = ["simulate", str(BASE), "--games", str(games), "--workers", "2", "--bots", bots, "--seed", "7"]
        args += ["--records", str(folder / "games.jsonl"), "--out", str(folder / "report")]
        if scripts:
            args += ["--record-scenarios", str(folder / "scripts")]
        job = Job(spawn(*args, *extra, cwd=tmp_path), folder, games)
        jobs.append(job)
        return job

    yield starter
    for job in jobs:
        if job.process.poll() is None:
            os.killpg(job.process.pid, signal.SIGKILL)
            job.process.communicate()
        with contextlib.suppress(ProcessLookupError):  # workers orphaned by a killed run
            os.killpg(job.process.pid, signal.SIGKILL)


def assert_consistent_and_interrupted(job: Job, ran: Ran, *, scripts: bool = True, storm: bool = False) -> int:
    """Exit 130 and outputs that all describe the same first n games (n > 0); returns n.

    In a ``storm`` of signals, the last one may land after the command has restored the default handlers (at the
    latest, Python's own shutdown does): the process then ends by SIGINT, which a shell shows as 130 too, and the
    lines it had still to print may be lost; the outputs must be whole all the same.
    """
    assert_clean(ran)
    assert ran.code == 130 or (storm and ran.code == -signal.SIGINT), f"exit {ran.code}\n{ran.stderr[-3000:]}"
    summary = json.loads((job.out / "summary.json").read_text())
    assert summary["interrupted"] is True
    n = summary["games"]
    assert 0 < n < job.games
    records = [json.loads(line) for line in job.records.read_text().splitlines()]
    assert [r["game"] for r in records] == list(range(n)), "the records are exactly the games the summary counts"
    assert all(r["players"] == 4 for r in records)
    if scripts:
        names = {p.name for p in job.scripts.iterdir()} - {MANIFEST}
        assert names == {f"game-4p-{i:06d}.yaml" for i in range(n)}, "exactly the scripts of those games"
        assert_manifest_is_exact(job.scripts)
    report = (job.out / "report.html").read_text()
    assert "Interrupted" in report and f"only the {n} games" in report.replace(",", "")
    assert storm or f"interrupted: the outputs hold the {n:,} games that finished" in ran.stderr
    assert_manifest_is_exact(job.out)
    assert leftovers(job.folder) == []
    assert job.group_is_gone(), "a worker outlived the run"
    return n


# --- stops that the run handles --------------------------------------------------------------------------------


def test_ctrl_c_twice_at_the_terminal(start: Callable[..., Job]) -> None:
    """A terminal sends Ctrl-C to the whole foreground group: the command and its workers."""
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGINT, group=True)
    time.sleep(0.05)
    job.signal(signal.SIGINT, group=True)
    assert_consistent_and_interrupted(job, job.finish())


def test_sigint_twice_to_the_command_only(start: Callable[..., Job]) -> None:
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGINT)
    time.sleep(0.01)
    job.signal(signal.SIGINT)
    assert_consistent_and_interrupted(job, job.finish())


@pytest.mark.parametrize("every", [0.005, 0.03], ids=["200 per s", "key repeat"])
def test_ctrl_c_held_down_until_it_exits(start: Callable[..., Job], every: float) -> None:
    """Signals keep coming through the stop, the clean-up, the writing of every output and the exit."""
    job = start()
    job.wait_for_games()
    while job.process.poll() is None:
        try:
            job.signal(signal.SIGINT, group=True)
        except ProcessLookupError:
            break
        time.sleep(every)
    assert_consistent_and_interrupted(job, job.finish(), storm=True)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_on_the_dask_backend_keeps_what_finished(start: Callable[..., Job], signum: int) -> None:
    """Ctrl-C at the terminal (or SIGTERM to the group) reaches the LocalCluster's processes too: the unfinished
    chunks are cancelled, the finished games kept, and the cluster ends with the command (issue 14)."""
    pytest.importorskip("distributed", reason="the Dask backend needs the extra: pip install -e '.[dask]'")
    job = start("--backend", "dask")
    job.wait_for_games()
    job.signal(signum, group=True)
    assert_consistent_and_interrupted(job, job.finish())


def test_sigterm_to_the_command(start: Callable[..., Job]) -> None:
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGTERM)
    assert_consistent_and_interrupted(job, job.finish())


def test_sigterm_to_the_whole_process_group(start: Callable[..., Job]) -> None:
    """What a service manager or ``kill -TERM -PGID`` does: the workers die at once, the command still stops cleanly."""
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGTERM, group=True)
    assert_consistent_and_interrupted(job, job.finish())


def test_the_long_run_of_the_issue_interrupted_twice(start: Callable[..., Job]) -> None:
    """The command of the issue: 200,000 games with the default bots, records and report, Ctrl-C twice."""
    job = start(games=200_000, bots="heuristic", scripts=False)
    job.wait_for_games()
    job.signal(signal.SIGINT, group=True)
    time.sleep(0.05)
    job.signal(signal.SIGINT, group=True)
    assert_consistent_and_interrupted(job, job.finish(), scripts=False)


def test_an_interruption_in_the_second_player_count(start: Callable[..., Job]) -> None:
    """With --players 3,4 stopped during the 4-player games: every 3-player game, then a prefix of the 4-player ones."""
    job = start("--players", "3,4", games=200)
    job.wait_for_games(lambda lines: any(json.loads(line)["players"] == 4 for line in lines))
    job.signal(signal.SIGINT, group=True)
    ran = job.finish()

    assert_clean(ran)
    assert ran.code == 130, ran.stderr[-3000:]
    summary = json.loads((job.out / "summary.json").read_text())
    three, four = summary["runs"]
    assert (three["players"], three["games"], three["interrupted"]) == (3, 200, False)
    assert four["players"] == 4 and four["interrupted"] is True and 0 < four["games"] < 200
    n = four["games"]
    records = [json.loads(line) for line in job.records.read_text().splitlines()]
    assert [(r["players"], r["game"]) for r in records] == [(3, i) for i in range(200)] + [(4, i) for i in range(n)]
    names = {p.name for p in job.scripts.iterdir()} - {MANIFEST}
    assert names == {f"game-3p-{i:06d}.yaml" for i in range(200)} | {f"game-4p-{i:06d}.yaml" for i in range(n)}
    assert leftovers(job.folder) == []
    assert job.group_is_gone()


def test_a_stop_before_any_game_finished_keeps_the_previous_outputs(start: Callable[..., Job]) -> None:
    before = earlier_run(start)
    job = start()
    deadline = time.monotonic() + HANG
    while not list(job.folder.glob(".games.jsonl.*.tmp")):  # the run has begun: its records file is open
        if job.process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the run never began: {job.process.poll()}")
        time.sleep(0.005)
    job.signal(signal.SIGINT, group=True)
    ran = job.finish()

    assert_clean(ran)
    assert ran.code == 130, ran.stderr[-3000:]
    assert files(job.folder) == before, "nothing finished, so nothing replaced"


#: A child started as ``workbench ... &`` in a script starts it (SIGINT and SIGTERM ignored) that sends itself the
#: signal in the first moment the command line runs, before anything of it is imported.
SIGNAL_AT_THE_START = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
import workbench.cli

def command_line():
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    raise SystemExit("the signal was ignored")

workbench.cli.main = command_line
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_command_started_with_the_signals_ignored_stops_from_its_first_moment(signum: str) -> None:
    child = subprocess.run([sys.executable, "-c", SIGNAL_AT_THE_START, signum], capture_output=True, text=True, timeout=HANG)
    assert (child.returncode, child.stderr) == (130, "interrupted\n"), "stopped, and said so, as at any other moment"


#: A child that runs the command line and sends itself a signal right after ``os.replace`` (or ``os.link``) put one named
#: file in place:
#: a Ctrl-C (or SIGTERM) that lands while a finished run commits its outputs.
SIGNAL_DURING_COMMIT = """
import os, signal, sys
trigger, signum = sys.argv[1], getattr(signal, sys.argv[2])

def signalling(real):  # os.replace puts an output in place; os.link a file written only if it is unchanged
    def named(source, target, *args, **kwargs):
        real(source, target, *args, **kwargs)
        if os.path.basename(os.fspath(target)) == trigger:
            os.kill(os.getpid(), signum)
    return named

os.replace, os.link = signalling(os.replace), signalling(os.link)
sys.argv = ["workbench", *sys.argv[3:]]
from workbench.cli import main
main()
"""


def a_finished_run(folder: Path) -> tuple[Path, Path, Path, list[str]]:
    """A run of 5 games (seed 1) with every kind of output in ``folder``: its summary folder, records file, scripts
    folder, and its command without the seed (the next run's, with another)."""
    out, records, scripts = folder / "report", folder / "games.jsonl", folder / "scripts"
    args = ["simulate", str(BASE), "--games", "5", "--workers", "1", "--bots", "random"]
    args += ["--out", str(out), "--records", str(records), "--record-scenarios", str(scripts)]
    first = subprocess.run([sys.executable, "-m", "workbench", *args, "--seed", "1"], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    return out, records, scripts, args


@pytest.mark.parametrize(
    ("trigger", "signum"),
    [
        (MANIFEST, "SIGINT"),  # the manifests go first
        ("summary.json", "SIGTERM"),
        ("report.html", "SIGINT"),
        ("games.jsonl", "SIGTERM"),
        ("game-4p-000004.yaml", "SIGINT"),  # the last script moved in
    ],
)
def test_a_signal_at_each_step_of_the_final_commit_lets_it_finish_and_says_so(tmp_path: Path, trigger: str, signum: str) -> None:
    """The games are over and the outputs are going in place when the signal comes (right after one of them is renamed
    into place): the whole set goes in, each file listed in its manifest (so that the next run replaces them without
    --force), and the command says the results were written before it heard the signal, as a finished run (exit 0)."""
    out, records, scripts, args = a_finished_run(tmp_path)

    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_DURING_COMMIT, trigger, signum, *args, "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )

    assert child.returncode == 0, f"exit {child.returncode}: {child.stderr}"
    assert "Traceback" not in child.stderr and "interrupted" not in child.stderr, child.stderr
    assert LATE_STOP in child.stdout, child.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["seed"], summary["games"]) == (2, 5), "the second run's outputs, whole"
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert [(r["seed"], r["game"]) for r in lines] == [(2, i) for i in range(5)]
    assert {p.name for p in scripts.iterdir()} - {MANIFEST} == {f"game-4p-{i:06d}.yaml" for i in range(5)}
    for folder in (out, scripts, tmp_path):
        assert_manifest_is_exact(folder)
    assert leftovers(tmp_path) == []
    again = subprocess.run([sys.executable, "-m", "workbench", *args, "--seed", "3"], capture_output=True, text=True)
    assert again.returncode == 0, f"the next run is refused: {again.stderr}"


#: A child that runs the command line and sends itself a signal as it starts printing the results' table (the run's
#: outputs are written by then).
SIGNAL_WHILE_PRINTING = """
import os, signal, sys
import workbench.cli as cli
real, signum = cli._print_table, getattr(signal, sys.argv[1])

def print_table(*args, **kwargs):
    os.kill(os.getpid(), signum)
    real(*args, **kwargs)

cli._print_table = print_table
sys.argv = ["workbench", *sys.argv[2:]]
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_while_the_results_are_printed_is_said_and_the_command_ends_as_finished(tmp_path: Path, signum: str) -> None:
    """The results are written; the signal comes as the table is printed: the command prints it all, says it heard
    the signal and ends as finished (it ended with 130 and nothing said, the outputs complete)."""
    args = ["simulate", str(BASE), "--games", "5", "--workers", "1", "--bots", "random", "--out", str(tmp_path / "out")]
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_PRINTING, signum, *args], capture_output=True, text=True, timeout=HANG
    )
    assert child.returncode == 0, f"exit {child.returncode}: {child.stderr}"
    assert child.stdout.rstrip().endswith(LATE_STOP) and "wrote " in child.stdout, child.stdout
    assert "interrupted" not in child.stderr
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["games"] == 5


#: Linux's fcntl to set a pipe's capacity: one page here, so that the table fills it.
F_SETPIPE_SZ = 1031


def blocked_writing(pid: int) -> bool:
    """Whether the process waits in the system for room in a full pipe (Linux)."""
    with contextlib.suppress(OSError):
        return "pipe_write" in Path(f"/proc/{pid}/wchan").read_text()
    return False


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="Linux: where a process waits")
def test_an_unbuffered_table_held_up_by_a_slow_reader_comes_out_whole_after_a_signal(tmp_path: Path) -> None:
    """With ``PYTHONUNBUFFERED`` set, a signal received while a write waits for a slow reader cut the write short, and
    Python dropped the rest of it: the table came out with a hole. The command now prints all of it, then says so."""
    args = ["simulate", str(BASE), "--games", "5", "--workers", "1", "--bots", "random", "--players", "3,4,5,6"]
    whole = subprocess.run(
        [sys.executable, "-m", "workbench", *args, "--out", str(tmp_path / "once")], capture_output=True, text=True
    )
    assert whole.returncode == 0, whole.stderr
    reading, writing = os.pipe()
    fcntl.fcntl(writing, F_SETPIPE_SZ, 4096)
    assert len(whole.stdout) > 4096, "the table must not fit in the pipe"
    child = subprocess.Popen(
        [sys.executable, "-m", "workbench", *args, "--out", str(tmp_path / "again")],
        stdout=writing,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    os.close(writing)
    deadline = time.monotonic() + HANG
    while not blocked_writing(child.pid):
        assert child.poll() is None and time.monotonic() < deadline, "the child never waited for the reader"
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    with os.fdopen(reading, encoding="utf-8") as pipe:
        printed = pipe.read()
    assert child.wait(timeout=HANG) == 0
    assert printed == whole.stdout.replace("once", "again") + LATE_STOP + "\n"


@pytest.mark.parametrize("trigger", ["summary.json", "game-4p-000002.yaml"])
def test_a_run_killed_in_the_middle_of_its_commit_leaves_files_the_next_run_replaces(tmp_path: Path, trigger: str) -> None:
    """``kill -9`` between two renames of the final commit (after summary.json, before report.html; after the third
    script): the folder holds some files of each run, and the next run, without --force, replaces them all (the
    manifests list the files the commit was replacing until it is done: the next run refused report.html)."""
    out, records, scripts, args = a_finished_run(tmp_path)
    killed = subprocess.run(
        [sys.executable, "-c", SIGNAL_DURING_COMMIT, trigger, "SIGKILL", *args, "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    again = subprocess.run([sys.executable, "-m", "workbench", *args, "--seed", "3"], capture_output=True, text=True)
    assert again.returncode == 0, f"the next run is refused: {again.stderr}"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seed"] == 3
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert [(r["seed"], r["game"]) for r in lines] == [(3, i) for i in range(5)]
    for folder in (out, scripts, tmp_path):
        assert_manifest_is_exact(folder)
        assert "replacing" not in json.loads((folder / MANIFEST).read_text()), "a finished commit lists only its files"
    assert leftovers(tmp_path) == []


def test_a_signal_as_tune_stakes_writes_the_variant_lets_it_finish_and_says_so(tmp_path: Path) -> None:
    """The race is over: the proposal is written and the variant is being rewritten when the Ctrl-C comes; both stand,
    and the command says so as a finished run (it said nothing, exit 0, and after the proposal it said 'interrupted')."""
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    variant = tmp_path / "variants" / "chance-it.yaml"
    before = variant.read_text()
    args = ["tune-stakes", str(variant), "--players", "3", "--budget", "100", "--exploit-games", "0", "--seed", "1"]
    args += ["--out", str(tmp_path / "stakes.yaml"), "--write", "--engine", "interpreter"]
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_DURING_COMMIT, variant.name, "SIGINT", *args],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert child.returncode == 0, f"exit {child.returncode}: {child.stderr}"
    assert LATE_STOP in child.stdout and "interrupted" not in child.stderr, child.stdout + child.stderr
    assert variant.read_text() != before and "source: proposed" in variant.read_text()
    assert (tmp_path / "stakes.yaml").is_file() and (tmp_path / "stakes.html").is_file()


#: A child that runs the command line and sends itself a signal as the library's call returns: the results are in
#: place, the run's own stop handling is over, and the command line has not yet printed anything about them.
SIGNAL_AS_THE_LIBRARY_RETURNS = """
import os, signal, sys
from workbench import api
name, signum = sys.argv[1], getattr(signal, sys.argv[2])
real = getattr(api, name)

def call(*args, **kwargs):
    done = real(*args, **kwargs)
    os.kill(os.getpid(), signum)
    return done

setattr(api, name, call)
sys.argv = ["workbench", *sys.argv[3:]]
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_after_tune_stakes_wrote_the_variant_is_said_and_the_command_ends_as_finished(
    tmp_path: Path, signum: str
) -> None:
    """Between the end of the run's own stop handling and what the command prints (closing the workers, among
    other things) the signal was obeyed: 'interrupted', exit 130, although the proposal and the variant stood."""
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    variant = tmp_path / "variants" / "chance-it.yaml"
    args = ["tune-stakes", str(variant), "--players", "3", "--budget", "100", "--exploit-games", "0", "--seed", "1"]
    args += ["--out", str(tmp_path / "stakes.yaml"), "--write", "--engine", "interpreter"]
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_AS_THE_LIBRARY_RETURNS, "tune_stakes", signum, *args],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert child.returncode == 0, f"exit {child.returncode}: {child.stderr}"
    assert child.stdout.rstrip().endswith(LATE_STOP) and "interrupted" not in child.stderr, child.stdout + child.stderr
    assert "source: proposed" in variant.read_text()


def test_a_signal_before_the_library_wrote_anything_still_stops_the_command(tmp_path: Path) -> None:
    """The other side of the instant the results are in place: a signal as the checks end (an import the command
    makes, before any run) stops it at once, 'interrupted', exit 130, nothing written."""
    inject = SIGNAL_AS_THE_LIBRARY_RETURNS.replace("done = real(*args, **kwargs)\n    os.kill", "os.kill")
    inject = inject.replace("return done", "return real(*args, **kwargs)")
    args = ["simulate", str(BASE), "--games", "5", "--workers", "1", "--bots", "random", "--out", str(tmp_path / "out")]
    child = subprocess.run(
        [sys.executable, "-c", inject, "simulate", "SIGINT", *args], capture_output=True, text=True, timeout=HANG
    )
    assert (child.returncode, child.stderr) == (130, "interrupted\n"), child.stdout + child.stderr
    assert not (tmp_path / "out").exists()


# --- SIGKILL: nothing can be handled, nothing earlier may be lost -----------------------------------------------


def earlier_run(start: Callable[..., Job]) -> dict[str, bytes]:
    """A finished run in the folder; every file it left."""
    job = start(games=60)
    ran = job.finish(timeout=HANG)
    assert ran.code == 0, ran.stderr[-3000:]
    return files(job.folder)


def test_sigkill_leaves_the_previous_runs_outputs_untouched(start: Callable[..., Job]) -> None:
    before = earlier_run(start)
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGKILL)
    job.finish()

    after = files(job.folder)
    assert {name: after.get(name) for name in before} == before, "every earlier output, byte for byte"
    new = sorted(set(after) - set(before))  # only what a killed run cannot clean: its temporary records, its staging
    assert all(
        Path(name).name.startswith(".games.jsonl.") or any(part.startswith(".workbench-staging-") for part in Path(name).parts)
        for name in new
    ), new

    # The next run starts cleanly over what the killed one left (its own staging folder is removed).
    job = start(games=60)
    assert job.finish(timeout=HANG).code == 0
    assert not [p for p in job.scripts.iterdir() if p.name.startswith(".workbench-staging-")]
    assert not list(job.folder.rglob("*.tmp")), "the killed run's temporary records are removed too"


def test_workers_of_a_killed_run_end_quietly(start: Callable[..., Job]) -> None:
    job = start()
    job.wait_for_games()
    job.signal(signal.SIGKILL)
    ran = job.finish()  # returns once every worker has closed the inherited stderr
    assert job.group_is_gone(timeout=HANG)
    assert "Traceback" not in ran.stderr, ran.stderr[-2000:]


def worker_pids(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (the pool's workers), from /proc."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                found.append(int(stat_file.parent.name))
    return found


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_that_dies_alone_stops_the_run_without_writing(start: Callable[..., Job], signum: int) -> None:
    """What the out-of-memory killer does to one worker: the run ends at once with one line, and the previous
    outputs stay as they were (a run that lost a chunk cannot describe a prefix of its games)."""
    before = earlier_run(start)
    job = start()
    job.wait_for_games()
    workers = worker_pids(job.process.pid)
    assert workers, "a pool of workers"
    os.kill(workers[0], signum)
    ran = job.finish(timeout=HANG)
    assert_clean(ran)
    how = "was killed during the run" if signum == signal.SIGKILL else "was stopped during the run by SIGTERM"
    assert ran.code == 3 and f"a worker process {how}" in ran.stderr, ran.stderr[-2000:]
    assert files(job.folder) == before
    assert job.group_is_gone()


def test_a_signal_during_the_first_stop_request_returns_at_once() -> None:
    """A second signal whose handler runs while the first is inside ``Event.set`` (holding its lock) must not wait for
    that lock: it used to stack a frame per signal until a RecursionError (Ctrl-C held down, on a busy machine)."""
    stop = Stop()
    event = stop._requested
    original = event.set
    nested: list[bool] = []

    def set_with_a_signal_inside() -> None:
        with event._cond:  # type: ignore[attr-defined]  # what Event.set holds while it runs
            stop.request(signal.SIGINT)  # the next signal's handler, run at this moment
            nested.append(True)
        original()

    event.set = set_with_a_signal_inside  # type: ignore[method-assign]
    stop.request(signal.SIGINT)
    assert nested == [True] and stop() and stop.signal == signal.SIGINT


def rendering(process: subprocess.Popen[str]) -> None:
    """Return once ``process`` lays out pages (it has loaded Pango, WeasyPrint's text layout), or has ended; on a
    system without /proc, after three seconds."""
    maps = Path(f"/proc/{process.pid}/maps")
    if not maps.parent.exists():
        time.sleep(3.0)
        return
    deadline = time.monotonic() + HANG
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if "libpango" in maps.read_text():
                return
        time.sleep(0.05)


def test_ctrl_c_during_print_says_so(tmp_path: Path) -> None:
    """Commands without a run of games (print here: seconds of PDF work) say "interrupted" too, not just exit 130."""
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "print", str(BASE), "-o", str(tmp_path / "set.pdf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    rendering(process)  # past the start-up, inside the layout of the set
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG)
    if process.returncode == 0:
        pytest.skip("the set was printed before the signal (a fast machine)")
    # said, and 130 (or, as with a Ctrl-C at Python's own start or end, death by the signal, which a shell shows as 130:
    # seen once in a loaded CI run, after "interrupted" was said)
    assert process.returncode in (130, -signal.SIGINT) and err.strip().splitlines()[-1] == "interrupted", err[-2000:]
    assert not (tmp_path / "set.pdf").exists()


def test_a_signal_inside_held_signals_is_raised_at_the_end_of_the_block() -> None:
    finished: list[bool] = []
    before = signal.getsignal(signal.SIGINT)  # Python's handler, or SIG_IGN when the tests were started in the background
    with pytest.raises(KeyboardInterrupt), signals_held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler has run by now: it only asked
        finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is before


def test_the_engine_choice_finishes_its_look_at_numba_before_a_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Choosing the engine imports Numba: a Ctrl-C in the middle of that import left llvmlite's lock held, and the
    compile that followed waited forever (CI saw it once in a hundred). The look finishes, then the Ctrl-C stops."""
    family = FAMILIES["chance-it"]
    loaded = api.load_variant(BASE)
    looked: list[str] = []
    original = type(family).batch_blocker

    def blocker(self: object, variant: object, personas: list[object]) -> str | None:
        if not looked:
            os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        looked.append("looked")
        return original(family, variant, personas)  # type: ignore[arg-type]

    monkeypatch.setattr(type(family), "batch_blocker", blocker)
    personas = list(family.personas(loaded.variant).values())[:1]
    with pytest.raises(KeyboardInterrupt):
        api.choose_engine(family, [(loaded.variant, personas), (loaded.variant, personas)], "auto")
    assert looked == ["looked", "looked"]


@pytest.mark.parametrize("delay", [0.5, 1.2, 1.6, 2.0, 3.0])
def test_ctrl_c_while_a_local_cluster_starts_is_never_lost(tmp_path: Path, delay: float) -> None:
    """A Ctrl-C while Dask starts its LocalCluster (or Numba loads the batch engine) stops the command, cleanly: Dask
    and Numba swallow a KeyboardInterrupt in their callbacks, so the stop flag holds it from before they start."""
    pytest.importorskip("distributed", reason="the Dask backend needs the extra: pip install -e '.[dask]'")
    sweep = ROOT / "sweeps" / "dagger-cost.yaml"
    job = spawn("sweep", sweep, "--out", tmp_path / "out", "--backend", "dask", "--workers", "2", cwd=tmp_path)
    time.sleep(delay)
    os.killpg(job.pid, signal.SIGINT)
    out, err = job.communicate(timeout=HANG)
    ran = Ran(job.returncode, out, err, 0)
    assert_clean(ran)
    # A Ctrl-C while Python itself starts or ends (before the command has begun, or as it ends) can end the
    # interpreter by the signal (``python -m`` re-raises an uncaught KeyboardInterrupt that way): a shell says 130 all
    # the same.
    assert ran.code in (130, -signal.SIGINT), f"the Ctrl-C was lost: exit {ran.code}\n{err[-2000:]}"
    assert Job(job, tmp_path, 0).group_is_gone(), "a process of the command outlived it"


#: A child whose command line registers an exit handler and ends with ``sys.exit(sys.argv[1])`` (a number or words).
ENDING = """
import atexit, sys
import workbench.cli

def command_line():
    atexit.register(lambda: print("exit handler ran", flush=True))
    print("last line")
    code = sys.argv[1]
    sys.exit(int(code) if code.isdigit() else code)

workbench.cli.main = command_line
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize(("code", "status", "said"), [("0", 0, ""), ("3", 3, ""), ("no such thing", 1, "no such thing\n")])
def test_a_command_ends_at_once_after_its_last_line_as_sys_exit_would(code: str, status: int, said: str) -> None:
    """The entry point leaves without Python's teardown of every module (a third of a second after the last line, in
    which a Ctrl-C could only be ignored), but as ``sys.exit`` would: the code, words on standard error, exit handlers."""
    child = subprocess.run([sys.executable, "-c", ENDING, code], capture_output=True, text=True, timeout=HANG)
    assert (child.returncode, child.stdout, child.stderr) == (status, "last line\nexit handler ran\n", said)


#: A child whose command is interrupted while it imports the library (the first thing a command does): Ctrl-C then.
SIGNAL_IN_THE_COMMANDS_IMPORTS = """
import builtins, os, signal, sys
real_import = builtins.__import__

def importing(name, *args, **kwargs):
    if name == "workbench" and args[2] and "api" in args[2]:  # from workbench import api
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)

builtins.__import__ = importing
sys.argv = ["workbench", "simulate", sys.argv[1], "--games", "5", "--out", sys.argv[2]]
from workbench.__main__ import main
main()
"""


def test_a_ctrl_c_while_a_command_imports_the_library_says_interrupted(tmp_path: Path) -> None:
    """The signal lands in the command's own imports, before its stop handling: Typer turned that into a silent 130."""
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_THE_COMMANDS_IMPORTS, str(BASE), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert (child.returncode, child.stderr) == (130, "interrupted\n")
    assert not (tmp_path / "out").exists()


#: A child interrupted while ``workbench.__main__`` itself loads (its import of ``workbench.errors``), before main().
SIGNAL_AS_THE_ENTRY_POINT_LOADS = """
import builtins, os, signal, sys
real_import = builtins.__import__

def importing(name, *args, **kwargs):
    if name == "workbench.errors":
        os.kill(os.getpid(), stop)
    return real_import(name, *args, **kwargs)

stop = getattr(signal, sys.argv[1])
builtins.__import__ = importing
sys.argv = ["workbench", "--help"]
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_while_the_entry_point_loads_is_said_not_a_traceback(signum: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_AS_THE_ENTRY_POINT_LOADS, signum], capture_output=True, text=True, timeout=HANG
    )
    assert (child.returncode, child.stderr, child.stdout) == (130, "interrupted\n", "")


#: A child interrupted while Typer reads its command line (where a command's lazy imports run): Typer made it a silent 130.
SIGNAL_AS_THE_COMMAND_LINE_IS_READ = """
import os, signal, sys
import typer.core

real = typer.core.TyperGroup.parse_args

def reading(self, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    return real(self, *args, **kwargs)

typer.core.TyperGroup.parse_args = reading
sys.argv = ["workbench", "validate", sys.argv[1]]
from workbench.__main__ import main
main()
"""


#: A child whose Ctrl-C lands in a finaliser, where Python ignores any exception ("Exception ignored in ..."), as it
#: does in the import system's lock callbacks; then the command's own work goes on.
SIGNAL_SWALLOWED_BY_PYTHON = """
import os, signal, sys, time
import workbench.validation as validation

real = validation.validate

class Finalised:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler runs in here: what it raises, Python ignores

def validate(*args, **kwargs):
    Finalised()
    for _ in range(100):
        time.sleep(0.001)
    return real(*args, **kwargs)

validation.validate = validate
sys.argv = ["workbench", "validate", sys.argv[1]]
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize(
    "script", [SIGNAL_AS_THE_COMMAND_LINE_IS_READ, SIGNAL_SWALLOWED_BY_PYTHON], ids=["command-line-read", "swallowed"]
)
def test_a_ctrl_c_typer_or_python_would_hide_stops_the_command_and_says_so(script: str) -> None:
    child = subprocess.run([sys.executable, "-c", script, str(BASE)], capture_output=True, text=True, timeout=HANG)
    assert (child.returncode, child.stderr, child.stdout) == (130, "interrupted\n", "")


#: A child whose signal lands once its command is over: as the command line exits with the command's code (the
#: framework's ``sys.exit``), or as the process ends (``os._exit``, after the exit handlers).
SIGNAL_AS_THE_COMMAND_ENDS = """
import os, signal, sys, time
hook, signum = sys.argv[1], getattr(signal, sys.argv[2])
module = sys if hook == "sys.exit" else os
real = getattr(module, hook.split(".")[1])

def ending(code=0):
    os.kill(os.getpid(), signum)
    time.sleep(0.05)  # the handler runs here
    real(code)

setattr(module, hook.split(".")[1], ending)
sys.argv = ["workbench", *sys.argv[3:]]
from workbench.__main__ import main
main()
"""


@pytest.mark.parametrize("hook", ["sys.exit", "os._exit"])
@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_as_the_command_ends_is_said_and_changes_nothing(tmp_path: Path, hook: str, signum: str) -> None:
    """The results are written and said: a stop then is said as a finished run's (it was ignored without a word, or
    said 'interrupted' with exit 130 although everything stood)."""
    args = ["simulate", str(BASE), "--games", "5", "--workers", "1", "--bots", "random", "--out", str(tmp_path / "o")]
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_AS_THE_COMMAND_ENDS, hook, signum, *args],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.rstrip().endswith(LATE_STOP) and "interrupted" not in child.stderr, child.stdout[-500:]
    assert (tmp_path / "o" / "summary.json").is_file()
