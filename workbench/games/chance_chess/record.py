"""A played game as a scenario script that replays it exactly, written from its event log.

The log holds every card drawn, in order (the reshuffle cards too), every move, pass and free move; the deck of
the script lists the cards drawn from the first deck, and each new deck's ``shuffled`` the cards drawn from it. The
script's ``expect:`` is the final state, so replaying it checks the engine against itself.
"""

from __future__ import annotations

from typing import Any

from workbench.games.chance_chess.engine import Game

#: The final state a recorded script expects.
EXPECTED = ("plies", "end_reason", "winner", "fen", "passes", "free_moves", "reshuffles", "turnovers")


def plies(events: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """The first deck's cards as drawn and the script's plies, from a game's event log."""
    deck: list[str] = []
    current = deck  # the deck the next card comes from, as drawn
    turned: list[str] | None = None  # the new deck of a deck that ran out, for the next turn's entry
    card = ""
    entries: list[dict[str, Any]] = []
    for event in events:
        kind = event["type"]
        if kind == "turnover":
            current = turned = []
        elif kind == "reshuffle":
            current.append("reshuffle")
            current = []
            entries.append({"card": "reshuffle", "shuffled": current})
        elif kind == "draw":
            current.append(event["card"])
            card = event["card"]
        elif kind in ("move", "pass"):
            entry: dict[str, Any] = {"card": card, "move": event["move"]} if kind == "move" else {"card": card, "pass": True}
            if turned is not None:
                entry["shuffled"], turned = turned, None
            entries.append(entry)
        elif kind == "free":
            entries.append({"free": event["move"]})
    return deck, entries


def script(game: Game, variant: str, *, description: str) -> dict[str, Any]:
    """The game (played with its event log) as a scenario script naming ``variant`` (a path from the script)."""
    assert game.events is not None, "a recorded game keeps its event log"
    deck, entries = plies(game.events)
    final = game.snapshot(events=False)
    return {
        "description": description,
        "variant": variant,
        "deck": deck,
        "plies": entries,
        "expect": {key: final[key] for key in EXPECTED},
    }
