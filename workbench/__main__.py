"""The ``workbench`` command, and ``python -m workbench``."""

import sys


def main() -> None:
    """Entry point of the ``workbench`` script: the command line, loaded here so that a Ctrl-C during start-up ends
    quietly; a KeyboardInterrupt that still gets out of it (one raised while it was already ending) ends with 130 too,
    never with Python's traceback or its death by the signal (``python -m workbench`` re-raises an uncaught one)."""
    try:
        from workbench.cli import main as command_line

        command_line()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
