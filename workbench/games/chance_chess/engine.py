"""The Chance Chess rules interpreter: chess positions, moves and legality from python-chess, the cards from here.

Every shuffle and every card drawn comes from a :class:`ChanceSource` and every choice from a :class:`Decider` per seat (seat 0 plays white, seat 1 black), both passed in: a replay is a scripted
source with scripted deciders, a simulation seeded RNGs with bots; the same code.

The normative reading of the published rules:

1. The deck is shuffled; the side to move in the start position (white) takes the first turn.
2. A turn: the player draws the top card and moves a piece of that type (any piece for ``any``), or passes; with no
   legal move of that type the pass is automatic, and a player may pass by choice. The card then goes to the
   discard pile. Captures, promotion and en passant are moves of their piece, so they need its card; castling is a
   king move, so it needs a king card (or ``any``, which counts for the king too).
3. The reshuffle card: every card (the discard pile, the rest of the deck and the reshuffle card) is shuffled into
   a new deck, and the same player draws again. A deck that runs out is replaced by the discard pile, shuffled.
4. A player whose king is in check makes one free move that gets out of check (any legal move, no card) before
   anything else happens; if no legal move gets out of check, it is checkmate and the other player wins. Then the
   player whose turn it was takes it: the checked player draws for its own turn. (A free move that gives check is
   answered at once by the other player's free move, and the turn still belongs to the checked player.)
5. The game ends by checkmate; a draw by stalemate (the player to take a turn has no legal move at all),
   insufficient material, the fifty-move rule (100 plies in a row without a capture or a pawn move, passes counted,
   from the start position's halfmove clock), threefold repetition (the same position, side to move, castling and en
   passant rights, for the third time, counted as the side to move next finds it after a move; the start position
   counts; a pass repeats a position without counting), or after ``max_plies`` plies. The draws are checked before
   a turn; a ply is a turn (a move or a pass) or a free move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import chess

from workbench.errors import IllegalDecision
from workbench.games.base import Event, EventLog, SeatView
from workbench.games.chance_chess.schema import CARDS, PIECES, SIDES, Variant
from workbench.sim.seeding import stream

#: Why a game ends, in the order tables list them.
END_REASONS = ("checkmate", "stalemate", "insufficient_material", "fifty_moves", "repetition", "max_plies")
#: Plies without a capture or a pawn move that end the game (the fifty-move rule: fifty moves of each side).
FIFTY_MOVES = 100
#: The named points of chance, each with a stream of its own in :meth:`RandomChance.streams`.
POINTS: tuple[str, ...] = ("deal", "reshuffle", "turnover")
#: The piece names by python-chess's piece type.
PIECE_NAMES: dict[chess.PieceType, str] = {piece: name for name, piece in PIECES.items()}


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the engine needs from a variant, as plain values."""

    deck: tuple[str, ...]  #: every card with its copies, in the order of CARDS
    start: str  #: the start position's FEN
    max_plies: int


def compile_variant(variant: Variant) -> Rules:
    """Compile a validated variant for the engine."""
    deck = tuple(card for card, copies in variant.deck.cards.copies().items() for _ in range(copies))
    return Rules(deck, variant.start, variant.max_plies)


class ChanceSource(Protocol):
    """Every shuffle of a game, at its named point (the top of a deck is its last item), and every draw."""

    def deal(self, deck: list[str]) -> None:
        """Shuffle the deck in place at setup."""

    def reshuffle(self, deck: list[str]) -> None:
        """The reshuffle card: shuffle every card in place into a new deck."""

    def turnover(self, deck: list[str]) -> None:
        """The deck ran out: shuffle the old discard pile in place into a new deck."""

    def draw(self, deck: list[str]) -> str:
        """The card that comes up, taken out of ``deck``: its top one (:func:`top`), or, for a game entered at a
        table, the one the person recording says came up."""


def top(deck: list[str]) -> str:
    """The top card of the deck, taken off it: what a draw from a shuffled deck gives."""
    return deck.pop()


class RandomChance:
    """Chance from seeded RNGs that belong to this game alone, one stream per named point.

    >>> a, b = RandomChance.streams(1, 0), RandomChance.streams(1, 0)
    >>> x, y = list("abcdef"), list("abcdef")
    >>> a.reshuffle(list("xyz")); a.deal(x); b.deal(y); x == y  # a reshuffle does not move the deal
    True
    """

    __slots__ = ("_deal", "_reshuffle", "_turnover")

    def __init__(self, deal: random.Random, reshuffle: random.Random, turnover: random.Random):
        self._deal, self._reshuffle, self._turnover = deal, reshuffle, turnover

    @classmethod
    def streams(cls, seed: int, index: int) -> RandomChance:
        """Game ``index`` of a run with ``seed``: a stream per point, from ``stream(seed, index, "chance", point)``."""
        return cls(*(stream(seed, index, "chance", point) for point in POINTS))

    def deal(self, deck: list[str]) -> None:
        self._deal.shuffle(deck)

    def reshuffle(self, deck: list[str]) -> None:
        self._reshuffle.shuffle(deck)

    def turnover(self, deck: list[str]) -> None:
        self._turnover.shuffle(deck)

    def draw(self, deck: list[str]) -> str:
        return top(deck)


class Decider(Protocol):
    """Makes every choice for one seat; bots, people and scenario scripts implement it. The engine checks each
    answer and raises :class:`~workbench.errors.IllegalDecision` for one the rules do not allow."""

    def move(self, view: View, card: str, moves: Sequence[chess.Move]) -> chess.Move | None:
        """A move the drawn ``card`` allows (one of ``moves``, never empty), or None to pass."""

    def free(self, view: View, moves: Sequence[chess.Move]) -> chess.Move:
        """The free move out of check (one of ``moves``: every legal move, never empty)."""


class View(SeatView["Game"]):
    """What one seat may see when it decides: the position, the plies so far and the cards left in the deck (the
    discard pile is face up, so their count is public); never the deck's order."""

    __slots__ = ()

    @property
    def board(self) -> chess.Board:
        """A copy of the position, the seat to move (a bot may push and pop moves on it)."""
        return self._game.board.copy(stack=False)

    @property
    def colour(self) -> chess.Color:
        """The seat's colour (``chess.WHITE`` for seat 0)."""
        return seat_colour(self.seat)

    @property
    def ply(self) -> int:
        """The ply being played (1 for the first)."""
        return self._game.ply

    @property
    def left(self) -> Counter[str]:
        """The cards left in the deck, by kind."""
        return Counter(self._game.deck)

    @property
    def size(self) -> int:
        """Cards in the whole deck."""
        return len(self._game.rules.deck)


def seat_colour(seat: int) -> chess.Color:
    """Seat 0 plays white, seat 1 black."""
    return chess.WHITE if seat == 0 else chess.BLACK


def seat_of(colour: chess.Color) -> int:
    """The seat playing ``colour``."""
    return 0 if colour == chess.WHITE else 1


def position_key(board: chess.Board) -> tuple[Any, ...]:
    """What makes two positions the same for threefold repetition: the pieces, the side to move, the castling rights
    and a legal en passant capture."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
        board.clean_castling_rights(),
        board.ep_square if board.has_legal_en_passant() else None,
    )


def card_moves(board: chess.Board, card: str) -> list[chess.Move]:
    """The legal moves the card allows the side to move: its piece's, or every one for ``any``."""
    if card == "any":
        return list(board.generate_legal_moves())
    return list(board.generate_legal_moves(from_mask=board.pieces_mask(PIECES[card], board.turn)))


class Game(EventLog):
    """The explicit state of one game, its counters for the statistics, and its event log (when logging)."""

    stamp = "ply"  #: events are stamped with the ply

    def __init__(self, rules: Rules, chance: ChanceSource, *, log: bool = True):
        """Set the game up: the start position, the shuffled deck."""
        self.rules = rules
        self.chance = chance
        self.board = chess.Board(rules.start)
        self.deck: list[str] = list(rules.deck)  # the top card is deck[-1]
        chance.deal(self.deck)
        self.discard: list[str] = []
        self.hand: str | None = None  #: the card drawn for the turn being played
        self.to_play: chess.Color = self.board.turn  #: whose turn comes next (a free move comes before it)
        self.first_player = seat_of(self.board.turn)  #: the seat that takes the first turn
        self.ply = 0
        self.end_reason: str | None = None
        self.winners: list[int] = []
        self.events: list[Event] | None = [] if log else None
        #: Called after every ply with the game; a test hook, None in production runs.
        self.after_step: Callable[[Game], None] | None = None
        self.positions: Counter[tuple[Any, ...]] = Counter()  # positions after moves, for threefold repetition
        self.repeated = False  # a position arose for the third time
        self.moved = True  # a piece moved in the last ply (the start position counts as one arising)
        self.quiet = self.board.halfmove_clock  # plies since the last capture or pawn move (the start FEN's clock)
        self.freed: set[chess.Color] = set()  # the sides whose free move waits for their next turn (a capture then?)
        # counters for the statistics (cheap integers, kept whether or not the game logs)
        self.moves = 0  #: turns in which a piece moved
        self.chosen_passes = 0  #: turns passed with a move at hand
        self.forced_passes = 0  #: turns passed with no legal move of the card's piece
        self.free_moves = 0  #: free moves out of check
        self.free_then_capture = 0  #: free moves whose player captured on its next turn
        self.mate_after_free = 0  #: 1 when the game was won by checkmate on the turn right after the winner's free move
        self.freed_turn = False  # the last ply was a turn right after its player's free move
        self.captures = 0  #: captures, on turns and free moves
        self.checks = 0  #: moves that gave check
        self.promotions = 0
        self.castlings = 0
        self.en_passants = 0
        self.reshuffles = 0  #: reshuffle cards drawn
        self.turnovers = 0  #: times the deck ran out
        self.drawn = dict.fromkeys(CARDS, 0)  #: cards drawn, by kind
        self.views = (View(self, 0), View(self, 1))
        self.log("start", seat=self.first_player, fen=self.board.fen())
        self._settle()

    # --- queries --------------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not None

    @property
    def next_seat(self) -> int:
        """The seat that acts next: the checked seat's free move, else the turn's."""
        return seat_of(self.board.turn)

    @property
    def passes(self) -> int:
        """Turns passed, by choice or forced."""
        return self.chosen_passes + self.forced_passes

    def snapshot(self, *, events: bool = True) -> dict[str, Any]:
        """The state as plain data: the replay output format (``--json``)."""
        winner = SIDES[self.winners[0]] if self.winners else None
        out: dict[str, Any] = {
            "plies": self.ply,
            "end_reason": self.end_reason,
            "winner": winner,
            "winners": list(self.winners),
            "fen": self.board.fen(),
            "moves": self.moves,
            "passes": {"chosen": self.chosen_passes, "forced": self.forced_passes},
            "free_moves": self.free_moves,
            "captures": self.captures,
            "reshuffles": self.reshuffles,
            "turnovers": self.turnovers,
            "deck": self.deck[::-1],
            "discard": len(self.discard),
        }
        return self.with_events(out, events)

    # --- playing --------------------------------------------------------------------------------------------

    def play(self, deciders: Sequence[Decider]) -> None:
        """Play plies until the game ends."""
        while self.end_reason is None:
            self.step(deciders)

    def step(self, deciders: Sequence[Decider]) -> None:
        """Play one ply: the checked side's free move, or the next turn."""
        if self.end_reason is not None:
            raise RuntimeError("the game is over")
        self.ply += 1
        if self.board.is_check():
            self._free(deciders[self.next_seat])
        else:
            self._turn(deciders[self.next_seat])
        self._settle()
        if self.after_step is not None:
            self.after_step(self)

    def _free(self, decider: Decider) -> None:
        """The checked side's free move out of check."""
        board, seat = self.board, self.next_seat
        moves = list(board.generate_legal_moves())
        move = decider.free(self.views[seat], moves)
        if move not in moves:
            raise IllegalDecision(self.ply, seat, f"the free move {_uci(move)} does not get out of check")
        self.free_moves += 1
        self.freed.add(board.turn)
        self.freed_turn = False
        self._push(move, seat, "free")

    def _turn(self, decider: Decider) -> None:
        """A turn: draw a card, move its piece or pass; the card goes to the discard pile."""
        board, seat = self.board, self.next_seat
        card = self.hand = self._draw(seat)
        self.drawn[card] += 1
        moves = card_moves(board, card)
        freed = self.freed_turn = board.turn in self.freed
        self.freed.discard(board.turn)
        if not moves:
            self.forced_passes += 1
            self._pass(seat, card, forced=True)
        else:
            move = decider.move(self.views[seat], card, moves)
            if move is None:
                self.chosen_passes += 1
                self._pass(seat, card, forced=False)
            elif move not in moves:
                raise IllegalDecision(self.ply, seat, _refusal(board, card, move))
            else:
                self.moves += 1
                if freed and board.is_capture(move):
                    self.free_then_capture += 1
                self._push(move, seat, "move", card=card)
        self.discard.append(card)
        self.hand = None
        self.to_play = not self.to_play

    def _draw(self, seat: int) -> str:
        """The top card; a reshuffle card makes a new deck of every card and the player draws again."""
        while True:
            if not self.deck:
                self.deck, self.discard = self.discard, []
                self.chance.turnover(self.deck)
                self.turnovers += 1
                self.log("turnover", cards=len(self.deck))
            card = self.chance.draw(self.deck)
            if card != "reshuffle":
                if self.events is not None:
                    self.log("draw", seat=seat, card=card)
                return card
            self.drawn[card] += 1
            self.deck += self.discard
            self.deck.append(card)
            self.discard = []
            self.chance.reshuffle(self.deck)
            self.reshuffles += 1
            self.log("reshuffle", seat=seat, cards=len(self.deck))

    def _pass(self, seat: int, card: str, *, forced: bool) -> None:
        self.quiet += 1
        self.board.push(chess.Move.null())
        self.log("pass", seat=seat, card=card, forced=forced)

    def _push(self, move: chess.Move, seat: int, kind: str, **fields: Any) -> None:
        """Make a move (a turn's or a free one) and count what it did."""
        board = self.board
        capture = board.is_capture(move)
        en_passant = capture and board.is_en_passant(move)
        castling = board.is_castling(move)
        pawn = board.piece_type_at(move.from_square) == chess.PAWN
        if self.events is not None:
            taken = (
                chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
                if en_passant
                else move.to_square
            )
            victim = board.piece_type_at(taken) if capture else None
            fields.update(move=move.uci(), san=board.san(move), capture=PIECE_NAMES[victim] if victim else None)
        board.push(move)
        self.captures += capture
        self.en_passants += en_passant
        self.castlings += castling
        self.promotions += move.promotion is not None
        self.quiet = 0 if capture or pawn else self.quiet + 1
        check = board.is_check()
        self.checks += check
        self.moved = True
        self.log(kind, seat=seat, **fields, check=check)

    def _settle(self) -> None:
        """After a ply: what comes next (a free move, or the turn, the other side's move passed over after a free
        move), the position counted for repetition when a piece moved, and the end of the game."""
        board = self.board
        check = board.is_check()  # a null move for the other side leaves it so: that side cannot be in check
        if not check and board.turn != self.to_play:  # after a free move the turn is the checked side's
            board.push(chess.Move.null())
        if self.moved:  # the position as the side to move next finds it
            key = position_key(board)
            self.positions[key] += 1
            self.repeated = self.positions[key] >= 3
            self.moved = False
        if check:
            if not any(board.generate_legal_moves()):
                self.mate_after_free = int(self.freed_turn)
                return self._finish("checkmate", seat_of(not board.turn))
            if self.repeated:
                return self._finish("repetition")
            if self.ply >= self.rules.max_plies:
                return self._finish("max_plies")
            return None
        if not any(board.generate_legal_moves()):
            return self._finish("stalemate")
        if board.is_insufficient_material():
            return self._finish("insufficient_material")
        if self.quiet >= FIFTY_MOVES:
            return self._finish("fifty_moves")
        if self.repeated:
            return self._finish("repetition")
        if self.ply >= self.rules.max_plies:
            return self._finish("max_plies")
        return None

    def _finish(self, reason: str, winner: int | None = None) -> None:
        self.end_reason = reason
        self.winners = [] if winner is None else [winner]
        self.log("end", reason=reason, winners=list(self.winners))


def _uci(move: object) -> str:
    return move.uci() if isinstance(move, chess.Move) else repr(move)


def _refusal(board: chess.Board, card: str, move: object) -> str:
    """Why a move is not one the card allows, in the designer's words."""
    if not isinstance(move, chess.Move):
        return f"expected a move or a pass, got {move!r}"
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != board.turn:
        side = SIDES[seat_of(board.turn)]
        return f"{move.uci()}: no {side} piece stands on {chess.square_name(move.from_square)}"
    name = PIECE_NAMES[piece.piece_type]
    if card not in ("any", name):
        return f"{move.uci()} moves a {name}, but the card drawn is {card}"
    return f"{move.uci()} is not a legal move of the {name} here"


__all__ = [
    "END_REASONS",
    "FIFTY_MOVES",
    "PIECE_NAMES",
    "POINTS",
    "ChanceSource",
    "Decider",
    "Event",
    "Game",
    "RandomChance",
    "Rules",
    "View",
    "card_moves",
    "compile_variant",
    "position_key",
    "seat_colour",
    "seat_of",
    "top",
]
