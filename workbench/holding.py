"""One run at a time in an output folder.

Two runs that write into the same folder would each replace the other's files, and each
would report a set of outputs that is no longer there. So a run holds each output folder it
names from the moment it is checked to the end of the run: an advisory lock (``flock``) on the
folder itself, which leaves no file behind, even when the run is killed (the system lets go of
it with the process). A second run on a held folder is refused in one line that names the run
holding it (its process and command line, where the system says: ``/proc/locks`` on Linux).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import UsageError, display_path


@dataclass
class Hold:
    """An output folder held by this run (:func:`hold`) until :meth:`release`."""

    folder: Path
    descriptor: int

    def release(self) -> None:
        """Let the folder go (closing the descriptor ends the lock)."""
        with contextlib.suppress(OSError):
            os.close(self.descriptor)


def hold(folder: Path, parameter: str, shown: Path) -> Hold | None:
    """Hold ``folder`` (an existing folder, resolved) for this run; refused, naming ``parameter`` and the folder as
    given (``shown``), when another run holds it. None where the system has no such locks (the folder is then not
    held, as before)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        return None
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise UsageError(
            parameter,
            f"another run is writing its outputs into this folder ({holder(folder)}): wait for it to end, or choose "
            "another folder",
            display_path(shown),
        ) from None
    except OSError:  # a file system without locks (some network ones): not held, as before
        os.close(descriptor)
        return None
    return Hold(folder, descriptor)


def holder(folder: Path) -> str:
    """Who holds ``folder``, as far as the system says: ``process 1234: workbench simulate ...``."""
    found = os.stat(folder)
    device = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return "another process"
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device:
            return _process(fields[4])
    return "another process"


def _process(pid: str) -> str:
    """A process by its id, with its command line when it can be read: ``process 1234: workbench simulate ...``."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
    except OSError:
        return f"process {pid}"
    command = [
        os.path.basename(word.decode(errors="replace")) if i == 0 else word.decode(errors="replace")
        for i, word in enumerate(words)
    ]
    if len(command) > 2 and command[1] == "-m":  # python -m workbench ...
        command = command[2:]
    elif len(command) > 1 and os.path.basename(command[1]) == "workbench":  # python .venv/bin/workbench ...
        command = command[1:]
        command[0] = "workbench"
    text = " ".join(command)
    return f"process {pid}: {text[:117] + '...' if len(text) > 120 else text}"


__all__ = ["Hold", "hold", "holder"]
