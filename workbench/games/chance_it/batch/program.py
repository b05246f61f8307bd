"""A compiled variant as the batch engine's arrays: effect rows, the board, the sheets, the cards, the supply.

Every effect kind writes its own row (:meth:`EffectKind.batch`, after the kind's number in
the kernel, ``kernel.OPS``), walked by :mod:`..batchable`'s writer; a kind with no batch
form, one registered after the kernel was loaded, or a modifier the engine does not read
makes :func:`compile_program` raise :class:`NoBatchForm` with the reason, which
``--engine auto`` reports when it falls back to the interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.batch.layout import CARD, REGION, RULE
from workbench.games.chance_it.batchable import NoBatchForm, Writer, write
from workbench.games.chance_it.rules import Rules

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Program:
    """The arrays of one variant (the kernel's ``R`` array) and what the Python side needs to read its results."""

    rules: Rules
    arrays: Ints
    card_ids: tuple[str, ...]
    lists: int  #: how many effect lists (the size of the valuation table)


def _op(kind: Any) -> int:
    """A kind's number in the kernel: its rows start with it. A kind registered after the kernel was loaded has none
    (the kernel compiles the forms of the kinds it was loaded with)."""
    compiled = k.FORMS.get(kind.tag)
    if compiled is None or compiled[0] is not kind:
        raise NoBatchForm(f"the effect kind '{kind.tag}' was registered after the batch engine was loaded")
    return k.OPS[kind.tag]


def _table(rows: Sequence[Sequence[int]], width: int = 0) -> Ints:
    """Rows of whole numbers as a 2-D array (``width`` columns when there are none)."""
    return np.array(rows, dtype=np.int64).reshape(len(rows), -1) if rows else np.zeros((0, width), dtype=np.int64)


def compile_program(rules: Rules) -> Program:
    """The batch engine's arrays for compiled rules; :class:`NoBatchForm` when it cannot play them."""
    w = Writer(_op)
    written = write(rules, w)
    most = max(rules.max_players, *rules.stakes)  # a sheet beyond players.max is allowed (and unused)
    sheets = np.zeros((2, most + 1, most + 1), dtype=np.int64)
    for n, (outs, ins) in rules.stakes.items():
        sheets[0, n, : len(outs)] = outs
        sheets[1, n, : len(ins)] = ins
    index = {card.id: i for i, card in enumerate(rules.cards)}
    ri = np.zeros(RULE.SIZE, dtype=np.int64)
    ri[RULE.DICE], ri[RULE.SIDES], ri[RULE.FORCED_AFTER] = rules.dice_count, rules.sides, rules.forced_in_after
    ri[RULE.FACE_UP], ri[RULE.RESHUFFLE], ri[RULE.END_STARS] = rules.face_up, rules.reshuffle_discard, rules.end_stars
    ri[RULE.MAX_ROUNDS], ri[RULE.DECK], ri[RULE.CARDS] = rules.max_rounds, len(rules.deck), len(rules.cards)
    ri[RULE.ALL_OUT], ri[RULE.CHANCE_IT], ri[RULE.TIES] = written.all_out, written.chance_it, len(rules.tiebreak)
    cards = [
        (k.KINDS.index(card.kind), card.face, card.cost, listed, extra, kept)
        for card, listed, extra, kept in zip(rules.cards, written.cards, written.bonus, written.passive)
    ]
    regions = {
        REGION.START: _table([rules.start]),
        REGION.TOTAL: _table([[-1 if total is None else total for total in rules.supply]]),
        REGION.OUT: sheets[0],
        REGION.IN: sheets[1],
        REGION.TIEBREAK: _table([rules.tiebreak]),
        REGION.FACES: _table([written.board, written.die_steps]),
        REGION.ITEMS: _table(w.items, 6),
        REGION.PAIRS: _table(w.pairs, 2),
        REGION.LISTS: _table(w.lists, 2),
        REGION.OPTIONS: _table([[option] for option in w.options], 1),
        REGION.CONDS: _table(w.conds, 4),
        REGION.CARDS: _table(cards, CARD.SIZE),
        REGION.DECK: _table([[index[card.id]] for card in rules.deck], 1),
    }
    width = max(RULE.SIZE, 2 * REGION.SIZE, *(table.shape[1] for table in regions.values()))
    arrays = np.zeros((2 + sum(table.shape[0] for table in regions.values()), width), dtype=np.int64)
    arrays[0, : RULE.SIZE] = ri
    row = 2
    for region in range(REGION.SIZE):
        table = regions[region]
        arrays[1, 2 * region : 2 * region + 2] = row, table.shape[0]
        arrays[row : row + table.shape[0], : table.shape[1]] = table
        row += table.shape[0]
    return Program(rules, arrays, tuple(index), len(w.lists))
