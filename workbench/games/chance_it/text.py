"""Chance It events as lines a designer can read (``--trace``)."""

from __future__ import annotations

from collections.abc import Callable

from workbench.games.chance_it.effects import amount, describe_event
from workbench.games.chance_it.effects.gain import signed
from workbench.games.chance_it.engine import Event


def describe(event: Event) -> str:
    """One event as text: the engine's own events here, an effect's by its event type (see :mod:`.effects`).

    >>> describe({"round": 1, "type": "buy", "seat": 0, "card": "dagger", "cost": 2})
    'round 1: seat 0 buys dagger for 2 coins'
    >>> describe({"round": 2, "type": "steal", "seat": 0, "victim": 2, "coins": 1})
    'round 2: seat 0 steals 1 coin from seat 2'
    >>> describe({"round": 3, "type": "gain", "seat": 1, "hearts": 1, "stars": 2})
    'round 3: seat 1 gains +1 heart, +2 stars'
    >>> describe({"round": 3, "type": "stakes", "seat": 2, "coins": -1, "hearts": -2})
    'round 3: seat 2 stakes: -1 coin, -2 hearts'
    """
    kind, seat = event["type"], event.get("seat")
    texts: dict[str, Callable[[], str]] = {
        "market": lambda: f"market laid out: {' '.join(event['cards']) or '(no cards left)'}",
        "roll": lambda: f"seat {seat} rolls {' '.join(map(str, event['dice']))}",
        "guides": lambda: (
            "guides: "
            + ", ".join(f"seat {s} {g}" for s, g in enumerate(event["guides"]) if g is not None)
            + (f"; forced in next round: {', '.join(map(str, event['forced_in']))}" if event["forced_in"] else "")
        ),
        "all_out": lambda: "everybody played OUT",
        "stakes": lambda: f"seat {seat} stakes: {signed(event)}",
        "die": lambda: f"die {event['face']}",
        "use": lambda: f"seat {seat} uses {event['card']}",
        "kept": lambda: f"seat {seat}'s {event['card']} stays unused this round (a failed roll keeps it)",
        "buy": lambda: f"seat {seat} buys {event['card']} for {amount(event['cost'], 'coins')}",
        "discard": lambda: f"seat {seat} discards {event['card']}",
        "market_empty": lambda: f"seat {seat} finds the market empty",
        "market_limit": lambda: f"seat {seat}'s chain of market actions stops (too many in a row)",
        "reshuffle": lambda: f"the discard pile ({event['cards']} cards) is shuffled into a new pile",
        "chance_it": lambda: f"seat {seat} takes the CHANCE IT action",
        "eliminated": lambda: f"seat {seat} is eliminated",
        "end": lambda: f"game ends ({event['reason']}); winners: {', '.join(map(str, event['winners'])) or 'nobody'}",
    }
    core = texts.get(kind)
    text = core() if core is not None else describe_event(event)
    if text is None:
        raise ValueError(f"no text for the event type '{kind}'")
    when = f"round {event['round']}" if event["round"] else "setup"
    return f"{when}: {text}"
