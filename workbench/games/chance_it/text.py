"""Chance It events as lines a designer can read (``--trace``)."""

from __future__ import annotations

from typing import Any

from workbench.games.chance_it.schema import RESOURCES


def _amounts(event: dict[str, Any], signed: bool = True) -> str:
    parts = [f"{event[r]:+d} {r}" if signed else f"{event[r]} {r}" for r in RESOURCES if event.get(r)]
    return ", ".join(parts) or "nothing"


def describe(event: dict[str, Any]) -> str:
    """One event as text.

    >>> describe({"round": 1, "type": "buy", "seat": 0, "card": "dagger", "cost": 2})
    'round 1: seat 0 buys dagger for 2 coins'
    """
    kind, seat = event["type"], event.get("seat")
    text = {
        "market": lambda: f"market laid out: {' '.join(event['cards']) or '(no cards left)'}",
        "roll": lambda: f"seat {seat} rolls {' '.join(map(str, event['dice']))}",
        "guides": lambda: "guides: "
        + ", ".join(f"seat {s} {g}" for s, g in enumerate(event["guides"]) if g is not None)
        + (f"; forced in next round: {', '.join(map(str, event['forced_in']))}" if event["forced_in"] else ""),
        "all_out": lambda: "everybody played OUT",
        "stakes": lambda: f"seat {seat} stakes: {_amounts(event)}",
        "die": lambda: f"die {event['face']}",
        "reroll": lambda: f"seat {seat} rerolls the 1: {' then '.join(map(str, event['results']))}",
        "gain": lambda: f"seat {seat} gains {_amounts(event)}",
        "lose": lambda: f"seat {seat} loses {_amounts(event, signed=False)}",
        "use": lambda: f"seat {seat} uses {event['card']}",
        "buy": lambda: f"seat {seat} buys {event['card']} for {event['cost']} coins",
        "discard": lambda: f"seat {seat} discards {event['card']}",
        "market_empty": lambda: f"seat {seat} finds the market empty",
        "market_limit": lambda: f"seat {seat}'s chain of market actions stops (too many in a row)",
        "reshuffle": lambda: f"the discard pile ({event['cards']} cards) is shuffled into a new pile",
        "chance_it": lambda: f"seat {seat} takes the CHANCE IT action",
        "chance": lambda: f"seat {seat} tests chance {event['need']}+: rolls {event['result']}, "
        + ("success" if event["success"] else "failure"),
        "eliminated": lambda: f"seat {seat} is eliminated",
        "end": lambda: f"game ends ({event['reason']}); winners: {', '.join(map(str, event['winners'])) or 'nobody'}",
    }.get(kind, lambda: f"{kind} {event}")()
    when = f"round {event['round']}" if event["round"] else "setup"
    return f"{when}: {text}"

