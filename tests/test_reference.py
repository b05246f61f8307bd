"""The documentation site's reference says what the code does: every command and option ``--help`` shows, every key
of every file format, made from the code when the site is built (``docs/hooks.py``, ``workbench.reference``)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from workbench import reference
from workbench.cli import app
from workbench.games.chance_it import effects

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
runner = CliRunner()


def _section(text: str, heading: str) -> str:
    """The part of ``text`` under ``## heading`` (up to the next one)."""
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _options(help_text: str) -> set[str]:
    """Every long option a ``--help`` names (``--help`` aside)."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", help_text)) - {"--help"}


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_the_reference_names_every_option_help_shows(command: str | None) -> None:
    shown = runner.invoke(app, [*([command] if command else []), "--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    section = _section(reference.commands(), f"workbench {command}" if command else "workbench")
    options = _options(re.split(r"^\W*Commands\b", shown.output, flags=re.MULTILINE)[0])  # the group's own, not its commands'
    assert options <= _options(section), f"missing from the reference: {sorted(options - _options(section))}"
    arguments = re.search(r"^Arguments:\n((?:  .*\n)+)", shown.output, re.MULTILINE)
    for name in re.findall(r"^  (\w[\w-]*)", arguments.group(1), re.MULTILINE) if arguments else []:
        assert f"`{name}" in section, f"the argument {name} is missing from the reference"
    if command:
        assert (typer.main.get_command(app).commands[command].help or "").split(".")[0] in section  # type: ignore[attr-defined]


def test_the_reference_lists_every_command_help_lists() -> None:
    listed = runner.invoke(app, ["--help"], terminal_width=200).output
    made = reference.commands()
    for command in COMMANDS:
        assert re.search(rf"^\s*{re.escape(command)}\s", listed, re.MULTILINE), command
        assert f"## workbench {command}\n" in made


def test_the_file_formats_list_every_key_of_the_variant_schema() -> None:
    from workbench import api

    made = reference.formats()
    variant = api.schemas("chance-it", "variant")["variant"]
    for key in variant["properties"]:
        assert f"| `{key}` |" in made, key
    assert "| `stakes.<key>.out` |" in made and "| `cards[].cost` |" in made  # maps and lists of objects are opened


def test_the_site_build_puts_the_generated_reference_in_its_pages() -> None:
    hooks = runpy.run_path(str(ROOT / "docs" / "hooks.py"))
    pages = {name: (ROOT / "docs" / "reference" / name).read_text(encoding="utf-8") for name in ("commands.md", "files.md")}
    built = {name: hooks["on_page_markdown"](text, None, None, None) for name, text in pages.items()}
    assert reference.commands() in built["commands.md"]
    assert effects.reference_table() in built["files.md"] and reference.formats() in built["files.md"]
    assert "<!-- workbench:" not in "".join(built.values())
