"""A played game as a scenario script that replays it exactly, written from its event log.

The log holds every card drawn (in order, past any reshuffle, as a script's ``deck``
lists them), every roll and every special decision; the script's ``expect:`` is the final
state, so replaying it checks the engine against itself.
"""

from __future__ import annotations

from typing import Any

from workbench.games.target_dice.engine import Game

#: Events that draw a card (a number card, a kept special, a special drawn and discarded).
DRAWS = ("card", "special", "ignored")


def script(game: Game, variant: str, *, description: str) -> dict[str, Any]:
    """The game (played with its event log) as a scenario script naming ``variant`` (a path from the script)."""
    assert game.events is not None, "a recorded game keeps its event log"
    start = next(event["seat"] for event in game.events if event["type"] == "start")
    deck: list[int | str] = []
    rounds: list[dict[str, Any]] = []
    for event in game.events:
        kind = event["type"]
        if kind in DRAWS:
            deck.append(event["card"])
        elif kind == "round":
            rounds.append({"turns": []})
        elif kind == "pass":  # a starting player's pass also logs its special as unused: one turn
            rounds[-1]["turns"].append({"seat": event["seat"], "pass": True})
        elif kind == "roll":
            rounds[-1]["turns"].append({"seat": event["seat"], "roll": list(event["dice"])})
        elif kind in ("red", "orange", "yellow", "purple"):
            decision = _decision(event)
            if decision:
                rounds[-1]["turns"][-1].update(decision)
    final = game.snapshot(events=False)
    return {
        "description": description,
        "variant": variant,
        "players": len(game.scores),
        "start": start,
        "deck": deck,
        "rounds": rounds,
        "expect": {key: final[key] for key in ("rounds", "end_reason", "winners", "players", "discard")},
    }


def _decision(event: dict[str, Any]) -> dict[str, Any]:
    """A special card's decision as the script's keys (nothing when the player kept the roll as it was)."""
    kind = event["type"]
    if kind == "red":
        return (
            {"add": event["face"]}
            if event["action"] == "add"
            else {"return": event["face"]}
            if event["action"] == "return"
            else {}
        )
    if kind == "orange":
        return {"adjust": event["adjust"]} if event["adjust"] else {}
    if kind == "yellow":
        return {"card": event["card"]}
    return {"reroll": list(event["reroll"])} if event["reroll"] is not None else {}
