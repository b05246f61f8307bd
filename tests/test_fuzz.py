"""Loader and CLI hardening (issue 4, item 5): hostile files end in located errors, never crashes.

Every input here is something a designer's editor, a bad copy-paste or a stray file could
produce: the shipped variant, card and scenario files cut at random points, with lines
deleted, duplicated, swapped or re-indented, characters flipped, values replaced by wrong
types and huge numbers; generated garbage, binary files, deep nesting, unicode (other
scripts, emoji, zero-width and RTL marks, NUL, invalid UTF-8, BOMs), anchors and aliases,
merge keys and unsafe tags.

The loader (``load_variant``) must return a valid variant or raise ``VariantError`` whose
every problem names a file and says something, with a line whenever the file is readable
YAML. Each command that reads a user file (``replay``, ``play``, ``simulate``; ``validate``,
which prints the loader's problems, on written cases) must exit 0 or 1 (2 is an internal
error), without a traceback and without "internal error". The inputs are bounded in size,
so the work is too: no test holds a clock.

Every crash these tests found is fixed and kept as a regression test (see "Crashes found"
at the end). Should a new one turn up that cannot be fixed at once, it goes into
``KNOWN_CRASHES`` and gets an ``xfail(strict=True)`` test, and the property tests skip the
inputs that hit it so that they keep looking for others.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, find, given, reject, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from typer.testing import CliRunner

from workbench.cli import app
from workbench.errors import VariantError
from workbench.games import Loaded, load_variant
from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.basics import RESOURCES
from workbench.loading import MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
VARIANT_TEST = SCENARIOS / "variant-test.yaml"
BASE_TEXT = (ROOT / "variants" / "chance-it.yaml").read_text(encoding="utf-8")
CARDS_TEXT = (ROOT / "cards" / "chance-it-market.yaml").read_text(encoding="utf-8")
SCENARIO_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(SCENARIOS.glob("*.yaml")) if p != VARIANT_TEST}
#: Every shipped YAML text, by where it lives: the raw material of the mutations.
SOURCES = {
    "variants/chance-it.yaml": BASE_TEXT,
    "cards/chance-it-market.yaml": CARDS_TEXT,
    "tests/scenarios/variant-test.yaml": VARIANT_TEST.read_text(encoding="utf-8"),
    **{f"tests/scenarios/{name}": text for name, text in SCENARIO_TEXTS.items()},
}
#: A personas file as ``simulate --personas`` reads it.
PERSONAS_TEXT = """\
bots:
  careful: {policy: heuristic, min_hearts: 5, danger: 2.0}
  wild: {policy: heuristic, chance_it: 2.5, star: 1.5, horizon: 3}
  thinker:
    policy: search
    playouts: 2
    depth: 1
"""

runner = CliRunner()
# Hypothesis' function-scoped-fixture check does not apply: the folders are rewritten on every example.
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# --- hostile material --------------------------------------------------------------------------------------------

BIG = "9" * 5000
HUGE_HEX = "0x" + "f" * 5000  # ~6000 decimal digits: YAML builds it without Python's 4300-digit guard
HUGE_BIN = "0b" + "1" * 15000
HUGE_SEXAGESIMAL = "1" + ":59" * 3000  # YAML 1.1 base 60, computed by arithmetic

#: YAML snippets that stand in for a value: wrong types, huge and odd numbers, unicode, tags, aliases, broken syntax.
HOSTILE_VALUES = [
    BIG,
    "-" + BIG,
    HUGE_HEX,
    HUGE_BIN,
    HUGE_SEXAGESIMAL,
    "0o" + "7" * 6000,
    "1e400",
    "1.0e+400",
    "-1.0e+400",
    ".inf",
    "-.inf",
    ".nan",
    "-0",
    "-0.0",
    "+0",
    "0",
    "-1",
    "-999999999999",
    "1_000_000_000_000",
    "0x10",
    "0o17",
    "0b101",
    "1:30",
    "1.5",
    "+12",
    "012",
    "2147483648",
    "9223372036854775808",
    "~",
    "null",
    "true",
    "false",
    "no",
    "yes",
    "on",
    "off",
    "y",
    "''",
    '""',
    "' '",
    "[]",
    "{}",
    "[1, [2, [3]]]",
    "{a: {b: c}}",
    "[null]",
    "[~, ~]",
    "{~: ~}",
    "{1: 2}",
    "[[], {}]",
    "text",
    "chance-it",
    "all_out",
    "market",
    "reroll_ones",
    "die-7",
    "die-0",
    "die-" + BIG,
    "flash",
    "in",
    "out",
    "2024-13-45",
    "2024-02-30 25:61:61",
    "12:30:00",
    "\U0001f3b2",
    "\U0001f600\u200d\U0001f600",
    "\u200b",
    "\u200bchance-it",
    "\u202eti-ecnahc",
    "\u2066x\u2069",
    "\ufeff",
    "\u00a0",
    "\u3000",
    "ÄÖÜß",
    "日本語のゲーム",
    "مرحبا",
    "שלום",
    "Ελληνικά",
    "кириллица",
    "e\u0301",
    "\u2028",
    "\u0085",
    '"\\0"',
    '"\\x00"',
    '"\\ud800"',
    '"\\udfff"',
    '"\\U0001F600"',
    '"\\e\\a\\b"',
    '"\\u202e"',
    "&a 1",
    "*a",
    "*undefined",
    "&a [*a]",
    "&b {x: *b}",
    "&c [1, 2]",
    "[*c, *c]",
    "!!python/object:os.system {}",
    "!!python/object/apply:os.getcwd []",
    "!!python/name:os.system",
    "!!python/tuple [1, 2]",
    "!!python/bytes aGk=",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [a: 1]",
    "!!pairs [a: 1, a: 2]",
    "!!float 1",
    "!!float x",
    "!!int x",
    "!!int 1.5",
    "!!bool maybe",
    "!!null x",
    "!!str 5",
    "!!timestamp 2020-01-01",
    "!!timestamp x",
    "!custom 1",
    "!<tag:example.com,2000:x> 1",
    "!!map [1]",
    "!!seq {a: 1}",
    "{<<: {a: 1}, b: 2}",
    "{<<: [{a: 1}, {b: 2}]}",
    "{<<: 5}",
    "{<<: [5]}",
    "{<<: *c}",
    "|\n  block text",
    ">-\n  folded",
    "|9\n x",
    "? complex",
    "[1, 2",
    "{a: 1",
    "'unclosed",
    '"unclosed',
    "- item",
    ": colon",
    "a: b: c",
    "%TAG ! x",
    "@at",
    "`tick",
    "#",
    "&",
    "*",
    "!",
    "|",
    ">",
    "? ",
    ",",
    "]",
    "}",
    "---",
    "...",
    "[" * 200 + "]" * 200,
    "{a: " * 120 + "1" + "}" * 120,
    "- " * 150 + "1",
]
#: Keys that stand in for a key.
HOSTILE_KEYS = [
    "<<",
    "? [1, 2]\n",
    "? {a: 1}\n",
    "~",
    "null",
    "true",
    "1",
    "-0",
    "1.5",
    BIG,
    HUGE_HEX,
    "2024-01-01",
    "\U0001f3b2",
    "\u200bname",
    "name\u200b",
    "\u202eeman",
    "ñame",
    "名前",
    "name ",
    "Name",
    "nmae",
    "stkes",
    "board",
    "cards",
    "extends",
    "game",
    "in",
    "out",
    "else",
    "then",
    "chance",
    "&k key",
    "*k",
    "!!python/name:os.system",
    '"\\0"',
    '"\\ud800"',
    "'quoted'",
    "-",
    "a b",
    "#",
    "",
]
#: Characters for flips and insertions: YAML indicators, whitespace and control characters, unusual unicode.
HOSTILE_CHARS = (
    list(":-?[]{},#&*!|>'\"%@`\\ \t\n\r")
    + ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\xa0", "\u2028", "\u2029"]
    + ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e", "\u200f", "\u202a", "\u202b", "\u202e", "\u2066"]
    + ["\ufffd", "\ufffe", "\uffff", "\U0001f3b2", "\U0001f600", "\U000e0041", "ß", "ä", "日", "ش", "ש", "9", "0", "-"]
)
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80", b"\x80"]

chars = st.sampled_from(HOSTILE_CHARS) | st.characters()
noise = st.text(chars, max_size=12)
_KEY_LINE = re.compile(r"^(\s*(?:-\s+)?)([^\s#:][^:#\n]*?)(:(?:\s|$))", re.MULTILINE)
_VALUE = re.compile(r"(?<=: )[^\n,\]}]+|(?<=\[)[^\n,\]\[{}]+|(?<=, )[^\n,\]{}]+")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _cut(draw: Callable, text: str) -> str:
    return text[: draw(st.integers(0, len(text)))]


def _delete_line(draw: Callable, text: str) -> str:
    lines = _lines(text)
    del lines[draw(st.integers(0, len(lines) - 1))]
    return "\n".join(lines)


def _duplicate_line(draw: Callable, text: str) -> str:
    lines = _lines(text)
    i = draw(st.integers(0, len(lines) - 1))
    lines.insert(draw(st.integers(0, len(lines))), lines[i])
    return "\n".join(lines)


def _swap_lines(draw: Callable, text: str) -> str:
    lines = _lines(text)
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _flip_char(draw: Callable, text: str) -> str:
    if not text:
        return draw(chars)
    i = draw(st.integers(0, len(text) - 1))
    return text[:i] + draw(chars) + text[i + 1 :]


def _insert_text(draw: Callable, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(noise | st.sampled_from(HOSTILE_VALUES)) + text[i:]


def _reindent(draw: Callable, text: str) -> str:
    lines = _lines(text)
    i = draw(st.integers(0, len(lines) - 1))
    body = lines[i].lstrip(" ")
    indent = len(lines[i]) - len(body)
    how = draw(st.sampled_from(["more", "less", "tab", "zero", "far"]))
    new = {
        "more": " " * (indent + draw(st.integers(1, 4))),
        "less": " " * max(0, indent - draw(st.integers(1, 4))),
        "tab": "\t" + " " * indent,
        "zero": "",
        "far": " " * draw(st.integers(20, 400)),
    }[how]
    lines[i] = new + body
    return "\n".join(lines)


def _replace_value(draw: Callable, text: str) -> str:
    """Replace a scalar after a key, in a flow list or after a comma by a hostile value."""
    spots = list(_VALUE.finditer(text))
    if not spots:
        return text
    spot = spots[draw(st.integers(0, len(spots) - 1))]
    return text[: spot.start()] + draw(st.sampled_from(HOSTILE_VALUES) | noise) + text[spot.end() :]


def _replace_key(draw: Callable, text: str) -> str:
    spots = list(_KEY_LINE.finditer(text))
    if not spots:
        return text
    spot = spots[draw(st.integers(0, len(spots) - 1))]
    key = draw(st.sampled_from(HOSTILE_KEYS) | noise)
    return text[: spot.start(2)] + key + text[spot.end(2) :]


def _bom(draw: Callable, text: str) -> str:
    return "\ufeff" * draw(st.integers(1, 2)) + text


TEXT_MUTATIONS = [
    _cut, _delete_line, _duplicate_line, _swap_lines, _flip_char, _insert_text, _reindent, _replace_value,
    _replace_key, _bom,
]  # fmt: skip


def _byte_mutation(draw: Callable, data: bytes) -> bytes:
    how = draw(st.sampled_from(["cut", "invalid", "flip", "utf16", "utf8-bom", "nul"]))
    at = draw(st.integers(0, len(data)))
    if how == "cut":  # may end in the middle of a multi-byte character
        return data[:at]
    if how == "invalid":
        return data[:at] + draw(st.sampled_from(INVALID_UTF8)) + data[at:]
    if how == "flip" and data:
        i = min(at, len(data) - 1)
        return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1 :]
    if how == "utf16":
        return data.decode("utf-8", "replace").encode("utf-16")
    if how == "utf8-bom":
        return b"\xef\xbb\xbf" + data
    return data[:at] + b"\x00" + data[at:]


@st.composite
def mutated(draw: Callable, texts: dict[str, str] | None = None, *, max_mutations: int = 4) -> bytes:
    """A shipped text (or one of ``texts``) after a few random mutations, as the bytes of a file."""
    texts = texts or SOURCES
    text = texts[draw(st.sampled_from(sorted(texts)))]
    for mutation in draw(st.lists(st.sampled_from(TEXT_MUTATIONS), min_size=1, max_size=max_mutations)):
        text = mutation(draw, text)
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 7)) == 0:
        data = _byte_mutation(draw, data)
    return data


def _nest(depth: int, style: str) -> str:
    """A value nested ``depth`` deep, starting at column 0."""
    if style == "flow-list":
        return "[" * depth + "1" + "]" * depth
    if style == "flow-map":
        return "{a: " * depth + "1" + "}" * depth
    if style == "flow-mixed":
        return "[{a: " * depth + "1" + "}]" * depth
    if style == "flow-unclosed":
        return "[" * depth + "1"
    if style == "block-compact":
        return "- " * depth + "1"
    if style == "block-list":
        return "".join(" " * i + "-\n" for i in range(depth)) + " " * depth + "1"
    if style == "block-map":
        return "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "1"
    if style == "effects":  # valid Chance It effects: chance tests inside chance tests
        return "[" + "{chance: {roll: 2, then: [" * depth + "market" + "]}}" * depth + "]"
    raise ValueError(style)


NEST_STYLES = ["flow-list", "flow-map", "flow-mixed", "flow-unclosed", "block-compact", "block-list", "block-map", "effects"]


@st.composite
def deeply_nested(draw: Callable) -> bytes:
    """Lists and maps nested up to thousands deep, as a whole document or under a key of the base variant."""
    style = draw(st.sampled_from(NEST_STYLES))
    limit = 2400 if style.startswith("block-") and style != "block-compact" else 6000
    # Mostly near the depths where parts of the loader start to give up (~100-400); past them every
    # depth fails alike, and PyYAML spends ~0.5 s on each such flow document, so fewer of those.
    depth = draw(st.integers(1, 140) | st.integers(100, 400) | st.integers(1, limit))
    value = _nest(depth, style)
    where = draw(st.sampled_from(["document", "board", "cards", "stakes", "bots", "new key"]))
    if where == "document":
        return value.encode()
    indented = "\n".join("  " + line for line in value.split("\n"))
    lines = BASE_TEXT.split("\n")
    if where == "new key":
        return (BASE_TEXT + "extra:\n" + indented + "\n").encode()
    if where == "board":  # face 6 gets the nested value as its effects
        return BASE_TEXT.replace("  6: [market]", "  6:\n" + "\n".join("  " + line for line in indented.split("\n"))).encode()
    start = next(i for i, line in enumerate(lines) if line.startswith(where + ":"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in (" ", "")), len(lines))
    return "\n".join([*lines[:start], where + ":", indented, *lines[end:]]).encode()


@st.composite
def alias_bomb(draw: Callable) -> bytes:
    """Anchors and aliases: levels of lists that repeat the level below, placed at a key of the base variant."""
    levels, fanout = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    leaf = draw(st.sampled_from(["x", "market", "{gain: {coins: 1}}", "[1]", "{id: a, name: A, when: flash, effects: [market]}"]))
    lines = [f"b0: &b0 [{', '.join([leaf] * fanout)}]"]
    lines += [f"b{i}: &b{i} [{', '.join([f'*b{i - 1}'] * fanout)}]" for i in range(1, levels)]
    key = draw(st.sampled_from(["cards", "all_out", "chance_it", "bots", "players", "tiebreak"]))
    body = re.sub(rf"^{key}:.*$", f"{key}: *b{levels - 1}", BASE_TEXT, flags=re.MULTILINE)
    if f"{key}: *b" not in body:
        body += f"\n{key}: *b{levels - 1}\n"
    return ("\n".join(lines) + "\n" + body).encode()


def _plain_values() -> st.SearchStrategy[Any]:
    scalars = (
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(chars, max_size=20)
        | st.sampled_from([10**4000 - 1, -(10**400), float("inf"), float("nan"), -0.0, "chance-it", "all_out"])
    )  # fmt: skip
    keys = st.text(chars, max_size=12) | st.integers() | st.sampled_from(["game", "name", "board", "cards", "stakes"])
    return st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5), max_leaves=30
    )


@st.composite
def garbage(draw: Callable) -> bytes:
    """Bytes no designer meant: random bytes, random text, random YAML data, or the base variant with random keys."""
    kind = draw(st.sampled_from(["bytes", "text", "yaml", "yaml-flow", "variant-keys", "empty"]))
    if kind == "bytes":
        return draw(st.binary(max_size=2000))
    if kind == "text":
        return draw(st.text(chars, max_size=400)).encode("utf-8", "surrogatepass")
    if kind == "empty":
        return draw(
            st.sampled_from([b"", b"\n", b"   \n\t\n", b"# only a comment\n", b"---\n", b"...\n", b"~\n", b"\xef\xbb\xbf"])
        )
    if kind in ("yaml", "yaml-flow"):
        try:
            text = yaml.safe_dump(draw(_plain_values()), allow_unicode=True, default_flow_style=kind == "yaml-flow")
        except (ValueError, yaml.YAMLError):  # Python's own int-to-text limit, or unrepresentable text
            text = "x: 1\n"
        return text.encode("utf-8", "surrogatepass")
    data = yaml.safe_load(BASE_TEXT)
    extra = draw(st.dictionaries(st.text(chars, max_size=8) | st.integers(), _plain_values(), max_size=3))
    for key, value in extra.items():
        data[key] = value
    for key in draw(st.lists(st.sampled_from(sorted(data, key=str)), max_size=3)):
        data[key] = draw(_plain_values())
    try:
        return yaml.safe_dump(data, allow_unicode=True).encode("utf-8", "surrogatepass")
    except (ValueError, yaml.YAMLError):
        return BASE_TEXT.encode()


def _edge(low: int, high: int) -> st.SearchStrategy[int]:
    """Integers in [low, high], often at the ends."""
    return st.sampled_from([low, high]) | st.integers(low, min(high, low + 3)) | st.integers(low, high)


#: Amounts at the edges of the format (0 to a million), for every kind that draws amounts, at every depth.
EDGE_AMOUNTS = st.dictionaries(st.sampled_from(RESOURCES), _edge(0, 1_000_000), min_size=1)


def _drawing(sides: int, depth: int, face: int | None = None, where: str = "card") -> kinds.Drawing:
    """What the registry's kinds draw their effects with here: edge amounts, in nested lists too.

    (``tests/strategies.drawing`` takes other amounts only at the top: its nested lists draw small ones.)
    """
    nested = lambda n: _effects(sides, depth=depth - 1, max_size=n, where=where)  # noqa: E731
    return kinds.Drawing(sides, depth, EDGE_AMOUNTS, nested, face, where)


@functools.cache
def _registered(
    kinds_: tuple[kinds.EffectKind, ...], sides: int, depth: int, placement: str, face: int | None, where: str
) -> Any:
    return kinds.strategy(_drawing(sides, depth, face, where), placement)


def _effect(
    sides: int, depth: int, placement: str = "anywhere", face: int | None = None, where: str = "card"
) -> st.SearchStrategy[Any]:
    """One effect of any kind registered now that may stand at ``placement`` (a kind a test registers is drawn too)."""
    return _registered(tuple(kinds.REGISTRY.values()), sides, depth, placement, face, where)


def _effects(
    sides: int, *, depth: int = 2, min_size: int = 0, max_size: int = 3, where: str = "card"
) -> st.SearchStrategy[list[Any]]:
    """A list of effects that may stand anywhere on ``where``, nested lists ``depth`` levels down."""
    return st.lists(_effect(sides, depth, where=where), min_size=min_size, max_size=max_size)


@st.composite
def _board_entry(draw: Callable, sides: int, face: int, depth: int = 2) -> list[Any]:
    """Board face ``face``: effects, and now and then one a kind allows only on that face (reroll_ones on 1)."""
    items = draw(_effects(sides, depth=depth))
    extra = draw(st.none() | _effect(sides, 0, "board", face))
    if extra is not None:
        items.insert(draw(st.integers(0, len(items))), extra)
    return items


@st.composite
def extreme_variant(draw: Callable) -> bytes:
    """A valid variant with values at the edges of what the format allows (kept to at most 300 rounds)."""
    sides = draw(_edge(2, 100))
    low = draw(_edge(2, 12))
    high = draw(_edge(low, 12))
    stakes = {}
    for n in range(2, high + 1):
        out = [draw(_edge(0, 1_000_000)) for _ in range(n - 1)] + ["all_out"]
        stakes[n] = {"out": out, "in": [draw(_edge(0, 1_000_000)) for _ in range(n)]}
    whens = st.sampled_from(["flash", "chance-it", "passive"]) | st.integers(1, sides).map(lambda face: f"die-{face}")
    cards = [
        {"id": f"c{i}", "name": f"Card {i}", "when": (when := draw(whens)), "cost": draw(_edge(0, 1_000_000)),
         "copies": draw(_edge(1, 100)),
         "effects": draw(st.lists(_effect(sides, 0, "passive"), min_size=1, max_size=2) if when == "passive"
                        else _effects(sides, min_size=1, where="die" if when.startswith("die-") else "card"))}
        for i in range(draw(st.integers(0, 4)))
    ]  # fmt: skip
    unlimited = draw(st.booleans())
    start_stars = draw(_edge(0, 999_999 if unlimited else 5))
    palette = draw(st.lists(_effects(sides, depth=1), min_size=1, max_size=4))  # board entries for faces 2..sides
    board = {1: draw(_board_entry(sides, 1)), **{face: draw(st.sampled_from(palette)) for face in range(2, sides + 1)}}
    face = draw(st.integers(2, sides))  # one more face gets its own entry, with any effect that belongs on it only
    board[face] = draw(_board_entry(sides, face, depth=1))
    data = {
        "name": draw(st.sampled_from(["Edge", "\u202eEdge\u200b", "日本語", "\U0001F3B2" * 60])),
        "game": "chance-it",
        "players": {"min": low, "max": high},
        "start": {"coins": draw(_edge(0, 1_000_000 if unlimited else 5)), "hearts": draw(_edge(1, 1_000_000 if unlimited else 5)),
                  "stars": start_stars},
        "supply": {} if unlimited else {r: {"small": 60, "big": draw(_edge(0, 1_000_000)), "big_value": draw(_edge(1, 1_000_000))}
                                        for r in ("coins", "hearts", "stars")},
        "dice": {"count": draw(_edge(1, 20)), "sides": sides},
        "stakes": stakes,
        "all_out": draw(_effects(sides)),
        "chance_it": draw(_effects(sides)),
        "forced_in_after": draw(_edge(1, 12)),
        "board": board,
        "market": {"face_up": draw(_edge(1, 50)), "reshuffle_discard": draw(st.booleans())},
        "end": {"stars": draw(_edge(start_stars + 1, 1_000_000)), "tiebreak": draw(st.permutations(["stars", "hearts", "coins"])),
                "max_rounds": draw(_edge(1, 300))},
        "cards": cards,
    }  # fmt: skip
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()


# --- checks ------------------------------------------------------------------------------------------------------


@contextmanager
def fifo_nobody_reads(path: Path) -> Iterator[list[bool]]:
    """A FIFO at ``path`` with a writer waiting in a thread: the code under test never blocks on it (whatever
    opens it for reading gets a line of text and an end), and the list yielded says whether anybody did open it.
    No clock: at the end this test opens it itself, so the writer always finishes."""
    os.mkfifo(path)
    opened: list[bool] = []

    def writer() -> None:
        with path.open("w") as end:  # blocks until a reader opens the FIFO
            opened.append(bool(not done))
            end.write("game: chance-it\n")

    done: list[bool] = []
    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        yield opened
    finally:
        done.append(True)
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # lets a writer still waiting finish
        thread.join()
        os.close(reader)


@dataclass
class Crash:
    """An exception that escaped: its class name, message and the functions it passed through."""

    kind: str
    message: str
    functions: list[str]

    @classmethod
    def of(cls, exc: BaseException) -> Crash:
        functions: list[str] = []
        seen: BaseException | None = exc
        while seen is not None:  # the chain too: `raise ... from` and "during handling"
            functions += [frame.name for frame in traceback.extract_tb(seen.__traceback__)]
            seen = seen.__cause__ or seen.__context__
        return cls(type(exc).__name__, str(exc), functions)


#: Crashes found by these tests and not fixed yet, by name; each has an xfail(strict=True) test at
#: the end of the file, and inputs that hit one are skipped by the property tests.
KNOWN_CRASHES: dict[str, Callable[[Crash], bool]] = {}  # every crash found so far is fixed (see the end)


def known_crash(crash: Crash) -> str | None:
    """The name of the known crash this is, if any."""
    return next((name for name, matches in KNOWN_CRASHES.items() if matches(crash)), None)


_FRAME = re.compile(r'^  File ".*", line \d+, in (\S+)$', re.MULTILINE)


def known_cli_crash(args: list[str], output: str) -> str | None:
    """For output with "internal error": run again with --debug, and name the known crash it is (all of them)."""
    lines = [line for line in output.split("\n") if line.startswith("internal error: ")]
    if not lines:
        return None
    debug = runner.invoke(app, ["--debug", *args]).output
    functions = _FRAME.findall(debug)
    names = set()
    for line in lines:
        kind, _, message = line.removeprefix("internal error: ").partition(": ")
        names.add(known_crash(Crash(kind, message, functions)))
    return None if None in names else ", ".join(sorted(names))


_BREAKS = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")  # what PyYAML counts as line breaks


def readable_yaml(path: Path) -> str | None:
    """The text of ``path`` when it is a file the loader could read as YAML, else None."""
    try:
        if not path.is_file():
            return None
        raw = path.read_bytes()
        if len(raw) > MAX_BYTES:
            return None
        text = raw.decode("utf-8")
        if getattr(yaml, "CSafeLoader", None):  # libyaml refuses deep nesting at once; PyYAML takes a while
            try:
                yaml.compose(text, Loader=yaml.CSafeLoader)
            except yaml.YAMLError as exc:
                if "maximum nesting depth" in str(exc):
                    return None
        yaml.compose(text, Loader=yaml.SafeLoader)
        return text
    except (Exception, RecursionError):  # noqa: BLE001 - any failure means: not a document to fuzz with
        return None


def check_problems(exc: VariantError) -> None:
    """Every problem names a file and says something; a readable YAML file also gets a line within it."""
    assert exc.problems, "a VariantError with no problems"
    texts: dict[Path, str | None] = {}
    for problem in exc.problems:
        assert isinstance(problem.file, Path), f"no file: {problem}"
        assert isinstance(problem.message, str) and problem.message.strip(), f"no message: {problem!r}"
        assert isinstance(problem.path, str)
        if problem.file not in texts:
            texts[problem.file] = readable_yaml(problem.file)
        text = texts[problem.file]
        if text is not None:
            assert isinstance(problem.line, int), f"no line for readable YAML: {problem}"
            assert 1 <= problem.line <= len(_BREAKS.findall(text)) + 1, f"line out of the file: {problem}"
        str(problem)  # renders


def check_load(path: Path, *, tolerate_known: bool = True) -> Loaded | None:
    """``load_variant`` returns a variant or raises a well-formed VariantError (the generated inputs are bounded in
    size, so the work is too: no clock)."""
    try:
        loaded = load_variant(path)
    except VariantError as exc:
        check_problems(exc)
        return None
    except Exception as exc:
        if tolerate_known and known_crash(Crash.of(exc)):
            reject()
        raise
    assert isinstance(loaded, Loaded) and loaded.variant.name
    return loaded


def check_cli(args: list[str], *, tolerate_known: bool = True) -> Any:
    """Run the CLI: exit 0 or 1, no traceback, no internal error."""
    result = runner.invoke(app, args)
    output = result.output
    if tolerate_known and known_cli_crash(args, output):
        reject()
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}\n{output[-2000:]}"
    )
    assert result.exit_code in (0, 1), f"exit {result.exit_code}:\n{output[-2000:]}"
    assert "Traceback" not in output, output[-3000:]
    assert "internal error" not in output, output[-2000:]
    return result


def layout(root: Path, *, variant: bytes | None = None, cards: bytes | None = None, base: bytes | None = None) -> Path:
    """Write a small project under ``root`` and return the variant to load.

    ``variants/x.yaml`` (the base variant unless given) names ``../cards/chance-it-market.yaml``
    (the shipped cards unless given); ``variants/chance-it.yaml`` is there for ``extends``;
    with ``base`` given, ``x.yaml`` extends ``base.yaml`` holding it.
    """
    (root / "variants").mkdir(parents=True, exist_ok=True)
    (root / "cards").mkdir(exist_ok=True)
    (root / "variants" / "chance-it.yaml").write_text(BASE_TEXT, encoding="utf-8")
    (root / "cards" / "chance-it-market.yaml").write_bytes(cards if cards is not None else CARDS_TEXT.encode())
    target = root / "variants" / "x.yaml"
    (root / "variants" / "base.yaml").unlink(missing_ok=True)  # nothing left from an earlier example
    if base is not None:
        (root / "variants" / "base.yaml").write_bytes(base)
        target.write_text("extends: base.yaml\nname: Child\nend: {stars: 12}\n", encoding="utf-8")
    else:
        target.write_bytes(variant if variant is not None else BASE_TEXT.encode())
    return target


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """A folder for one test; the property tests rewrite every file on each example."""
    return tmp_path


# --- the loader: property tests ----------------------------------------------------------------------------------


@FUZZ
@given(data=mutated(), role=st.sampled_from(["variant", "variant", "variant", "cards", "base"]))
def test_loader_survives_mutated_shipped_files(fresh: Path, data: bytes, role: str) -> None:
    """Cut, shuffled, re-indented, flipped and retyped copies of the shipped files, as a variant, its card file or its base."""
    check_load(layout(fresh, **{role: data}))


@FUZZ
@given(data=mutated({"variants/chance-it.yaml": BASE_TEXT}, max_mutations=2))
def test_loader_survives_small_mutations_of_the_base_variant(fresh: Path, data: bytes) -> None:
    """One or two mutations of the base game: most inputs get past YAML into validation and the rules checks."""
    check_load(layout(fresh, variant=data))


@FUZZ
@given(data=garbage(), role=st.sampled_from(["variant", "variant", "cards", "base"]))
def test_loader_survives_garbage(fresh: Path, data: bytes, role: str) -> None:
    check_load(layout(fresh, **{role: data}))


@pytest.mark.slow
@FUZZ
@given(data=deeply_nested(), role=st.sampled_from(["variant", "variant", "base"]))
def test_loader_survives_deep_nesting(fresh: Path, data: bytes, role: str) -> None:
    """Block and flow nesting up to thousands deep, alone or under a key of a real variant."""
    check_load(layout(fresh, **{role: data}))


@FUZZ
@given(data=alias_bomb())
def test_loader_survives_anchors_and_aliases(fresh: Path, data: bytes) -> None:
    """Aliases that expand a little or enormously (billion laughs) are loaded or refused, never expanded for ever."""
    check_load(layout(fresh, variant=data))


@FUZZ
@given(
    key=st.sampled_from(["name", "game", "description", "dice", "start", "players", "board", "stakes", "cards", "bots",
                         "end", "market", "supply", "all_out", "chance_it", "forced_in_after", "extends"]),
    value=st.sampled_from(HOSTILE_VALUES) | noise,
    role=st.sampled_from(["variant", "base"]),
)  # fmt: skip
def test_loader_survives_any_value_at_any_top_level_key(fresh: Path, key: str, value: str, role: str) -> None:
    """Each top-level key given each hostile value (wrong types, huge numbers, tags, aliases, unicode)."""
    text = re.sub(rf"^{key}:.*(\n[ #].*)*", "", BASE_TEXT, flags=re.MULTILINE) + f"\n{key}: {value}\n"
    check_load(layout(fresh, **{role: text.encode("utf-8", "surrogatepass")}))


# --- the loader: cases written out ---------------------------------------------------------------------------------

CASES: dict[str, bytes] = {
    "empty": b"",
    "only whitespace": b"  \n\n\t\n",
    "only a comment": b"# nothing here\n",
    "explicit null": b"~\n",
    "empty document markers": b"---\n...\n",
    "two documents": b"name: a\n---\nname: b\n",
    "a list": b"- 1\n- 2\n",
    "text": b"just some words\n",
    "a number": b"42\n",
    "binary": bytes(range(256)) * 8,
    "png header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "invalid UTF-8": BASE_TEXT.encode().replace(b"Chance It", b"Chance \xff\xfe It"),
    "truncated UTF-8": "name: \u00e9".encode()[:-1],
    "UTF-16": BASE_TEXT.encode("utf-16"),
    "UTF-8 BOM": b"\xef\xbb\xbf" + BASE_TEXT.encode(),
    "two BOMs": ("\ufeff\ufeff" + BASE_TEXT).encode(),
    "BOM in a value": BASE_TEXT.replace("name: Chance It", "name: \ufeffChance It").encode(),
    "zero-width and RTL in the name": BASE_TEXT.replace("name: Chance It", "name: \u202eChance\u200b\u2066It").encode(),
    "zero-width space in a key": BASE_TEXT.replace("board:", "bo\u200bard:").encode(),
    "emoji key": (BASE_TEXT + "\U0001f3b2: 1\n").encode(),
    "other scripts": BASE_TEXT.replace("name: Chance It (base game)", "name: 日本語 שלום مرحبا").encode(),
    "lone surrogate escape": BASE_TEXT.replace("name: Chance It (base game)", 'name: "\\ud800"').encode(),
    "escaped NUL in a path": BASE_TEXT.replace("[../cards/chance-it-market.yaml]", '["../cards/\\0.yaml"]').encode(),
    "5000-digit int": BASE_TEXT.replace("count: 5", f"count: {BIG}").encode(),
    "negative 5000-digit int": BASE_TEXT.replace("count: 5", f"count: -{BIG}").encode(),
    "1e400 as text": BASE_TEXT.replace("count: 5", "count: 1e400").encode(),
    "1.0e+400 float": BASE_TEXT.replace("count: 5", "count: 1.0e+400").encode(),
    "inf persona weight": BASE_TEXT.replace("danger: 2.5", "danger: .inf").encode(),
    "nan persona weight": BASE_TEXT.replace("danger: 2.5", "danger: .nan").encode(),
    "negative zero": BASE_TEXT.replace("in: [1, 2]", "in: [-0, 2]").encode(),
    "negative zero float": BASE_TEXT.replace("count: 5", "count: -0.0").encode(),
    "date-like text": BASE_TEXT.replace("name: Chance It (base game)", "name: 2024-13-45").encode(),
    "python object tag": b"!!python/object:os.system {}\n",
    "python apply tag": BASE_TEXT.replace("count: 5", "count: !!python/object/apply:os.getcwd []").encode(),
    "python name tag": b"game: !!python/name:os.system\n",
    "unknown local tag": BASE_TEXT.replace("count: 5", "count: !dice 5").encode(),
    "binary tag": BASE_TEXT.replace("name: Chance It (base game)", "name: !!binary aGVsbG8=").encode(),
    "set tag": b"!!set {game, name}\n",
    "anchor and alias": BASE_TEXT.replace("all_out: [{lose: {hearts: 1}}]", "all_out: &pain [{lose: {hearts: 1}}]")
    .replace("3: [{lose: {hearts: 2}}]", "3: *pain")
    .encode(),
    "undefined alias": BASE_TEXT.replace("3: [{lose: {hearts: 2}}]", "3: *pain").encode(),
    "recursive alias": b"a: &a [*a]\n",
    "billion laughs": b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + b"".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n".encode() for p, c in zip("abcdefgh", "bcdefghi")),
    "merge key": BASE_TEXT.replace(
        "  greedy: {policy: heuristic, star: 1.5, reserve: 0, horizon: 8}",
        "  greedy: &g {policy: heuristic, star: 1.5}\n  greedier: {<<: *g, star: 2.5}",
    ).encode(),
    "merge key at the top": (
        "base: &b\n"
        + "\n".join("  " + line for line in BASE_TEXT.split("\n") if line and not line.startswith("#"))
        + "\n<<: *b\n"
    ).encode(),
    "merge of a scalar": b"game: chance-it\nplayers: {<<: 5}\n",
    "merge of a list of scalars": b"game: chance-it\nplayers: {<<: [1, 2]}\n",
    "duplicate key": (BASE_TEXT + "name: again\n").encode(),
    "complex key": b"? [1, 2]\n: 3\n",
    "flow list 5000 deep": _nest(5000, "flow-list").encode(),
    "flow map 5000 deep": _nest(5000, "flow-map").encode(),
    "block list 3000 deep": _nest(3000, "block-list").encode(),
    "block map 2000 deep": _nest(2000, "block-map").encode(),
    "compact block list 5000 deep": _nest(5000, "block-compact").encode(),
    "chance tests 120 deep": BASE_TEXT.replace("6: [market]", "6: " + _nest(120, "effects")).encode(),
    "chance tests 160 deep": BASE_TEXT.replace("6: [market]", "6: " + _nest(160, "effects")).encode(),
    "game as a number": BASE_TEXT.replace("game: chance-it", "game: 7").encode(),
    "extends itself": b"extends: x.yaml\n",
    "extends a folder": b"extends: ..\n",
    "extends nothing": b"extends: ''\n",
    "extends a number": b"extends: 5\n",
    "extends a missing file": b"extends: nowhere.yaml\n",
    "extends a binary file": b"extends: ../bin\n",
    "card file that is a mapping": BASE_TEXT.replace("[../cards/chance-it-market.yaml]", "[x.yaml]").encode(),
    "card file that is a folder": BASE_TEXT.replace("[../cards/chance-it-market.yaml]", "[../cards]").encode(),
    "card file that is binary": BASE_TEXT.replace("[../cards/chance-it-market.yaml]", "[../bin]").encode(),
    "card file that is a symlink loop": BASE_TEXT.replace("[../cards/chance-it-market.yaml]", "[../loop.yaml]").encode(),
    "extends a symlink loop": b"extends: ../loop.yaml\n",
    "die card with a 5000-digit face": BASE_TEXT.replace(
        "cards: [../cards/chance-it-market.yaml]", f"cards: [{{id: a, name: A, when: die-{BIG}, effects: [market]}}]"
    ).encode(),
    "die card with an Arabic-Indic digit": BASE_TEXT.replace(
        "cards: [../cards/chance-it-market.yaml]", "cards: [{id: a, name: A, when: die-\u0663, effects: [market]}]"
    ).encode(),
}


@pytest.mark.parametrize("name", list(CASES))
def test_loader_handles_written_out_cases(fresh: Path, name: str) -> None:
    (fresh / "bin").write_bytes(bytes(range(256)))
    (fresh / "loop.yaml").symlink_to("loop.yaml")
    check_load(layout(fresh, variant=CASES[name]), tolerate_known=False)


def test_safe_loader_refuses_python_tags(fresh: Path) -> None:
    """Unsafe tags are refused with a located error, and nothing they name is run."""
    for text in ["!!python/object/apply:os.system ['touch pwned']\n", "game: !!python/object/new:os.system ['touch pwned']\n"]:
        target = layout(fresh, variant=text.encode())
        with pytest.raises(VariantError) as caught:
            load_variant(target)
        check_problems(caught.value)
        assert "constructor for the tag" in str(caught.value) and caught.value.problems[0].line == 1
        assert not (fresh / "variants" / "pwned").exists() and not Path("pwned").exists()


def test_missing_file_folder_and_special_files(fresh: Path) -> None:
    layout(fresh)
    for path in [fresh / "nowhere.yaml", fresh / "variants", Path(os.devnull), fresh / ("x" * 300 + ".yaml")]:
        check_load(path, tolerate_known=False)


# --- the command line: property tests ------------------------------------------------------------------------------


def _scenario_texts() -> dict[str, str]:
    """The shipped scenarios, pointing at tests/scenarios/variant-test.yaml by an absolute path."""
    ref = json.dumps(str(VARIANT_TEST))
    return {name: re.sub(r"^variant: .*$", f"variant: {ref}", text, flags=re.MULTILINE) for name, text in SCENARIO_TEXTS.items()}


SCENARIO_SOURCES = _scenario_texts()
VARIANT_SOURCES = {
    "variants/chance-it.yaml": BASE_TEXT,
    "tests/scenarios/variant-test.yaml": SOURCES["tests/scenarios/variant-test.yaml"],
}


@FUZZ
@given(data=mutated(SCENARIO_SOURCES), flags=st.lists(st.sampled_from(["--json", "--trace"]), unique=True))
def test_replay_command(fresh: Path, data: bytes, flags: list[str]) -> None:
    """Mutated copies of the shipped scenarios (their `variant:` made absolute) replay or fail cleanly."""
    target = fresh / "scenario.yaml"
    target.write_bytes(data)
    check_cli(["replay", str(target), *flags])


@FUZZ
@given(data=garbage())
def test_replay_command_on_garbage(fresh: Path, data: bytes) -> None:
    target = fresh / "scenario.yaml"
    target.write_bytes(data)
    check_cli(["replay", str(target)])


@FUZZ
@given(
    data=mutated(VARIANT_SOURCES, max_mutations=2),
    players=st.integers(2, 7),
    seed=st.integers(-(10**30), 10**30),
    flags=st.lists(st.sampled_from(["--json", "--trace"]), unique=True),
)
def test_play_command(fresh: Path, data: bytes, players: int, seed: int, flags: list[str]) -> None:
    """Mutated variants: most still load, and then a whole game is played with them."""
    target = layout(fresh, variant=data)
    check_cli(["play", str(target), "--players", str(players), "--seed", str(seed), *flags])


@FUZZ
@given(
    data=mutated(VARIANT_SOURCES, max_mutations=2),
    bots=st.sampled_from(["random", "heuristic", "greedy", "random,heuristic,cautious,gambler"]),
)
def test_simulate_command(fresh: Path, data: bytes, bots: str) -> None:
    target = layout(fresh, variant=data)
    out = fresh / "out"
    check_cli(["simulate", str(target), "--players", "4", "--games", "2", "--workers", "1", "--out", str(out), "--bots", bots])


@pytest.mark.slow
@FUZZ
@given(data=extreme_variant(), players=st.integers(2, 12), seed=st.integers(0, 2**64))
def test_play_and_simulate_extreme_variants(fresh: Path, data: bytes, players: int, seed: int) -> None:
    """Valid variants at the edges of the format (1-20 dice of 2-100 sides, 2-12 players, amounts up to a million)."""
    target = layout(fresh, variant=data)
    check_load(target)
    check_cli(["play", str(target), "--players", str(players), "--seed", str(seed)])
    check_cli(["simulate", str(target), "--players", str(players), "--games", "2", "--workers", "1", "--seed", str(seed),
               "--out", str(fresh / "out"), "--bots", "random,heuristic" if players == 2 else "heuristic"])  # fmt: skip


def test_extreme_variants_are_valid_and_use_every_registered_effect_kind(fresh: Path) -> None:
    """The variants above load, and between them hold an effect of every kind in the registry (nested ones included)."""
    seen: set[str] = set()

    def covers_every_kind(data: bytes) -> bool:
        loaded = check_load(layout(fresh, variant=data), tolerate_known=False)
        assert loaded is not None, "an extreme variant does not load"
        variant = loaded.variant
        for items in [variant.all_out, variant.chance_it, *variant.board.values(), *(card.effects for card in variant.cards)]:
            seen.update(str(kinds.tag_of(effect)) for _, effect, _ in kinds.iter_effects(items, ()))
        return seen >= set(kinds.REGISTRY)

    try:
        find(extreme_variant(), covers_every_kind, settings=settings(FUZZ, max_examples=200, phases=[Phase.generate]))
    except NoSuchExample:
        pytest.fail(f"200 extreme variants never use {sorted(set(kinds.REGISTRY) - seen)}")


@pytest.mark.slow
@FUZZ
@given(data=mutated({"personas.yaml": PERSONAS_TEXT}) | garbage())
def test_simulate_personas_file(fresh: Path, data: bytes) -> None:
    """`simulate --personas FILE` reads a user file too."""
    personas = fresh / "personas.yaml"
    personas.write_bytes(data)
    check_cli([
        "simulate", str(VARIANT_TEST), "--players", "3", "--games", "2", "--workers", "1",
        "--out", str(fresh / "out"), "--personas", str(personas), "--bots", "random",
    ])  # fmt: skip


# --- the command line: special files --------------------------------------------------------------------------------

COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "validate": lambda path, tmp: ["validate", str(path)],
    "replay": lambda path, tmp: ["replay", str(path)],
    "play": lambda path, tmp: ["play", str(path), "--players", "4"],
    "simulate": lambda path, tmp: ["simulate", str(path), "--games", "2", "--workers", "1", "--out", str(tmp / "out")],
}
SPECIAL_FILES: dict[str, Callable[[Path], Path]] = {
    "missing": lambda tmp: tmp / "nowhere.yaml",
    "folder": lambda tmp: tmp,
    "empty": lambda tmp: _write(tmp / "empty.yaml", b""),
    "binary": lambda tmp: _write(tmp / "x.bin", os.urandom(4096)),
    "invalid UTF-8": lambda tmp: _write(tmp / "x.yaml", b"name: \xff\n"),
    "null device": lambda tmp: Path(os.devnull),
    "over 5 MB": lambda tmp: _write(tmp / "big.yaml", b"# " + b"x" * (MAX_BYTES + 10) + b"\n"),
    "python tag": lambda tmp: _write(tmp / "x.yaml", b"!!python/object/apply:os.getcwd []\n"),
    "name too long": lambda tmp: tmp / ("x" * 300 + ".yaml"),
}


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("special", list(SPECIAL_FILES))
def test_commands_on_special_files(fresh: Path, command: str, special: str) -> None:
    path = SPECIAL_FILES[special](fresh)
    result = check_cli(COMMANDS[command](path, fresh), tolerate_known=False)
    assert result.exit_code == 1


def test_simulate_personas_special_files(fresh: Path) -> None:
    for special, make in SPECIAL_FILES.items():
        path = make(fresh)
        result = check_cli(
            ["simulate", str(VARIANT_TEST), "--players", "3", "--games", "2", "--workers", "1",
             "--out", str(fresh / "out"), "--personas", str(path)],
            tolerate_known=False,
        )  # fmt: skip
        assert result.exit_code == 1, special


# --- crashes found (now fixed) -------------------------------------------------------------------------------------
# Each is the smallest input found; the loader raised something other than VariantError (or
# hung), and the CLI printed "internal error".


def _crash(reason: str, raises: type[BaseException] | tuple[type[BaseException], ...]) -> Callable[[Any], Any]:
    """Marks a regression test for a crash these tests once found (the reason says what it was); now fixed."""
    return lambda test: test


@_crash("PyYAML's Reader raises ReaderError in the loader's constructor, outside read_yaml's try", yaml.reader.ReaderError)
@pytest.mark.parametrize(
    "text", ["a: \x00", "name: x\x07", "\x7f", "a: \ufffe", BASE_TEXT.replace("name: Chance", "name: \x1bChance")]
)
def test_no_longer_crashes_unprintable_character(fresh: Path, text: str) -> None:
    check_load(layout(fresh, variant=text.encode()), tolerate_known=False)


@_crash("PyYAML's Reader raises ReaderError for a NUL in a card file", yaml.reader.ReaderError)
def test_no_longer_crashes_unprintable_character_in_a_card_file(fresh: Path) -> None:
    check_load(layout(fresh, cards=b"- \x00\n"), tolerate_known=False)


HUGE_INT_CASES = {
    "a value shown in a message": BASE_TEXT.replace("count: 5", f"count: {HUGE_HEX}"),
    "a binary int": BASE_TEXT.replace("forced_in_after: 2", f"forced_in_after: {HUGE_BIN}"),
    "a base-60 int": BASE_TEXT.replace("stars: 20", f"stars: {HUGE_SEXAGESIMAL}"),
    "an octal int": BASE_TEXT.replace("{lose: {hearts: 1}}", "{lose: {hearts: 0" + "7" * 6000 + "}}"),
    "the game": f"game: {HUGE_HEX}\n",
    "a key": f"? {HUGE_HEX}\n: 1\n",
}


@_crash("str() of an int over 4300 digits raises ValueError (loading._show, family_of, _collect_marks)", ValueError)
@pytest.mark.parametrize("case", list(HUGE_INT_CASES))
def test_no_longer_crashes_huge_int_to_text(fresh: Path, case: str) -> None:
    check_load(layout(fresh, variant=HUGE_INT_CASES[case].encode()), tolerate_known=False)


MISTAGGED = ["!!float x", "!!bool maybe", "!!timestamp x", "!!timestamp 2020-13-45", "!!int ''", "!!map x", "!!set [1]"]


@_crash("PyYAML constructors raise ValueError/KeyError/AttributeError/IndexError/TypeError for a tag on a value it does not fit",
        (ValueError, KeyError, AttributeError, IndexError, TypeError))  # fmt: skip
@pytest.mark.parametrize("value", MISTAGGED)
def test_no_longer_crashes_mistagged_value(fresh: Path, value: str) -> None:
    check_load(layout(fresh, variant=BASE_TEXT.replace("count: 5", f"count: {value}").encode()), tolerate_known=False)


@_crash("Path.is_file() raises OSError ENAMETOOLONG for an over-long extends or card path", OSError)
@pytest.mark.parametrize(
    "text", ["extends: " + "a" * 300 + "\n", BASE_TEXT.replace("[../cards/chance-it-market.yaml]", "[" + "a" * 300 + "]")]
)
def test_no_longer_crashes_path_too_long(fresh: Path, text: str) -> None:
    check_load(layout(fresh, variant=text.encode()), tolerate_known=False)


@_crash("family_of tests `game not in FAMILIES` with an unhashable value", TypeError)
@pytest.mark.parametrize("game", ["[1]", "{a: 1}"])
def test_no_longer_crashes_unhashable_game(fresh: Path, game: str) -> None:
    check_load(layout(fresh, variant=f"game: {game}\n".encode()), tolerate_known=False)


@_crash("read_yaml opens a FIFO without checking it is a regular file and blocks for ever", AssertionError)
def test_no_longer_crashes_fifo_hangs(fresh: Path) -> None:
    with fifo_nobody_reads(fresh / "variant.yaml") as opened, pytest.raises(VariantError, match="not a regular file"):
        load_variant(fresh / "variant.yaml")
    assert opened == [False], "the FIFO was opened: a FIFO without a writer would block for ever"


KNOWN_CLI_CRASHES = {
    "validate NUL": lambda tmp: ["validate", str(_write(tmp / "x.yaml", b"a: \x00"))],
    "play huge hex": lambda tmp: ["play", str(_write(tmp / "x.yaml", f"game: {HUGE_HEX}\n".encode()))],
    "simulate unhashable game": lambda tmp: [
        "simulate",
        str(_write(tmp / "x.yaml", b"game: [1]\n")),
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        str(tmp / "o"),
    ],
    "replay long card path": lambda tmp: [
        "replay",
        str(_write(tmp / "s.yaml", f"variant: {VARIANT_TEST}\noverrides: {{cards: [{'a' * 300}]}}\nplayers: 3\n".encode())),
    ],
    "replay mistagged seed": lambda tmp: [
        "replay",
        str(_write(tmp / "s.yaml", f"variant: {VARIANT_TEST}\nplayers: 3\nseed: !!float x\n".encode())),
    ],
    "replay NUL in the scenario": lambda tmp: ["replay", str(_write(tmp / "s.yaml", b"variant: x.yaml\x00\n"))],
    "simulate personas NUL": lambda tmp: [
        "simulate",
        str(VARIANT_TEST),
        "--players",
        "3",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        str(tmp / "o"),
        "--personas",
        str(_write(tmp / "p.yaml", b"bots: \x00")),
    ],
}


@_crash("the known loader crashes reach the CLI as 'internal error' (exit 2, or 1 for validate and replay)", AssertionError)
@pytest.mark.parametrize("case", list(KNOWN_CLI_CRASHES))
def test_no_longer_crashes_in_the_cli(fresh: Path, case: str) -> None:
    check_cli(KNOWN_CLI_CRASHES[case](fresh), tolerate_known=False)


@_crash("Path.resolve() raises RuntimeError for a symlink loop (load_document)", RuntimeError)
def test_no_longer_crashes_symlink_loop(fresh: Path) -> None:
    loop = fresh / "loop.yaml"
    loop.symlink_to(loop.name)
    check_load(loop, tolerate_known=False)


@_crash("Path.resolve() raises RuntimeError for a symlink loop (load_document, display_path)", AssertionError)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_longer_crashes_cli_symlink_loop(fresh: Path, command: str) -> None:
    loop = fresh / "loop.yaml"
    loop.symlink_to(loop.name)
    check_cli(COMMANDS[command](loop, fresh), tolerate_known=False)


@_crash("a FIFO given to the CLI blocks for ever", AssertionError)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_longer_crashes_cli_fifo_hangs(fresh: Path, command: str) -> None:
    fifo = fresh / "variant.yaml"
    with fifo_nobody_reads(fifo) as opened:
        ran = runner.invoke(app, COMMANDS[command](fifo, fresh))
    assert opened == [False], "the FIFO was opened: a FIFO without a writer would block for ever"
    assert ran.exit_code == 1, ran.output
