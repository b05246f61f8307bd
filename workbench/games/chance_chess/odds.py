"""Exact odds of a variant's deck (``workbench odds``): what a turn's card gives, as fractions.

A turn draws until a card that moves a piece comes up: a reshuffle card puts every card back into a new deck
(itself included) and the player draws again; a deck that runs out becomes the shuffled discard pile. So from a
full deck a turn's card is each moving card with the chance of its copies among the moving cards. For each piece:
the chance that a turn's card lets it move (its own card or an any card), and the chance that neither of a side's
next two turns does, from a full deck with the other side's turn between them (the cards drawn stay out until a
reshuffle brings them back), computed exactly over every way the three turns can go.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from workbench.games.chance_chess.schema import CARDS, PIECES, Variant
from workbench.sim.stats import exact, exact_text

MOVERS = tuple(card for card in CARDS if card != "reshuffle")


def _turns(copies: dict[str, int], out: tuple[str, ...]) -> Iterator[tuple[str, Fraction, tuple[str, ...]]]:
    """The card a turn plays with, its chance, and the cards out of the deck afterwards, given the moving cards
    ``out`` (drawn since the deck was last full)."""
    reshuffles = copies["reshuffle"]
    moving = sum(copies[card] for card in MOVERS)
    left = moving - len(out)
    if not left:  # the deck ran out (no reshuffle card): the discard pile is a full deck again
        out, left = (), moving
    deck = left + reshuffles
    for card in MOVERS:
        here = copies[card] - out.count(card)
        # drawn straight from this deck, or after a reshuffle card brought every card back (then as from a full deck)
        direct = Fraction(here, deck)
        again = Fraction(reshuffles, deck) * Fraction(copies[card], moving)
        if direct:
            yield card, direct, (*out, card)
        if again:
            yield card, again, (card,)


def odds(variant: Variant) -> dict[str, Any]:
    """The exact odds of ``variant``'s deck, as plain data (each chance an exact fraction with its percentage).

    >>> from workbench.games.chance_chess.schema import Cards, Deck
    >>> v = Variant(name="v", game="chance-chess", deck=Deck(size=5, cards=Cards(pawn=2, king=1, any=1, reshuffle=1)))
    >>> odds(v)["pieces"]["king"]["moves"]["fraction"], odds(v)["cards"]["reshuffle"]["turn"]["fraction"]
    ('1/2', '0/1')
    """
    copies = variant.deck.cards.copies()
    size = variant.deck.size
    moving = size - copies["reshuffle"]
    cards = {
        card: {
            "copies": n,
            "draw": exact(Fraction(n, size)),
            "turn": exact(Fraction(n, moving) if card != "reshuffle" else Fraction(0)),
        }
        for card, n in copies.items()
        if n
    }
    pieces = {}
    for piece in PIECES:
        good = (piece, "any")
        waits = Fraction(0)
        for first, p1, out1 in _turns(copies, ()):
            if first in good:
                continue
            for _, p2, out2 in _turns(copies, out1):
                waits += p1 * p2 * sum((p3 for third, p3, _ in _turns(copies, out2) if third not in good), Fraction(0))
        pieces[piece] = {
            "moves": exact(Fraction(copies[piece] + copies["any"], moving)),
            "waits_two_turns": exact(waits),
        }
    return {"variant": variant.name, "size": size, "cards": cards, "pieces": pieces}


def odds_tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The odds as terminal tables: (title, headers, rows)."""
    cards = [[card, str(row["copies"]), exact_text(row["draw"]), exact_text(row["turn"])] for card, row in data["cards"].items()]
    pieces = [[piece, exact_text(row["moves"]), exact_text(row["waits_two_turns"])] for piece, row in data["pieces"].items()]
    return [
        (
            f"{data['variant']}: the deck of {data['size']} (exact fractions: --json)",
            ["card", "copies", "one draw", "a turn's card"],
            cards,
        ),
        (
            "Each piece, from a full deck: a turn's card lets it move (its card or any); neither of a side's next two turns does",
            ["piece", "moves", "waits two turns"],
            pieces,
        ),
    ]
