"""Chance It events as lines a designer can read (``--trace``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.effects import amount, describe_event
from workbench.games.chance_it.effects.gain import signed
from workbench.games.chance_it.engine import Event
from workbench.sim.stats import MeanReport, RateReport

#: One run's ``summary.json`` (see ``sim.py``).
Summary = dict[str, Any]


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


def _pct(figure: RateReport | None) -> str:
    if not figure or not figure.get("n"):
        return "-"
    return f"{100 * figure['rate']:.1f}% ({100 * figure['low']:.1f}-{100 * figure['high']:.1f})"


def _mean(figure: MeanReport) -> str:
    return f"{figure['mean']:.2f} ({figure['low']:.2f}-{figure['high']:.2f})" if figure["n"] else "-"


def summary_rows(summaries: list[Summary]) -> tuple[list[str], list[list[str]]]:
    """The terminal table of one or more runs: a row per figure, a column per player count."""
    headers = ["", *(f"{s['players']} players" for s in summaries)]
    seats = max(s["players"] for s in summaries)
    bots = sorted({name for s in summaries for name in s["wins"]["by_bot"]})

    def row(label: str, cell: Callable[..., str]) -> list[str]:  # cell(summary); `...`: some bind loop values as defaults
        return [label, *(cell(s) for s in summaries)]

    rows = [
        row("games", lambda s: f"{s['games']:,}"),
        row("rounds, mean (95% CI)", lambda s: _mean(s["rounds"])),
        row("rounds, median [p10-p90]", lambda s: f"{s['rounds']['median']:g} [{s['rounds']['p10']:g}-{s['rounds']['p90']:g}]"),
        *(
            row(f"ends by {reason.replace('_', ' ')}", lambda s, r=reason: _pct(s["end_reasons"].get(r)))
            for reason in ("stars", "last_standing", "all_eliminated", "max_rounds")
        ),
        row("no winner", lambda s: _pct(s["wins"]["no_winner"])),
        row("eliminations per game", lambda s: _mean(s["eliminations"]["per_game"])),
        row(
            "first elimination, median round",
            lambda s: f"{s['eliminations']['first_round']['median']:g}" if s["eliminations"]["first_round"]["n"] else "-",
        ),
        *(row(f"guide {guide}", lambda s, g=guide: _pct(s["guides"][g])) for guide in ("in", "out", "chance-it")),
        row("forced in", lambda s: _pct(s["guides"]["forced_in"])),
        row("stakes coins paid per game", lambda s: _mean(s["stakes"]["coins_paid_per_game"])),
        row("stakes coins received per game", lambda s: _mean(s["stakes"]["coins_received_per_game"])),
        *(
            row(f"win rate seat {seat}", lambda s, i=seat: _pct(s["wins"]["by_seat"][i]) if i < s["players"] else "")
            for seat in range(seats)
        ),
        *(row(f"win rate {name} (per seat)", lambda s, b=name: _pct(s["wins"]["by_bot"].get(b))) for name in bots),
        row("balance (Ludii)", lambda s: f"{s['balance']:.3f}" if s["balance"] is not None else "-"),
        row(
            "first-seat advantage (Ludii)",
            lambda s: f"{s['first_seat_advantage']:.3f}" if s["first_seat_advantage"] is not None else "-",
        ),
        row(
            "most bought cards",
            lambda s: ", ".join(card for card, _ in sorted(s["cards"].items(), key=lambda kv: -kv[1]["bought"])[:3]),
        ),
        row(
            "supply ran dry (games)",
            lambda s: ", ".join(f"{name} {100 * s['components'][name]['supply_ran_dry']['rate']:.0f}%" for name in RESOURCES),
        ),
    ]
    return headers, rows
