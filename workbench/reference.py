"""The documentation site's reference pages, made from the code (``docs/hooks.py`` puts them in at build time).

- :func:`commands`: every command of the command line with its usage, help and every
  argument and option as ``--help`` shows them (read from the Typer app, so a new option is
  in the reference the moment it is in ``--help``: ``tests/test_reference.py`` compares them);
- :func:`formats`: every file format of every game, key by key, from the JSON Schemas the
  ``schema`` command prints.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def _cell(text: str) -> str:
    """Text for a Markdown table cell: one line, its bars escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def commands() -> str:
    """Every command and option of the command line, in the order ``workbench --help`` lists them, as Markdown."""
    import typer

    from workbench.cli import app

    group: Any = typer.main.get_command(app)  # a group of commands (Typer's copy of Click's)
    root = typer.Context(group, info_name="workbench")
    parts = ["## workbench", "", _cell(group.help or ""), "", "```", "workbench [OPTIONS] COMMAND [ARGS]...", "```", ""]
    parts += _parameters(group, root)
    for name, command in group.commands.items():
        context = typer.Context(command, info_name=name, parent=root)
        usage = " ".join(command.collect_usage_pieces(context))
        parts += [f"## workbench {name}", "", (command.help or "").strip(), "", "```", f"workbench {name} {usage}", "```", ""]
        parts += _parameters(command, context)
    return "\n".join(parts)


def _parameters(command: Any, context: Any) -> list[str]:
    """A command's arguments and options as ``--help`` shows them, one table row each (``--help`` itself aside)."""
    rows = [record for param in command.get_params(context) if (record := param.get_help_record(context)) is not None]
    rows = [(names, meaning) for names, meaning in rows if names != "--help"]
    if not rows:
        return []
    table = ["| argument or option | what it does |", "| --- | --- |"]
    table += [f"| `{_cell(names)}` | {_cell(meaning)} |" for names, meaning in rows]
    return [*table, ""]


def formats() -> str:
    """Every game's file formats, key by key (from their JSON Schemas), and the sweep file's, as Markdown."""
    from workbench import api
    from workbench.games import FAMILIES

    parts: list[str] = []
    for game, family in FAMILIES.items():
        parts += [f"## {family.title} (`game: {game}`)", ""]
        for kind, schema in api.schemas(game).items():
            parts += [f"### {kind}", "", _cell(schema.get("description", "")), "", *_keys_table(schema), ""]
    sweep = api.schemas(None, "sweep")["sweep"]
    parts += ["## Sweep files (every game)", "", _cell(sweep.get("description", "")), "", *_keys_table(sweep), ""]
    return "\n".join(parts)


def _keys_table(schema: dict[str, Any]) -> list[str]:
    rows = ["| key | holds | meaning |", "| --- | --- | --- |"]
    rows += [f"| `{path}` | {_cell(holds)} | {_cell(meaning)} |" for path, holds, meaning in _keys(schema, schema, "", ())]
    return rows


def _keys(schema: dict[str, Any], node: dict[str, Any], prefix: str, seen: tuple[str, ...]) -> Iterator[tuple[str, str, str]]:
    """(key path, what it holds, its description) for every key under ``node``, depth first; a definition met again
    on its own path (an effect inside an effect) is named, not opened again."""
    required = set(node.get("required", ()))
    for key, value in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        held = _holds(schema, value)
        meaning = value.get("description") or (held.inner or {}).get("description", "")
        yield path, held.words, f"required. {meaning}" if key in required else meaning
        if held.inner is not None and held.name not in seen:
            yield from _keys(schema, held.inner, f"{path}{held.below}.", (*seen, held.name) if held.name else seen)


class _Held:
    """What a key holds, in words, and the object whose keys are listed under it: its definition's name, and what comes
    between the key and those keys in a path (``[]`` for a list of them, ``.<key>`` for a map of them)."""

    def __init__(self, words: str, inner: dict[str, Any] | None = None, name: str = "", below: str = ""):
        self.words, self.inner, self.name, self.below = words, inner, name, below


def _holds(schema: dict[str, Any], value: dict[str, Any]) -> _Held:
    if "$ref" in value:
        name = value["$ref"].rsplit("/", 1)[-1]
        target = schema["$defs"][name]
        if "properties" in target:
            return _Held(name, target, name)
        if len(target.get("anyOf", target.get("oneOf", []))) > 3:  # one of many forms (an effect): named, described apart
            return _Held(name)
        held = _holds(schema, target)
        return _Held(held.words, held.inner, held.name or name, held.below)
    options = value.get("anyOf", value.get("oneOf", []))
    choices = [choice for choice in options if choice.get("type") != "null"]
    if choices:
        said = [_holds(schema, choice) for choice in choices]
        opened = [held for held in said if held.inner is not None]
        words = " or ".join(dict.fromkeys(held.words for held in said))
        if len(choices) < len(options):
            words += " or null"
        one = opened[0] if len(opened) == 1 else _Held("")
        return _Held(words, one.inner, one.name, one.below)
    if "enum" in value:
        return _Held("one of " + ", ".join(f"`{json.dumps(option)}`" for option in value["enum"]))
    if "const" in value:
        return _Held(f"`{json.dumps(value['const'])}`")
    kind = value.get("type")
    if kind == "array":
        held = _holds(schema, value.get("items", {}))
        return _Held(f"a list of {held.words}", held.inner, held.name, f"[]{held.below}")
    if kind == "object":
        extra = value.get("additionalProperties")
        if isinstance(extra, dict):
            held = _holds(schema, extra)
            return _Held(f"keys, each {held.words}", held.inner, held.name, f".<key>{held.below}")
        return _Held("keys", value if "properties" in value else None)
    bounds = [f"at least {value['minimum']}"] if "minimum" in value else []
    bounds += [f"at most {value['maximum']}"] if "maximum" in value else []
    words = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false"}.get(
        str(kind), str(kind or "any value")
    )
    return _Held(words + (f" ({', '.join(bounds)})" if bounds else ""))
