"""The ``workbench`` command, and ``python -m workbench``."""

import signal
import sys
from types import FrameType


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Entry point of the ``workbench`` script. Ctrl-C and SIGTERM stop any command from its first moment, even one
    started with them ignored (``command &`` in a script, ``nohup``): each raises KeyboardInterrupt until a run
    installs its own stop handling. (Before this runs, in Python's own start-up, a few hundredths of a second, a
    signal is Python's: it ends the process, or is ignored if the process was started ignoring it.) The command line is loaded here, so that a Ctrl-C during start-up ends quietly;
    a KeyboardInterrupt that still gets out of it (one raised while it was already ending) ends with 130 too, never
    with Python's traceback or its death by the signal (``python -m workbench`` re-raises an uncaught one)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    try:
        from workbench.cli import main as command_line

        command_line()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
