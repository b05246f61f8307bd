"""Games recorded as scenario scripts, for any family: their file names and their text.

``simulate --record-scenarios DIR`` writes game ``i`` at ``n`` players as
``game-<n>p-<i>.yaml`` (the family writes the script's body); replaying it with
``workbench replay`` checks the engine against itself.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from workbench import GENERATOR

#: File names of recorded scripts: game-<players>p-<index>.yaml.
SCRIPT_NAME = re.compile(r"game-(\d+)p-(\d+)\.yaml")
#: The schema files of a source checkout, for the editor line of recorded scripts (absent when installed).
SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
SCHEMA_LINE = "# yaml-language-server: $schema={schema}\n"
RECORDED = "# recorded by {generator} {command}\n"


def script_name(players: int, index: int) -> str:
    """The file name of game ``index`` at ``players`` players.

    >>> script_name(4, 12)
    'game-4p-000012.yaml'
    """
    return f"game-{players}p-{index:06d}.yaml"


def script_text(script: dict[str, Any], folder: Path, game: str, command: str = "simulate --record-scenarios") -> str:
    """A scenario file's text for ``folder``, with the editor schema line when the game's schema file is at hand and
    the command that wrote it."""
    schema = SCHEMAS / f"{game}.scenario.schema.json"
    line = SCHEMA_LINE.format(schema=os.path.relpath(schema, folder)) if schema.is_file() else ""
    made = RECORDED.format(generator=GENERATOR, command=command)
    return line + made + yaml.safe_dump(script, sort_keys=False, default_flow_style=None, width=120)
