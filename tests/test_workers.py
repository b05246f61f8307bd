"""The local backend's worker processes: chunks come back in game order, a worker's error reaches the caller, and a
worker that dies (even halfway through sending a chunk) ends the run at once with :class:`WorkerDied`, never a hang.

The simulators here are bare counters: what is under test is only how chunks travel.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import connection
from typing import Any

import pytest

from workbench.errors import Problem, WorkbenchError
from workbench.sim import runner
from workbench.sim.runner import Local, WorkerDied

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the injections ride on fork")


@dataclass
class Tally:
    games: int = 0
    indices: list[int] = field(default_factory=list)

    def add(self, result: Any) -> None:
        self.games += 1
        self.indices.append(result.record["index"])

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.indices += other.indices


@dataclass
class Played:
    record: dict[str, Any]
    script: tuple[str, str] | None = None


class Counter:
    """Game ``i`` records ``i`` and, so that a chunk is a message of some size, a filler."""

    def new_tally(self) -> Tally:
        return Tally()

    def play(self, index: int) -> Played:
        return Played({"index": index, "filler": "x" * 2000})


def counter() -> Counter:
    return Counter()


def in_a_worker() -> bool:
    """Whether this is a run's worker process (the run builds a simulator here too, for its empty tally)."""
    return multiprocessing.parent_process() is not None


def cut_off_while_sending() -> Counter:
    """In a worker: the first chunk it sends stops halfway, the worker killed outright (the out-of-memory killer)."""
    if not in_a_worker():
        return Counter()
    send = connection.Connection._send  # type: ignore[attr-defined]

    def half_then_die(self: Any, buffer: Any, write: Any = os.write) -> None:
        send(self, bytes(buffer)[: len(buffer) // 2])
        os.kill(os.getpid(), signal.SIGKILL)

    connection.Connection._send = half_then_die  # type: ignore[attr-defined]
    return Counter()


def dies_at_once() -> Counter:
    if not in_a_worker():
        return Counter()
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not reached")


def refuses() -> Counter:
    if not in_a_worker():
        return Counter()
    raise WorkbenchError([Problem(None, None, "players", "no seat for a fifth player")])


def ends(how: str) -> Callable[[], Counter]:
    """A simulator whose building, in a worker, ends the worker: by ``SIGKILL``, ``SIGTERM`` or an exit code."""

    def build() -> Counter:
        if in_a_worker():
            if how.startswith("SIG"):
                os.kill(os.getpid(), getattr(signal, how))
            os._exit(int(how))
        return Counter()

    return build


def play(factory: runner.Factory, games: int, workers: int = 3, **options: Any) -> runner.Run:
    return runner.run(factory, games, backend=Local(workers), **options)


def test_the_chunks_of_three_workers_come_back_in_game_order() -> None:
    done = play(counter, 5000)
    assert (done.games, done.interrupted) == (5000, False)
    assert done.tally.indices == list(range(5000))
    assert not multiprocessing.active_children()


def test_a_worker_cut_off_halfway_through_sending_a_chunk_ends_the_run() -> None:
    """What hung a CI run: one shared result pipe waited forever for the rest of the message."""
    with pytest.raises(WorkerDied):
        play(cut_off_while_sending, 5000)
    assert not multiprocessing.active_children()


def test_a_worker_that_dies_before_its_first_chunk_ends_the_run() -> None:
    with pytest.raises(WorkerDied):
        play(dies_at_once, 5000)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("SIGKILL", "a worker process was killed during the run (by the system, out of memory?, or by another program)"),
        ("SIGTERM", "a worker process was stopped during the run by SIGTERM (from another program, or the system)"),
        ("3", "a worker process ended during the run by itself, with exit code 3"),
    ],
)
def test_a_dead_worker_is_said_as_it_died(how: str, said: str) -> None:
    """Every death was 'killed by the system, out of memory?', a worker stopped by another program's SIGTERM too."""
    with pytest.raises(WorkerDied) as raised:
        play(ends(how), 5000, workers=2)
    assert [problem.message for problem in raised.value.problems] == [f"{said}; nothing was written"]
    assert not multiprocessing.active_children()


def test_an_error_in_a_worker_reaches_the_caller_with_its_fields() -> None:
    with pytest.raises(WorkbenchError) as raised:
        play(refuses, 100)
    assert [problem.path for problem in raised.value.problems] == ["players"]
    assert not multiprocessing.active_children()


def test_a_stop_ends_the_busy_workers_and_keeps_a_prefix() -> None:
    seen: list[int] = []

    def progress(games: int) -> None:
        seen.append(games)

    done = play(counter, 10**7, progress=progress, stop=lambda: sum(seen) >= 200)
    assert done.interrupted and 200 <= done.games < 10**7
    assert done.tally.indices == list(range(done.games))
    assert not multiprocessing.active_children()


def test_a_task_for_a_worker_that_is_gone_is_its_death_not_an_error_of_the_outputs() -> None:
    """A worker killed between two chunks: sending it the next one fails on its closed pipe (EPIPE), which a run took
    for its records file failing ('cannot write games.jsonl: Broken pipe', exit 1)."""
    worker = runner._Worker(multiprocessing.get_context("fork"), [counter])
    worker.process.kill()
    worker.process.join()
    with pytest.raises(WorkerDied):
        for position in range(100):  # the first sends may still fit in the pipe's buffer
            worker.give(position, (0, position, position + 1, False, False))
    worker.end()
    assert not multiprocessing.active_children()
