"""The workbench's own exceptions: each carries located problems, never CLI concerns."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One mistake in a file: where it is (file, line, key path) and what is wrong."""

    file: Path | None
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        """Render as ``file:line: key.path: message``, leaving out what is unknown.

        >>> str(Problem(Path("variants/x.yaml"), 41, "stakes.4.in", "expected 4 entries, got 3"))
        'variants/x.yaml:41: stakes.4.in: expected 4 entries, got 3'
        """
        where = ""
        if self.file is not None:
            where = f"{display_path(self.file)}:{self.line}: " if self.line else f"{display_path(self.file)}: "
        key = f"{self.path}: " if self.path else ""
        return f"{where}{key}{self.message}"


def display_path(path: Path) -> str:
    """Show a path relative to the working directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a path that cannot be resolved (a symlink loop)
        return str(path)


def players_span(low: int, high: int) -> str:
    """The player counts a variant is for, as a message says them: ``exactly 2``, ``3 to 6``."""
    return f"exactly {low}" if low == high else f"{low} to {high}"


class WorkbenchError(Exception):
    """A user-facing failure: one or more located problems."""

    def __init__(self, problems: list[Problem], note: str | None = None):
        self.problems = list(problems)
        self.note = note  #: printed after the problems, not counted as one
        super().__init__("\n".join(str(p) for p in self.problems))


class VariantError(WorkbenchError):
    """A variant file (or a file it includes) is not a valid variant."""


class ScenarioError(WorkbenchError):
    """A scenario script is invalid or breaks the rules during replay."""

    def __init__(self, problems: list[Problem], note: str | None = None):
        super().__init__(problems, note)
        #: The replay's event log up to the failure, one line per event (empty when play had not begun).
        self.trace: list[str] = []


class UsageError(WorkbenchError):
    """A command was asked for something it cannot do (bad option value, unknown game)."""

    def __init__(self, message: str):
        super().__init__([Problem(None, None, "", message)])


class IllegalDecision(Exception):
    """A decider (bot or script) answered with something the rules do not allow.

    Raised by the engine, or by a scripted decider whose script names a card it was not
    offered; the caller turns it into a located error.
    """

    def __init__(self, round_no: int, seat: int, message: str):
        self.round = round_no
        self.seat = seat
        self.message = message
        super().__init__(f"round {round_no}: seat {seat}: {message}")


class Interrupted(Exception):
    """A run that cannot keep a part of its work (a race of candidates) was stopped by a signal."""
