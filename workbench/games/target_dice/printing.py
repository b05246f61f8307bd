"""Target dice's playtest set: the deck (number and special cards, with backs) and a rules summary.

Everything printed is generated from the variant, so the set cannot drift from the file
that was simulated. :func:`render_html` lays it out with ``templates/print.html.j2`` on the
shared pages and card sheets of :mod:`workbench.render.printing`, which also makes the PDF.
"""

from __future__ import annotations

from typing import Any

from workbench.games.target_dice.schema import SPECIALS, Variant
from workbench.render.printing import Piece, PrintOptions, environment, page_context, print_options, sheets

PARTS = ("cards", "rules")  #: what ``--only`` may pick, in the order printed
DECKS = ("cards",)  #: the parts that are cards (what a print shop's formats print)

#: What each special card does, as printed on it and in the rules.
SPECIAL_TEXTS = {
    "red": "After your roll: return one rolled die to the stock, or roll one more die from the stock and add it.",
    "orange": "After your roll: add 1 to the result, subtract 1, or leave it.",
    "yellow": "Draw a second number card. After your roll, choose which card it was for; discard the other.",
    "purple": "After your roll: keep it, or roll all those dice again. The second roll stands.",
}


#: Numbers that read as others upside down: their corner marks are underlined.
TURNABLE = frozenset({6, 9, 66, 68, 86, 89, 98, 99})


def _number_face(number: int, variant: Variant, version: str) -> dict[str, Any]:
    return {
        "kind": "number",
        "id": f"number-{number}",
        "title": str(number),
        "description": f"The number {number}.",
        "number": number,
        "underline": number in TURNABLE,
        "small": f"{number} · {variant.name} · {version}",
    }


def _special_face(colour: str, variant: Variant, version: str) -> dict[str, Any]:
    return {
        "kind": colour,
        "id": colour,
        "title": colour.upper(),
        "description": SPECIAL_TEXTS[colour],
        "word": colour.upper(),
        "text": SPECIAL_TEXTS[colour],
        "hint": "Only for the starting player's own roll. Draw on until a number card appears.",
        "small": f"{colour} · {variant.name} · {version}",
    }


def rule_summary(variant: Variant) -> list[tuple[str, list[str]]]:
    """The rules on one page, as (heading, paragraphs), every number taken from the variant."""
    dice, deck = variant.dice, variant.deck
    numbers = ", ".join(f"{n}" + (f" x{c}" if c > 1 else "") for n, c in sorted(deck.numbers.items()))
    specials = [f"{copies} {colour}" for colour, copies in deck.specials.copies().items() if copies]
    keep = variant.under == "keep"
    under = (
        "Below the target, the rolled dice stay on the table: the next players roll for the difference, and you hold "
        "the last valid roll until a later player adds a valid roll of their own."
        if keep
        else "Below the target, the rolled dice go back to the stock and nothing is kept: the next player rolls for "
        "the whole target again."
    )
    return [
        (
            "Components",
            [
                f"{deck.size} cards: number cards {numbers}" + (f"; special cards: {', '.join(specials)}." if specials else "."),
                f"{dice.count} dice with {dice.sides} sides (the stock), pen and paper for the scores.",
                f"For {variant.players.min} to {variant.players.max} players.",
            ],
        ),
        (
            "Setup",
            ["Shuffle the deck. Each player rolls one die; the highest starts (tied players roll again)."],
        ),
        (
            "A round",
            [
                "The starting player draws the top card. A special card is kept and cards are drawn on until a number "
                "card appears: that is the target. Further special cards drawn meanwhile are discarded without effect.",
                "Clockwise from the starting player, each player has one turn: pass, or take any number of dice from the "
                "stock and roll them once" + (", adding the roll to the dice already kept on the table." if keep else "."),
                "Exactly the target: HIT. You score the target and the round ends at once.",
                "Over the target: you lose the points over it (scores may go negative); your dice go back to the stock.",
                under,
                (
                    "The round also ends when everybody has had a turn or the stock is empty: then the player holding "
                    "the last valid roll scores the dice on the table."
                    if keep
                    else "The round also ends when everybody has had a turn."
                )
                + " Discard the cards; the player to the left of the starting player starts the next round. When the "
                "deck runs out, shuffle the discards into a new deck.",
            ],
        ),
        (
            "Special cards (the starting player's own roll only)",
            [f"{colour.capitalize()}: {SPECIAL_TEXTS[colour]}" for colour in SPECIALS if getattr(deck.specials, colour)]
            or ["This variant has no special cards."],
        ),
        (
            "The end",
            [
                f"The game ends at once when a player reaches {variant.goal} points; the highest score wins (tied "
                f"players share the win). After {variant.max_rounds} rounds the game stops and the highest score wins.",
                "The rulebook's optional rule (a die falling off the table costs 6 points) is not part of this set.",
            ],
        ),
    ]


def build(variant: Variant, options: PrintOptions) -> dict[str, Any]:
    """Everything the template needs, as plain data."""
    page = page_context(variant, options)
    version = page["version"]
    deck = variant.deck
    cards = [_number_face(number, variant, version) for number, copies in sorted(deck.numbers.items()) for _ in range(copies)]
    cards += [_special_face(colour, variant, version) for colour, copies in deck.specials.copies().items() for _ in range(copies)]
    return {
        **page,
        "card_sheets": sheets(cards, options, "cards") if "cards" in options.only else [],
        "rules": rule_summary(variant),
    }


def table_pieces(variant: Variant) -> list[Piece]:
    """The stock of dice (the scores are kept on paper)."""
    return [Piece("die", variant.dice.count, variant.dice.sides, plural="dice")]


def render_html(variant: Variant, options: dict[str, Any]) -> str:
    """The playtest set as one self-contained HTML document (what WeasyPrint prints); ``options`` as
    :func:`workbench.render.printing.print_options` takes them."""
    checked = print_options(options, PARTS, (variant.players.min, variant.players.max), variant.name, decks=DECKS)
    return environment("workbench.games.target_dice").get_template("print.html.j2").render(**build(variant, checked))
