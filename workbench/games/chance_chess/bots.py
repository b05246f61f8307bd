"""Chance Chess bots: random, greedy (material after one ply) and search (expectimax over the next card draws).

Each bot draws its chance from its own RNG (``stream(seed, index, "bot", seat)``) and decides from its
:class:`~workbench.games.chance_chess.engine.View` only (the position and the count of each card left in the deck);
moves come from python-chess's generator, as the engine's do.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import chess

from workbench.games.chance_chess.engine import View
from workbench.games.chance_chess.schema import CARDS, PIECES, Persona

#: Material in centipawns by piece type (the king is never taken).
VALUES: dict[chess.PieceType, int] = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 300,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}
#: What a checkmate is worth, beyond any material.
MATE = 1_000_000.0
#: The cards that move pieces, in the order of CARDS.
MOVERS = tuple(card for card in CARDS if card != "reshuffle")


def material(board: chess.Board, colour: chess.Color) -> int:
    """``colour``'s material minus the other side's, in centipawns.

    >>> material(chess.Board(), chess.WHITE), material(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), chess.BLACK)
    (0, -500)
    """
    mine, theirs = board.occupied_co[colour], board.occupied_co[not colour]
    total = 0
    for piece, value in VALUES.items():
        if value:
            mask = board.pieces_mask(piece, chess.WHITE) | board.pieces_mask(piece, chess.BLACK)
            total += value * ((mask & mine).bit_count() - (mask & theirs).bit_count())
    return total


def gain(board: chess.Board, move: chess.Move) -> int:
    """The material a move wins for its side: the piece it takes and what a promotion adds (centipawns).

    >>> gain(chess.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), chess.Move.from_uci("b7b8q"))
    800
    """
    won = 0
    if board.is_en_passant(move):
        won = VALUES[chess.PAWN]
    else:
        taken = board.piece_type_at(move.to_square)
        if taken is not None:
            won = VALUES[taken]
    if move.promotion:
        won += VALUES[move.promotion] - VALUES[chess.PAWN]
    return won


def may_check(board: chess.Board, move: chess.Move) -> bool:
    """A cheap necessary condition for a move to give check (``board.gives_check`` plays the move to know): the piece
    lands where it could attack the other king, or leaves a line through that king open behind it; castling, en
    passant and promotion are always looked at.

    >>> board = chess.Board("4k3/8/8/8/8/8/8/R3K2N w - - 0 1")
    >>> may_check(board, chess.Move.from_uci("a1a8")), may_check(board, chess.Move.from_uci("h1g3"))
    (True, False)
    """
    king = board.king(not board.turn)
    if king is None or move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    if chess.BB_RAYS[move.from_square][king]:  # a line through the king opens behind the piece
        return True
    piece = board.piece_type_at(move.from_square)
    if piece == chess.KNIGHT:
        return bool(chess.BB_KNIGHT_ATTACKS[move.to_square] & chess.BB_SQUARES[king])
    if piece == chess.PAWN:
        return bool(chess.BB_PAWN_ATTACKS[board.turn][move.to_square] & chess.BB_SQUARES[king])
    return piece != chess.KING and bool(chess.BB_RAYS[move.to_square][king])


def mates(board: chess.Board, move: chess.Move) -> bool:
    """Whether the move checkmates (in Chance Chess as in chess: a check with no legal move out of it)."""
    if not may_check(board, move) or not board.gives_check(move):
        return False
    board.push(move)
    try:
        return not any(board.generate_legal_moves())
    finally:
        board.pop()


class RandomBot:
    """A uniformly random move the card allows (it never passes by choice); a random free move out of check."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    @classmethod
    def of(cls, persona: Persona, rng: random.Random) -> RandomBot:
        """The random policy's bot (it reads no parameter of ``persona``)."""
        return cls(rng)

    def move(self, view: View, card: str, moves: Sequence[chess.Move]) -> chess.Move | None:
        return self.rng.choice(moves)

    def free(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        return self.rng.choice(moves)


class GreedyBot:
    """The move with the best material balance after it (a checkmate first), ties broken at random; never passes
    (a move never loses material within its own ply)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    @classmethod
    def of(cls, persona: Persona, rng: random.Random) -> GreedyBot:
        """The greedy policy's bot (it reads no parameter of ``persona``)."""
        return cls(rng)

    def _best(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        board = view.board
        scored = [(MATE if mates(board, move) else gain(board, move), move) for move in moves]
        top = max(score for score, _ in scored)
        return self.rng.choice([move for score, move in scored if score == top])

    def move(self, view: View, card: str, moves: Sequence[chess.Move]) -> chess.Move | None:
        return self._best(view, moves)

    def free(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        return self._best(view, moves)


class SearchBot:
    """Expectimax over the next card draws: its move for the card drawn, then (``depth`` 2) the other side's best
    reply for each card it may draw, weighted by the cards left in the deck, and so on.

    A position is judged by material and mobility: material (centipawns) plus ``mobility`` per move the side to
    move at the node judged has beyond the other side's (both counted once per node, so a position reached by one
    more ply is judged with the mobility of the position it came from). A checkmate is worth more than any
    material. A check is answered by the checked side's best free move, judged one ply deep. At most ``budget``
    positions are expanded per decision; past it, the rest are judged without looking further. Ties are broken at
    random.
    """

    def __init__(self, persona: Persona, rng: random.Random):
        self.depth = persona.depth
        self.budget = persona.budget
        self.weight = persona.mobility
        self.rng = rng
        self.spent = 0
        self.me: chess.Color = chess.WHITE
        self.odds: list[tuple[str, float]] = []

    def move(self, view: View, card: str, moves: Sequence[chess.Move]) -> chess.Move | None:
        board = self._begin(view)
        judged = self._judged(board, None)
        values = self._children(board, moves, self.depth - 1, judged)
        passing = self._pass_value(board, self.depth - 1, judged)
        return self._pick([(value, move) for move, value in values.items()] + [(passing, None)])

    def free(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        board = self._begin(view)
        values = self._children(board, moves, 0, self._judged(board, moves))
        chosen = self._pick([(value, move) for move, value in values.items()])
        assert chosen is not None
        return chosen

    def _begin(self, view: View) -> chess.Board:
        self.spent = 0
        self.me = view.colour
        left = view.left
        counts = [(card, left[card]) for card in MOVERS if left[card]]
        total = sum(n for _, n in counts)
        self.odds = [(card, n / total) for card, n in counts] if total else [("any", 1.0)]
        return view.board

    def _pick(self, scored: list[tuple[float, chess.Move | None]]) -> chess.Move | None:
        top = max(value for value, _ in scored)
        return self.rng.choice([move for value, move in scored if value >= top - 1e-9])

    def _mobility(self, board: chess.Board, moves: Sequence[chess.Move] | None) -> float:
        """The mobility term of a node, for this bot: its weight times (this bot's moves - the other side's)."""
        to_move = len(moves) if moves is not None else board.legal_moves.count()
        waiting = 0  # a side in check cannot hand the move over: the other side's moves are not counted then
        if not board.is_check():
            board.push(chess.Move.null())
            waiting = board.legal_moves.count()
            board.pop()
        diff = to_move - waiting
        return self.weight * (diff if board.turn == self.me else -diff)

    def _leaf(self, board: chess.Board, move: chess.Move, judged: float) -> float:
        """A position one move after ``board`` (judged ``judged`` as it stands), judged without playing the move: the
        material it wins; a checkmate decided."""
        if mates(board, move):
            return MATE if board.turn == self.me else -MATE
        won = gain(board, move)
        return judged + (won if board.turn == self.me else -won)

    def _judged(self, board: chess.Board, moves: Sequence[chess.Move] | None) -> float:
        """The position as it stands: material and mobility."""
        return material(board, self.me) + self._mobility(board, moves)

    def _children(self, board: chess.Board, moves: Sequence[chess.Move], depth: int, judged: float) -> dict[chess.Move, float]:
        """The value of each move of the side to move, looking ``depth`` card draws further."""
        return {move: self._after(board, move, depth, judged) for move in moves}

    def _after(self, board: chess.Board, move: chess.Move, depth: int, judged: float) -> float:
        if depth <= 0 or self.spent >= self.budget:
            return self._leaf(board, move, judged)
        self.spent += 1
        board.push(move)
        try:
            replies = list(board.generate_legal_moves())
            if board.is_check():
                if not replies:
                    return MATE if board.turn != self.me else -MATE
                return self._best(board, self._children(board, replies, 0, self._judged(board, replies)).values())
            return self._turn(board, replies, depth)
        finally:
            board.pop()

    def _pass_value(self, board: chess.Board, depth: int, judged: float) -> float:
        if depth <= 0 or self.spent >= self.budget:
            return judged
        self.spent += 1
        board.push(chess.Move.null())
        try:
            return self._turn(board, list(board.generate_legal_moves()), depth)
        finally:
            board.pop()

    def _turn(self, board: chess.Board, moves: list[chess.Move], depth: int) -> float:
        """A turn of the side to move: its best answer to each card it may draw, weighted by the card's chance."""
        if not moves:
            return 0.0  # stalemate: a draw
        judged = self._judged(board, moves)
        values = self._children(board, moves, depth - 1, judged)
        passing = self._pass_value(board, depth - 1, judged)
        by_piece: dict[chess.PieceType, list[float]] = {}
        for move, value in values.items():
            piece = board.piece_type_at(move.from_square)
            assert piece is not None
            by_piece.setdefault(piece, []).append(value)
        expected = 0.0
        for card, chance in self.odds:
            options = list(values.values()) if card == "any" else by_piece.get(PIECES[card], [])
            expected += chance * self._best(board, [*options, passing])
        return expected

    def _best(self, board: chess.Board, values: Iterable[float]) -> float:
        """The best of ``values`` for the side to move: the highest for this bot, the lowest for the other."""
        return max(values) if board.turn == self.me else min(values)


__all__ = [
    "MATE",
    "VALUES",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "gain",
    "material",
    "mates",
    "may_check",
]
