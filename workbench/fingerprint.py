"""The workbench's code as one value that changes with every change of it, not only with a release.

``__version__`` (0.1.0) stays the same from one commit to the next, so it cannot tell whether
two processes run the same code. :func:`code_version` adds a hash of the installed package's
Python source: a sweep's finished points are reused only when it matches (an update that
changes the engine plays them again), and a Dask worker that runs other code is refused
before any game.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from workbench import __version__

#: The package's folder: its Python files are the code that plays and counts the games.
PACKAGE = Path(__file__).resolve().parent


@cache
def code_version() -> str:
    """``<version>+<12 hex digits>``: the version and a SHA-256 of every Python file of the installed package, by
    its path inside the package and its text (not its date: two installations of the same code agree).

    >>> code_version().startswith(__version__ + "+")
    True
    """
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        digest.update(f"{path.relative_to(PACKAGE).as_posix()}\n".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return f"{__version__}+{digest.hexdigest()[:12]}"


__all__ = ["PACKAGE", "code_version"]
