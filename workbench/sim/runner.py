"""Run many games in chunks, on one core or several, merging tallies in game order. Family-agnostic.

The family supplies a simulator (``play(index)`` returning a result with a ``record``
and an optional ``script``, and ``new_tally()``; or, for a batch engine, ``batch = True`` and
``play_range(start, end)`` returning the tally of those games, and ``record_range(start, end, stop)`` returning
the tally and each game's ``record`` and ``script`` when they are wanted); this module only decides which
games run where. Game ``i`` depends only on the run's seed and ``i``, and tallies merge
exactly, so the summary is the same for any number of workers.

Memory stays flat whatever the number of games: chunks are generated as they are
needed, at most a few per worker are in flight, finished chunks are merged and dropped,
and records are handed on as they arrive. Results arrive in game order, so what a
stopped run keeps is always the first games of the run.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from types import FrameType
from typing import Any, ClassVar, Protocol

from workbench.errors import Interrupted, Problem, UsageError, WorkbenchError

#: Builds the family's simulator inside each worker (a picklable callable with no arguments).
Factory = Callable[[], Any]
#: (which factory, first game, end of the chunk, whether records and scripts are wanted, whether a
#: :class:`Handover`'s compiled engine plays it)
Task = tuple[int, int, int, bool, bool]
#: How many chunks per worker may wait in the pool's queue (bounded, so memory stays flat).
IN_FLIGHT = 3


class Played(Protocol):
    """One finished game as a simulator returns it."""

    record: dict[str, Any]  #: one line of ``--records``
    script: tuple[str, str] | None  #: (file name, text) of the game as a scenario script, when recording


class WorkerDied(WorkbenchError):
    """A worker process ended in the middle of the run (killed by the system, out of memory?, or stopped by another
    program), or the cluster was lost: the run stops. Not the input's fault: the command line exits with 3."""

    exit_code = 3

    def __init__(self, message: str) -> None:
        super().__init__([Problem(None, None, "", message)])


class Stop:
    """Whether a run should stop: set by SIGINT or SIGTERM while :meth:`on_signals` is active, or by :meth:`request`.

    A stopped run finishes nothing more, keeps the games that finished and returns;
    further signals only repeat the request (so two quick Ctrl-Cs cannot break the
    clean-up).
    """

    def __init__(self) -> None:
        self.signal: int | None = None  #: the first signal received
        self._asked = False
        self._requested = threading.Event()

    def __call__(self) -> bool:
        return self._requested.is_set()

    def request(self, signum: int = signal.SIGINT) -> None:
        """Ask the run to stop (what a signal does).

        Only the first request touches the event: a signal handler can interrupt another one
        inside ``Event.set`` while it holds the event's lock, and a second ``set`` there
        would wait for that lock forever, stacking a handler frame per signal (Ctrl-C held
        down ended in a RecursionError).
        """
        if self.signal is None:
            self.signal = signum
        if self._asked:
            return
        self._asked = True
        self._requested.set()

    @contextlib.contextmanager
    def on_signals(self) -> Iterator[Stop]:
        """Turn SIGINT and SIGTERM into stop requests inside the block (from the main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return

        def handler(signum: int, frame: FrameType | None) -> None:
            self.request(signum)

        previous = {signum: signal.signal(signum, handler) for signum in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield self
        finally:
            for signum, old in previous.items():
                signal.signal(signum, old)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while a library runs that cannot take a KeyboardInterrupt in the middle of its work
    (one in Numba's import leaves llvmlite's lock held, so the compile that follows waits forever; Dask's callbacks
    swallow it): a signal received inside the block raises KeyboardInterrupt at its end, once the library is done."""
    held = Stop()
    with held.on_signals():
        yield
    if held():
        raise KeyboardInterrupt


def _never() -> bool:
    return False


@dataclass
class Chunk:
    """What a chunk of games produced: its tally and, when wanted, its records and scripts."""

    which: int
    tally: Any
    lines: list[str]
    scripts: list[tuple[str, str]]
    seconds: float  #: how long the chunk took to play
    notations: list[str] = field(default_factory=list)  #: each game in the family's notation, when it gives one
    interpreted: bool = True  #: played by an interpreter (False: by a compiled engine)


@dataclass
class Run:
    """What a run produced: the merged tally and how far it got."""

    tally: Any
    games: int  #: games finished and tallied (the first ``games`` of the run)
    requested: int
    seconds: float
    interrupted: bool = False
    backend: str = "local"  #: which backend played it
    workers: int = 1  #: how many chunks it could play at once
    interpreted: int | None = None  #: of a :class:`Handover`'s games, how many the interpreter played

    def handover(self) -> str | None:
        """How a :class:`Handover` shared the run's games between the engines, in words; None when the compiled engine
        played them all."""
        if not self.interpreted:
            return None
        if self.interpreted >= self.games:
            return f"the interpreter played all {self.games:,} games: the compiled engine was not ready for them"
        return f"the interpreter played {self.interpreted:,} of the {self.games:,} games, the compiled engine the rest"

    @property
    def games_per_second(self) -> float:
        """Throughput of the run."""
        return self.games / self.seconds if self.seconds else 0.0

    def timing(self) -> dict[str, Any]:
        """Where and how fast it ran: the one part of a run's outputs that differs between machines."""
        timing = {
            "backend": self.backend,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
        }
        if self.interpreted:  # the compiled engine was not ready when the run started
            timing["interpreter_games"] = self.interpreted
        return timing


@dataclass(frozen=True)
class Handover:
    """A factory for a run on two engines that play the same games: ``interpreter`` until ``ready()`` (a compiled
    engine being compiled in the background), ``compiled`` from then on.

    Game ``i`` is the same game on either, so which one plays a chunk changes nothing in
    the run's results; the run decides for each chunk as it hands it out (``ready`` is
    asked here, never in a worker), and each worker builds the engines it is given.
    """

    interpreter: Factory
    compiled: Factory
    ready: Callable[[], bool]
    hurry: Callable[[], None]  #: asks the compiler to compile now (it waits for the run that started it, else)

    def __call__(self) -> _HandedOver:
        return _HandedOver(self)


class _HandedOver:
    """A :class:`Handover`'s simulators in one worker, each built when its first chunk comes."""

    def __init__(self, handover: Handover):
        self.handover = handover
        self.built: dict[bool, Any] = {}

    def side(self, compiled: bool) -> Any:
        if compiled not in self.built:
            self.built[compiled] = (self.handover.compiled if compiled else self.handover.interpreter)()
        return self.built[compiled]

    def new_tally(self) -> Any:
        return self.side(False).new_tally()


def _compiled_ready(factory: Factory) -> bool:
    """Whether chunks of ``factory`` go to the compiled engine now (a :class:`Handover` whose engine is ready)."""
    return isinstance(factory, Handover) and factory.ready()


#: A run hands over to a compiled engine still to be compiled only when the interpreter would otherwise play on for
#: longer than this (about what the compile takes): a shorter run keeps every core, and the compile follows it.
HURRY_SECONDS = 30.0
#: The interpreter's pace is judged once this many seconds of its play are measured: a worker's first games carry its
#: warm-up (the bots' value models and caches: 15 ms a game against 1.7 ms after), and judged on them alone a short run
#: looked long enough to hurry the compiler, which then took the cores the run was playing on.
PACE_SECONDS = 1.0


class _Hurry:
    """Hurries the compilers of a run's :class:`Handover` factories once its interpreter chunks show that the games
    left would take longer than :data:`HURRY_SECONDS` on the interpreter (at the pace of every chunk played so far,
    once :data:`PACE_SECONDS` of them are measured)."""

    def __init__(self, factories: list[Factory], games: int, workers: int):
        self.handovers = [factory for factory in factories if isinstance(factory, Handover)]
        self.left = games
        self.workers = workers
        self.played = 0
        self.seconds = 0.0

    def seen(self, chunk: Chunk) -> None:
        self.left -= chunk.tally.games
        if not self.handovers or not chunk.interpreted or not chunk.tally.games:
            return
        self.played += chunk.tally.games
        self.seconds += chunk.seconds
        if self.seconds >= PACE_SECONDS and self.left * self.seconds / self.played / self.workers > HURRY_SECONDS:
            for handover in self.handovers:
                handover.hurry()
            self.handovers = []


class Backend(Protocol):
    """Where a run's chunks are played: :class:`Local` (this machine's processes) or, with the ``dask`` extra,
    :class:`workbench.sim.cluster.Dask` (a Dask cluster). Every backend plays the same games into the same tallies,
    so a run's figures never depend on it (``tests/test_backends.py`` holds each to that)."""

    name: ClassVar[str]  #: as ``--backend`` names it

    @property
    def workers(self) -> int:
        """How many chunks can play at once (it sizes the chunks and the queue)."""

    def results(self, factories: list[Factory], tasks: Iterable[Task], stop: Callable[[], bool]) -> Iterator[Chunk]:
        """Play ``tasks`` (each names its factory by index) and yield their chunks in the order of ``tasks``; stop
        starting chunks once ``stop()`` turns true, and raise :class:`WorkerDied` when the games cannot be played."""
        ...

    @property
    def where(self) -> str:
        """Where the games are played, in words (``this machine``, ``tcp://10.0.0.5:8786``)."""

    def start(self) -> None:
        """Reach (or start) the machines now, so that a backend that cannot play says so before any game."""

    def close(self) -> None:
        """Let go of what the backend holds (a cluster); it may not be used again."""


def die_with(parent: int) -> None:
    """End this worker quietly (SIGTERM) when the parent dies, even by SIGKILL, rather than let it finish a chunk
    nobody will read and print a broken-pipe traceback. Linux only (``prctl``); elsewhere a no-op."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


_PR_SET_PDEATHSIG = 1


def _serve(connection: Connection, factories: list[Factory], parent: int) -> None:
    """A worker process: play the tasks that come through ``connection`` and send back each chunk (or the error that
    stopped it), until the parent sends None or goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent ends a busy worker with SIGTERM: die quietly
    die_with(parent)
    simulators: dict[int, Any] = {}
    while True:
        try:
            task = connection.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        which = task[0]
        try:
            if which not in simulators:
                simulators[which] = factories[which]()
            reply: tuple[str, Any] = ("played", play_chunk(simulators[which], task))
        except Exception as error:  # noqa: BLE001 - the parent raises it, as if the chunk had been played there
            reply = ("raised", error)
        try:
            connection.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError):  # an error that does not pickle: its text, then
            connection.send(("raised", RuntimeError(traceback.format_exc())))


class _Worker:
    """One worker process of :meth:`Local.results`, with a pipe of its own.

    A pipe per worker is what makes a worker's death always noticed: when a worker dies, even
    halfway through sending a chunk, its end of the pipe closes and the parent reads the end
    of it. (Python's ProcessPoolExecutor shares one result pipe between its workers: a worker
    killed halfway through a message left the pool waiting forever for the rest of it.)
    """

    def __init__(self, context: Any, factories: list[Factory]):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, factories, os.getpid()), name="workbench worker")
        self.process.start()
        theirs.close()  # the worker holds the only other end: its death closes the pipe
        self.holds: deque[int] = deque()  #: the positions of the tasks it was given and has not answered, in order

    def give(self, position: int, task: Task) -> None:
        """Send the worker a task; :class:`WorkerDied` if it is gone (its end of the pipe closed)."""
        try:
            self.connection.send(task)
        except OSError:  # BrokenPipeError, ConnectionResetError: never the records' file (it said so, exit 1)
            raise self.died() from None
        self.holds.append(position)

    def answer(self) -> Chunk:
        """The chunk of the oldest task it holds; :class:`WorkerDied` if it died before sending all of it."""
        try:
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            raise self.died() from None
        self.holds.popleft()
        if kind == "raised":
            raise value
        return value  # type: ignore[no-any-return]

    def died(self) -> WorkerDied:
        """The worker is gone: how it ended, as the system tells (by a signal, or by itself with an exit code)."""
        self.process.join(timeout=5.0)
        code = self.process.exitcode
        if code is None:
            how = "stopped answering during the run"
        elif code == -signal.SIGKILL:
            how = "was killed during the run (by the system, out of memory?, or by another program)"
        elif code < 0:
            how = f"was stopped during the run by {signal.Signals(-code).name} (from another program, or the system)"
        else:
            how = f"ended during the run by itself, with exit code {code}"
        return WorkerDied(f"a worker process {how}; nothing was written")

    def end(self) -> None:
        """Let the worker go: at once when it is busy (its chunks are no longer wanted), else when it has read None."""
        if self.holds or not self.process.is_alive():
            self.process.terminate()
        else:
            with contextlib.suppress(OSError):
                self.connection.send(None)
        self.process.join(timeout=5.0)
        if self.process.exitcode is None:  # stopped (SIGSTOP) or stuck: it cannot be waited for
            self.process.kill()
            self.process.join()
        self.connection.close()


def play_chunk(simulator: Any, task: Task, stop: Callable[[], bool] = _never) -> Chunk:
    """Play the games of ``task``; ``stop`` ends it early (the games played so far are kept, still a prefix)."""
    which, start, end, wanted, compiled = task
    if isinstance(simulator, _HandedOver):
        simulator = simulator.side(compiled)
    started = time.perf_counter()
    lines: list[str] = []
    scripts: list[tuple[str, str]] = []
    notations: list[str] = []
    if getattr(simulator, "batch", False):  # a batch engine plays a chunk at once, or game by game when recording
        if not wanted:
            return Chunk(which, simulator.play_range(start, end), lines, scripts, time.perf_counter() - started, [], False)
        tally, results = simulator.record_range(start, end, stop)
    else:
        tally, results = simulator.new_tally(), []
        for index in range(start, end):
            if stop():
                break
            result = simulator.play(index)
            tally.add(result)
            if wanted:
                results.append(result)
    for result in results:
        lines.append(json.dumps(result.record, separators=(",", ":")))
        if result.script is not None:
            scripts.append(result.script)
        notation: str | None = getattr(result, "notation", None)  # only a Notated family's results carry one
        if notation is not None:
            notations.append(notation)
    seconds = time.perf_counter() - started
    return Chunk(which, tally, lines, scripts, seconds, notations, not getattr(simulator, "batch", False))


#: A chunk holds about this many seconds of games once the pace is known: progress and a stop come through often.
CHUNK_SECONDS = 0.5
#: The first chunks are this small, so the first games of a slow run (recording scripts, search bots) show at once.
FIRST_CHUNK = 8


class Pace:
    """How many games go in the next chunk: a few at first, then about :data:`CHUNK_SECONDS` of work.

    Chunking never changes a result (game ``i`` is the same game in any chunk, and tallies
    merge exactly), so the sizes may follow the measured speed.
    """

    def __init__(self) -> None:
        self.size = FIRST_CHUNK

    def seen(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` took ``seconds``: aim the next ones at the target, growing at most twofold."""
        if games and seconds > 0:
            self.size = max(1, min(2 * self.size, int(games / seconds * CHUNK_SECONDS)))


def chunks(games: int, workers: int, start: int = 0, pace: Pace | None = None) -> Iterator[tuple[int, int]]:
    """Split ``range(start, start + games)`` into chunks: small enough to balance the workers (and, with a ``pace``,
    to report often), big enough to be cheap.

    >>> list(chunks(10, 1))
    [(0, 10)]
    >>> list(chunks(1000, 2))[:2]
    [(0, 63), (63, 126)]
    >>> next(chunks(10**15, 2))  # generated lazily: any number of games
    (0, 500)
    >>> list(chunks(20, 1, pace=Pace()))  # a pace starts small
    [(0, 8), (8, 16), (16, 20)]
    """
    most = games if pace is not None else 500  # a pace keeps chunks near CHUNK_SECONDS, however fast the games
    largest = max(1, min(most, -(-games // (workers * 8)) if workers > 1 else most))
    first, end = start, start + games
    while first < end:
        last = min(first + (min(largest, pace.size) if pace is not None else largest), end)
        yield first, last
        first = last


def most_workers() -> int:
    """The most worker processes a run starts on this machine: four a core, and at least 16 (more only share the
    cores, and a slip of the keyboard, ``--workers 1000``, would start a thousand processes and fill the memory)."""
    return max(16, 4 * (os.cpu_count() or 1))


def check_workers(workers: int) -> None:
    """Refuse a number of workers to start here that is not a whole number from one to :func:`most_workers`."""
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise UsageError("workers", "expected a whole number", repr(workers))
    if workers < 1:
        raise UsageError("workers", "use at least one worker", str(workers))
    if workers > most_workers():
        cores = os.cpu_count() or 1
        raise UsageError(
            "workers",
            lambda name: (
                f"this machine has {cores} core(s); use at most {most_workers()} (four a core, and never fewer than 16: "
                f"workers beyond the cores only share them; a cluster's workers are its own: {name('backend')} dask "
                f"{name('scheduler')})"
            ),
            str(workers),
        )


@dataclass(frozen=True)
class Local:
    """The default backend: ``workers`` processes of this machine (one: play here, in this process)."""

    workers: int = 1
    name: ClassVar[str] = "local"

    def __post_init__(self) -> None:
        check_workers(self.workers)

    where: ClassVar[str] = "this machine"

    def start(self) -> None:
        """Nothing to reach: a pool lives only as long as one run."""

    def close(self) -> None:
        """Nothing to let go of."""

    def results(self, factories: list[Factory], tasks: Iterable[Task], stop: Callable[[], bool]) -> Iterator[Chunk]:
        """The chunks of ``tasks`` in order, played here (one worker) or in a pool; nothing more once ``stop()``."""
        if self.workers <= 1:
            built: dict[int, Any] = {}
            for task in tasks:
                if stop():
                    return
                which = task[0]
                if which not in built:
                    built[which] = factories[which]()
                yield play_chunk(built[which], task, stop)
            return
        context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        workers: list[_Worker] = []
        try:
            workers.extend(_Worker(context, factories) for _ in range(self.workers))
            yield from _in_order(workers, iter(tasks), stop)
        except WorkerDied:
            if not _stopped_soon(stop):  # else the workers got the signal this process is about to handle
                raise
        finally:
            for worker in workers:
                worker.end()


def _in_order(workers: list[_Worker], tasks: Iterator[Task], stop: Callable[[], bool]) -> Iterator[Chunk]:
    """The chunks of ``tasks`` played by ``workers``, in the order of ``tasks``: each task goes to the worker holding
    the fewest, and at most :data:`IN_FLIGHT` a worker are out or finished and waiting for an earlier one (so memory
    stays flat however far one worker runs ahead of a slow chunk)."""
    finished: dict[int, Chunk] = {}
    given = yielded = 0
    left = True
    while not stop():
        while left and given - yielded < len(workers) * IN_FLIGHT:
            task = next(tasks, None)
            if task is None:
                left = False
                break
            min(workers, key=lambda worker: len(worker.holds)).give(given, task)
            given += 1
        if yielded in finished:
            yield finished.pop(yielded)
            yielded += 1
            continue
        if yielded == given:  # every task answered
            return
        ready = set(wait([worker.connection for worker in workers] + [worker.process.sentinel for worker in workers], 0.1))
        for worker in workers:
            if worker.connection in ready and worker.holds:
                position = worker.holds[0]
                finished[position] = worker.answer()
            elif worker.process.sentinel in ready:  # it ended without being asked, even with nothing left to send
                raise worker.died()


#: One process here: what a run uses unless told otherwise.
LOCAL = Local()


def run(
    factory: Factory,
    games: int,
    *,
    backend: Backend = LOCAL,
    records: Any | None = None,
    scripts: Callable[[str, str], None] | None = None,
    notations: Any | None = None,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] = _never,
) -> Run:
    """Play ``games`` games; ``progress`` is called with the number of games just finished.

    ``records`` (a text file) gets one JSON line per game, ``scripts`` each game's
    script (name, text) and ``notations`` (a text file) each game's notation, all in game order. When ``stop()`` turns true the run ends:
    the games finished so far (the first ones of the run) are kept, ``interrupted`` set.
    """
    started = time.perf_counter()
    tally = factory().new_tally()
    if stop():  # stopped before the run: no machine is reached (a cluster is not even started)
        return Run(tally, 0, games, 0.0, True, backend.name, 0)
    done = 0
    wanted = records is not None or scripts is not None or notations is not None
    pace = Pace()
    workers = backend.workers
    tasks = ((0, first, end, wanted, _compiled_ready(factory)) for first, end in chunks(games, workers, pace=pace))
    interpreted = 0
    hurry = _Hurry([factory], games, workers)
    for chunk in backend.results([factory], tasks, stop):
        pace.seen(chunk.tally.games, chunk.seconds)
        hurry.seen(chunk)
        tally.merge(chunk.tally)
        if records is not None:
            records.writelines(line + "\n" for line in chunk.lines)
        if scripts is not None:
            for name, text in chunk.scripts:
                scripts(name, text)
        if notations is not None:
            notations.writelines(chunk.notations)
        done += chunk.tally.games
        interpreted += chunk.tally.games if chunk.interpreted else 0
        if progress is not None:
            progress(chunk.tally.games)
    seconds = time.perf_counter() - started
    handed = interpreted if isinstance(factory, Handover) else None
    return Run(tally, done, games, seconds, done < games, backend.name, workers, handed)


def run_many(
    factories: list[Factory],
    ranges: list[tuple[int, int]],
    *,
    backend: Backend = LOCAL,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] = _never,
) -> list[Any]:
    """Play games ``ranges[i]`` (start, stop) of run ``factories[i]`` for every i, sharing one pool; the tallies.

    This is how many candidates are compared on the same game indices (common random
    numbers). A part of a comparison is worth nothing, so a stop raises :class:`Interrupted`.
    """
    tallies = [factory().new_tally() for factory in factories]
    if stop():
        raise Interrupted
    pace = Pace()
    tasks = (
        (which, start, end, False, _compiled_ready(factories[which]))
        for which, (first, last) in enumerate(ranges)
        for start, end in chunks(last - first, backend.workers, first, pace)
    )
    hurry = _Hurry(factories, sum(last - first for first, last in ranges), backend.workers)
    for chunk in backend.results(factories, tasks, stop):
        pace.seen(chunk.tally.games, chunk.seconds)
        hurry.seen(chunk)
        tallies[chunk.which].merge(chunk.tally)
        if progress is not None:
            progress(chunk.tally.games)
    if stop():
        raise Interrupted
    return tallies


def _stopped_soon(stop: Callable[[], bool], within: float = 1.0) -> bool:
    """Whether a stop comes within ``within`` seconds: a signal to the whole group ends the workers at once, and
    may reach this process's handler a moment after their deaths are noticed."""
    deadline = time.monotonic() + within
    while not stop():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)  # a pending signal's handler runs here
    return True
