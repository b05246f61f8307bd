"""A person's seat at a Chance Chess game: each decision of the engine put as a question (see :mod:`workbench.play`),
the position shown as a board."""

from __future__ import annotations

from collections.abc import Sequence

import chess

from workbench.games.chance_chess.engine import Game, View
from workbench.games.chance_chess.schema import SIDES
from workbench.games.chance_chess.text import describe
from workbench.play import Answer, Asking

#: The pieces as the board shows them.
SYMBOLS = {
    piece.symbol(): piece.unicode_symbol() for piece in (chess.Piece(t, c) for t in chess.PIECE_TYPES for c in chess.COLORS)
}


def board_table(board: chess.Board) -> tuple[list[str], list[list[str]]]:
    """The position as a table: files as headers, one row per rank from 8 down to 1 (``·`` an empty square).

    >>> headers, rows = board_table(chess.Board())
    >>> " ".join(headers), " ".join(rows[0]), " ".join(rows[4])
    ('  a b c d e f g h', '8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜', '4 · · · · · · · ·')
    """
    rows = []
    for rank in range(7, -1, -1):
        row = [str(rank + 1)]
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            row.append(SYMBOLS[piece.symbol()] if piece else "·")
        rows.append(row)
    return [" ", *"abcdefgh"], rows


def options(board: chess.Board, moves: Sequence[chess.Move]) -> list[str]:
    """Each move in words: its SAN and UCI, in the order given."""
    return [f"{board.san(move)} ({move.uci()})" for move in moves]


class Person:
    """The decider of a person's seat: every decision asked through ``answer``."""

    def __init__(self, seat: int, game: Game, answer: Answer):
        self.game = game
        self.asking = Asking(seat, answer, describe)

    def _ask(self, view: View, kind: str, prompt: str, words: Sequence[str]) -> int:
        table = board_table(self.game.board)
        return self.asking.ask(self.game.events or (), view.ply, kind, prompt, words, (), table)

    def move(self, view: View, card: str, moves: Sequence[chess.Move]) -> chess.Move | None:
        board = self.game.board
        ordered = sorted(moves, key=board.san)
        piece = "any piece" if card == "any" else f"a {card}"
        prompt = f"Ply {view.ply}: you play {SIDES[view.seat]} and drew {card}: move {piece}, or pass?"
        choice = self._ask(view, "move", prompt, [*options(board, ordered), "pass"])
        return ordered[choice] if choice < len(ordered) else None

    def free(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        board = self.game.board
        ordered = sorted(moves, key=board.san)
        prompt = f"Ply {view.ply}: your king ({SIDES[view.seat]}) is in check: your free move out of check (no card)?"
        return ordered[self._ask(view, "free", prompt, options(board, ordered))]
