"""The formats a playtest set is printed in (``print --format``), in one place. Family-agnostic.

Light on purpose (no Jinja2, no WeasyPrint): the command line reads it for its help and its
defaults, the library for where a set goes; :mod:`workbench.render.printing` lays the set out
as its format says, and :func:`workbench.api.print_set` writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """How a set is printed, and where it goes."""

    name: str
    what: str  #: in the command's help
    out: str  #: the default output in ``reports/``, ``{stem}`` the variant file's
    images: re.Pattern[str] | None = None  #: a folder of images, named so (None: one file); a later run removes its own
    cards_only: bool = False  #: its decks alone (a print shop's files), not the set's other parts
    one_a_page: bool = False  #: one card a page, each page named by its card (no sheets, no cut marks)
    dpi: int = 0  #: its images' dots per inch unless told


#: Every format, by name; the first is the default.
FORMATS = {
    shown.name: shown
    for shown in (
        Format("sheets", "a home printer's card sheets and the set's other parts, as PDF", "{stem}.pdf"),
        Format(
            "cards-pdf",
            "one card a page, with its trim and bleed boxes, for a print shop",
            "{stem}-cards.pdf",
            cards_only=True,
            one_a_page=True,
        ),
        Format(
            "png",
            "one image a card face, in a folder",
            "{stem}-cards",
            images=re.compile(r"[A-Za-z0-9_.-]+-\d+-(?:front|back)\.png"),
            cards_only=True,
            one_a_page=True,
            dpi=300,
        ),
        Format(
            "tts",
            "a folder for Tabletop Simulator: deck sheets, pages and a saved object",
            "{stem}-tts",
            images=re.compile(r"(?:[A-Za-z0-9_.-]+-(?:sheet-\d+|back)|page-\d+)\.png"),
            one_a_page=True,
            dpi=150,
        ),
    )
}

__all__ = ["FORMATS", "Format"]
