"""What target dice adds to a simulation's report and terminal table (see :mod:`workbench.render.report`): how
rounds end and who scores, points, turns, and per run the special cards."""

from __future__ import annotations

from workbench.games.target_dice.engine import END_REASONS
from workbench.games.target_dice.schema import SPECIALS
from workbench.render import templates
from workbench.render.report import Figures, Row, Summary, TextRow, mean_cell, num, rate_cell, text_mean, text_rate


def _groups(summaries: list[Summary]) -> list[tuple[str, list[Row]]]:
    return [
        (
            "How rounds end",
            [
                (
                    "HIT",
                    "Share of rounds that end when a player hits the target exactly.",
                    lambda s: rate_cell(s["round_ends"]["hit"]),
                ),
                (
                    "Scored by the last valid roll",
                    "Rounds in which nobody hits and the player holding the last valid roll scores what the dice show.",
                    lambda s: rate_cell(s["round_ends"]["held"]),
                ),
                ("Nobody scores", "", lambda s: rate_cell(s["round_ends"]["scoreless"])),
                (
                    "The last player in turn order scores",
                    "Rounds in which the last player in turn order (just before the starting player) scores.",
                    lambda s: rate_cell(s["last_player_scored"]),
                ),
            ],
        ),
        (
            "Points and lead",
            [
                (
                    "Points per round",
                    "Scored by all players together.",
                    lambda s: {"value": num(s["points"]["per_round"]), "sub": ""},
                ),
                ("Points lost per game", "To rolls over the target.", lambda s: mean_cell(s["points"]["lost_per_game"])),
                ("Winning score", "", lambda s: mean_cell(s["points"]["winning_score"])),
                (
                    "Lead changes per game",
                    "Times a different player takes the sole lead.",
                    lambda s: mean_cell(s["lead_changes_per_game"]),
                ),
                ("Turns passed", "Share of turns in which the player rolls no dice.", lambda s: rate_cell(s["turns"]["passed"])),
            ],
        ),
    ]


def _sections(summary: Summary) -> str:
    specials = [
        {"colour": colour, "drawn": f"{row['drawn']:,}", "offered": f"{row['offered']:,}", "used": rate_cell(row["used"])}
        for colour, row in ((colour, summary["specials"][colour]) for colour in SPECIALS)
    ]
    return templates("workbench.games.target_dice").get_template("report_sections.html.j2").render(specials=specials)


def _rows(summaries: list[Summary]) -> list[TextRow]:
    return [
        ("rounds ending in a HIT", lambda s: text_rate(s["round_ends"]["hit"])),
        ("rounds scored by the last valid roll", lambda s: text_rate(s["round_ends"]["held"])),
        ("rounds nobody scores", lambda s: text_rate(s["round_ends"]["scoreless"])),
        ("rounds the last player in turn order scores", lambda s: text_rate(s["last_player_scored"])),
        ("points per round", lambda s: num(s["points"]["per_round"])),
        ("points lost per game", lambda s: text_mean(s["points"]["lost_per_game"])),
        ("lead changes per game", lambda s: text_mean(s["lead_changes_per_game"])),
        ("turns passed", lambda s: text_rate(s["turns"]["passed"])),
    ]


#: Target dice's part of the report and the terminal table.
FIGURES = Figures(
    end_reasons=dict(zip(END_REASONS, ("a player reached the goal", "round limit reached"), strict=True)),
    about=", how rounds end and who scores them, and how the special cards are used",
    groups=_groups,
    sections=_sections,
    rows=_rows,
)
