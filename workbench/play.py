"""People at the table: the decisions a game asks of a person's seat, in words, and who answers them; and, for a game
played with real dice and cards (``workbench record``), what chance brought, entered as it happens. Family-agnostic.

A family's engine asks every seat's decider; a person's seat gets the family's own
decider for people (``Family.play(..., people=...)``), which turns each call into a
:class:`Question` (what is asked, the options in words, the dice, every player's
holdings, what happened since) and hands it to an :data:`Answer`: the terminal's
numbered prompt (``workbench play --human``) or the studio's buttons. The engine
checks the chosen option as it checks a bot's; the game is the same code path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

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
    name: str = ""  #: who sits at the seat, when the table has names (a game entered at a table)

    def fresh(self, told: int) -> tuple[str, ...]:
        """The lines of :attr:`said` after the first ``told`` events of the game's log: what a table of several
        people's seats has not been told yet (one seat's question tells what another's already did)."""
        return fresh(self.said, self.seen, told)

    def to_dict(self) -> dict[str, Any]:
        """The question as plain data (the studio's play panel)."""
        headers, rows = self.table
        return {
            "seat": self.seat,
            "name": self.name,
            "round": self.round,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": list(self.options),
            "dice": list(self.dice),
            "table": {"headers": headers, "rows": rows},
        }


def fresh(said: tuple[str, ...], seen: int, told: int) -> tuple[str, ...]:
    """The lines of ``said`` (the last events of a log of ``seen``) after its first ``told`` events."""
    return said[len(said) - max(0, seen - told) :] if seen > told else ()


#: A card as a family names it (an id, a number).
T = TypeVar("T")

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


@dataclass(frozen=True)
class Chance:
    """What chance brought at a table, for the person recording the game to enter: dice (``count`` faces of 1 to
    ``sides``, in any order) or one card turned up (one of ``options``; a card is named by its number, its name or
    its id, as ``names`` give them)."""

    round: int
    kind: str  #: the family's name of the chance point (``roll``, ``reroll``, ``test``, ``card``, ...)
    prompt: str  #: what to enter, in a sentence
    count: int = 0  #: dice to enter (none for a card)
    sides: int = 0
    options: tuple[str, ...] = ()  #: the cards that may come up, in words
    names: tuple[tuple[str, ...], ...] = ()  #: for each option, the words that name it (its name, its id)
    numbered: bool = True  #: a card may be named by its place in the list (not where cards are numbers themselves)
    said: tuple[str, ...] = ()  #: what happened since the last entry, one line per event
    seen: int = 0  #: events of the game's log told, with this entry

    def fresh(self, told: int) -> tuple[str, ...]:
        """The lines of :attr:`said` after the first ``told`` events of the game's log (see :meth:`Question.fresh`)."""
        return fresh(self.said, self.seen, told)

    def read(self, text: str) -> tuple[int, ...]:
        """An entry checked as it is made: the faces of the dice, or the index of the card (from 0); a
        :class:`ValueError` saying what is wrong with any other entry.

        >>> Chance(1, "roll", "the dice", count=2, sides=6).read("6, 1")
        (6, 1)
        >>> Chance(1, "roll", "the dice", count=2, sides=6).read("6 7")
        Traceback (most recent call last):
        ...
        ValueError: 7 is not a face of a 6-sided die
        """
        words = text.replace(",", " ").split()
        if self.options:
            return (self._card(" ".join(words)),)
        if not all(word.isascii() and word.isdigit() and len(word) <= 3 for word in words):
            raise ValueError(f"type the {self._dice} as numbers from 1 to {self.sides}, separated by spaces")
        faces = tuple(int(word) for word in words)
        if len(faces) != self.count:
            asked = "one die is asked for" if self.count == 1 else f"{self.count} dice are asked for"
            raise ValueError(f"{asked}, and {len(faces)} {'was' if len(faces) == 1 else 'were'} typed")
        for face in faces:
            if not 1 <= face <= self.sides:
                raise ValueError(f"{face} is not a face of a {self.sides}-sided die")
        return faces

    def to_dict(self) -> dict[str, Any]:
        """The entry as plain data (the studio's playtest panel)."""
        return {
            "round": self.round,
            "kind": self.kind,
            "prompt": self.prompt,
            "count": self.count,
            "sides": self.sides,
            "options": list(self.options),
            "numbered": self.numbered,
        }

    @property
    def _dice(self) -> str:
        return "die" if self.count == 1 else "dice"

    def _card(self, text: str) -> int:
        count = len(self.options)
        if self.numbered and text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= count:
            return int(text) - 1
        wanted = text.casefold()
        for index, names in enumerate(self.names):
            if wanted in (name.casefold() for name in names):
                return index
        how = f"type a number from 1 to {count}, or its name" if self.numbered else "type its name as listed"
        raise ValueError(f"{text[:40]!r} is not one of the cards that may come up: {how}")


#: Who enters what chance brought at a table: the entry of :meth:`Chance.read` (or :class:`Left` raised).
Enter = Callable[[Chance], tuple[int, ...]]


@dataclass(frozen=True)
class Table:
    """A game played by people with real dice and cards, entered as it happens: every seat's decisions through
    ``answer``, what chance brought through ``enter``."""

    answer: Answer
    enter: Enter

    names: tuple[str, ...] = ()  #: who sits at each seat, from seat 0 (or none)

    def asked(self, question: Question) -> int:
        """``answer``, except for a question of one option (a seat forced IN): it is taken without asking. The
        question names who sits at the seat, when the table has names."""
        if len(question.options) == 1:
            return 0
        name = self.names[question.seat] if question.seat < len(self.names) else ""
        return self.answer(replace(question, name=name) if name else question)

    def card(
        self,
        round_: int,
        prompt: str,
        left: Mapping[T, int],
        names: Callable[[T], tuple[str, ...]],
        *,
        held: str = "the deck",
        numbered: bool = True,
        news: tuple[tuple[str, ...], int] = ((), 0),
    ) -> T:
        """The card that came up, asked through ``enter`` when more than one kind may: ``left`` holds each kind still
        there with its count, in the order to offer them; ``names`` gives the words that name a kind, the first as
        it is offered (``held``: where the cards are, as the offer says it; ``news``: what happened since the last
        entry, and the events of the log told with it)."""
        kinds = list(left)
        if len(kinds) == 1:
            return kinds[0]
        options = tuple(f"{names(kind)[0]} ({left[kind]} in {held})" for kind in kinds)
        said, seen = news
        chance = Chance(
            round_, "card", prompt, options=options, names=tuple(map(names, kinds)), numbered=numbered, said=said, seen=seen
        )
        (index,) = self.enter(chance)
        return kinds[index]


def check_seats(people: Sequence[int], players: int) -> None:
    """Refuse seats of people that are not at the table (seats count from 0)."""
    for seat in people:
        if not 0 <= seat < players:
            raise UsageError("people", f"the seats are numbered 0 to {players - 1} at a table of {players}", str(seat))
