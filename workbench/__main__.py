"""The ``workbench`` command, and ``python -m workbench``."""

import contextlib
import io
import os
import signal
import sys
from types import FrameType


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


class _FlushedText(io.TextIOWrapper):
    """Text written through a buffer, flushed at each write: unbuffered to the reader, but whole."""

    def write(self, text: str) -> int:
        written = super().write(text)
        self.flush()
        return written


def _whole_writes() -> None:
    """Give an unbuffered standard output or error (``PYTHONUNBUFFERED``, ``python -u``) a buffer that is flushed at each
    write. Unbuffered, a write cut short by a signal while a slow reader holds up the pipe sends only its first part,
    and Python drops the rest: a table printed as a stop was heard came out cut. A buffer finishes the write."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, io.TextIOWrapper) and isinstance(stream.buffer, io.RawIOBase):
            # the original stream stays open as sys.__stdout__ (or __stderr__), so its file is not closed under us
            setattr(sys, name, _FlushedText(io.BufferedWriter(stream.buffer), encoding=stream.encoding, errors=stream.errors))


def main() -> None:
    """Entry point of the ``workbench`` script. Ctrl-C and SIGTERM stop any command from its first moment, even one
    started with them ignored (``command &`` in a script, ``nohup``): each raises KeyboardInterrupt until a run
    installs its own stop handling. (Before this runs, in Python's own start-up, a few hundredths of a second, a
    signal is Python's: it ends the process, or is ignored if the process was started ignoring it.) The command line is loaded here, so that a Ctrl-C during start-up ends quietly;
    a KeyboardInterrupt that still gets out of it (one raised while it was already ending) ends with 130 too, never
    with Python's traceback or its death by the signal (``python -m workbench`` re-raises an uncaught one)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    _whole_writes()
    try:
        from workbench.cli import main as command_line

        command_line()
    except KeyboardInterrupt:  # before the command line took over (loading it), or as it was ending: said all the same
        with contextlib.suppress(OSError):
            os.write(2, b"interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
