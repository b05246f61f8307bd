"""People at the table: the decisions a game asks of a person's seat, in words, and who answers them. Family-agnostic.

A family's engine asks every seat's decider; a person's seat gets the family's own
decider for people (``Family.play(..., people=...)``), which turns each call into a
:class:`Question` (what is asked, the options in words, the dice, every player's
holdings, what happened since) and hands it to an :data:`Answer`: the terminal's
numbered prompt (``workbench play --human``) or the studio's buttons. The engine
checks the chosen option as it checks a bot's; the game is the same code path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.errors import Problem, UsageError, WorkbenchError


@dataclass(frozen=True)
class Question:
    """One decision of a person's seat, as the person sees it."""

    seat: int
    round: int
    kind: str  #: the family's name of the decision (``guide``, ``market``, ``dice``, ...)
    prompt: str  #: what is asked, in a sentence
    options: tuple[str, ...]  #: each option in words, in the order the answer counts them (from 0)
    dice: tuple[int, ...]  #: the dice as they show now (none before a roll)
    table: tuple[list[str], list[list[str]]]  #: every player's holdings: headers and rows
    said: tuple[str, ...]  #: what happened since this seat's last question, one line per event
    seen: int = 0  #: events of the game's log the person has been told of, with this question

    def to_dict(self) -> dict[str, Any]:
        """The question as plain data (the studio's play panel)."""
        headers, rows = self.table
        return {
            "seat": self.seat,
            "round": self.round,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": list(self.options),
            "dice": list(self.dice),
            "table": {"headers": headers, "rows": rows},
        }


#: Who answers a person's questions: the index of the chosen option (from 0), or :class:`Left` raised.
Answer = Callable[[Question], int]


class Left(WorkbenchError):
    """The person stopped answering (the input ended, the page started another game): the game stops unfinished."""

    def __init__(self, message: str) -> None:
        super().__init__([Problem(None, None, "", message)])


class Asking:
    """What a family's decider for people shares: the seat, its answer, and the events it has already shown.

    ``ask`` puts one decision to the person; a family's decider calls it from each of its
    decision methods with the options in words and maps the index back to the engine's option.
    """

    def __init__(self, seat: int, answer: Answer, describe: Callable[[dict[str, Any]], str]):
        self.seat = seat
        self.answer = answer
        self.describe = describe
        self.shown = 0  #: events of the log already put to the person

    def ask(
        self,
        events: Sequence[dict[str, Any]],
        round_: int,
        kind: str,
        prompt: str,
        options: Sequence[str],
        dice: Sequence[int],
        table: tuple[list[str], list[list[str]]],
    ) -> int:
        """Put the decision to the person and return the index of the option chosen (checked: one of the options)."""
        said = tuple(self.describe(event) for event in events[self.shown :])
        self.shown = len(events)
        question = Question(self.seat, round_, kind, prompt, tuple(options), tuple(dice), table, said, self.shown)
        choice = self.answer(question)
        if not (isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(options)):
            raise ValueError(f"an answer is an option's index, from 0 to {len(options) - 1}, not {choice!r}")
        return choice


def check_seats(people: Sequence[int], players: int) -> None:
    """Refuse seats of people that are not at the table (seats count from 0)."""
    for seat in people:
        if not 0 <= seat < players:
            raise UsageError("people", f"the seats are numbered 0 to {players - 1} at a table of {players}", str(seat))
