"""Whether the batch engine can play a variant, asked without loading it, and the effect rows its program is made of.

The batch engine (:mod:`.batch`) imports Numba, which takes about half a second; a first
run, whose compiled code is not there yet, only needs to know whether the engine could play
its variant (to say so, and to start the compiler), so it asks :func:`blocker` here. The
walk over a variant's effects is one: :class:`Writer` writes the rows of
:func:`.batch.program.compile_program` (given the kernel's numbers for each kind) and
refuses, with the same words, what the engine cannot play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.games.chance_it.effects import Batch, Effects
from workbench.games.chance_it.rules import Rules

#: Modifiers of passive cards the batch engine reads (by name, as ``PassiveEffect.modifiers`` names them).
MODIFIERS = ("chance_bonus",)


class NoBatchForm(Exception):
    """The variant (or the run) needs something the batch engine does not have; the message says what."""


class Writer:
    """Collects the rows and tables while the kinds write themselves (the :class:`Batch` they are given).

    ``op`` gives a kind's number in the kernel (raising :class:`NoBatchForm` for a kind the
    kernel was not loaded with); without it, rows are written only to find what the engine
    cannot play, and a kind's number is 0.
    """

    def __init__(self, op: Callable[[Any], int] | None = None) -> None:
        self.op = op
        self.items: list[tuple[int, ...]] = []
        self.lists: list[tuple[int, int]] = []
        self.pairs: list[tuple[int, int]] = []
        self.options: list[int] = []
        self.conds: list[tuple[int, int, int, int]] = []
        self.batch = Batch(list=self.list, amounts=self.amounts, lists=self.many, conditions=self.conditions)

    def row(self, argument: Any, kind: Any) -> tuple[int, ...]:
        """The kind's row: its number in the kernel, then the numbers it writes (five, zeros after its own)."""
        numbers = kind.batch(argument, self.batch)
        if numbers is None:
            raise NoBatchForm(f"the effect kind '{kind.tag}' has no batch form")
        op = self.op(kind) if self.op is not None else 0
        if len(numbers) > 5:
            raise NoBatchForm(f"'{kind.tag}' writes at most five numbers in the batch engine, got {len(numbers)}")
        return (op, *numbers, *(0,) * (5 - len(numbers)))

    def list(self, effects: Effects) -> int:
        """Compile the nested lists first, so that a list's id is above every list it holds (the bots value bottom-up)."""
        return self.rows([self.row(argument, kind) for _, argument, kind in effects])

    def rows(self, rows: Sequence[tuple[int, ...]]) -> int:
        self.lists.append((len(self.items), len(rows)))
        self.items.extend(rows)
        return len(self.lists) - 1

    def amounts(self, pairs: Sequence[tuple[int, int]]) -> tuple[int, int]:
        first = len(self.pairs)
        self.pairs.extend(pairs)
        return first, len(pairs)

    def many(self, lists: Sequence[Effects]) -> tuple[int, int]:
        ids = [self.list(effects) for effects in lists]
        first = len(self.options)
        self.options.extend(ids)
        return first, len(ids)

    def conditions(self, conds: Sequence[tuple[int, int, int, int]]) -> tuple[int, int]:
        first = len(self.conds)
        self.conds.extend(conds)
        return first, len(conds)


@dataclass(frozen=True)
class Written:
    """The ids of a variant's effect lists, as :func:`write` wrote them: the all-OUT rule, the CHANCE IT action, each
    face of the board and its die steps, and for each card its effects, its passive effects and its chance bonus."""

    all_out: int
    chance_it: int
    board: list[int]
    die_steps: list[int]
    cards: list[int]
    passive: list[int]
    bonus: list[int]


def write(rules: Rules, writer: Writer) -> Written:
    """Write every effect list of ``rules`` with ``writer``; :class:`NoBatchForm` for what the engine cannot play."""
    all_out = writer.list(rules.all_out)
    chance_it = writer.list(rules.chance_it)
    board = [writer.list(effects) for effects in rules.board]
    die_steps = [writer.list(effects) for effects in rules.die_steps]
    cards, passive, bonus = [], [], []
    for card in rules.cards:
        unknown = set(card.modifiers) - set(MODIFIERS)
        if unknown:
            raise NoBatchForm(f"card '{card.id}' has a modifier the batch engine does not read: {', '.join(sorted(unknown))}")
        cards.append(writer.list(card.effects))
        passive.append(writer.rows([writer.row(argument, kind) for argument, kind in card.passive]))
        bonus.append(card.modifiers.get(MODIFIERS[0], 0))
    return Written(all_out, chance_it, board, die_steps, cards, passive, bonus)


def blocker(rules: Rules) -> str | None:
    """Why the batch engine cannot play ``rules`` (None: it can), found without loading it. A process that has loaded
    the kernel asks :func:`.batch.program.compile_program` instead: the kernel knows only the kinds registered before
    it was loaded."""
    try:
        write(rules, Writer())
    except NoBatchForm as exc:
        return str(exc)
    return None
