"""MkDocs hook: the reference pages' generated parts, made from the code at build time.

A page holds a marker such as ``<!-- workbench:commands -->`` on a line of its own, and the
build puts the text :mod:`workbench.reference` makes in its place, so the reference always
says what this version of the code does.
"""

from __future__ import annotations

from typing import Any

from workbench import reference
from workbench.games.chance_it import effects

#: What each marker is replaced with.
GENERATED = {
    "<!-- workbench:commands -->": reference.commands,
    "<!-- workbench:formats -->": reference.formats,
    "<!-- workbench:effects -->": effects.reference_table,
}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every marker of the page with what it stands for."""
    for marker, make in GENERATED.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
