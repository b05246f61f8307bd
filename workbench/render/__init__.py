"""Output people look at: SVG charts, study pages, safe terminal text. Family-agnostic."""

from __future__ import annotations

from functools import cache

import jinja2


@cache
def templates(package: str) -> jinja2.Environment:
    """The Jinja2 environment of a package's ``templates/`` folder: autoescaped, and an unknown name is an error."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
