"""The workbench's own exceptions: each carries located problems, never CLI concerns."""

from __future__ import annotations

import shlex
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar


@dataclass(frozen=True)
class Problem:
    """One mistake in a file: where it is (file, line, key path) and what is wrong (``message``, as the library says
    it; ``remark``, when the words name a parameter of the call, which :meth:`text` names the caller's way)."""

    file: Path | None
    line: int | None
    path: str
    message: str
    remark: Remark | None = None

    def __str__(self) -> str:
        """Render as ``file:line: key.path: message``, leaving out what is unknown.

        >>> str(Problem(Path("variants/x.yaml"), 41, "stakes.4.in", "expected 4 entries, got 3"))
        'variants/x.yaml:41: stakes.4.in: expected 4 entries, got 3'
        """
        return self.text(as_named)

    def text(self, naming: Naming) -> str:
        """``file:line: key.path: message``, a parameter the message names named by ``naming``."""
        where = ""
        if self.file is not None:
            where = f"{display_path(self.file)}:{self.line}: " if self.line else f"{display_path(self.file)}: "
        key = f"{self.path}: " if self.path else ""
        return f"{where}{key}{self.remark.text(naming) if self.remark is not None else self.message}"


def display_path(path: Path) -> str:
    """Show a path relative to the working directory when it lies below it; quoted as a shell would take it when
    blanks at either end would not be seen (``' x.yaml': file not found``)."""
    try:
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a path that cannot be resolved (a symlink loop)
        shown = str(path)
    return shlex.quote(shown) if shown != shown.strip() else shown


def display_name(path: Path) -> str:
    """:func:`display_path` of a path as named: a link shown as itself, not as where it leads (its folder's links are
    followed)."""
    return str(Path(display_path(path.parent)) / path.name)


def players_span(low: int, high: int) -> str:
    """The player counts a variant is for, as a message says them: ``exactly 2``, ``3 to 6``."""
    return f"exactly {low}" if low == high else f"{low} to {high}"


class WorkbenchError(Exception):
    """A user-facing failure: one or more located problems. ``exit_code`` is the command line's for it (the table of
    docs/reference/outputs.md): 1, a problem with the user's input, unless a subclass says otherwise."""

    exit_code: ClassVar[int] = 1

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


#: How a caller names a parameter of the library: the library by the parameter's own name (``players``), the command
#: line by its option (``--players``), a sweep file by its key, the studio by its form field.
Naming = Callable[[str], str]
#: Why a value was refused: a sentence, or one that names other parameters through the caller's :data:`Naming`.
Reason = str | Callable[[Naming], str]


def as_named(field: str) -> str:
    """The library's own :data:`Naming`: a parameter by its name."""
    return field


@dataclass(frozen=True)
class Remark:
    """What is said of a call's parameter: ``field`` (None: of the call as a whole), the value given as the words
    show it (None: none shown) and ``reason``. A :class:`UsageError` says one when refusing; a warning is one on its own.

    ``str()`` names the parameter as the library does (``players 9: ...``); :meth:`text` as the caller does (the
    command line says ``--players 9: ...``), ``reason`` naming other parameters the same way.

    >>> remark = Remark(None, lambda name: f"3 players: {name('budget')} 300 is too small")
    >>> str(remark), remark.text(lambda field: "--" + field)
    ('3 players: budget 300 is too small', '3 players: --budget 300 is too small')
    """

    field: str | None
    reason: Reason
    value: str | None = None

    def __str__(self) -> str:
        return self.text(as_named)

    def text(self, naming: Naming) -> str:
        """The words, each parameter named by ``naming``."""
        if self.field is None:
            return self.why(naming)
        return naming(self.field) + (" " if self.value is not None else ": ") + self.detail(naming)

    def detail(self, naming: Naming) -> str:
        """The words after the parameter's name: the value given and the reason (``9: ... is for 3 to 6 players``)."""
        return f"{self.value}: {self.why(naming)}" if self.value is not None else self.why(naming)

    def why(self, naming: Naming) -> str:
        """The reason alone, other parameters named by ``naming``."""
        return self.reason(naming) if callable(self.reason) else self.reason


class UsageError(WorkbenchError):
    """A call asked for something it cannot do: a :class:`Remark` on its parameter ``field`` (``players``; None when
    the call as a whole is refused), with the ``value`` given and the ``reason``.

    >>> error = UsageError("replace_printed", lambda name: f"only with {name('write')}")
    >>> str(error), error.text(lambda field: "--" + field.replace("_", "-"))
    ('replace_printed: only with write', '--replace-printed: only with --write')
    """

    def __init__(self, field: str | None, reason: Reason, value: str | None = None):
        self.field, self.value, self.reason = field, value, reason
        self.remark = Remark(field, reason, value)
        super().__init__([Problem(None, None, "", self.text(as_named))])

    def text(self, naming: Naming) -> str:
        """The message, each parameter named by ``naming``."""
        return self.remark.text(naming)

    def detail(self, naming: Naming) -> str:
        """The message after the parameter's name (see :meth:`Remark.detail`)."""
        return self.remark.detail(naming)

    def why(self, naming: Naming) -> str:
        """The reason alone, other parameters named by ``naming``."""
        return self.remark.why(naming)

    def adding(self, words: str) -> UsageError:
        """The same refusal, ``words`` added to its reason (which variant of several it concerns)."""
        return UsageError(self.field, lambda naming: f"{self.why(naming)} {words}", self.value)


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


#: What a command says when a stop came once its results were whole: they are written, and it ends as finished.
LATE_STOP = "finished (interrupt received after the results were written)"
#: The exit code of a command whose standard output was closed by its reader: the shell's, for a SIGPIPE.
BROKEN_PIPE = 128 + signal.SIGPIPE
