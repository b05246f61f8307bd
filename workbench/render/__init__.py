"""Output people look at: SVG charts, study pages, safe terminal text. Family-agnostic."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


@cache
def templates(package: str, *more: str) -> jinja2.Environment:
    """The Jinja2 environment of a package's ``templates/`` folder (then those of ``more`` packages, for templates it
    extends or imports): autoescaped, and an unknown name is an error. (Jinja2 is imported here, when a page is
    first rendered: ``workbench.render.terminal`` is on every command's way.)"""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader(name, "templates") for name in (package, *more)]),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["a"] = a
    environment.filters["counted"] = counted
    return environment


def a(name: str) -> str:
    """``name`` after its indefinite article, chosen by its first letter (a bot's name: ``{{ bot | a }}`` in a page).

    >>> a("heuristic"), a("equilibrium")
    ('a heuristic', 'an equilibrium')
    """
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def counted(count: int, noun: str) -> str:
    """``count`` of a regular ``noun``, singular for one (``{{ n | counted("game") }}`` in a page).

    >>> counted(1, "game"), counted(12, "game")
    ('1 game', '12 games')
    """
    return f"{count} {noun if count == 1 else noun + 's'}"
