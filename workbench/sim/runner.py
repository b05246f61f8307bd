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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

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


_factories: list[Factory] = []
_simulators: dict[int, Any] = {}


def _start_worker(factories: list[Factory]) -> None:
    global _factories
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    _factories = factories
    _simulators.clear()


def _play_chunk(task: tuple[int, int, int, bool]) -> tuple[int, Any, list[str]]:
    which, start, stop, want_records = task
    if which not in _simulators:
        _simulators[which] = _factories[which]()
    return (which, *_chunk(_simulators[which], start, stop, want_records))


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
    started = time.perf_counter()
    tally = factory().new_tally()
    done, interrupted = 0, False
    tasks = [(0, start, stop, records is not None) for start, stop in chunks(games, workers)]
    try:
        for _, chunk_tally, lines in _results([factory], tasks, workers):
            tally.merge(chunk_tally)
            if records is not None:
                records.writelines(line + "\n" for line in lines)
            done += chunk_tally.games
            if progress is not None:
                progress(chunk_tally.games)
    except KeyboardInterrupt:
        interrupted = True
    return Run(tally, done, games, time.perf_counter() - started, interrupted)


def run_many(
    factories: list[Factory],
    ranges: list[tuple[int, int]],
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Any]:
    """Play games ``ranges[i]`` (start, stop) of run ``factories[i]`` for every i, sharing one pool; the tallies.

    This is how many candidates are compared on the same game indices (common random numbers).
    """
    tallies = [factory().new_tally() for factory in factories]
    tasks = [
        (which, start, stop, False)
        for which, (first, last) in enumerate(ranges)
        for start, stop in ((first + a, first + b) for a, b in chunks(last - first, workers))
        if stop > start
    ]
    for which, chunk_tally, _ in _results(factories, tasks, workers):
        tallies[which].merge(chunk_tally)
        if progress is not None:
            progress(chunk_tally.games)
    return tallies


def _results(
    factories: list[Factory], tasks: list[tuple[int, int, int, bool]], workers: int
) -> Iterator[tuple[int, Any, list[str]]]:
    if workers <= 1 or len(tasks) == 1:
        built: dict[int, Any] = {}
        for which, start, stop, want in tasks:
            if which not in built:
                built[which] = factories[which]()
            yield (which, *_chunk(built[which], start, stop, want))
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = context.Pool(workers, initializer=_start_worker, initargs=(factories,))
    try:
        yield from pool.imap(_play_chunk, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
