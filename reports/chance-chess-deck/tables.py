"""The tables of README.md, from the study's sweep.json and compare.json files (run.sh runs it last).

python reports/chance-chess-deck/tables.py   # prints the two tables; tests/test_docs.py checks README.md has them
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
#: The figures of both tables: (label, path in the JSON files, shown as a percentage).
FIGURES = (
    ("Draws", "wins.no_winner.rate", True),
    ("White wins", "wins.by_seat.0.rate", True),
    ("Black wins", "wins.by_seat.1.rate", True),
    ("White's edge", "first_seat_advantage", True),
    ("Game length, plies", "rounds.mean", False),
    ("Free moves per game", "free_moves.per_game.mean", False),
)


def _value(value: float, percent: bool) -> str:
    return f"{100 * value:.1f} %" if percent else f"{value:.1f}"


def _change(change: dict[str, Any], percent: bool) -> str:
    scale, unit = (100, " pp") if percent else (1, "")
    star = " *" if change.get("significant") else ""
    return f"{scale * change['value']:+.1f}{unit} ({scale * change['low']:+.1f} to {scale * change['high']:+.1f}){star}"


def sweep() -> str:
    """Every split with greedy bots: its draws, white's edge and length, each with its paired change from the even
    split (95 %; * significant after Holm's correction)."""
    data = json.loads((HERE / "sweep" / "sweep.json").read_text())
    shown = FIGURES[:1] + FIGURES[3:5]
    header = "| split (pawn knight bishop rook queen king) | " + " | ".join(label for label, _, _ in shown) + " |"
    lines = [header, "| --- |" + " --- |" * len(shown)]
    base = data["table"][0]["figures"]
    lines.append(
        "| even (13 13 13 12 12 12), the base | "
        + " | ".join(_value(base[name]["reference"]["value"], percent) for _, name, percent in shown)
        + " |"
    )
    names = {point["id"]: point["name"] for point in data["points"]}
    for row in data["table"]:
        cells = [
            f"{_value(row['figures'][name]['value'], percent)}, {_change(row['figures'][name]['change'], percent)}"
            for _, name, percent in shown
        ]
        lines.append(f"| {names[row['point']]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def comparison() -> str:
    """The three decks with search bots on the same games: each figure, and the change from the even split."""
    data = json.loads((HERE / "compare-search" / "compare.json").read_text())
    (run,) = data["runs"]
    names = [variant["name"] for variant in data["variants"]]
    lines = [
        "| figure | " + " | ".join(names) + " | " + " | ".join(f"{name} − even (95 %)" for name in names[1:]) + " |",
        "| --- |" + " --- |" * (2 * len(names) - 1),
    ]
    for label, name, percent in FIGURES:
        figure = next(s for s in run["statistics"] if s["name"] == name)
        values = [_value(v["value"], percent) for v in figure["values"]]
        changes = [_change(d, percent) for d in figure["differences"]]
        lines.append(f"| {label} | " + " | ".join(values + changes) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(sweep(), comparison(), sep="\n\n")
