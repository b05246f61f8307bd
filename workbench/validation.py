"""Checking a variant file (``workbench validate``): the verdict on one file.

Kept apart from :mod:`workbench.api` (which re-exports it) so that checking a file imports the loader and the file's
family, not the run machinery: ``workbench validate`` starts at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.games import load_variant


@dataclass(frozen=True)
class Validation:
    """The verdict on one variant file: its summary when valid, its problems when not."""

    path: Path
    problems: list[str]  #: ``file:line: key.path: message`` lines
    note: str | None = None  #: a remark after the problems
    title: str = ""  #: the game family's name
    name: str = ""  #: the variant's name
    summary: list[tuple[str, str]] = field(default_factory=list)  #: (label, text) lines of a valid variant

    @property
    def ok(self) -> bool:
        """Whether the file is a valid variant."""
        return not self.problems


def validate(path: str | os.PathLike[str]) -> Validation:
    """Check one variant file; never raises for a problem in the file."""
    path = Path(path)
    try:
        loaded = load_variant(path)
    except WorkbenchError as exc:
        return Validation(path, [str(p) for p in exc.problems], exc.note)
    family = loaded.family
    return Validation(path, [], None, family.title, loaded.variant.name, family.summary(loaded.variant))
