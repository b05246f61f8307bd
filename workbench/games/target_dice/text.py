"""Target-dice events and states as text a designer can read (``--trace``, ``play``, ``validate``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.games.target_dice.schema import SPECIALS, Variant

#: One entry of the event log (see :mod:`.engine`).
Event = dict[str, Any]

_ROUND_ENDS = {
    "hit": "a HIT",
    "all_played": "every player had a turn",
    "stock_empty": "the stock is empty",
}


def _points(points: int) -> str:
    """``+11 points``, ``-1 point``.

    >>> _points(-1), _points(11)
    ('-1 point', '+11 points')
    """
    return f"{points:+d} point{'' if abs(points) == 1 else 's'}"


def _red(event: Event) -> str:
    action = event["action"]
    if action == "add":
        return f"seat {event['seat']} plays red: adds a die, a {event['face']}"
    if action == "return":
        return f"seat {event['seat']} plays red: returns a {event['face']} to the stock"
    return f"seat {event['seat']} keeps the roll (red not used)"


def describe(event: Event) -> str:
    """One event as text.

    >>> describe({"round": 1, "type": "roll", "seat": 0, "dice": [1, 3, 4]})
    'round 1: seat 0 rolls 1 3 4'
    >>> describe({"round": 1, "type": "over", "seat": 1, "total": 13, "target": 12, "points": -1})
    'round 1: seat 1 is over: 13 for 12, -1 point'
    >>> describe({"round": 2, "type": "yellow", "seat": 0, "card": 11, "discarded": 6})
    'round 2: seat 0 plays yellow: the roll was for 11 (6 discarded)'
    >>> describe({"round": 0, "type": "start", "seat": 2})
    'setup: seat 2 is the first starting player'
    """
    kind, seat = event["type"], event.get("seat")
    texts: dict[str, Callable[[], str]] = {
        "rolloff": lambda: "roll-off: " + ", ".join(f"seat {s} {f}" for s, f in zip(event["seats"], event["faces"])),
        "start": lambda: f"seat {seat} is the first starting player",
        "round": lambda: f"seat {seat} starts the round",
        "reshuffle": lambda: f"the discard pile ({event['cards']} cards) is shuffled into a new deck",
        "card": lambda: f"seat {seat} draws the number card {event['card']}",
        "special": lambda: f"seat {seat} draws the {event['card']} card and keeps it",
        "ignored": lambda: f"a {event['card']} card is drawn and discarded without effect",
        "pass": lambda: f"seat {seat} passes",
        "unused": lambda: (
            f"seat {seat} passes: the {event['card']} card goes unused"
            + (f" ({event['discarded']} discarded)" if "discarded" in event else "")
        ),
        "roll": lambda: f"seat {seat} rolls {' '.join(map(str, event['dice']))}",
        "red": lambda: _red(event),
        "orange": lambda: (
            f"seat {seat} plays orange: {event['adjust']:+d}"
            if event["adjust"]
            else f"seat {seat} keeps the result (orange not used)"
        ),
        "yellow": lambda: f"seat {seat} plays yellow: the roll was for {event['card']} ({event['discarded']} discarded)",
        "purple": lambda: (
            f"seat {seat} plays purple: rolls again {' '.join(map(str, event['reroll']))}"
            if event["reroll"] is not None
            else f"seat {seat} keeps the roll (purple not used)"
        ),
        "hit": lambda: f"seat {seat} HITS {event['target']}: {_points(event['points'])}",
        "over": lambda: f"seat {seat} is over: {event['total']} for {event['target']}, {_points(event['points'])}",
        "under": lambda: (
            f"seat {seat} is under: {event['total']} for {event['target']}"
            + (", the dice stay on the table" if event["kept"] else ", the dice go back")
        ),
        "held": lambda: f"seat {seat} holds the last valid roll: {_points(event['points'])}",
        "round_end": lambda: f"the round ends ({_ROUND_ENDS.get(event['reason'], event['reason'])})",
        "end": lambda: f"game ends ({event['reason']}); winners: {', '.join(map(str, event['winners'])) or 'nobody'}",
    }
    text = texts.get(kind)
    if text is None:
        raise ValueError(f"no text for the event type '{kind}'")
    when = f"round {event['round']}" if event["round"] else "setup"
    return f"{when}: {text()}"


def state_table(output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of a final state (``play``, ``replay``): each seat's score, the winners marked.

    >>> state_table({"winners": [1], "players": [{"seat": 0, "score": 3}, {"seat": 1, "score": 51}]})
    (['seat', 'score', 'status'], [['0', '3', ''], ['1', '51', 'winner']])
    """
    winners = set(output["winners"])
    rows = [[str(p["seat"]), str(p["score"]), "winner" if p["seat"] in winners else ""] for p in output["players"]]
    return ["seat", "score", "status"], rows


def summary(variant: Variant) -> list[tuple[str, str]]:
    """Short (label, text) lines describing a valid variant, for ``validate``."""
    deck, dice = variant.deck, variant.dice
    numbers = sorted(deck.numbers)
    count = sum(deck.numbers.values())
    copies = sorted(set(deck.numbers.values()))
    each = f"{copies[0]} of each" if len(copies) == 1 else "copies vary"
    specials = ", ".join(f"{colour} {n}" for colour, n in deck.specials.copies().items() if n) or "none"
    under = (
        "keep (a roll below the target stays on the table; the last valid roll scores at the round's end)"
        if variant.under == "keep"
        else "miss (a roll below the target goes back; only a HIT scores)"
    )
    return [
        ("players", f"{variant.players.min}-{variant.players.max}"),
        ("dice", f"{dice.count} with {dice.sides} sides in the stock (rolls of 1 to {dice.count * dice.sides})"),
        ("number cards", f"{count}: {len(numbers)} different, {numbers[0]} to {numbers[-1]} ({each})"),
        ("special cards", f"{sum(deck.specials.copies().values())}: {specials}"),
        ("under", under),
        ("end", f"{variant.goal} points, or after {variant.max_rounds} rounds"),
    ]


__all__ = ["SPECIALS", "describe", "state_table", "summary"]
