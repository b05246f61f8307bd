"""The tables of README.md, from the study's compare.json and skill.json files (run.sh runs it last).

python reports/target-dice-under-rule/tables.py   # prints the two tables; tests/test_docs.py checks README.md has them
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
#: The compared figures: (label, path in compare.json, shown as a percentage).
FIGURES = (
    ("Game length, rounds", "rounds.mean", False),
    ("Points per round (all players)", "points.per_round", False),
    ("Rounds ending in a HIT", "round_ends.hit.rate", True),
    ("Rounds scored by the last valid roll", "round_ends.held.rate", True),
    ("Rounds nobody scores", "round_ends.scoreless.rate", True),
    ("Rounds the last player in turn order scores", "last_player_scored.rate", True),
    ("Lead changes per game", "lead_changes_per_game.mean", False),
    ("Points lost per game (all players)", "points.lost_per_game.mean", False),
    ("Turns passed", "turns.passed.rate", True),
    ("First-seat advantage", "first_seat_advantage", True),
)


def _value(value: float, percent: bool) -> str:
    return f"{100 * value:.1f} %" if percent else f"{value:.2f}"


def _difference(figure: dict, percent: bool) -> str:
    d = figure["differences"][0]
    if percent:
        text = f"{100 * d['value']:+.1f} pp ({100 * d['low']:+.1f} to {100 * d['high']:+.1f})"
    else:
        text = f"{d['value']:+.2f} ({d['low']:+.2f} to {d['high']:+.2f})"
    return text + (" *" if d["significant"] else "")


def comparison() -> str:
    """The figures of both rules at each player count, with the paired difference (* significant after Holm)."""
    data = json.loads((HERE / "compare" / "compare.json").read_text())
    lines = ["| figure | players | keep | miss | miss − keep (95 %) |", "| --- | --- | --- | --- | --- |"]
    for label, name, percent in FIGURES:
        for run in data["runs"]:
            figure = next(s for s in run["statistics"] if s["name"] == name)
            keep, miss = (_value(v["value"], percent) for v in figure["values"])
            lines.append(f"| {label} | {run['players']} | {keep} | {miss} | {_difference(figure, percent)} |")
    return "\n".join(lines)


def skill() -> str:
    """The search bot against a field of greedy bots, under each rule."""
    lines = ["| players | rule | search's win rate | over a greedy bot in its seat (95 %) |", "| --- | --- | --- | --- |"]
    for players in (3, 4, 5):
        for rule in ("keep", "miss"):
            data = json.loads((HERE / f"skill-{rule}-{players}p" / "skill.json").read_text())
            rung = next(r for r in data["rungs"] if r["bot"] == "search")
            edge = rung["over_field"]
            lines.append(
                f"| {players} | {rule} | {100 * rung['win_rate']['value']:.1f} % | "
                f"{100 * edge['value']:+.1f} pp ({100 * edge['low']:+.1f} to {100 * edge['high']:+.1f}) |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print(comparison(), skill(), sep="\n\n")
