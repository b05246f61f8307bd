"""Exact odds of a variant's deck (``workbench odds``): what one draw gives, as fractions.

For each card: the chance that a draw from the full deck is that card; for each piece, the chance that a draw lets
it move (its own card or an any card) and the chance that neither of a side's next two draws does, drawn without
replacement from a full deck, the other side's draw between them (a piece that waits two turns in a row).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from workbench.games.chance_chess.schema import PIECES, Variant
from workbench.sim.stats import exact, exact_text


def odds(variant: Variant) -> dict[str, Any]:
    """The exact odds of ``variant``'s deck, as plain data (each chance an exact fraction with its percentage).

    >>> from workbench.games.chance_chess.schema import Cards, Deck
    >>> v = Variant(name="v", game="chance-chess", deck=Deck(size=4, cards=Cards(pawn=2, king=1, any=1)))
    >>> odds(v)["pieces"]["king"]["moves"]["fraction"], odds(v)["pieces"]["king"]["waits_two_turns"]["fraction"]
    ('1/2', '1/6')
    """
    copies = variant.deck.cards.copies()
    size = variant.deck.size
    cards = {card: {"copies": n, "draw": exact(Fraction(n, size))} for card, n in copies.items() if n}
    pieces = {}
    for piece in PIECES:
        good = copies[piece] + copies["any"]
        bad = size - good
        # a side's next two draws are the 1st and 3rd of three cards drawn without replacement
        waits = Fraction(bad * (bad - 1), size * (size - 1)) if size > 1 else Fraction(int(bad > 0))
        pieces[piece] = {"moves": exact(Fraction(good, size)), "waits_two_turns": exact(waits)}
    return {"variant": variant.name, "size": size, "cards": cards, "pieces": pieces}


def odds_tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The odds as terminal tables: (title, headers, rows)."""
    cards = [[card, str(row["copies"]), exact_text(row["draw"])] for card, row in data["cards"].items()]
    pieces = [[piece, exact_text(row["moves"]), exact_text(row["waits_two_turns"])] for piece, row in data["pieces"].items()]
    return [
        (
            f"{data['variant']}: one draw from the full deck of {data['size']} (exact fractions: --json)",
            ["card", "copies", "chance"],
            cards,
        ),
        (
            "Each piece: a draw lets it move (its card or any); neither of a side's next two draws does",
            ["piece", "moves", "waits two turns"],
            pieces,
        ),
    ]
