"""What Chance Chess adds to a simulation's report and terminal table (see :mod:`workbench.render.report`): the seats
named by colour (white's and black's wins are seat 0's and seat 1's, a draw has no winner), turns and passes, free
moves after check, reshuffles, and per run the cards drawn."""

from __future__ import annotations

from workbench.games.chance_chess.engine import END_REASONS
from workbench.games.chance_chess.schema import CARDS, SIDES
from workbench.games.chance_chess.text import ENDINGS
from workbench.render import templates
from workbench.render.report import Figures, Row, Summary, TextRow, mean_cell, num, rate_cell, text_mean, text_rate


def _groups(summaries: list[Summary]) -> list[tuple[str, list[Row]]]:
    return [
        (
            "Turns, checks and cards",
            [
                (
                    "Turns passed by choice",
                    "With a move of the card's piece at hand.",
                    lambda s: rate_cell(s["turns"]["passed_by_choice"]),
                ),
                (
                    "Turns passed for want of a move",
                    "No piece of the card's type could move.",
                    lambda s: rate_cell(s["turns"]["passed_forced"]),
                ),
                (
                    "Free moves per game",
                    "Moves out of check, made without a card.",
                    lambda s: mean_cell(s["free_moves"]["per_game"]),
                ),
                (
                    "Free moves followed by a capture",
                    "The checked player captured on the turn right after its free move.",
                    lambda s: rate_cell(s["free_moves"]["followed_by_capture"]),
                ),
                (
                    "Mate right after a free move",
                    "Games won by checkmate on the turn right after the winner's own free move.",
                    lambda s: rate_cell(s["free_moves"]["decided_the_game"]),
                ),
                ("Reshuffles per game", "", lambda s: mean_cell(s["reshuffles_per_game"])),
                ("Captures per game", "", lambda s: {"value": num(s["per_game"]["captures"]), "sub": ""}),
            ],
        ),
    ]


def _sections(summary: Summary) -> str:
    drawn = summary["cards_drawn"]
    total = sum(drawn.values())
    rows = [
        {"card": card, "drawn": f"{drawn[card]:,}", "share": f"{100 * drawn[card] / total:.1f}%" if total else "–"}
        for card in CARDS
    ]
    return templates("workbench.games.chance_chess").get_template("report_sections.html.j2").render(cards=rows)


def _rows(summaries: list[Summary]) -> list[TextRow]:
    return [
        ("turns passed by choice", lambda s: text_rate(s["turns"]["passed_by_choice"])),
        ("turns passed for want of a move", lambda s: text_rate(s["turns"]["passed_forced"])),
        ("free moves per game", lambda s: text_mean(s["free_moves"]["per_game"])),
        ("free moves followed by a capture", lambda s: text_rate(s["free_moves"]["followed_by_capture"])),
        ("reshuffles per game", lambda s: text_mean(s["reshuffles_per_game"])),
    ]


#: Chance Chess's part of the report and the terminal table.
FIGURES = Figures(
    end_reasons={reason: ENDINGS[reason] for reason in END_REASONS},
    about=", how often each side wins or the game is drawn, passes, free moves after check and reshuffles",
    groups=_groups,
    sections=_sections,
    rows=_rows,
    length=("ply", "plies"),
    seats=SIDES,
)
