"""The Dask backend: a run's chunks played on a Dask cluster, with the very results of one machine. Family-agnostic.

What travels is what :mod:`workbench.sim.runner` ships to its own processes: the run's
factories (each holds the variant's validated model, the bots and the seed: compiled
data, never a file path) are scattered once to every worker, then each chunk is a small
task, ``(factory, first game, end)``, that returns the chunk's integer tally. Game ``i``
depends only on the run's seed and ``i``, and tallies merge exactly, so the summary is
byte for byte the one a single process gives, whatever the cluster.

A worker that dies in the middle of a chunk loses only that chunk: the scheduler plays it
again elsewhere (a chunk is a pure function of its task), and the client merges each
chunk's result exactly once, in game order. A chunk that raises is retried
:data:`RETRIES` times before the run fails.

Dask and distributed are the optional ``dask`` extra (``pip install -e '.[dask]'``);
this module imports them only when a cluster is opened.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import re
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass
from itertools import islice
from types import TracebackType
from typing import Any, ClassVar

from workbench import GENERATOR
from workbench.errors import UsageError
from workbench.fingerprint import code_version
from workbench.sim.runner import (
    IN_FLIGHT,
    Chunk,
    Factory,
    Stop,
    Task,
    WorkerDied,
    check_workers,
    die_with,
    play_chunk,
    signals_held,
)

#: Times a chunk that raised is tried again before the run fails (a worker's death is the scheduler's to retry).
RETRIES = 2
#: A scheduler's address: tcp:// (or tls://) and host:port; plain host:port is tcp.
ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}")
#: How long to wait for a scheduler before saying it cannot be reached.
CONNECT_SECONDS = 10
INSTALL = "pip install -e '.[dask]' (in the workbench's folder)"


def available() -> bool:
    """Whether Dask's distributed scheduler can be imported here."""
    try:
        with signals_held():
            importlib.import_module("distributed")
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class Shipment:
    """A run's factories, sent once to every worker; ``token`` tells one run's from another's."""

    token: str
    factories: tuple[Factory, ...]


def _version() -> str:
    """On a worker: the code of the workbench it runs (:func:`workbench.fingerprint.code_version`; a worker without
    the workbench cannot even unpickle this function, one with an older one says its plain version)."""
    try:
        from workbench.fingerprint import code_version
    except ImportError:
        import workbench

        return workbench.__version__
    return code_version()


def dask_setup(worker: Any) -> None:
    """Preloaded in each worker process of a LocalCluster started here: leave the terminal's process group, so that a
    Ctrl-C (or a SIGTERM to the group) reaches only this command, which cancels the chunks and closes the cluster
    cleanly; and die with this command if it is killed outright."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.setpgid(0, 0)
    die_with(os.getppid())


@contextlib.contextmanager
def _workers_quiet() -> Iterator[None]:
    """Start a LocalCluster's worker processes with their standard error sent nowhere (their logs are Dask's, and
    what goes wrong reaches this command through the chunks' futures).

    Until :func:`dask_setup` runs, a worker is still in the terminal's process group, and a Ctrl-C then would print
    Python's traceback from it; the command's own stop handler notes the Ctrl-C all the same (a start that fails
    because of it is taken as the stop: see ``runs.ready_engine``)."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as nowhere:
            os.dup2(nowhere.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


_built = threading.local()  # on a worker: the simulators of the run it last played, per worker thread


def _play(shipment: Shipment, task: Task) -> Chunk:
    """Play one chunk on a worker, building the run's simulator once per worker thread."""
    if getattr(_built, "token", None) != shipment.token:
        _built.token, _built.simulators = shipment.token, {}
    simulators: dict[int, Any] = _built.simulators
    which = task[0]
    if which not in simulators:
        simulators[which] = shipment.factories[which]()
    return play_chunk(simulators[which], task)


class Dask:
    """Play runs on a Dask cluster: the scheduler at ``scheduler`` (``tcp://host:8786``), or, without one, a
    ``LocalCluster`` of ``workers`` processes started here (every core by default).

    The cluster is reached (or started) at the first run and kept for every later one, until :meth:`close` (or the
    end of a ``with`` block). In a notebook::

        from workbench import api
        from workbench.sim.cluster import Dask
        with Dask("tcp://scheduler:8786") as backend:
            api.simulate("variants/mine.yaml", games=1_000_000, backend=backend)
    """

    name: ClassVar[str] = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None) -> None:
        if not available():
            raise UsageError(
                None, lambda name: f"{name('backend')} dask needs Dask's distributed scheduler: install it with {INSTALL}"
            )
        if scheduler is not None and not ADDRESS.fullmatch(scheduler):
            raise UsageError("scheduler", "expected a scheduler's address, such as tcp://10.0.0.5:8786", scheduler)
        if scheduler is not None and workers is not None:
            raise UsageError(
                "workers", lambda name: f"the cluster at {name('scheduler')} has its own workers (leave out {name('workers')})"
            )
        if workers is not None:
            check_workers(workers)
        self.scheduler = scheduler
        self._wanted = workers
        self._client: Any = None
        self._cluster: Any = None
        self._levels: dict[str, int] = {}  #: Dask's loggers' levels before, while quieted

    def __enter__(self) -> Dask:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Leave the cluster (and stop the one started here). A Ctrl-C meanwhile does not break it off: the runs are
        over (a second Ctrl-C after the one that stopped a run lands here), and a LocalCluster half closed would keep
        its workers until Python's exit, seconds later, with the command's last lines unsaid."""
        client, cluster, self._client, self._cluster = self._client, self._cluster, None, None
        lost = contextlib.suppress(OSError, TimeoutError, CancelledError)  # a scheduler lost already: nothing to leave
        with Stop().on_signals(), lost:
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()
        for name, logger in self._loggers().items():
            logger.setLevel(self._levels.get(name, logging.NOTSET))
        self._levels.clear()

    @staticmethod
    def _loggers() -> dict[str, logging.Logger]:
        """Dask's distributed loggers (each may have a level of its own)."""
        names = [name for name in logging.root.manager.loggerDict if name == "distributed" or name.startswith("distributed.")]
        return {name: logging.getLogger(name) for name in ["distributed", *names]}

    def start(self) -> None:
        """Reach the scheduler (or start the LocalCluster) now, and check its workers; once."""
        if self._client is None:
            self._client = self._connect()

    @property
    def where(self) -> str:
        """The scheduler's address (a LocalCluster's too)."""
        return str(self.client.scheduler.address) + (" (a LocalCluster started here)" if self._cluster is not None else "")

    @property
    def client(self) -> Any:
        """The ``distributed.Client`` of the cluster, reached or started on first use."""
        self.start()
        return self._client

    def _connect(self) -> Any:
        distributed: Any = importlib.import_module("distributed")  # untyped: its calls are checked by the tests
        # what goes wrong is said in one line by the workbench, not in Dask's logged tracebacks
        for name, logger in self._loggers().items():
            self._levels.setdefault(name, logger.level)
            logger.setLevel(logging.CRITICAL)
        if self.scheduler is None:
            with _workers_quiet():
                self._cluster = distributed.LocalCluster(
                    n_workers=self._wanted,
                    threads_per_worker=1,  # a game is Python (or Numba without the GIL released): processes, not threads
                    processes=True,
                    dashboard_address="127.0.0.1:0",  # its web pages (health, metrics) on a free local port
                    silence_logs=logging.ERROR,
                    preload=[__name__],  # dask_setup, in every worker
                )
                client = distributed.Client(self._cluster, set_as_default=False)
        else:
            try:
                client = distributed.Client(self.scheduler, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
            except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError
                raise UsageError("scheduler", f"cannot reach the Dask scheduler ({exc})", self.scheduler) from None
        self._check_workers(client)
        return client

    def _check_workers(self, client: Any) -> None:
        """Refuse, before any game, a cluster with no workers or with workers that run another workbench."""
        if not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError):
                client.close()
                raise UsageError(
                    "scheduler", f"the scheduler has no workers (start some with: dask worker {self.scheduler})", self.scheduler
                ) from None
        found = client.run(_version, on_error="return")
        ours = code_version()
        wrong = {worker: version for worker, version in found.items() if version != ours}
        if wrong:
            client.close()
            worker, version = next(iter(sorted(wrong.items())))
            has = f"runs {version}" if isinstance(version, str) else "cannot import it"
            raise UsageError(
                "scheduler",
                f"{len(wrong)} worker(s) do not run this workbench's code ({GENERATOR} {ours}): {worker} {has}; "
                f"install it on every worker machine ({INSTALL})",
                self.scheduler,
            )

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now."""
        try:
            return max(1, int(sum(self.client.nthreads().values())))
        except (OSError, CancelledError) as exc:  # between two runs
            raise self._lost(exc) from None

    def _lost(self, exc: BaseException) -> WorkerDied:
        """The cluster was lost: said in the workbench's words (Dask's own, ``exc``, are for ``--debug``)."""
        where = f"the Dask scheduler at {self.scheduler}" if self.scheduler else "the LocalCluster's scheduler"
        return WorkerDied(
            f"the cluster was lost: {where} stopped answering, or every worker that held the run died; nothing was written"
        )

    def results(self, factories: list[Factory], tasks: Iterable[Task], stop: Callable[[], bool]) -> Iterator[Chunk]:
        """The chunks of ``tasks`` in order, played on the cluster; nothing more once ``stop()`` (the chunks not yet
        finished are cancelled)."""
        killed: type[Exception] = importlib.import_module("distributed").KilledWorker
        client = self.client
        pending: deque[Any] = deque()
        shipment = None
        queue = iter(tasks)
        try:
            room = self.workers * IN_FLIGHT
            shipment = client.scatter(Shipment(uuid.uuid4().hex, tuple(factories)), broadcast=True, hash=False)
            while True:
                pending.extend(
                    client.submit(_play, shipment, task, retries=RETRIES, pure=False)
                    for task in islice(queue, room - len(pending))
                )
                if not pending or stop():
                    return
                if not pending[0].done():  # look now and then, to notice a stop
                    time.sleep(0.02)
                    continue
                try:
                    chunk: Chunk = pending[0].result()
                except killed as exc:
                    raise WorkerDied(
                        f"Dask lost a chunk with its worker several times (killed by the system, out of memory?): {exc}; "
                        "nothing was written"
                    ) from None
                pending.popleft()
                yield chunk
        except (OSError, CancelledError) as exc:  # the scheduler is gone (CommClosedError is an OSError)
            raise self._lost(exc) from None
        finally:
            with contextlib.suppress(OSError, TimeoutError, CancelledError):
                client.cancel([*pending, *([shipment] if shipment is not None else [])])
