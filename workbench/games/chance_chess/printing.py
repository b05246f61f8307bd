"""Chance Chess's playtest set: the deck (one card face per copy, with backs), a deck list and a rules summary.

Everything printed is generated from the variant, so the set cannot drift from the file
that was simulated. :func:`render_html` lays it out with ``templates/print.html.j2`` on the
shared pages and card sheets of :mod:`workbench.render.printing`, which also makes the PDF.
A chess board and pieces are not part of the set.
"""

from __future__ import annotations

from typing import Any

import chess

from workbench.games.chance_chess.engine import FIFTY_MOVES
from workbench.games.chance_chess.schema import PIECES, Variant
from workbench.render.printing import Piece, PrintOptions, environment, page_context, print_options, sheets

PARTS = ("cards", "rules")  #: what ``--only`` may pick, in the order printed
DECKS = ("cards",)  #: the parts that are cards (what a print shop's formats print)
PLAYERS = (2, 2)  #: fewest and most players: white and black

#: Each card's symbol, large on its face (the white pieces' glyphs; a star for any piece, circular arrows to reshuffle).
SYMBOLS = {
    "pawn": "♙",
    "knight": "♘",
    "bishop": "♗",
    "rook": "♖",
    "queen": "♕",
    "king": "♔",
    "any": "★",
    "reshuffle": "↻",
}
#: Each card's word, in capitals on its face.
WORDS = {
    "pawn": "MOVE A PAWN",
    "knight": "MOVE A KNIGHT",
    "bishop": "MOVE A BISHOP",
    "rook": "MOVE A ROOK",
    "queen": "MOVE A QUEEN",
    "king": "MOVE YOUR KING",
    "any": "ANY PIECE",
    "reshuffle": "RESHUFFLE",
}
#: What each card does, as printed on it and in the deck list.
CARD_TEXTS = {
    "pawn": "Move a pawn: its captures, promotion and en passant too.",
    "knight": "Move a knight.",
    "bishop": "Move a bishop.",
    "rook": "Move a rook.",
    "queen": "Move a queen.",
    "king": "Move your king. Castling needs this card.",
    "any": "Move any piece, your king too (castling included).",
    "reshuffle": "Shuffle every card (discards and deck) into a new deck, then draw again.",
}
#: The reminder at the foot of the cards that move a piece.
MOVE_HINT = "Or pass. With no legal move for this card, the pass is automatic."


def share(copies: int, size: int) -> str:
    """A card's share of the deck in percent, one decimal.

    >>> share(13, 101), share(1, 101), share(101, 101)
    ('12.9', '1.0', '100.0')
    """
    return f"{100 * copies / size:.1f}"


def _face(card: str, copies: int, variant: Variant, version: str) -> dict[str, Any]:
    return {
        "kind": card,
        "id": card,
        "title": WORDS[card],
        "description": CARD_TEXTS[card],
        "symbol": SYMBOLS[card],
        "pieces": "".join(SYMBOLS[piece] for piece in PIECES) if card == "any" else "",
        "word": WORDS[card],
        "text": CARD_TEXTS[card],
        "hint": "" if card == "reshuffle" else MOVE_HINT,
        "small": f"{card} · {copies} of {variant.deck.size} · {variant.name} · {version}",
    }


def deck_table(variant: Variant) -> list[dict[str, Any]]:
    """The deck list: per card kind in the deck, its symbol, copies, share in percent and text; then the total.

    >>> v = Variant.model_validate({"name": "Mini", "game": "chance-chess", "deck": {"size": 3, "cards": {"knight": 2, "any": 1}}})
    >>> [(row["card"], row["copies"], row["share"]) for row in deck_table(v)]
    [('knight', 2, '66.7'), ('any', 1, '33.3'), ('total', 3, '100.0')]
    """
    size = variant.deck.size
    rows = [
        {"card": card, "symbol": SYMBOLS[card], "copies": copies, "share": share(copies, size), "text": CARD_TEXTS[card]}
        for card, copies in variant.deck.cards.copies().items()
        if copies
    ]
    return rows + [{"card": "total", "symbol": "", "copies": size, "share": share(size, size), "text": ""}]


def _plural(count: int, word: str, words: str = "") -> str:
    """A count with its noun.

    >>> _plural(1, "card"), _plural(12, "card"), _plural(600, "ply", "plies")
    ('1 card', '12 cards', '600 plies')
    """
    return f"{count} {word if count == 1 else words or word + 's'}"


def rule_summary(variant: Variant) -> list[tuple[str, list[str]]]:
    """The rules on one page, as (heading, paragraphs), every number taken from the variant."""
    deck = variant.deck
    copies = deck.cards.copies()
    listed = ", ".join(f"{n} {card}" for card, n in copies.items() if n)
    board = chess.Board(variant.start)
    first = "White" if board.turn == chess.WHITE else "Black"
    usual = variant.start == chess.STARTING_FEN
    castling = (
        "Castling is a king move: it needs a king card" + (" (or an any card)." if copies["any"] else ".")
        if copies["king"]
        else "Castling is a king move: it needs an any card."
        if copies["any"]
        else "This deck has no king or any card: nobody can move the king or castle on a turn."
    )
    reshuffle = (
        f"The reshuffle card ({_plural(copies['reshuffle'], 'copy', 'copies')} in the deck): every card "
        f"(the discard pile, the rest of the deck and the reshuffle card itself) is shuffled into a new deck of "
        f"{_plural(deck.size, 'card')}, and the same player draws again."
        if copies["reshuffle"]
        else "This deck has no reshuffle card."
    )
    return [
        (
            "Components",
            [
                f"{_plural(deck.size, 'card')}: {listed} (the deck list above gives each card's share).",
                "A chess board and a set of chess pieces. For 2 players, white and black.",
            ],
        ),
        (
            "Setup",
            [
                ("Set up the pieces as in chess. " if usual else f"Set up the start position {variant.start}. ")
                + f"Shuffle the deck. {first} draws first.",
            ],
        ),
        (
            "A turn",
            [
                "Draw the top card and move one of your pieces of that type (any piece of yours for an any card), "
                "or pass. With no legal move of that type, the pass is automatic. The card goes to the discard pile; "
                "the other player takes the next turn.",
                "Captures, promotion and en passant are moves of the moving piece: they need its card. " + castling,
                reshuffle,
                "When the deck runs out, the discard pile, shuffled, is the new deck.",
            ],
        ),
        (
            "Check",
            [
                "A player whose king is in check first makes one free move out of check (any legal move, no card), "
                "before anything else; then takes the turn as usual, drawing a card. (A free move that "
                "gives check is answered at once by the other player's free move.)",
                "If no move gets out of check, it is checkmate: the other player wins.",
            ],
        ),
        (
            "The end",
            [
                "The game ends by checkmate, or in a draw by stalemate (the player to take a turn has no legal move at "
                f"all), insufficient material, {FIFTY_MOVES} plies in a row without a capture or a pawn move (passes "
                "count), or threefold repetition (the same position for the third time after a move).",
                f"After {_plural(variant.max_plies, 'ply', 'plies')} the game stops as a draw. A ply "
                "is a move, a pass or a free move.",
            ],
        ),
    ]


def build(variant: Variant, options: PrintOptions) -> dict[str, Any]:
    """Everything the template needs, as plain data."""
    page = page_context(variant, options)
    version = page["version"]
    cards = [_face(card, copies, variant, version) for card, copies in variant.deck.cards.copies().items() for _ in range(copies)]
    return {
        **page,
        "card_sheets": sheets(cards, options, "cards") if "cards" in options.only else [],
        "deck": deck_table(variant),
        "rules": rule_summary(variant),
    }


def table_pieces(variant: Variant) -> list[Piece]:
    """None: a chess set's board and pieces are the table's own (Tabletop Simulator has them)."""
    return []


def render_html(variant: Variant, options: dict[str, Any]) -> str:
    """The playtest set as one self-contained HTML document (what WeasyPrint prints); ``options`` as
    :func:`workbench.render.printing.print_options` takes them."""
    checked = print_options(options, PARTS, PLAYERS, variant.name, decks=DECKS)
    return environment("workbench.games.chance_chess").get_template("print.html.j2").render(**build(variant, checked))
