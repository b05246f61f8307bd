"""Run many games in chunks, on one core or several, merging tallies in game order. Family-agnostic.

The family supplies a simulator (``play(index) -> result`` with a ``record``, and
``new_tally()``); this module only decides which games run where. Game ``i`` depends
only on the run's seed and ``i``, and tallies merge exactly, so the summary is the same
for any number of workers. Memory stays flat: finished chunks are merged and dropped,
and records are written as they arrive.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import time
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterator

#: Builds the family's simulator inside each worker (a picklable callable with no arguments).
Factory = Callable[[], Any]


@dataclass
class Run:
    """What a run produced: the merged tally and how far it got."""

    tally: Any
    games: int  # games finished and tallied
    requested: int
    seconds: float
    interrupted: bool = False

    @property
    def games_per_second(self) -> float:
        """Throughput of the run."""
        return self.games / self.seconds if self.seconds else 0.0


_simulator: Any = None


def _start_worker(factory: Factory) -> None:
    global _simulator
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    _simulator = factory()


def _play_chunk(task: tuple[int, int, bool]) -> tuple[Any, list[str]]:
    start, stop, want_records = task
    return _chunk(_simulator, start, stop, want_records)


def _chunk(simulator: Any, start: int, stop: int, want_records: bool) -> tuple[Any, list[str]]:
    tally = simulator.new_tally()
    lines: list[str] = []
    for index in range(start, stop):
        result = simulator.play(index)
        tally.add(result)
        if want_records:
            lines.append(json.dumps(result.record, separators=(",", ":")))
    return tally, lines


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into chunks: small enough to balance the workers, big enough to be cheap.

    >>> chunks(10, 1)
    [(0, 10)]
    >>> chunks(1000, 2)[:2]
    [(0, 63), (63, 126)]
    """
    size = max(1, min(500, -(-games // (workers * 8)) if workers > 1 else 500))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run(
    factory: Factory,
    games: int,
    *,
    workers: int = 1,
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Run:
    """Play ``games`` games; ``progress`` is called with the number of games just finished.

    Ctrl-C stops the run: the games finished so far (a prefix of the run) are kept.
    """
    simulator = factory()
    tally = simulator.new_tally()
    done, interrupted = 0, False
    started = time.perf_counter()
    tasks = [(start, stop, records is not None) for start, stop in chunks(games, workers)]
    try:
        for chunk_tally, lines in _results(factory, simulator, tasks, workers):
            tally.merge(chunk_tally)
            if records is not None:
                records.writelines(line + "\n" for line in lines)
            finished = chunk_tally.games
            done += finished
            if progress is not None:
                progress(finished)
    except KeyboardInterrupt:
        interrupted = True
    return Run(tally, done, games, time.perf_counter() - started, interrupted)


def _results(factory: Factory, simulator: Any, tasks: list[tuple[int, int, bool]], workers: int) -> Iterator[tuple[Any, list[str]]]:
    if workers <= 1 or len(tasks) == 1:
        for start, stop, want in tasks:
            yield _chunk(simulator, start, stop, want)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = context.Pool(workers, initializer=_start_worker, initargs=(factory,))
    try:
        yield from pool.imap(_play_chunk, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
