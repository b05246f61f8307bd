"""The HTML report of a simulation: one self-contained page a designer can read.

:func:`render_report` turns the summaries of ``workbench simulate`` (one per player
count, as in ``summary.json``) into plain strings and SVG charts, and
``templates/report.html.j2`` lays them out. Every figure the summary gives with an
interval is shown with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2
from markupsafe import Markup

from workbench.games.chance_it import engine
from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.text import Summary
from workbench.render import templates
from workbench.render.svg import PALETTE, Panel, Series, bar_chart, hbar_chart, histogram, line_chart
from workbench.sim.stats import HistogramReport, MeanReport, RateReport

#: Rounds reached by fewer than this share of the games are left off the resource plot.
TRAJECTORY_MIN_SHARE = 0.05

#: How each end reason reads in the report, in the order shown.
END_REASONS = dict(
    zip(
        engine.END_REASONS,
        ("someone reached the star goal", "one player left standing", "everybody eliminated", "round limit reached"),
        strict=True,
    )
)

#: Colours of the resources in charts (Okabe-Ito): coins orange, hearts reddish purple, stars blue.
RESOURCE_COLORS = {"coins": PALETTE[1], "hearts": PALETTE[3], "stars": PALETTE[0]}


def render_report(summaries: list[Summary]) -> str:
    """The report of one or more runs (one per player count) as one self-contained HTML page."""
    runs = [_run(s) for s in summaries]
    variants = list(dict.fromkeys(s["variant"] for s in summaries))
    files = list(dict.fromkeys(s["variant_file"] for s in summaries))
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            title=" / ".join(variants),
            files=", ".join(files),
            players=", ".join(str(s["players"]) for s in summaries),
            games=", ".join(dict.fromkeys(f"{s['games']:,}" for s in summaries)),
            seeds=", ".join(dict.fromkeys(str(s["seed"]) for s in summaries)),
            interrupted=[run for run in runs if run["interrupted"]],
            runs=runs,
            groups=_figures(summaries),
        )
    )


def environment() -> jinja2.Environment:
    """The Jinja2 environment of these templates."""
    return templates("workbench.games.chance_it")


# Numbers as the page prints them.


def pct(figure: RateReport | float | None) -> str:
    """A rate as a percentage with one decimal.

    >>> pct({"rate": 0.186, "low": 0.17, "high": 0.2, "n": 2000}), pct(0.5), pct(None)
    ('18.6%', '50.0%', '–')
    """
    if isinstance(figure, dict):
        figure = figure["rate"] if figure.get("n") else None
    return "–" if figure is None else f"{100 * figure:.1f}%"


def pct_interval(figure: RateReport | None) -> str:
    """A rate's 95 % interval, in percent.

    >>> pct_interval({"rate": 0.186, "low": 0.1696, "high": 0.2036, "n": 2000})
    '17.0–20.4%'
    """
    if not figure or not figure.get("n"):
        return ""
    return f"{100 * figure['low']:.1f}–{100 * figure['high']:.1f}%"


def num(value: float | None, like: float | None = None) -> str:
    """A mean or similar figure: two decimals below 10, one above (judged by ``like`` when given).

    >>> num(2.279), num(52.2105), num(10.1, like=9.75), num(None)
    ('2.28', '52.2', '10.10', '–')
    """
    if value is None:
        return "–"
    return f"{value:,.2f}" if abs(value if like is None else like) < 10 else f"{value:,.1f}"


def num_interval(figure: MeanReport) -> str:
    """A mean's 95 % interval, with as many decimals as the mean.

    >>> num_interval({"mean": 11.37, "sd": 3.4, "low": 11.22, "high": 11.51, "n": 2000})
    '11.2–11.5'
    >>> num_interval({"mean": 9.75, "sd": 3.1, "low": 9.4, "high": 10.1, "n": 300})
    '9.40–10.10'
    """
    like = figure["mean"]
    return f"{num(figure['low'], like)}–{num(figure['high'], like)}" if figure.get("n") else ""


def whole(value: float) -> str:
    """A quantile of whole numbers, without a needless decimal.

    >>> whole(11.0), whole(7.5)
    ('11', '7.5')
    """
    return f"{value:g}"


def _rate_cell(figure: RateReport | None) -> dict[str, str]:
    return {"value": pct(figure), "sub": pct_interval(figure)}


def _mean_cell(figure: MeanReport) -> dict[str, str]:
    return {"value": num(figure["mean"]) if figure["n"] else "–", "sub": num_interval(figure)}


def even_share(summary: Summary) -> float:
    """The win rate every seat would have if all seats were equal: the mean of the seats' win rates."""
    seats = summary["wins"]["by_seat"]
    return sum(s["rate"] for s in seats) / len(seats) if seats else 0.0


def even_first_seat(summary: Summary) -> float:
    """Ludii's first-seat advantage when all seats are equal: a 1/players share of the won games plus half the rest."""
    no_winner: float = summary["wins"]["no_winner"]["rate"]
    players: int = summary["players"]
    return (1 - no_winner) / players + no_winner / 2


# The key figures table: a row per figure, a column per player count.


def _figures(summaries: list[Summary]) -> list[dict[str, Any]]:
    def row(label: str, note: str, cell: Callable[..., dict[str, str]]) -> dict[str, Any]:  # cell(summary)
        return {"label": label, "note": note, "cells": [cell(s) for s in summaries]}

    reasons = [r for r in END_REASONS if any(r in s["end_reasons"] for s in summaries)]
    reasons += sorted({r for s in summaries for r in s["end_reasons"]} - set(reasons))
    bots = sorted({name for s in summaries for name in s["wins"]["by_bot"]})
    return [
        {
            "title": "Game length",
            "rows": [
                row("Rounds, mean", "Grey: the 95% interval of the mean.", lambda s: _mean_cell(s["rounds"])),
                row(
                    "Rounds, median",
                    "Half the games are shorter. Grey: the middle 80% of games (10th to 90th percentile).",
                    lambda s: {
                        "value": whole(s["rounds"]["median"]) if s["rounds"]["n"] else "–",
                        "sub": f"{whole(s['rounds']['p10'])} to {whole(s['rounds']['p90'])}" if s["rounds"]["n"] else "",
                    },
                ),
            ],
        },
        {
            "title": "How games end",
            "rows": [
                *(
                    row(
                        f"Ends: {END_REASONS.get(r, r.replace('_', ' '))}", "", lambda s, r=r: _rate_cell(s["end_reasons"].get(r))
                    )
                    for r in reasons
                ),
                row("No winner", "Games in which nobody wins.", lambda s: _rate_cell(s["wins"]["no_winner"])),
                row("Shared win", "Games won by two or more tied players.", lambda s: _rate_cell(s["wins"]["shared"])),
            ],
        },
        {
            "title": "Fairness",
            "rows": [
                row(
                    "Balance",
                    "1 minus the largest gap between two seats' win rates (Ludii). 1 means every seat wins equally often.",
                    _balance_cell,
                ),
                row(
                    "First-seat advantage",
                    "How often seat 0, the first player, wins, a game nobody wins counting "
                    "half (Ludii). Grey: the same figure if every seat were equal.",
                    _first_seat_cell,
                ),
                *(
                    row(f"Win rate of {name}", "Per seat it played.", lambda s, b=name: _rate_cell(s["wins"]["by_bot"].get(b)))
                    for name in (bots if len(bots) > 1 else ())
                ),
            ],
        },
        {
            "title": "Eliminations",
            "rows": [
                row("Players eliminated per game", "", lambda s: _mean_cell(s["eliminations"]["per_game"])),
                row(
                    "Games with an elimination",
                    "At least one player eliminated.",
                    lambda s: _rate_cell(s["eliminations"]["games_with_elimination"]),
                ),
                row(
                    "First elimination, round",
                    "Median, in the games that have one. Grey: the middle 80% of them.",
                    lambda s: _quantile_cell(s["eliminations"]["first_round"]),
                ),
            ],
        },
        {
            "title": "Guides",
            "rows": [
                row("Plays IN", "Share of all guide picks.", lambda s: _rate_cell(s["guides"]["in"])),
                row("Plays OUT", "", lambda s: _rate_cell(s["guides"]["out"])),
                row("Plays CHANCE IT", "", lambda s: _rate_cell(s["guides"]["chance-it"])),
                row(
                    "Forced IN",
                    "Picks made by a player forced to play IN after a crowded CHANCE IT.",
                    lambda s: _rate_cell(s["guides"]["forced_in"]),
                ),
            ],
        },
        {
            "title": "Stakes (all players, per game)",
            "rows": [
                row("Coins paid", "By IN and CHANCE IT players.", lambda s: _mean_cell(s["stakes"]["coins_paid_per_game"])),
                row(
                    "Hearts paid for want of coins",
                    "One heart per missing coin.",
                    lambda s: _mean_cell(s["stakes"]["hearts_paid_per_game"]),
                ),
                row("Coins received", "Taken by OUT players.", lambda s: _mean_cell(s["stakes"]["coins_received_per_game"])),
            ],
        },
    ]


def _quantile_cell(figure: HistogramReport) -> dict[str, str]:
    if not figure["n"]:
        return {"value": "–", "sub": "no eliminations"}
    return {"value": whole(figure["median"]), "sub": f"{whole(figure['p10'])} to {whole(figure['p90'])}"}


def _balance_cell(summary: Summary) -> dict[str, str]:
    if summary["balance"] is None:
        return {"value": "–", "sub": ""}
    gap = 100 * (1 - summary["balance"])
    return {"value": f"{summary['balance']:.3f}", "sub": f"best and worst seat {gap:.1f} points apart"}


def _first_seat_cell(summary: Summary) -> dict[str, str]:
    if summary["first_seat_advantage"] is None:
        return {"value": "–", "sub": ""}
    return {"value": pct(summary["first_seat_advantage"]), "sub": f"equal seats: {pct(even_first_seat(summary))}"}


# One player count: its header, charts and tables.


def _run(summary: Summary) -> dict[str, Any]:
    players, games = summary["players"], summary["games"]
    bots = summary["bots"]
    same_bot = len(set(bots)) == 1
    seats = summary["wins"]["by_seat"]
    even = even_share(summary)
    return {
        "id": f"players-{players}",
        "players": players,
        "games": f"{games:,}",
        "seed": summary["seed"],
        "variant": summary["variant"],
        "variant_file": summary["variant_file"],
        "bots": f"{bots[0]} on every seat" if same_bot else ", ".join(f"seat {i}: {b}" for i, b in enumerate(bots)),
        "interrupted": summary["interrupted"],
        "engine": summary.get("engine", "interpreter"),  # summaries written before the batch engine had none
        "even_share": pct(even),
        "seats": [
            {"seat": i, "bot": bots[i] if i < len(bots) else "", "rate": pct(s), "interval": pct_interval(s)}
            for i, s in enumerate(seats)
        ],
        "same_bot": same_bot,
        "rounds_chart": _rounds_chart(summary),
        "seats_chart": Markup(
            bar_chart(
                [f"seat {i}" for i in range(len(seats))],
                [s["rate"] for s in seats],
                low=[s["low"] for s in seats],
                high=[s["high"] for s in seats],
                sublabels=None if same_bot else bots,
                reference=even,
                reference_label=f"even share: {pct(even)}",
                percent=True,
                y_label="games won",
                title=f"Win rate by seat, {players} players",
            )
        )
        if games
        else None,
        "cards": _cards(summary, even),
        "trajectory": _trajectory(summary),
        "components": [
            {
                "name": name,
                "most": f"{c['most_held_at_once']:,}",
                "peak": _mean_cell(c["most_held_per_game"]),
                "dry": _rate_cell(c["supply_ran_dry"]),
            }
            for name, c in ((name, summary["components"][name]) for name in RESOURCES if name in summary["components"])
        ],
        "timing": summary.get("timing"),
    }


def _rounds_chart(summary: Summary) -> Markup | None:
    rounds = summary["rounds"]
    if not rounds["n"]:
        return None
    p10, p90, median = rounds["p10"], rounds["p90"], rounds["median"]
    return Markup(
        histogram(
            rounds["histogram"],
            share=True,
            x_label="rounds played",
            y_label="share of games",
            band=(p10, p90, f"middle 80% of games: {whole(p10)} to {whole(p90)} rounds"),
            markers=[(f"median: {whole(median)}", median)],
            title=f"Game length, {summary['players']} players",
        )
    )


def _cards(summary: Summary, even: float) -> dict[str, Any]:
    order = sorted(summary["cards"].items(), key=lambda kv: (-kv[1]["bought"], kv[0]))
    rows = []
    for card_id, c in order:
        owner, other = c["owner_win_rate"], c["non_owner_win_rate"]
        rows.append(
            {
                "id": card_id,
                "bought": f"{c['bought']:,}",
                "discarded": f"{c['discarded']:,}",
                "per_game": f"{c['bought_per_game']:.2f}",
                "owner": _rate_cell(owner) if owner["n"] else {"value": "never bought", "sub": ""},
                "owner_n": f"{owner['n']:,}",
                "other": _rate_cell(other),
            }
        )
    if not order or not summary["games"]:
        return {"rows": rows, "chart": None}

    def present(key: str, field: str) -> list[float | None]:
        return [c[key][field] if c[key]["n"] else None for _, c in order]

    chart = hbar_chart(
        [card_id for card_id, _ in order],
        [
            Panel(
                [Series("bought per game", [c["bought_per_game"] for _, c in order], color=PALETTE[2])],
                title="Bought per game",
                x_label="copies bought per game",
                width=250,
            ),
            Panel(
                [
                    Series(
                        "owners",
                        present("owner_win_rate", "rate"),
                        present("owner_win_rate", "low"),
                        present("owner_win_rate", "high"),
                        color=PALETTE[0],
                    ),
                    Series(
                        "others",
                        present("non_owner_win_rate", "rate"),
                        present("non_owner_win_rate", "low"),
                        present("non_owner_win_rate", "high"),
                        color=PALETTE[1],
                    ),
                ],
                title="Win rate: owners vs others",
                x_label="games won (per player)",
                percent=True,
                reference=even,
                reference_label="even share",
                value_labels=False,
                missing="never bought",
                width=520,
            ),
        ],
        label_width=130,
        title=f"Cards, {summary['players']} players",
    )
    return {"rows": rows, "chart": Markup(chart)}


def _trajectory(summary: Summary) -> dict[str, Any] | None:
    t = summary.get("trajectory") or {}
    if not t.get("round") or not summary["games"]:
        return None
    floor = TRAJECTORY_MIN_SHARE * summary["games"]
    keep = [i for i, g in enumerate(t["games"]) if g >= floor]
    rounds = [t["round"][i] for i in keep]
    chart = line_chart(
        rounds,
        [Series(name, [t[name][i] for i in keep], color=RESOURCE_COLORS.get(name)) for name in RESOURCES if name in t],
        x_label="round",
        y_label="per player still in the game",
        title=f"Resources by round, {summary['players']} players",
    )
    return {
        "chart": Markup(chart),
        "last": rounds[-1] if rounds else None,
        "dropped": len(t["round"]) - len(keep),
        "max_round": t["round"][-1],
    }
