"""The backends ``--backend`` names, in one place. Family-agnostic.

A backend plays a run's chunks (:class:`workbench.sim.runner.Backend`); every backend plays
the same games into the same tallies, so a run's outputs differ only in their timing.
Adding one is adding its opener here; ``tests/test_backends.py`` holds every backend of
:data:`BACKENDS` to the results of the local one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from workbench.errors import UsageError
from workbench.sim.runner import Backend, Local


def _local(workers: int | None, scheduler: str | None) -> Backend:
    if scheduler is not None:
        raise UsageError(
            "scheduler", lambda name: f"a scheduler is for {name('backend')} dask (add {name('backend')} dask)", scheduler
        )
    return Local(workers if workers is not None else os.cpu_count() or 1)


def _dask(workers: int | None, scheduler: str | None) -> Backend:
    from workbench.sim.cluster import Dask  # imports nothing of Dask's until a cluster is reached

    return Dask(scheduler, workers)


#: Each backend's opener: (``--workers`` or None, ``--scheduler`` or None) -> a backend, not yet connected.
BACKENDS: dict[str, Callable[[int | None, str | None], Backend]] = {"local": _local, "dask": _dask}


@contextlib.contextmanager
def opened(backend: str, workers: int | None = None, scheduler: str | None = None) -> Iterator[Backend]:
    """The backend named ``backend`` for the length of the block, closed (a cluster left, or stopped) at its end.

    ``workers`` defaults to every core of this machine (for ``dask``, the processes of the
    ``LocalCluster`` started when no ``scheduler`` is given).
    """
    if backend not in BACKENDS:
        raise UsageError("backend", f"choose {' or '.join(BACKENDS)}", repr(backend))
    chosen = BACKENDS[backend](workers, scheduler)
    try:
        yield chosen
    finally:
        chosen.close()
