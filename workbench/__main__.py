"""The ``workbench`` command, and ``python -m workbench``."""

import os
import signal


def _quit(signum: int, frame: object) -> None:
    """While this module loads (before :func:`main`): a stop ends the process at once, said, with nothing to undo."""
    os.write(2, b"interrupted\n")
    os._exit(130)


def _while_loading() -> dict[int, object]:
    """Stop quietly while this module loads; the handlers found, to put back once it is loaded (a program that
    imports it keeps its own). None set from another thread than the main one, where they cannot be."""
    try:
        return {signum: signal.signal(signum, _quit) for signum in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:
        return {}


_FOUND = _while_loading()

import atexit  # noqa: E402 - each import below runs with the handlers above: a Ctrl-C in them is said, not a traceback
import contextlib  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from types import FrameType  # noqa: E402
from typing import NoReturn  # noqa: E402

from workbench.errors import BROKEN_PIPE  # noqa: E402

for _signum, _handler in _FOUND.items():
    signal.signal(_signum, _handler)  # type: ignore[arg-type]  # as signal.signal gave it


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _swallowed(unraisable: "sys.UnraisableHookArgs") -> None:
    """A stop raised where Python can only ignore an exception (a finaliser, a weakref callback such as the import
    system's locks) is raised again a millisecond later, in the command's own code (again if it lands in another such
    place); any other exception is said as Python says it."""
    if unraisable.exc_type is None or not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    try:
        signal.signal(signal.SIGALRM, _stop)
        signal.setitimer(signal.ITIMER_REAL, 0.001)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM (Windows): the main thread is told
        import _thread

        _thread.interrupt_main()


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
    started with them ignored (``command &`` in a script, ``nohup``): while this module loads, each ends the process
    at once, said (:func:`_quit`); then each raises KeyboardInterrupt until a run installs its own stop handling, and
    one that Python swallowed (:func:`_swallowed`) is raised again. (Before this module loads, in Python's own
    start-up, a few hundredths of a second, a signal is Python's: it ends the process, or is ignored if the process
    was started ignoring it.) The command line is loaded here, so that a Ctrl-C during start-up ends quietly; a
    KeyboardInterrupt that still gets out of it (one raised while it was already ending) ends with 130 too, never
    with Python's traceback or its death by the signal (``python -m workbench`` re-raises an uncaught one)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    sys.unraisablehook = _swallowed
    _whole_writes()
    code: int | str | None = 0
    try:
        from workbench.cli import main as command_line

        command_line()
    except KeyboardInterrupt:  # before the command line took over (loading it), or as it was ending: said all the same
        with contextlib.suppress(OSError):
            os.write(2, b"interrupted\n")
        code = 130
    except SystemExit as exit:
        code = exit.code
    _leave(code)


def _leave(code: int | str | None) -> NoReturn:
    """End the process as ``sys.exit(code)`` would, but without Python's teardown of every module the command
    imported: a third of a second after the last line, in which a Ctrl-C could only be ignored. The output is
    flushed (a reader gone by then: 141, as anywhere else) and the exit handlers run (a cluster's, the worker
    processes'); a thread still at work that Python would wait for (a finished command leaves none), the usual way."""
    if isinstance(code, str):  # as sys.exit says it
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(code + "\n")
        code = 1
    status = code or 0
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            status = status or BROKEN_PIPE
        except (OSError, ValueError):  # closed, or no room: nothing more can be said there
            pass
    if any(not thread.daemon for thread in threading.enumerate() if thread is not threading.main_thread()):
        sys.exit(status)
    atexit._run_exitfuncs()
    os._exit(status)


if __name__ == "__main__":
    main()
