"""Chance Chess events and states as text a designer can read (``--trace``, ``play``, ``validate``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.games.chance_chess.schema import SIDES, Variant

#: One entry of the event log (see :mod:`.engine`).
Event = dict[str, Any]

#: The end reasons in words.
ENDINGS = {
    "checkmate": "checkmate",
    "stalemate": "stalemate (a draw)",
    "insufficient_material": "insufficient material (a draw)",
    "fifty_moves": "the fifty-move rule (a draw)",
    "repetition": "threefold repetition (a draw)",
    "max_plies": "the ply limit (a draw)",
}


def _card(card: str) -> str:
    """A card in words.

    >>> _card("any"), _card("knight")
    ('an any-piece card', 'a knight card')
    """
    return "an any-piece card" if card == "any" else f"a {card} card"


def _move(event: Event) -> str:
    san = event["san"]
    taken = f", taking a {event['capture']}" if event["capture"] else ""
    return f"{san} ({event['move']}{taken})" + (", check" if event["check"] and "#" not in san else "")


def describe(event: Event) -> str:
    """One event as text.

    >>> describe({"ply": 3, "type": "move", "seat": 0, "card": "knight", "move": "g1f3", "san": "Nf3", "capture": None, "check": False})
    'ply 3: white plays Nf3 (g1f3)'
    >>> describe({"ply": 4, "type": "pass", "seat": 1, "card": "rook", "forced": True})
    'ply 4: black passes: no rook can move'
    >>> describe({"ply": 9, "type": "free", "seat": 1, "move": "e8f8", "san": "Kf8", "capture": None, "check": False})
    'ply 9: black makes its free move out of check: Kf8 (e8f8)'
    """
    kind, seat = event["type"], event.get("seat")
    side = SIDES[seat] if isinstance(seat, int) else ""
    texts: dict[str, Callable[[], str]] = {
        "start": lambda: f"{side} moves first, from {event['fen']}",
        "draw": lambda: f"{side} draws {_card(event['card'])}",
        "reshuffle": lambda: f"{side} draws the reshuffle card: all {event['cards']} cards are shuffled into a new deck",
        "turnover": lambda: f"the deck is empty: the discard pile ({event['cards']} cards) is shuffled into a new deck",
        "move": lambda: f"{side} plays {_move(event)}",
        "pass": lambda: (
            f"{side} passes: no {event['card']} can move"
            if event["forced"]
            else f"{side} passes (holding {_card(event['card'])})"
        ),
        "free": lambda: f"{side} makes its free move out of check: {_move(event)}",
        "end": lambda: (
            f"game ends: {ENDINGS.get(event['reason'], event['reason'])}"
            + (f"; {SIDES[event['winners'][0]]} wins" if event["winners"] else "")
        ),
    }
    text = texts.get(kind)
    if text is None:
        raise ValueError(f"no text for the event type '{kind}'")
    when = f"ply {event['ply']}" if event["ply"] else "setup"
    return f"{when}: {text()}"


def state_table(output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of a final state (``play``, ``replay``): each side, the winner marked.

    >>> state_table({"winners": [1], "fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "passes": {"chosen": 0, "forced": 2}, "free_moves": 1})
    (['seat', 'side', 'status'], [['0', 'white', ''], ['1', 'black', 'winner']])
    """
    winners = set(output["winners"])
    rows = [[str(seat), side, "winner" if seat in winners else ""] for seat, side in enumerate(SIDES)]
    return ["seat", "side", "status"], rows


def deck_line(variant: Variant) -> str:
    """The deck's copies in a line.

    >>> from workbench.games.chance_chess.schema import Cards, Deck
    >>> deck_line(Variant(name="v", game="chance-chess", deck=Deck(size=3, cards=Cards(pawn=2, any=1))))
    'pawn 2, any 1'
    """
    return ", ".join(f"{card} {n}" for card, n in variant.deck.cards.copies().items() if n)


def summary(variant: Variant) -> list[tuple[str, str]]:
    """Short (label, text) lines describing a valid variant, for ``validate``."""
    import chess

    start = "the usual chess setup" if variant.start == chess.STARTING_FEN else variant.start
    return [
        ("players", "2 (white and black)"),
        ("deck", f"{variant.deck.size} cards: {deck_line(variant)}"),
        ("start", start),
        ("end", f"checkmate, or a draw (stalemate, material, fifty moves, repetition, or {variant.max_plies} plies)"),
    ]


__all__ = ["ENDINGS", "deck_line", "describe", "state_table", "summary"]
