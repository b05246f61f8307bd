"""The HTML pages of the studies (compare, cards, skill): one self-contained page each, the same for every family.

A page is built from the study's JSON body alone (``compare.json`` and so on), so what
the page shows is exactly what the JSON holds (figures come with their labels in words,
which the family gives).
"""

from __future__ import annotations

import math
from typing import Any

import jinja2
from markupsafe import Markup

from workbench import GENERATOR
from workbench.render import a, templates
from workbench.render.svg import Interval, Panel, Series, forest, hbar_chart, line_chart


def number(value: float | None, percent: bool = False, signed: bool = False, unit: bool = True, digits: int = 3) -> str:
    """A figure as the pages print it: rates in percent with one decimal (a difference in percentage points), other
    values with ``digits`` significant digits, never in exponent notation.

    >>> number(0.1234, True), number(-0.012, True, signed=True), number(-0.012, True, True, False), number(11.274)
    ('12.3%', '-1.2 pp', '-1.2', '11.3')
    >>> number(None), number(-0.0004, True, signed=True), number(-0.000062), number(12.16445, digits=4)
    ('–', '0.0 pp', '-0.0000620', '12.16')
    """
    if value is None or not math.isfinite(value):
        return "–"
    if percent:
        suffix = (" pp" if signed else "%") if unit else ""
        shown = round(value * 100, 1) + 0.0  # + 0.0: no "-0.0"
        return f"{shown:+.1f}{suffix}" if signed and shown != 0 else f"{shown:.1f}{suffix}"
    if value == 0:
        return "0"
    size = abs(value)
    places = digits - 1 - math.floor(math.log10(size))  # 12.0, not 12; 0.000620, not 6.2e-04
    decimals = max(0, places) if size >= 1 else digits if size >= 0.01 else places  # 0.081, as three decimals
    text = f"{value:,.{decimals}f}"
    return f"+{text}" if signed and value > 0 else text


def interval(low: float | None, high: float | None, percent: bool, signed: bool = False, digits: int = 3) -> str:
    """``low to high`` of an interval (the unit once, at the end).

    >>> interval(-0.085, -0.019, True, True), interval(1.5, 2.25, False)
    ('-8.5 to -1.9 pp', '1.50 to 2.25')
    """
    return f"{number(low, percent, signed, unit=False, digits=digits)} to {number(high, percent, signed, digits=digits)}"


def p_value(p: float | None) -> str:
    """A p-value as people read it (None or NaN: not tested).

    >>> p_value(0.0349), p_value(1e-9), p_value(1.0), p_value(None)
    ('0.035', '<0.0001', '1', 'not tested')
    """
    if p is None or math.isnan(p):
        return "not tested"
    return "<0.0001" if p < 1e-4 else f"{p:.2g}"


def environment() -> jinja2.Environment:
    """The Jinja2 environment of these templates."""
    return templates("workbench.render")


def _page(template: str, **context: Any) -> str:
    return environment().get_template(template).render(generator=GENERATOR, **context)


def _value(figure: dict[str, Any], key: str = "value") -> float:
    value = figure[key]
    return math.nan if value is None else float(value)


def _interval(tag: str, difference: dict[str, Any], scale: float) -> Interval:
    """A reported difference as a row of a forest plot, divided by ``scale``."""
    low, value, high = (_value(difference, key) / scale for key in ("low", "value", "high"))
    return Interval(tag, value, low, high, difference["significant"])


def render_compare(data: dict[str, Any], game_title: str, unit: str = "rounds") -> str:
    """``compare.html`` from the body of ``compare.json``; ``unit`` is that of a game's length."""
    names = [v["name"] for v in data["variants"]]
    if len(set(names)) < len(names):  # two files with the same name: tell them apart by file
        names = [f"{v['name']} ({v['file']})" for v in data["variants"]]
    reference = names[0]
    runs = []
    for run in data["runs"]:
        rows, rates, means = [], [], []
        for s in run["statistics"]:
            percent = s["percent"]
            strong = any(d["significant"] for d in s["differences"])
            rows.append(
                {
                    "label": s["label"],
                    "strong": strong,
                    "cells": [number(v["value"], percent) for v in s["values"]],
                    "differences": [
                        {
                            "value": number(d["value"], percent, signed=True),
                            "interval": interval(d["low"], d["high"], percent, signed=True),
                            "p": p_value(d["p_adjusted"]),
                            "significant": d["significant"],
                        }
                        for d in s["differences"]
                    ],
                }
            )
            base = _value(s["values"][0])
            for name, d in zip(names[1:], s["differences"]):
                tag = s["label"] + (f" ({name})" if len(names) > 2 else "")
                if percent:
                    rates.append(_interval(tag, d, 1.0))
                elif math.isfinite(base) and base != 0:  # a change relative to a zero has no size
                    means.append(_interval(tag, d, abs(base)))
        significant = [str(row["label"]) for row in rows if row["strong"]]
        tested = sum(any(d["p_adjusted"] is not None for d in s["differences"]) for s in run["statistics"])
        headline = (
            f"{len(significant)} of {len(rows)} figures changed significantly: {', '.join(significant)}."
            if significant
            else f"No figure changed significantly ({tested} of {len(rows)} figures tested"
            + ("; the others are the same in every game)." if tested < len(rows) else ").")
        )
        runs.append(
            {
                "players": run["players"],
                "games": f"{run['games']:,}",
                "interrupted": run["interrupted"],
                "headline": headline,
                "rows": rows,
                "rates_chart": Markup(forest(rates, x_label="difference (percentage points)", percent=True, unit=" pp")),
                "means_chart": Markup(forest(means, x_label="difference (share of the reference value)", percent=True)),
                "rounds_chart": Markup(_rounds_overlay(names, run["summaries"], unit)),
            }
        )
    meta = [
        ("Variants", ", ".join(f"{v['name']} ({v['file']})" if v["file"] else v["name"] for v in data["variants"])),
        ("Players", ", ".join(str(p) for p in data["players"])),
        ("Seed", str(data["seed"])),
        ("Bots", ", ".join(data["bots"])),
    ]
    warnings = ["The run was interrupted: the figures describe the games that finished."] if data["interrupted"] else []
    return _page(
        "compare.html.j2",
        kind="comparison",
        game_title=game_title,
        title=" vs ".join(names),
        meta=meta,
        warnings=warnings,
        correction=data["correction"]["about"],
        reference=reference,
        names=names,
        runs=runs,
        unit=unit,
        footer="Reproduce with the same files, options and seed; the result is the same for any number of workers.",
    )


def _rounds_overlay(names: list[str], summaries: list[dict[str, Any]], unit: str) -> str:
    histograms = [{int(k): v for k, v in s["rounds"]["histogram"].items()} for s in summaries]
    present = [k for h in histograms for k in h]
    if not present:
        return line_chart([], [])
    xs = list(range(min(present), max(present) + 1))
    series = [Series(name, [h.get(x, 0) / (sum(h.values()) or 1) for x in xs]) for name, h in zip(names, histograms)]
    return line_chart(xs, series, x_label=unit, y_label="share of games", percent=True)


def render_cards(data: dict[str, Any], game_title: str) -> str:
    """``cards.html`` from the body of ``cards.json``."""
    holdings = [name for name in data["baseline"] if name != "win_rate"]
    rows, wins, worths = [], [], []
    for card in sorted(data["cards"], key=lambda c: -c["effect"]["win_rate"]["value"]):
        win = card["effect"]["win_rate"]
        worth = card["coins_equivalent"]
        strong = card["flag"] in ("too strong", "too weak")
        rows.append(
            {
                "name": f"{card['name']} ({card['id']})",
                "when": card["when"],
                "cost": card["cost"],
                "win": number(win["value"], True, signed=True),
                "win_interval": interval(win["low"], win["high"], True, signed=True),
                "holdings": [number(card["effect"][name]["value"], signed=True) for name in holdings],
                "worth": f"{number(worth['value'])} ({interval(worth['low'], worth['high'], False)})",
                "flag": card["flag"],
                "evidence": card["evidence"],
                "strong": strong,
            }
        )
        wins.append(_interval(card["id"], {**win, "significant": strong}, 1.0))
        shifted = {key: (None if worth[key] is None else worth[key] - card["cost"]) for key in ("value", "low", "high")}
        worths.append(_interval(card["id"], {**shifted, "significant": strong}, 1.0))
    observed = [
        [
            card_id,
            number(t["bought_per_game"]),
            f"{t['bought']:,}",
            f"{t['discarded']:,}",
            number(t["round_bought"]["mean"]) if t["bought"] else "never bought",
        ]
        for card_id, t in data["observed"]["cards"].items()
    ]
    coin = data["coin_effect"]["win_rate"]
    variant = data["variant"]
    meta = [
        ("Variant", f"{variant['name']} ({variant['file']})"),
        *([("Cards from", data["with"])] if data["with"] else []),
        ("Players", str(data["players"])),
        ("Games per card", f"{data['games']:,}"),
        ("Seed", str(data["seed"])),
        ("Bots", ", ".join(data["bots"])),
    ]
    legend = ("too strong or too weak", "in line or unclear")
    return _page(
        "cards.html.j2",
        kind="card strength",
        game_title=game_title,
        title=variant["name"],
        meta=meta,
        warnings=["The run was interrupted: the figures describe the games that finished."] if data["interrupted"] else [],
        method=data["method"],
        coins=data["coins_given"],
        coin_effect=f"{number(coin['value'], True, signed=True)} ({interval(coin['low'], coin['high'], True, signed=True)})",
        baseline=number(data["baseline"]["win_rate"]["value"], True),
        holdings=holdings,
        rows=rows,
        win_chart=Markup(forest(wins, x_label="change in win rate (percentage points)", percent=True, unit=" pp", legend=legend)),
        worth_chart=Markup(forest(worths, x_label="coins-equivalent minus price (coins)", legend=legend)),
        observed=observed,
        observed_about=data["observed"]["about"],
        footer="Reproduce with the same files, options and seed; the result is the same for any number of workers.",
    )


def render_skill(data: dict[str, Any], game_title: str) -> str:
    """``skill.html`` from the body of ``skill.json``."""
    rungs = data["rungs"]
    rows = [
        [
            r["bot"],
            number(r["win_rate"]["value"], True),
            interval(r["win_rate"]["low"], r["win_rate"]["high"], True),
            number(r["over_field"]["value"], True, signed=True),
            interval(r["over_field"]["low"], r["over_field"]["high"], True, True),
        ]
        for r in rungs
    ]
    series = Series(
        "win rate",
        [r["win_rate"]["value"] for r in rungs],
        [r["win_rate"]["low"] for r in rungs],
        [r["win_rate"]["high"] for r in rungs],
    )
    equal = data["equal_share"]["value"]
    field = data["field"]
    panel = Panel(
        [series],
        title="win rate at one seat",
        x_label="win rate",
        percent=True,
        reference=equal,
        reference_label=f"{a(field)} bot in that seat",
        width=420,
    )
    alone = data["field_alone"]
    variant = data["variant"]
    return _page(
        "skill.html.j2",
        kind="skill against luck",
        game_title=game_title,
        title=variant["name"],
        meta=[
            ("Variant", f"{variant['name']} ({variant['file']})"),
            ("Players", str(data["players"])),
            ("Field", field),
            ("Games per rung", f"{data['games']:,}"),
            ("Seed", str(data["seed"])),
        ],
        warnings=["The run was interrupted: the figures describe the games that finished."] if data["interrupted"] else [],
        about=data["about"],
        verdict=data["verdict"],
        chart=Markup(hbar_chart([r["bot"] for r in rungs], [panel])),
        rows=rows,
        equal=number(equal, True),
        field=field,
        first_seat=number(alone["first_seat_advantage"], True),
        no_winner=number(alone["no_winner"]["rate"], True),
        footer="Reproduce with the same files, options and seed; the result is the same for any number of workers.",
    )


def _spread(figure: dict[str, Any]) -> tuple[float, float, float]:
    """(value, low, high) of a reported figure, NaN where it has none."""
    return _value(figure), _value(figure, "low"), _value(figure, "high")


def _sweep_cells(figure: dict[str, Any] | None) -> tuple[str, str]:
    """A figure of a sweep's table: its value and its change from the base variant, each with its interval."""
    if figure is None:
        return "", ""
    percent, change = figure["percent"], figure["change"]
    value = f"{number(figure['value'], percent, digits=4)} ({interval(figure['low'], figure['high'], percent, digits=4)})"
    moved = number(change["value"], percent, signed=True, digits=3)
    return value, f"{moved} ({interval(change['low'], change['high'], percent, signed=True, digits=3)})"


def render_sweep(data: dict[str, Any], game_title: str) -> str:
    """``sweep.html`` from the body of ``sweep.json``: per player count, a chart per figure (a line over the swept
    value with its 95 % band, fitted to the values, when one numeric key is swept; else each point's change from the
    base variant with its paired interval) and the table, the best point marked."""
    names = {p["id"]: p["name"] for p in data["points"]}
    axes = data["axes"] or []
    numeric = len(axes) == 1 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in axes[0]["values"])
    goal = data["goal"]
    runs = []
    for players in data["players"]:
        rows = [row for row in data["table"] if row["players"] == players]
        best = data["best"].get(str(players))
        charts = []
        for name in data["figures"]:
            present = [row for row in rows if name in row["figures"]]
            if not present:
                continue
            figures = [row["figures"][name] for row in present]
            percent, label = figures[0]["percent"], figures[0]["label"]
            marked = next((i for i, row in enumerate(present) if best and row["point"] == best["point"]), None)
            marked = marked if goal is not None and goal["figure"] == name else None
            if numeric:
                axis = axes[0]["name"]
                xs = [next(p["values"][axis] for p in data["points"] if p["id"] == row["point"]) for row in present]
                lines = [
                    Series(label, [f["value"] for f in figures], [f["low"] for f in figures], [f["high"] for f in figures]),
                    Series("base variant", [figures[0]["reference"]["value"]] * len(present), color="#5f5f5f"),
                ]
                if marked is not None and not isinstance(goal["aim"], str):
                    lines.append(Series("goal", [float(goal["aim"])] * len(present), color="#D55E00"))
                chart = line_chart(xs, lines, x_label=axis, y_label=label, percent=percent, best=marked, zero=False)
                about = f"{label} at each point, with its 95 % band; the dashed line is the base variant."
            else:
                changes = [
                    Interval(names[row["point"]] + (" (best)" if i == marked else ""), *_spread(f["change"]), i == marked)
                    for i, (row, f) in enumerate(zip(present, figures))
                ]
                legend = ("best", "the other points") if marked is not None else ("", "")
                chart = forest(
                    changes, x_label=f"change from the base variant: {label}", percent=percent, unit=" pp", legend=legend
                )
                about = f"{label}: each point's change from the base variant, with its 95 % paired interval."
            charts.append({"chart": Markup(chart), "about": about})
        table = [
            {
                "name": names[row["point"]],
                "best": bool(best and row["point"] == best["point"]),
                "cells": [_sweep_cells(row["figures"].get(name)) for name in data["figures"]],
            }
            for row in rows
        ]
        labels = [next((r["figures"][n]["label"] for r in rows if n in r["figures"]), n) for n in data["figures"]]
        verdict = ""
        if goal is not None and best is not None:
            close = ", ".join(names[p] for p in best["close"])
            verdict = f"Best by the goal: {names[best['point']]}" + (
                f"; these games cannot tell it apart from {close} (their changes from the base variant have overlapping "
                "95 % intervals)."
                if close
                else " (its change from the base variant has a 95 % interval clear of every other point's)."
            )
        runs.append({"players": players, "charts": charts, "rows": table, "labels": labels, "verdict": verdict})
    aim = {
        "max": "as high as possible",
        "min": "as low as possible",
        "base": "as little changed from the base variant as possible",
    }
    meta = [
        ("Base variant", f"{data['variant']['name']} ({data['variant']['file']})"),
        ("Points", str(len(data["points"]))),
        ("Players", ", ".join(str(p) for p in data["players"])),
        ("Games per point", f"{data['games']:,}"),
        ("Seed", str(data["seed"])),
        ("Bots", ", ".join(data["bots"])),
    ]
    if goal is not None:
        shown = next(
            (r["figures"][goal["figure"]]["label"] for r in data["table"] if goal["figure"] in r["figures"]), goal["figure"]
        )
        meta.append(("Goal", f"{shown} {aim.get(str(goal['aim']), 'nearest ' + str(goal['aim']))}"))
    missing = len(data["missing"])
    warnings = [f"The sweep was interrupted: {missing} point(s) are missing; run it again to play them."] if missing else []
    return _page(
        "sweep.html.j2",
        kind="sweep",
        game_title=game_title,
        title=data["sweep"],
        meta=meta,
        warnings=warnings,
        runs=runs,
        footer=f"Reproduce with: workbench sweep {data['sweep_file']} (the result is the same on any backend and number of workers).",
    )


def render_playtests(data: dict[str, Any], game_title: str) -> str:
    """``playtests.html`` from the body of ``playtests.json``."""
    tables = []
    for table in data["tables"]:
        rows, rates = [], []
        for f in table["figures"]:
            percent, people = f["percent"], f["people"]
            bounded = people["low"] is not None and people["high"] is not None  # one game has no interval for a mean
            rows.append(
                {
                    "label": f["label"],
                    "strong": f["differs"],
                    "people": number(people["value"], percent),
                    "interval": interval(people["low"], people["high"], percent) if bounded else "–",
                    "bots": number(f["bots"], percent),
                    "difference": number(f["difference"], percent, signed=True),
                    "p": p_value(f["p_adjusted"]),
                    "tell": _games_to_tell(f),
                }
            )
            if percent and bounded and f["bots"] is not None:
                shifted = {"value": f["difference"], "low": people["low"] - f["bots"], "high": people["high"] - f["bots"]}
                rates.append(_interval(f["label"], {**shifted, "significant": f["differs"]}, 1.0))
        differing = [row["label"] for row in rows if row["strong"]]
        headline = (
            f"People and bots differ on {len(differing)} of {len(rows)} figures: {', '.join(differing)}."
            if differing
            else f"No figure of these {table['people_games']} games differs from the bots' beyond chance."
        )
        tables.append(
            {
                **table,
                "headline": headline,
                "rows": rows,
                "rates_chart": Markup(
                    forest(rates, x_label="people minus bots (percentage points)", percent=True, unit=" pp",
                           legend=("differs", "within chance"))
                ),
            }
        )  # fmt: skip
    meta = [
        ("Variant", f"{data['variant']['name']} ({data['variant']['file']})" if data["variant"]["file"] else data["variant"]["name"]),
        ("Games at the table", f"{len(data['logs'])}" + (f" (and {len(data['unfinished'])} unfinished, left out)" if data["unfinished"] else "")),
        ("Bots", ", ".join(data["bots"])),
        ("Seed", str(data["seed"])),
    ]  # fmt: skip
    return _page(
        "playtests.html.j2",
        kind="playtests",
        game_title=game_title,
        title=f"People against {', '.join(data['bots'])} bots",
        meta=meta,
        warnings=[],
        correction=data["correction"]["about"],
        tables=tables,
        footer="Reproduce with the same variant, logs, options and seed; the bots' games are the same for any number of workers.",
    )


def _games_to_tell(figure: dict[str, Any]) -> str:
    """What more games at a table would tell of a figure where people and bots are not shown to differ."""
    if figure["differs"]:
        return "differs"
    if figure["p"] is None:
        return str(figure["method"])
    more = figure["games_to_tell"]
    if more is None:
        return "no difference seen"
    return f"about {more:,} games in all would show this difference, were it real"
