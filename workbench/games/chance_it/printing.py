"""Chance It's playtest set: market cards, guide cards, stakes sheets, the action board and the rules.

Everything printed is generated from the variant, so the set cannot drift from the
file that was simulated: :func:`effects_text` writes the card and board texts,
:func:`rule_summary` the one-page rules. :func:`render_html` lays it all out with
``templates/print.html.j2`` on the shared pages and card sheets of
:mod:`workbench.render.printing`, which also makes the PDF.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.effects import amount, join, kind_of
from workbench.games.chance_it.schema import GUIDES, Card, Variant
from workbench.render.printing import Piece, PrintOptions, environment, page_context, print_options, sheets

PARTS = ("cards", "guides", "stakes", "board", "rules")  #: what ``--only`` may pick, in the order printed
DECKS = ("cards", "guides")  #: the parts that are cards (what a print shop's formats print)
_GUIDE_WORDS = {"in": "IN", "out": "OUT", "chance-it": "CHANCE IT"}
#: Icons of the resources; the effect kinds add theirs (see :func:`drawing`).
RESOURCE_DRAWINGS = {
    "heart": (
        '<path d="M12 21.2C12 21.2 3.2 15.6 2.2 10.2C1.4 6.2 4 3.6 7 3.6C9.2 3.6 10.8 4.9 12 6.7C13.2 4.9 14.8 3.6 17 3.6'
        'C20 3.6 22.6 6.2 21.8 10.2C20.8 15.6 12 21.2 12 21.2Z" fill="#d6336c" stroke="#8a1538" stroke-width="1.2"/>'
    ),
    "coin": (
        '<circle cx="12" cy="12" r="10" fill="#f2c14e" stroke="#9c7412" stroke-width="1.4"/>'
        '<circle cx="12" cy="12" r="6.6" fill="none" stroke="#9c7412" stroke-width="1"/>'
    ),
    "star": (
        '<polygon points="12,1.8 14.9,8.6 22.2,9.2 16.7,14 18.3,21.2 12,17.4 5.7,21.2 7.3,14 1.8,9.2 9.1,8.6" '
        'fill="#3b82c4" stroke="#1d4e80" stroke-width="1.1" stroke-linejoin="round"/>'
    ),
}


def drawings() -> dict[str, str]:
    """Every icon's SVG drawing on a 24 x 24 view box, by name: the resources' and the effect kinds'."""
    return {**RESOURCE_DRAWINGS, **kinds.drawings()}


def drawing(name: str, label: str = "") -> Markup:
    """One icon's drawing, its ``{label}`` filled in (escaped); an unknown icon is an error, never a blank."""
    svg = drawings().get(name)
    if svg is None:
        raise KeyError(f"no drawing for the icon '{name}'")
    return Markup(svg.replace("{label}", str(escape(label))))


# --- texts ----------------------------------------------------------------------------------------------------


def effect_text(effect: Any, sides: int, where: str = "card") -> str:
    """One effect as the card or board prints it (its kind writes it).

    ``where`` is ``die`` (a die card), ``card`` (a flash or CHANCE IT card), ``passive``,
    ``board``, ``all_out`` or ``chance_it`` (the action).

    >>> from workbench.games.chance_it.schema import Card
    >>> def text(effect, where="card"):
    ...     return effect_text(Card(id="x", name="X", when="flash", effects=[effect]).effects[0], 6, where)
    >>> text({"gain": {"hearts": 1}}), text({"others_lose": {"hearts": 1}}), text("market", "die")
    ('+1 heart', 'every other player in the round loses 1 heart', 'buy or discard another card (not in the round you buy this)')
    >>> text({"lose": {"hearts": 1, "coins": 2}}, "all_out")  # what each player does when everybody is OUT
    'lose 1 heart and 2 coins'
    >>> text({"chance": {"roll": 4, "then": [{"gain": {"stars": 2}}], "else": [{"lose": {"hearts": 1}}]}})
    'roll 4+ (50%): +2 stars, else -1 heart'
    >>> text({"steal": {"coins": 1}})
    'steal 1 coin from each other player in the round'
    >>> text({"choose": [[{"gain": {"hearts": 1}}], [{"gain": {"coins": 2}}, {"lose": {"stars": 1}}]]})
    'choose one: +1 heart, or +2 coins and -1 star'
    >>> text({"if": {"test": {"hearts": {"at_most": 2}}, "then": [{"gain": {"hearts": 2}}], "else": [{"gain": {"coins": 1}}]}})
    'if you have at most 2 hearts: +2 hearts, else +1 coin'
    >>> text({"for_each": {"face": 5, "effects": [{"gain": {"coins": 1}}]}})
    '+1 coin for each 5'
    >>> text({"for_each": {"face": 2, "effects": [{"chance": {"roll": 4, "then": [{"gain": {"stars": 1}}]}}]}})
    'for each 2: roll 4+ (50%): +1 star'
    >>> text({"steal": {"hearts": 1, "from": "choose"}})
    'steal 1 heart from another player in the round (you choose who)'
    >>> effect_text(Card(id="x", name="X", when="passive", effects=[{"chance_bonus": 1}]).effects[0], 6, "passive")
    'your chance rolls +1 (never above 6)'
    """
    return kind_of(effect).text(effect, kinds.words(sides, where))


def effects_text(effects: Sequence[Any], sides: int, where: str = "card") -> str:
    """A list of effects as one line; empty for none."""
    return kinds.words(sides, where).text(effects)


def effect_rows(effects: Sequence[Any], sides: int, where: str) -> list[dict[str, Any]]:
    """One row per effect for a card or board face: its icons and its text."""
    words = kinds.words(sides, where)
    return [{"icons": kind_of(e).icons(e, words), "text": kind_of(e).text(e, words)} for e in effects]


def timing(card: Card) -> tuple[str, str]:
    """The timing label and the one-line reminder of when a card is used.

    >>> timing(Card(id="x", name="X", when="die-3", effects=[{"gain": {"hearts": 1}}]))
    ('DIE 3', 'when a 3 is resolved, once per round')
    >>> timing(Card(id="x", name="X", when="die-4", effects=[{"chance": {"roll": 5, "on_fail": "keep"}}]))
    ('DIE 4', 'when a 4 is resolved, once per round (again after a failed roll)')
    """
    if card.when == "flash":
        return "FLASH", "takes effect at once when bought, then goes to the discard pile"
    if card.when == "chance-it":
        return "CHANCE IT", "after your CHANCE IT action, one such card per round (even one bought this round)"
    if card.when == "passive":
        return "PASSIVE", "always on while it lies in front of you (from the next chance roll after you buy it)"
    article = "an" if str(card.face).startswith("8") or card.face in (11, 18) else "a"
    again = any(kind_of(effect).reusable(effect) for _, effect, _ in kinds.iter_effects(card.effects, ()))
    return f"DIE {card.face}", f"when {article} {card.face} is resolved, once per round" + (
        " (again after a failed roll)" if again else ""
    )


def supply_text(variant: Variant, resource: str) -> str:
    """What the box holds of a resource."""
    entry = getattr(variant.supply, resource)
    if entry == "unlimited":
        return f"{resource}: unlimited (use any counters)"
    tokens = f"{entry.small} x 1" + (f" and {entry.big} x {entry.big_value}" if entry.big else "")
    return f"{entry.total} {resource} ({tokens})"


def rule_summary(variant: Variant) -> list[tuple[str, list[str]]]:
    """The rules on one page, as (heading, paragraphs), every number and effect taken from the variant."""
    sides, dice = variant.dice.sides, variant.dice.count
    start = [amount(getattr(variant.start, r), r) for r in ("coins", "hearts", "stars") if getattr(variant.start, r)]
    pile = sum(card.copies for card in variant.cards)
    reshuffle = (
        "when the pile runs out, shuffle the discard pile into a new pile"
        if variant.market.reshuffle_discard
        else "an empty pile stays empty (the discard pile is not reshuffled)"
    )
    board = [f"{face}: {effects_text(variant.board[face], sides, 'board') or 'nothing'}" for face in sorted(variant.board)]
    all_out = effects_text(variant.all_out, sides, "all_out") or "nothing happens"
    chance_it = effects_text(variant.chance_it, sides, "chance_it") or "nothing"
    tiebreak = list(variant.end.tiebreak)
    win = f"most {tiebreak[0]} wins" + (f", ties broken by {join(tiebreak[1:])}" if len(tiebreak) > 1 else "")
    notes = kinds.rule_notes(
        [effect for effects in (*variant.board.values(), *(card.effects for card in variant.cards)) for effect in effects]
    )
    sections = [
        (
            "Setup",
            [
                f"{variant.players.min} to {variant.players.max} players. Each player takes {join(start)} from the supply "
                f"and one guide card of each kind: IN, OUT and CHANCE IT.",
                "The supply: " + "; ".join(supply_text(variant, r) for r in ("coins", "hearts", "stars")) + ".",
                f"Shuffle the {pile} market cards into a face-down pile and lay out {variant.market.face_up} face up. "
                f"Put out the stakes sheet for the number of players, the action board and {dice} dice "
                f"with {sides} sides. The first player starts.",
            ],
        ),
        (
            "The round",
            [
                f"The starting player rolls the {dice} dice. Then every player still in the game chooses a guide card "
                "in secret, and all reveal at once.",
                f"If {variant.forced_in_after} or more players chose CHANCE IT, each of them must play IN next round.",
            ],
        ),
        (
            "Stakes",
            [
                "Use the sheet for the number of players still in the game. Each OUT player takes the coins under the "
                "number of OUT players; then each IN and CHANCE IT player pays the coins under the number of IN and "
                "CHANCE IT players. Short of coins, pay one heart for each missing coin.",
                f"Everybody OUT: each player: {all_out}. There is no action round.",
            ],
        ),
        (
            "The action round",
            [
                "The IN and CHANCE IT players take part, in turn order from the starting player. Resolve the dice one "
                "at a time, lowest face first. For each die: the board acts on every participant, then each participant "
                "may use one die card of that face (each card once per round, never in the round it was bought).",
                "The action board: " + "; ".join(board) + "." + "".join(f" {note}" for note in notes),
                f"Market: buy one face-up card for its cost in coins, or discard one. When the market is empty, lay out "
                f"{variant.market.face_up} new cards; {reshuffle}. Flash cards act at once and are discarded; other "
                "cards stay in front of you.",
            ],
        ),
        (
            "CHANCE IT",
            [
                f"After the last die, each CHANCE IT player in turn order: {chance_it}; then may use one CHANCE IT card, "
                "even one bought this round.",
            ],
        ),
        (
            "Elimination",
            [
                "A player who loses the last heart is out at once: coins and stars go back to the supply, cards to the "
                "discard pile, and the table uses the stakes sheet for one player fewer. Gains come from the supply "
                "(only what is left); losses go back to it.",
            ],
        ),
        (
            "End",
            [
                f"The game ends as soon as a player has {amount(variant.end.stars, 'stars')} or more (checked after the "
                f"stakes, after each die and after the CHANCE IT actions): {win}. The last player standing wins. "
                f"After round {variant.end.max_rounds} the game stops and {win}.",
                "The next round is started by the next player clockwise still in the game.",
            ],
        ),
    ]
    return sections


# --- the set ------------------------------------------------------------------------------------------------------


def _card_face(card: Card, variant: Variant, version: str) -> dict[str, Any]:
    sides = variant.dice.sides
    label, hint = timing(card)
    where = card.where
    kind = "die" if card.face is not None else card.when
    rows = effect_rows(card.effects, sides, where)
    return {
        "kind": kind,
        "back": "market",
        "id": card.id,
        "title": card.name,
        "description": "; ".join(
            [*(row["text"] for row in rows), *([card.text] if card.text else []), hint, f"cost {card.cost}"]
        ),
        "name": card.name,
        "cost": card.cost,
        "when": card.when,
        "face": card.face,
        "label": label,
        "hint": hint,
        "rows": rows,
        "dense": is_crowded(rows, card.text),
        "text": card.text,
        "small": f"{card.id} · {variant.name} · {version}",
    }


#: mm between the card's name and its reminder line, for the effects and the card's own text.
EFFECTS_ROOM = 40.0


def is_crowded(rows: list[dict[str, Any]], text: str | None) -> bool:
    """Whether a card's effects and text would overrun the room at the normal size (then they are set smaller).

    An estimate: a line of icons is 10 mm (two lines past 4 icons), a line of effect text 3.6 mm
    per 36 characters, the card's own text 3 mm per 44 characters.
    """
    height = 0.0
    for row in rows:
        icons = len(row["icons"])
        height += (10.0 if icons <= 4 else 16.0) + 3.6 * math.ceil(len(row["text"]) / 36) + 4.0
    if text:
        height += 3.0 * math.ceil(len(text) / 44)
    return height > EFFECTS_ROOM


def _guide_face(guide: str, variant: Variant, version: str) -> dict[str, Any]:
    sides = variant.dice.sides
    chance_it = effects_text(variant.chance_it, sides, "chance_it") or "nothing"
    all_out = effects_text(variant.all_out, sides, "all_out") or "nothing happens"
    texts = {
        "in": ["Pay the IN stakes.", "Take part in the action round: the board and your die cards act for every die."],
        "out": [
            "Take the OUT stakes; sit out the action round.",
            f"Everybody OUT: each player: {all_out}, and there is no action round.",
        ],
        "chance-it": [
            "Pay the IN stakes and take part in the action round.",
            f"After the last die: {chance_it}, then use one CHANCE IT card.",
            f"{variant.forced_in_after} or more CHANCE IT players must play IN next round.",
        ],
    }
    return {
        "kind": f"guide-{guide}",
        "back": "guide",
        "id": f"guide-{guide}",
        "title": _GUIDE_WORDS[guide],
        "description": " ".join(texts[guide]),
        "word": _GUIDE_WORDS[guide],
        "lines": texts[guide],
        "small": f"guide-{guide} · {variant.name} · {version}",
    }


def _stakes(variant: Variant, players: int) -> list[dict[str, Any]]:
    sides = variant.dice.sides
    all_out = effects_text(variant.all_out, sides, "all_out") or "nothing"
    sheets = []
    for n in range(2, players + 1):
        sheet = variant.stakes[n]
        out = [f"all OUT: each player: {all_out}" if entry == "all_out" else _coins("takes", entry) for entry in sheet.out]
        sheets.append(
            {
                "players": n,
                "source": sheet.source,
                "out": out,
                "in": [_coins("pays", entry) for entry in sheet.in_],
                "note": "from the stakes tuner: playtest it" if sheet.source != "printed" else "as printed in the box",
            }
        )
    return sheets


def _coins(verb: str, count: int) -> str:
    """A stakes sheet's entry in words, never a signed amount (``pays -3`` reads as either way round).

    >>> _coins("takes", 4), _coins("pays", 1), _coins("pays", 0)
    ('takes 4 coins', 'pays 1 coin', 'pays nothing')
    """
    return f"{verb} {amount(count, 'coins')}" if count else f"{verb} nothing"


def _inventory(variant: Variant, players: int) -> list[dict[str, Any]]:
    rows = []
    for resource in ("coins", "hearts", "stars"):
        entry = getattr(variant.supply, resource)
        per_player = getattr(variant.start, resource)
        if entry == "unlimited":
            tokens, total = "any counters", "unlimited"
        else:
            tokens = f"{entry.small} x 1" + (f" + {entry.big} x {entry.big_value}" if entry.big else "")
            total = str(entry.total)
        rows.append(
            {
                "icon": resource[:-1],
                "name": resource,
                "tokens": tokens,
                "total": total,
                "start": f"{players} x {per_player} = {players * per_player}",
            }
        )
    return rows


def build(variant: Variant, options: PrintOptions) -> dict[str, Any]:
    """Everything the template needs, as plain data."""
    page = page_context(variant, options)
    version = page["version"]
    sides = variant.dice.sides
    cards = [_card_face(card, variant, version) for card in variant.cards for _ in range(card.copies)]
    guides = [_guide_face(guide, variant, version) for _ in range(options.players) for guide in GUIDES]
    pile = sum(card.copies for card in variant.cards)
    components = [
        f"{pile} market cards ({len(variant.cards)} {'kind' if len(variant.cards) == 1 else 'kinds'})",
        f"{3 * options.players} guide cards (IN, OUT and CHANCE IT for each of {options.players} players)",
        f"{variant.dice.count} dice with {sides} sides",
        f"stakes sheets for 2 to {options.players} players",
        "the action board",
    ]
    return {
        **page,
        "drawing": drawing,
        "drawings": drawings(),
        "card_sheets": sheets(cards, options, "cards") if "cards" in options.only else [],
        "guide_sheets": sheets(guides, options, "guides") if "guides" in options.only else [],
        "stakes": _stakes(variant, options.players),
        "board": [{"face": face, "rows": effect_rows(variant.board[face], sides, "board")} for face in sorted(variant.board)],
        "inventory": _inventory(variant, options.players),
        "components": components,
        "rules": rule_summary(variant),
    }


#: The tokens' colours at an online table: the printed icons' (a coin's gold, a heart's red, a star's blue).
TOKEN_COLOURS = {"coins": "#f2c14e", "hearts": "#d6336c", "stars": "#2f6db5"}


def table_pieces(variant: Variant) -> list[Piece]:
    """The dice, and the supply's tokens (small ones worth 1, big ones worth their value; any number when unlimited)."""
    pieces = [Piece("die", variant.dice.count, variant.dice.sides, plural="dice")]
    for resource in ("coins", "hearts", "stars"):
        entry = getattr(variant.supply, resource)
        token, colour = resource[:-1], TOKEN_COLOURS[resource]
        if entry == "unlimited":
            pieces.append(Piece(token, 0, colour=colour))
            continue
        pieces.append(Piece(token, entry.small, colour=colour))
        if entry.big:
            worth = f"worth {entry.big_value} {resource}"
            pieces.append(Piece(f"token {worth}", entry.big, plural=f"tokens {worth}", colour=colour))
    return pieces


def render_html(variant: Variant, options: dict[str, Any]) -> str:
    """The playtest set as one self-contained HTML document (what WeasyPrint prints); ``options`` as
    :func:`workbench.render.printing.print_options` takes them."""
    checked = print_options(options, PARTS, (variant.players.min, variant.players.max), variant.name, decks=DECKS)
    return environment("workbench.games.chance_it").get_template("print.html.j2").render(**build(variant, checked))
