"""Every backend plays the same games into the same tallies (issue 14): ``summary.json`` and the studies' outputs are
the same, timing aside, on the local process pool and on a Dask cluster, even when a Dask worker dies mid-run.

The clusters are real: ``distributed.LocalCluster`` with two worker processes, each
started by a nanny that restarts a worker which dies. The tests need the ``dask`` extra,
which ``.ci/run`` installs (``pip install -e '.[test,dask]'``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from output_helpers import BASE, HANG, ROOT, Ran, assert_clean, assert_refused, invoke, spawn, workbench

from workbench import __version__, api, studies
from workbench.errors import UsageError
from workbench.fingerprint import code_version
from workbench.sim import backends, cluster, runner
from workbench.sim.runner import Local

distributed = pytest.importorskip("distributed", reason="the Dask backend's tests need the extra: pip install -e '.[dask]'")
cloudpickle = pytest.importorskip("cloudpickle")

TARGET = ROOT / "variants" / "target-dice.yaml"
#: The engine of the Chance It studies here: what they check is the backend, and a cluster's workers would wait for
#: the batch engine's first compile (minutes of CI; both engines play the same games, as test_batch checks).
PLAIN = "interpreter"


def _cluster(**options: Any) -> Any:
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR, **options
    )


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-worker LocalCluster shared by the module's tests (nothing in them kills a worker)."""
    with _cluster() as running:
        yield running.scheduler_address


def _runs(result: Any) -> list[dict[str, Any]]:
    """The runs of a simulation or study, as their JSON has them, timing aside."""
    body = json.loads(result.to_json())
    runs: list[dict[str, Any]] = body.get("runs", [body])
    for run in runs:
        assert run.pop("timing")["games_per_second"] > 0
    return runs


def test_every_backend_is_registered_once_and_opens_by_name(scheduler: str) -> None:
    assert set(backends.BACKENDS) == {"local", "dask"}
    with backends.opened("local", 3) as local:
        assert (local.name, local.workers, local.where) == ("local", 3, "this machine")
    with backends.opened("dask", scheduler=scheduler) as dask:
        assert (dask.name, dask.workers) == ("dask", 2)
        assert dask.where == scheduler


@pytest.mark.parametrize("name", sorted(backends.BACKENDS))
def test_every_backend_plays_the_games_of_one_process(name: str, tmp_path: Path) -> None:
    """The conformance test of the registry: each backend, opened by name with two workers, gives the one-process
    summary.json (timing aside) and paired study, with records in game order."""
    options: dict[str, Any] = {"players": [4], "games": 200, "seed": 6}
    local = api.simulate(TARGET, backend=Local(1), out=tmp_path / "one", records=tmp_path / "one.jsonl", **options)
    pair = [BASE, ROOT / "variants" / "dearer-in.yaml"]
    with backends.opened(name, 2) as backend:
        assert backend.name == name
        other = api.simulate(TARGET, backend=backend, out=tmp_path / "two", records=tmp_path / "two.jsonl", **options)
        compared = studies.compare(pair, games=100, seed=6, backend=backend, engine=PLAIN)
    assert _runs(other) == _runs(local)
    assert _summary_file(tmp_path / "two") == _summary_file(tmp_path / "one")
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert _runs(compared) == _runs(studies.compare(pair, games=100, seed=6, engine=PLAIN))


@pytest.mark.parametrize("variant", [BASE, TARGET], ids=["chance-it", "target-dice"])
def test_simulate_gives_the_same_summary_on_dask_as_on_one_process(scheduler: str, variant: Path, tmp_path: Path) -> None:
    """The issue's first test: summary.json, timing aside, is byte for byte the local one, on two player counts."""
    options: dict[str, Any] = {"players": [3, 4], "games": 600, "seed": 11, "engine": PLAIN}
    local = api.simulate(variant, backend=Local(1), out=tmp_path / "local", **options)
    with cluster.Dask(scheduler) as dask:
        remote = api.simulate(variant, backend=dask, out=tmp_path / "dask", **options)
    assert [run.timing["backend"] for run in remote.runs] == ["dask", "dask"]
    assert [run.timing["workers"] for run in remote.runs] == [2, 2]
    assert _runs(remote) == _runs(local)
    assert [run["games"] for run in _runs(remote)] == [600, 600], "every game counted once"
    assert _summary_file(tmp_path / "dask") == _summary_file(tmp_path / "local")


def _summary_file(folder: Path) -> str:
    """``summary.json`` in ``folder`` as text, its timing blanked out: the rest must match byte for byte."""
    return re.sub(r'"timing": \{[^}]*\}', '"timing": {}', (folder / "summary.json").read_text())


def test_the_paired_studies_give_the_same_answers_on_dask(scheduler: str) -> None:
    """compare, cards and skill play several arms per game; the tune-stakes race plays many candidates (run_many)."""
    with cluster.Dask(scheduler) as dask:
        pairs = [
            (
                studies.compare([BASE, ROOT / "variants" / "dearer-in.yaml"], games=150, seed=2, backend=backend, engine=PLAIN),
                studies.cards(BASE, only=["dagger"], games=100, seed=2, backend=backend, engine=PLAIN),
                studies.skill(BASE, ladder=["random", "heuristic"], games=100, seed=2, backend=backend, engine=PLAIN),
            )
            for backend in (Local(2), dask)
        ]
        for local, remote in zip(*pairs):
            assert _runs(remote) == _runs(local)
        tuned = [
            api.tune_stakes(
                ROOT / "variants" / "chance-it.yaml", [3], budget=300, seed=4, backend=backend, exploit_games=0, engine=PLAIN
            ).report
            for backend in (Local(1), dask)
        ]
    assert tuned[0] == tuned[1]
    assert tuned[0].tuned[0].games > 0


class KillOnce(distributed.WorkerPlugin):  # type: ignore[misc]
    """Ends the worker process (as an out-of-memory kill would) when it starts its ``after``-th chunk, once in the
    whole cluster: the first worker to get there claims ``marker``."""

    def __init__(self, marker: str, after: int) -> None:
        self.marker, self.after, self.started = marker, after, 0

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        if finish != "executing" or not str(key).startswith("_play-"):
            return
        self.started += 1
        if self.started == self.after:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:  # another worker died already
                return
            os._exit(1)


def test_a_ctrl_c_while_the_cluster_closes_does_not_break_it_off() -> None:
    """A second Ctrl-C lands while the LocalCluster closes (the first stopped the run): the close goes to its end,
    no KeyboardInterrupt (it left the workers to Python's exit, ten seconds on, and the command's last lines unsaid)."""
    before = signal.getsignal(signal.SIGINT)  # Python's handler, or SIG_IGN when the tests were started in the background
    dask = cluster.Dask(workers=1)
    dask.start()
    started = dask._cluster
    close = started.close

    def interrupted_close(*args: Any, **kwargs: Any) -> Any:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)  # the handler runs here
        return close(*args, **kwargs)

    started.close = interrupted_close
    dask.close()
    assert started.status.name == "closed"
    assert signal.getsignal(signal.SIGINT) is before, "the handler it found, put back"


@pytest.mark.slow
def test_a_worker_that_dies_mid_chunk_costs_nothing(tmp_path: Path) -> None:
    """The issue's second test: one worker dies when it starts its third chunk; its chunk is played again elsewhere
    and the totals are exactly the local ones, every game counted once."""
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    marker = tmp_path / "killed"
    options: dict[str, Any] = {"players": [4], "games": 3000, "seed": 5}
    local = api.simulate(TARGET, backend=Local(1), **options)
    with _cluster() as running, cluster.Dask(running.scheduler_address) as dask:
        dask.client.register_plugin(KillOnce(str(marker), after=3))
        remote = api.simulate(TARGET, backend=dask, **options)
    assert marker.exists(), "no worker was killed: the test proved nothing"
    assert _runs(remote) == _runs(local)
    assert remote.runs[0].figures["games"] == 3000


@pytest.mark.slow
def test_the_command_starts_a_local_cluster_and_writes_the_same_summary(tmp_path: Path) -> None:
    """``--backend dask`` without a scheduler: a LocalCluster of --workers processes, said in the terminal."""
    common = ["simulate", TARGET, "--players", "3,5", "--games", "400", "--seed", "3"]
    local = workbench(*common, "--workers", "2", "--out", tmp_path / "local")
    dask = workbench(*common, "--backend", "dask", "--workers", "2", "--out", tmp_path / "dask")
    assert local.code == dask.code == 0, dask.stderr
    assert "backend: dask, 2 worker(s) at tcp://127.0.0.1:" in dask.stdout
    assert "(a LocalCluster started here)" in dask.stdout
    assert "Traceback" not in dask.stderr + dask.stdout
    bodies = [json.loads((tmp_path / side / "summary.json").read_text()) for side in ("local", "dask")]
    for body in bodies:
        for run in body["runs"]:
            run.pop("timing")
    assert bodies[0] == bodies[1]


def test_a_scheduler_without_the_dask_backend_is_refused() -> None:
    assert_refused(invoke("simulate", TARGET, "--games", "10", "--scheduler", "tcp://127.0.0.1:8786"), "--backend dask")


def test_an_unknown_backend_is_refused() -> None:
    assert_refused(invoke("simulate", TARGET, "--games", "10", "--backend", "spark"), "--backend 'spark'", "local or dask")


def test_workers_with_a_scheduler_are_refused(scheduler: str) -> None:
    ran = invoke("simulate", TARGET, "--games", "10", "--backend", "dask", "--scheduler", scheduler, "--workers", "3")
    assert_refused(ran, "--workers", "its own workers")


@pytest.mark.parametrize("name", sorted(backends.BACKENDS))
def test_more_workers_than_this_machine_should_start_are_refused_before_any_game(name: str, tmp_path: Path) -> None:
    """``--workers 1000`` (a slip) would start a thousand processes: refused at once, on either backend."""
    most, cores = runner.most_workers(), os.cpu_count() or 1
    assert most == max(16, 4 * cores)
    assert Local(most).workers == most
    out = tmp_path / "out"
    ran = invoke("simulate", TARGET, "--games", "10", "--backend", name, "--workers", str(most + 1), "--out", out)
    assert_refused(ran, f"--workers {most + 1}: this machine has {cores} core(s); use at most {most}")
    assert not out.exists()


def test_a_scheduler_that_cannot_be_reached_is_said_before_any_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    out = tmp_path / "out"
    ran = invoke("simulate", TARGET, "--games", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", out)
    assert_refused(ran, "--scheduler tcp://127.0.0.1:9: cannot reach the Dask scheduler")
    assert not out.exists()


def test_without_the_extra_the_flag_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "available", lambda: False)
    ran = invoke("simulate", TARGET, "--games", "10", "--backend", "dask")
    assert_refused(ran, "--backend dask needs", "pip install -e '.[dask]'")


def test_workers_that_run_other_code_are_refused(scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers report the code they run (the release and a hash of the source); one that differs from ours is
    refused, both named (here ours pretends to be other code of the same release, as after an update)."""
    theirs = code_version()
    monkeypatch.setattr(cluster, "code_version", lambda: f"{__version__}+0123456789ab")
    with pytest.raises(UsageError) as refused:
        cluster.Dask(scheduler).start()
    said = str(refused.value)
    assert f"2 worker(s) do not run this workbench's code (chance-workbench {__version__}+0123456789ab)" in said
    assert f"runs {theirs}" in said


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def real_cluster(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A scheduler and a worker started as docs/how-to/dask.md says (``dask scheduler``, ``dask worker``), each a process."""
    dask = Path(sys.executable).parent / "dask"
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    logs = tmp_path / "dask.log"
    with logs.open("wb") as log:
        scheduler = subprocess.Popen([dask, "scheduler", "--port", port, "--no-dashboard"], stdout=log, stderr=log)
        worker = subprocess.Popen(
            [dask, "worker", address, "--nthreads", "1", "--nworkers", "2", "--no-dashboard"], stdout=log, stderr=log
        )
    try:
        from distributed import Client

        with Client(address, timeout=HANG) as client:  # both workers in, as the tests count them (a loaded machine is slow)
            client.wait_for_workers(2, timeout=HANG)
        yield address, scheduler
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait()


@pytest.mark.slow
def test_a_real_scheduler_then_its_loss_in_the_middle_of_a_run(real_cluster: tuple[str, Any], tmp_path: Path) -> None:
    """The Dask guide's recipe works (same summary as here); a scheduler that dies mid-run stops the command in one line."""
    address, scheduler = real_cluster
    common = ["simulate", TARGET, "--games", "300", "--seed", "2"]
    here = workbench(*common, "--workers", "1", "--out", tmp_path / "here")
    there = workbench(*common, "--backend", "dask", "--scheduler", address, "--out", tmp_path / "there", timeout=HANG)
    assert here.code == there.code == 0, there.stderr
    assert f"backend: dask, 2 worker(s) at {address}" in there.stdout
    assert _summary_file(tmp_path / "there") == _summary_file(tmp_path / "here")
    out = tmp_path / "lost"
    job = spawn("simulate", TARGET, "--games", "2000000", "--backend", "dask", "--scheduler", address, "--out", out)
    with distributed.Client(address, set_as_default=False) as watcher:  # wait until chunks are being played
        deadline = time.monotonic() + HANG
        while not any(watcher.processing().values()):
            assert job.poll() is None and time.monotonic() < deadline, "no chunk was played"
            time.sleep(0.05)
    scheduler.kill()
    stdout, stderr = job.communicate(timeout=HANG)
    ran = Ran(job.returncode, stdout, stderr, 0)
    assert_clean(ran)
    assert ran.code == 3, ran.stderr  # not the input's fault (1): the documented code for a lost cluster
    assert f"the cluster was lost: the Dask scheduler at {address} stopped answering, or every worker" in ran.stderr
    said = [line for line in ran.lines if "the cluster was lost" in line]
    assert len(said) == 1 and said[0].endswith("nothing was written") and "\\x0a" not in said[0], "one line"
    assert not (out / "summary.json").exists()


@pytest.mark.parametrize("address", ["127.0.0.1", "tcp://127.0.0.1", "http://127.0.0.1:8786", "tcp://"])
def test_a_scheduler_address_that_is_not_one_is_refused_at_once(address: str) -> None:
    ran = invoke("simulate", TARGET, "--games", "10", "--backend", "dask", "--scheduler", address)
    assert_refused(ran, f"--scheduler {address}: expected a scheduler's address, such as tcp://10.0.0.5:8786")
    assert "backend:" not in ran.stdout and "engine:" not in ran.stdout, "refused before any machine is reached"
