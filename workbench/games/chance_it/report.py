"""What Chance It adds to a simulation's report and terminal table (see :mod:`workbench.render.report`):
eliminations, guides and stakes among the key figures; per run, the cards, the resources by round and the
component stress.
"""

from __future__ import annotations

from typing import Any

import jinja2
from markupsafe import Markup

from workbench.games.chance_it import engine
from workbench.games.chance_it.basics import RESOURCES
from workbench.render import templates
from workbench.render.report import (
    Figures,
    Row,
    Summary,
    TextRow,
    even_share,
    mean_cell,
    quantile_cell,
    rate_cell,
    text_mean,
    text_rate,
)
from workbench.render.svg import PALETTE, Panel, Series, hbar_chart, line_chart

#: Rounds reached by fewer than this share of the games are left off the resource plot.
TRAJECTORY_MIN_SHARE = 0.05

#: Colours of the resources in charts (Okabe-Ito): coins orange, hearts reddish purple, stars blue.
RESOURCE_COLORS = {"coins": PALETTE[1], "hearts": PALETTE[3], "stars": PALETTE[0]}


def environment() -> jinja2.Environment:
    """The Jinja2 environment of Chance It's templates."""
    return templates("workbench.games.chance_it")


def _groups(summaries: list[Summary]) -> list[tuple[str, list[Row]]]:
    return [
        (
            "Eliminations",
            [
                ("Players eliminated per game", "", lambda s: mean_cell(s["eliminations"]["per_game"])),
                (
                    "Games with an elimination",
                    "At least one player eliminated.",
                    lambda s: rate_cell(s["eliminations"]["games_with_elimination"]),
                ),
                (
                    "First elimination, round",
                    "Median, in the games that have one. Grey: the middle 80% of them.",
                    lambda s: quantile_cell(s["eliminations"]["first_round"], "no eliminations"),
                ),
            ],
        ),
        (
            "Guides",
            [
                ("Plays IN", "Share of all guide picks.", lambda s: rate_cell(s["guides"]["in"])),
                ("Plays OUT", "", lambda s: rate_cell(s["guides"]["out"])),
                ("Plays CHANCE IT", "", lambda s: rate_cell(s["guides"]["chance-it"])),
                (
                    "Forced IN",
                    "Picks made by a player forced to play IN after a crowded CHANCE IT.",
                    lambda s: rate_cell(s["guides"]["forced_in"]),
                ),
            ],
        ),
        (
            "Stakes (all players, per game)",
            [
                ("Coins paid", "By IN and CHANCE IT players.", lambda s: mean_cell(s["stakes"]["coins_paid_per_game"])),
                (
                    "Hearts paid for want of coins",
                    "One heart per missing coin.",
                    lambda s: mean_cell(s["stakes"]["hearts_paid_per_game"]),
                ),
                ("Coins received", "Taken by OUT players.", lambda s: mean_cell(s["stakes"]["coins_received_per_game"])),
            ],
        ),
    ]


def _sections(summary: Summary) -> str:
    """The cards, the resources by round and the component stress of one run."""
    run = {
        "cards": _cards(summary, even_share(summary)),
        "trajectory": _trajectory(summary),
        "components": [
            {
                "name": name,
                "most": f"{c['most_held_at_once']:,}",
                "peak": mean_cell(c["most_held_per_game"]),
                "dry": rate_cell(c["supply_ran_dry"]),
            }
            for name, c in ((name, summary["components"][name]) for name in RESOURCES if name in summary["components"])
        ],
    }
    return environment().get_template("report_sections.html.j2").render(run=run)


def _rows(summaries: list[Summary]) -> list[TextRow]:
    return [
        ("eliminations per game", lambda s: text_mean(s["eliminations"]["per_game"])),
        (
            "first elimination, median round",
            lambda s: f"{s['eliminations']['first_round']['median']:g}" if s["eliminations"]["first_round"]["n"] else "-",
        ),
        *((f"guide {guide}", lambda s, g=guide: text_rate(s["guides"][g])) for guide in ("in", "out", "chance-it")),
        ("forced in", lambda s: text_rate(s["guides"]["forced_in"])),
        ("stakes coins paid per game", lambda s: text_mean(s["stakes"]["coins_paid_per_game"])),
        ("stakes coins received per game", lambda s: text_mean(s["stakes"]["coins_received_per_game"])),
        (
            "most bought cards",
            lambda s: ", ".join(card for card, _ in sorted(s["cards"].items(), key=lambda kv: -kv[1]["bought"])[:3]),
        ),
        (
            "supply ran dry (games)",
            lambda s: ", ".join(f"{name} {100 * s['components'][name]['supply_ran_dry']['rate']:.0f}%" for name in RESOURCES),
        ),
    ]


#: Chance It's part of the report and the terminal table.
FIGURES = Figures(
    end_reasons=dict(
        zip(
            engine.END_REASONS,
            ("someone reached the star goal", "one player left standing", "everybody eliminated", "round limit reached"),
            strict=True,
        )
    ),
    about=", which cards get bought and how the supply holds up",
    groups=_groups,
    sections=_sections,
    rows=_rows,
    headline=("balance", "rounds.mean", "eliminations.per_game.mean", "guides.in.rate", "wins.no_winner.rate"),
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
                "owner": rate_cell(owner) if owner["n"] else {"value": "never bought", "sub": ""},
                "owner_n": f"{owner['n']:,}",
                "other": rate_cell(other),
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
