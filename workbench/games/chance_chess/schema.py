"""The Chance Chess variant format: frozen pydantic models, one per YAML mapping.

The deck is the design surface: copies of each card (one per piece type, ``any`` and ``reshuffle``) and the size
they must add up to. :meth:`Variant.rule_problems` finds what needs several keys at once and names them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

import chess
from pydantic import Field, Strict

from workbench.games.chance_chess.policies import GAME, Search
from workbench.models import KeyPath, Model, VariantModel, file_schema
from workbench.personas import PersonaFileModel, PersonaName, named_like_builtins
from workbench.policies import PolicyPersona

#: The piece cards, in the order tables list them, each with python-chess's piece type.
PIECES: dict[str, chess.PieceType] = {
    "pawn": chess.PAWN,
    "knight": chess.KNIGHT,
    "bishop": chess.BISHOP,
    "rook": chess.ROOK,
    "queen": chess.QUEEN,
    "king": chess.KING,
}
#: Every kind of card, in the order tables list them: the pieces, then ``any`` (any piece) and ``reshuffle``.
CARDS: tuple[str, ...] = (*PIECES, "any", "reshuffle")
Card = Literal["pawn", "knight", "bishop", "rook", "queen", "king", "any", "reshuffle"]
#: The colours, by seat.
SIDES: tuple[str, str] = ("white", "black")

Copies = Annotated[int, Strict(), Field(ge=0, le=10_000)]


class Cards(Model):
    """Copies of each card in the deck (0: the card is not in the deck)."""

    pawn: Copies = Field(0, description="Move a pawn (its captures, promotion and en passant too).")
    knight: Copies = Field(0, description="Move a knight.")
    bishop: Copies = Field(0, description="Move a bishop.")
    rook: Copies = Field(0, description="Move a rook.")
    queen: Copies = Field(0, description="Move the queen (or a promoted queen).")
    king: Copies = Field(0, description="Move the king; castling needs a king card (or an any card).")
    any: Copies = Field(0, description="Move any piece, the king included (so castling too).")
    reshuffle: Copies = Field(
        0,
        description=(
            "All cards (the discard pile and the rest of the deck) are shuffled into a new deck; draw again. At most "
            "as many as the cards that move a piece."
        ),
    )

    def copies(self) -> dict[str, int]:
        """Copies by card, in the order of :data:`CARDS`."""
        return {card: getattr(self, card) for card in CARDS}


class Deck(Model):
    """The cards and how many there are."""

    size: Annotated[int, Strict(), Field(ge=1, le=10_000)] = Field(description="Cards in the deck: the copies add up to it.")
    cards: Cards = Field(description="Copies of each card: pawn, knight, bishop, rook, queen, king, any, reshuffle.")


# --- bot personas ----------------------------------------------------------------------------------------------


class Persona(Search, PolicyPersona):
    """A bot for simulations: a policy and its parameters (see :mod:`workbench.games.chance_chess.bots`)."""

    game = GAME


Personas = dict[PersonaName, Persona]


PersonaFile = PersonaFileModel[Persona]  # the file of bot personas, for ``--personas``


# --- the variant -----------------------------------------------------------------------------------------------


class Variant(VariantModel):
    """A Chance Chess rules variant."""

    game: Literal["chance-chess"] = Field(description="The game family.")
    deck: Deck = Field(description="The deck: its size and the copies of each card.")
    start: str = Field(
        chess.STARTING_FEN, description="The starting position as a FEN string (the usual chess setup unless given)."
    )
    max_plies: Annotated[int, Strict(), Field(ge=1, le=100_000)] = Field(
        600, description="Plies (moves, passes and free moves) after which the game stops as a draw."
    )
    bots: Personas = Field({}, description="Bot personas for simulations: name -> {policy, parameters}.")

    def rule_problems(self) -> Iterator[tuple[KeyPath, str]]:
        copies = self.deck.cards.copies()
        total = sum(copies.values())
        if total != self.deck.size:
            listed = " + ".join(f"{n} {card}" for card, n in copies.items() if n) or "no cards"
            yield ("deck", "cards"), f"the copies add up to {total} ({listed}), but deck.size is {self.deck.size}"
        moving = total - copies["reshuffle"]
        if not moving:
            yield ("deck", "cards"), "the deck needs at least one card that moves a piece (a piece card or any)"
        elif copies["reshuffle"] > moving:
            yield (
                ("deck", "cards", "reshuffle"),
                f"{copies['reshuffle']} reshuffle cards outnumber the {moving} cards that move a piece: a turn would "
                "mostly shuffle the deck (at most as many reshuffle cards as the others)",
            )
        try:
            board = chess.Board(self.start)
        except ValueError as exc:
            yield ("start",), f"not a FEN position python-chess reads: {exc}"
        else:
            if not board.is_valid():
                yield ("start",), f"not a legal chess position ({_status(board.status())})"
        yield from named_like_builtins(self.bots, PersonaFile.builtin_names())


def _status(status: chess.Status) -> str:
    """A position's problems in words, from python-chess's status flags.

    >>> _status(chess.Board("8/8/8/8/8/8/8/8 w - - 0 1").status())
    'no white king, no black king, empty'
    """
    words = []
    for flag in chess.Status:
        if flag and flag in status and flag.name:
            words.append(flag.name.lower().replace("_", " "))
    return ", ".join(words)


def variant_file_schema() -> dict[str, Any]:
    """JSON Schema of a variant *file* (see :func:`workbench.models.file_schema`)."""
    return file_schema(Variant.model_json_schema(by_alias=True))


__all__ = [
    "CARDS",
    "PIECES",
    "SIDES",
    "Card",
    "Cards",
    "Deck",
    "Persona",
    "PersonaFile",
    "Variant",
    "variant_file_schema",
]
