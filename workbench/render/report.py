"""The HTML report and the terminal table of a simulation, for any family.

:func:`render_report` turns the summaries of ``workbench simulate`` (one per player
count, as in ``summary.json``) into one self-contained page: the figures every game has
(length, how games end, fairness, the seats' win rates) come from here, and the
family's :class:`Figures` add its own groups of key figures and sections per run. Every
figure the summary gives with an interval is shown with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from workbench.render import templates
from workbench.render.svg import bar_chart, histogram
from workbench.sim.stats import HistogramReport, MeanReport, RateReport

Summary = dict[str, Any]
#: A figure of one run as a page cell: its value and, in grey below, its interval or a note.
Cell = dict[str, str]
#: A row of the key figures: its label, a note, and the cell of a run.
Row = tuple[str, str, Callable[[Summary], Cell]]
#: A row of the terminal table: its label and the text of a run.
TextRow = tuple[str, Callable[[Summary], str]]


@dataclass(frozen=True)
class Figures:
    """What a family adds to the report and the terminal table of a simulation."""

    end_reasons: Mapping[str, str]  #: each end reason in words, in the order shown
    about: str = ""  #: what else the page shows, as the end of "whether any seat is favoured..."
    groups: Callable[[list[Summary]], list[tuple[str, list[Row]]]] = lambda summaries: []  #: more key figures
    sections: Callable[[Summary], str] = lambda summary: ""  #: HTML after the charts of one run
    rows: Callable[[list[Summary]], list[TextRow]] = lambda summaries: []  #: more lines of the terminal table
    #: The unit of a game's length (the figure ``rounds`` of ``summary.json``, the count of the same name in a
    #: played or replayed game's output): singular and plural.
    length: tuple[str, str] = ("round", "rounds")
    #: What each seat is called beside its number, by seat (white, black in a game of two sides); none: the number alone.
    seats: tuple[str, ...] = ()
    #: The figures a designer acts on first, by their ``summary.json`` names: ``compare`` leads with them (at most five).
    headline: tuple[str, ...] = ("balance", "rounds.mean", "wins.no_winner.rate")

    def seat(self, seat: int) -> str:
        """A seat in words: ``seat 2``, or ``seat 0 (white)``.

        >>> Figures({}).seat(2), Figures({}, seats=("white", "black")).seat(0)
        ('seat 2', 'seat 0 (white)')
        """
        return f"seat {seat} ({self.seats[seat]})" if seat < len(self.seats) else f"seat {seat}"


def render_report(summaries: list[Summary], game_title: str, figures: Figures) -> str:
    """The report of one or more runs (one per player count) as one self-contained HTML page."""
    runs = [_run(s, figures) for s in summaries]
    variants = list(dict.fromkeys(s["variant"] for s in summaries))
    files = list(dict.fromkeys(s["variant_file"] for s in summaries))
    return (
        templates("workbench.render")
        .get_template("report.html.j2")
        .render(
            game_title=game_title,
            title=" / ".join(variants),
            about=figures.about,
            files=", ".join(files),
            players=", ".join(str(s["players"]) for s in summaries),
            games=", ".join(dict.fromkeys(f"{s['games']:,}" for s in summaries)),
            seeds=", ".join(dict.fromkeys(str(s["seed"]) for s in summaries)),
            interrupted=[run for run in runs if run["interrupted"]],
            notes=[(s["players"], note["text"]) for s in summaries for note in s.get("notes", [])],
            runs=runs,
            groups=_groups(summaries, figures),
            unit=figures.length[1],
        )
    )


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


def rate_cell(figure: RateReport | None) -> Cell:
    """A rate and its interval."""
    return {"value": pct(figure), "sub": pct_interval(figure)}


def mean_cell(figure: MeanReport) -> Cell:
    """A mean and its interval."""
    return {"value": num(figure["mean"]) if figure["n"] else "–", "sub": num_interval(figure)}


def quantile_cell(figure: HistogramReport, empty: str) -> Cell:
    """A median and the middle 80 % of the values (``empty`` when there are none)."""
    if not figure["n"]:
        return {"value": "–", "sub": empty}
    return {"value": whole(figure["median"]), "sub": f"{whole(figure['p10'])} to {whole(figure['p90'])}"}


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


def _groups(summaries: list[Summary], figures: Figures) -> list[dict[str, Any]]:
    def group(title: str, rows: list[Row]) -> dict[str, Any]:
        return {
            "title": title,
            "rows": [{"label": lb, "note": nt, "cells": [cell(s) for s in summaries]} for lb, nt, cell in rows],
        }

    reasons = _reasons(summaries, figures)
    bots = sorted({name for s in summaries for name in s["wins"]["by_bot"]})
    unit = figures.length[1]
    shared: list[tuple[str, list[Row]]] = [
        (
            "Game length",
            [
                (f"{unit.capitalize()}, mean", "Grey: the 95% interval of the mean.", lambda s: mean_cell(s["rounds"])),
                (
                    f"{unit.capitalize()}, median",
                    "Half the games are shorter. Grey: the middle 80% of games (10th to 90th percentile).",
                    lambda s: quantile_cell(s["rounds"], ""),
                ),
            ],
        ),
        (
            "How games end",
            [
                *(
                    (
                        f"Ends: {figures.end_reasons.get(r, r.replace('_', ' '))}",
                        "",
                        lambda s, r=r: rate_cell(s["end_reasons"].get(r)),
                    )
                    for r in reasons
                ),
                ("No winner", "Games in which nobody wins.", lambda s: rate_cell(s["wins"]["no_winner"])),
                ("Shared win", "Games won by two or more tied players.", lambda s: rate_cell(s["wins"]["shared"])),
            ],
        ),
        (
            "Fairness",
            [
                (
                    "Balance",
                    "1 minus the largest gap between two seats' win rates (Ludii). 1 means every seat wins equally often.",
                    _balance_cell,
                ),
                (
                    "First-seat advantage",
                    "How often the player who starts the game wins, a game nobody wins counting "
                    "half (Ludii). Grey: the same figure if every seat were equal.",
                    _first_seat_cell,
                ),
                *(
                    (f"Win rate of {name}", "Per seat it played.", lambda s, b=name: rate_cell(s["wins"]["by_bot"].get(b)))
                    for name in (bots if len(bots) > 1 else ())
                ),
            ],
        ),
    ]
    return [group(title, rows) for title, rows in (*shared, *figures.groups(summaries))]


def _reasons(summaries: list[Summary], figures: Figures) -> list[str]:
    """The end reasons of the runs: the family's order first, then any other in alphabetical order."""
    reasons = [r for r in figures.end_reasons if any(r in s["end_reasons"] for s in summaries)]
    return reasons + sorted({r for s in summaries for r in s["end_reasons"]} - set(reasons))


def _balance_cell(summary: Summary) -> Cell:
    if summary["balance"] is None:
        return {"value": "–", "sub": ""}
    gap = 100 * (1 - summary["balance"])
    return {"value": f"{summary['balance']:.3f}", "sub": f"best and worst seat {gap:.1f} points apart"}


def _first_seat_cell(summary: Summary) -> Cell:
    if summary["first_seat_advantage"] is None:
        return {"value": "–", "sub": ""}
    return {"value": pct(summary["first_seat_advantage"]), "sub": f"equal seats: {pct(even_first_seat(summary))}"}


# One player count: its header, charts and the family's sections.


def _run(summary: Summary, figures: Figures) -> dict[str, Any]:
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
        "bots": f"{bots[0]} on every seat" if same_bot else ", ".join(f"{figures.seat(i)}: {b}" for i, b in enumerate(bots)),
        "interrupted": summary["interrupted"],
        "engine": summary.get("engine", "interpreter"),  # summaries written before the batch engine had none
        "even_share": pct(even),
        "seats": [
            {"seat": figures.seat(i), "bot": bots[i] if i < len(bots) else "", "rate": pct(s), "interval": pct_interval(s)}
            for i, s in enumerate(seats)
        ],
        "same_bot": same_bot,
        "rounds_chart": _rounds_chart(summary, figures.length[1]),
        "seats_chart": Markup(
            bar_chart(
                [figures.seat(i) for i in range(len(seats))],
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
        "sections": Markup(figures.sections(summary)),  # the family's template autoescaped its text
        "timing": summary.get("timing"),
    }


def _rounds_chart(summary: Summary, unit: str) -> Markup | None:
    rounds = summary["rounds"]
    if not rounds["n"]:
        return None
    p10, p90, median = rounds["p10"], rounds["p90"], rounds["median"]
    return Markup(
        histogram(
            rounds["histogram"],
            share=True,
            x_label=f"{unit} played",
            y_label="share of games",
            band=(p10, p90, f"middle 80% of games: {whole(p10)} to {whole(p90)} {unit}"),
            markers=[(f"median: {whole(median)}", median)],
            title=f"Game length, {summary['players']} players",
        )
    )


# The terminal table: a row per figure, a column per player count.


def text_rate(figure: RateReport | None) -> str:
    """A rate and its interval in plain text."""
    if not figure or not figure.get("n"):
        return "-"
    return f"{100 * figure['rate']:.1f}% ({100 * figure['low']:.1f}-{100 * figure['high']:.1f})"


def text_mean(figure: MeanReport) -> str:
    """A mean and its interval in plain text."""
    return f"{figure['mean']:.2f} ({figure['low']:.2f}-{figure['high']:.2f})" if figure["n"] else "-"


def summary_rows(summaries: list[Summary], figures: Figures) -> tuple[list[str], list[list[str]]]:
    """The terminal table of one or more runs: a row per figure, a column per player count."""
    headers = ["", *(f"{s['players']} players" for s in summaries)]
    seats = max(s["players"] for s in summaries)
    bots = sorted({name for s in summaries for name in s["wins"]["by_bot"]})
    rows: list[TextRow] = [
        ("games", lambda s: f"{s['games']:,}"),
        (f"{figures.length[1]}, mean (95% CI)", lambda s: text_mean(s["rounds"])),
        (
            f"{figures.length[1]}, median [p10-p90]",
            lambda s: f"{s['rounds']['median']:g} [{s['rounds']['p10']:g}-{s['rounds']['p90']:g}]",
        ),
        *(
            (f"ends by {reason.replace('_', ' ')}", lambda s, r=reason: text_rate(s["end_reasons"].get(r)))
            for reason in _reasons(summaries, figures)
        ),
        ("no winner", lambda s: text_rate(s["wins"]["no_winner"])),
        *figures.rows(summaries),
        *(
            (f"win rate {figures.seat(seat)}", lambda s, i=seat: text_rate(s["wins"]["by_seat"][i]) if i < s["players"] else "")
            for seat in range(seats)
        ),
        *((f"win rate {name} (per seat)", lambda s, b=name: text_rate(s["wins"]["by_bot"].get(b))) for name in bots),
        ("balance (Ludii)", lambda s: f"{s['balance']:.3f}" if s["balance"] is not None else "-"),
        (
            "first-seat advantage (Ludii)",
            lambda s: f"{s['first_seat_advantage']:.3f}" if s["first_seat_advantage"] is not None else "-",
        ),
    ]
    return headers, [[label, *(cell(s) for s in summaries)] for label, cell in rows]
