"""YAML line editing (``workbench.yamledit.put_entry``): one entry changes, every other byte stays.

The examples compare whole texts byte for byte (LF, CRLF, CR and no final line break); the
property builds stakes blocks in mixed block and flow styles with comments everywhere and
checks the edit against the data the generator meant, not against the parser alone.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench import yamledit
from workbench.errors import VariantError
from workbench.loading import parse_yaml
from workbench.yamledit import put_entry

PATH = Path("variants/test.yaml")

#: A proposed sheet, and the one line ``put_entry`` writes for it (the tuner's format).
SHEET = {
    "out": [5, 3, "all_out"],
    "in": [1, 2, 2],
    "source": "proposed",
    "provenance": {"tuner": "workbench tune-stakes", "seed": 7, "report": "tuning/page # 1.html"},
}
FLOW = "{out: [5, 3, all_out], in: [1, 2, 2], source: proposed, provenance: {tuner: workbench tune-stakes, seed: 7, report: 'tuning/page # 1.html'}}"
PRINTED_4 = "{out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}"
PRINTED_5 = "{out: [4, 3, 2, 1, all_out], in: [0, 1, 2, 3, 3], source: printed}"


def put(text: str, key: int = 3, value: dict[str, Any] | None = None) -> str:
    return put_entry(text, PATH, "stakes", key, SHEET if value is None else value)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


# --- replacing an entry ----------------------------------------------------------------------------------------

ISSUE_9 = """\
stakes:
  3:
    # playtest 2 said the lone OUT player took too much
    out: [5, 3, all_out]   # lone OUT takes 5
    in: [1, 2, 2]
    source: proposed
  4: {out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}  # from the box
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_block_sheet_becomes_one_line_and_keeps_every_comment(newline: str) -> None:
    """The example of issue 9: the comment on a line of its own goes above, the trailing one at the end."""
    expected = (
        "stakes:\n"
        "  # playtest 2 said the lone OUT player took too much\n"
        f"  3: {FLOW}  # lone OUT takes 5\n"
        "  4: {out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}  # from the box\n"
    )
    assert put(ISSUE_9.replace("\n", newline)) == expected.replace("\n", newline)


def test_comments_everywhere_in_a_block_sheet_survive_in_order() -> None:
    text = (
        "# A designer's variant\n"
        "stakes:   # the sheets\n"
        "  2: {out: [4, all_out], in: [1, 2], source: proposed}\n"
        "  3:    # tuned by hand\n"
        "    # out first\n"
        "    out:\n"
        "      - 5   # lone OUT\n"
        "      # two OUT\n"
        "      - 3\n"
        "      - all_out\n"
        "\n"
        "    in: [1, 2, 2]  # [1, 2, 3] was too harsh\n"
        "    note: |  # header of a literal\n"
        "      a # inside the literal, not a comment\n"
        '    source: "proposed # draft"   # quoted hash above\n'
        "    # after the last key: stays where it is\n"
        "\n"
        "  # the printed one\n"
        f"  4: {PRINTED_4}\n"
        "name: Comments\n"
    )
    expected = (
        "# A designer's variant\n"
        "stakes:   # the sheets\n"
        "  2: {out: [4, all_out], in: [1, 2], source: proposed}\n"
        "  # out first\n"
        "  # two OUT\n"
        f"  3: {FLOW}  # tuned by hand  # lone OUT  # [1, 2, 3] was too harsh  # header of a literal   # quoted hash above\n"
        "    # after the last key: stays where it is\n"
        "\n"
        "  # the printed one\n"
        f"  4: {PRINTED_4}\n"
        "name: Comments\n"
    )
    assert put(text) == expected


ONE_LINE = """\
# A designer's variant: every comment and space here must survive.
extends: base.yaml
name: Write-back test   # trailing comment on a key
stakes:
    # out[k-1]: coins each OUT player takes when k played OUT
    2: {out: [4, all_out], in: [1, 2], source: proposed}
    3: {out: [4, 2, all_out], in: [1, 2, 3], source: proposed}   # provisional, from the 4-player sheet

    4: {out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}
# the tuner's bounds
tuning:   {out_max: 6, in_max: 4}
description: >
  Folded text
  that stays.
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_one_line_sheet_changes_only_its_value(newline: str) -> None:
    """The entry's key, the space before its comment and the comment stay; so does every other line."""
    before = ONE_LINE.replace("\n", newline)
    old = "{out: [4, 2, all_out], in: [1, 2, 3], source: proposed}"
    assert put(before) == before.replace(old, FLOW)


def test_the_tuners_flow_line_for_a_plain_sheet() -> None:
    """The format ``tune-stakes --write`` has always written: ``N: {out: [...], in: [...], source: ..., provenance: {...}}``."""
    sheet = {"out": [3, 1, "all_out"], "in": [1, 2, 2], "source": "proposed", "provenance": {"tuner": "workbench tune-stakes"}}
    after = put(f"stakes:\n  3: {{out: [4, all_out]}}\n  4: {PRINTED_4}\n", value=sheet)
    line = "  3: {out: [3, 1, all_out], in: [1, 2, 2], source: proposed, provenance: {tuner: workbench tune-stakes}}\n"
    assert after == f"stakes:\n{line}  4: {PRINTED_4}\n"


def test_quoted_strings_with_hashes_are_not_comments() -> None:
    text = (
        'name: "Chance # It"   # the real comment\n'
        "stakes:\n"
        "  3: {out: [4, all_out], in: [1, 2], source: 'it''s # not'}  # real one\n"
        "  4:\n"
        '    note: "a # b"   # c\n'
        "    out: [4, 2, 1, all_out]\n"
    )
    assert put(text) == text.replace("{out: [4, all_out], in: [1, 2], source: 'it''s # not'}", FLOW)
    assert put(text, 4) == (
        'name: "Chance # It"   # the real comment\n'
        "stakes:\n"
        "  3: {out: [4, all_out], in: [1, 2], source: 'it''s # not'}  # real one\n"
        f"  4: {FLOW}  # c\n"
    )


def test_a_file_without_a_final_line_break_keeps_none() -> None:
    assert put("stakes:\n  3:\n    out: [1]  # one\n    in: [2]  # two") == f"stakes:\n  3: {FLOW}  # one  # two"


def test_the_key_stays_as_written() -> None:
    assert put("stakes:\n  0x3:   {out: [1]}\n") == f"stakes:\n  0x3:   {FLOW}\n"


def test_sheets_in_descending_order() -> None:
    text = (
        "stakes:\n"
        "  6:\n"
        "    out: [4, 3, 2, 2, 1, all_out]   # a guess\n"
        "    in: [0, 1, 2, 2, 3, 3]\n"
        f"  5: {PRINTED_5}\n"
        f"  4: {PRINTED_4}\n"
        "  2: {out: [4, all_out], in: [1, 2]}\n"
        "name: Descending\n"
    )
    after = put(put(text, 6), 3)
    assert after == (
        "stakes:\n"
        f"  6: {FLOW}  # a guess\n"
        f"  5: {PRINTED_5}\n"
        f"  4: {PRINTED_4}\n"
        "  2: {out: [4, all_out], in: [1, 2]}\n"
        f"  3: {FLOW}\n"
        "name: Descending\n"
    )


def test_a_value_too_wide_for_one_line_continues_under_its_entry_with_the_files_line_breaks() -> None:
    value = {"note": " ".join(["word"] * 3000), "lines": "one\ntwo\n", "text": "é ☃"}
    text = "stakes:\r\n  3: {}  # old\r\n  4: {}\r\nname: x\r\n"
    after = put(text, value=value)
    assert after.startswith("stakes:\r\n  3: {note: word word") and after.endswith("  # old\r\n  4: {}\r\nname: x\r\n")
    assert after.count("\r\n") > 4 and "\n" not in after.replace("\r\n", "")
    assert parse_yaml(after, PATH).data == {"stakes": {3: value, 4: {}}, "name": "x"}


# --- inserting an entry ----------------------------------------------------------------------------------------

GAPS = f"""\
extends: base.yaml
stakes:
   # the printed ones
   4: {PRINTED_4}
   5: {PRINTED_5}   # printed
   # that is all

name: Gaps   # after the stakes
"""


@pytest.mark.parametrize(
    ("key", "after_line"),
    [
        (2, "stakes:\n"),  # before every sheet: right after the parent's line, before the comment
        (6, f"   5: {PRINTED_5}   # printed\n"),  # after the last sheet, before the comments that follow it
    ],
)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_new_sheet_goes_in_key_order_with_its_siblings_indentation(key: int, after_line: str, newline: str) -> None:
    expected = GAPS.replace(after_line, f"{after_line}   {key}: {FLOW}\n")
    assert put(crlf(GAPS) if newline == "\r\n" else GAPS, key) == (crlf(expected) if newline == "\r\n" else expected)


def test_a_new_sheet_between_two_others() -> None:
    text = f"stakes:\n  2: {{out: [1, all_out]}}  # two\n  # the printed one\n  4: {PRINTED_4}\n"
    assert put(text) == f"stakes:\n  2: {{out: [1, all_out]}}  # two\n  3: {FLOW}\n  # the printed one\n  4: {PRINTED_4}\n"


def test_a_new_sheet_after_a_block_sheet() -> None:
    text = "stakes:\n  2:\n    out: [1, all_out]\n    in: [1]   # one\n    # more\nname: x\n"
    assert put(text) == f"stakes:\n  2:\n    out: [1, all_out]\n    in: [1]   # one\n  3: {FLOW}\n    # more\nname: x\n"


def test_an_empty_stakes_key_gets_its_first_sheet() -> None:
    assert put("a: 1\r\nstakes:   # none yet\r\nb: 2\r\n") == f"a: 1\r\nstakes:   # none yet\r\n  3: {FLOW}\r\nb: 2\r\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("name: x   # mine\n", f"name: x   # mine\nstakes:\n  3: {FLOW}\n"),
        ("name: x\r\ntuning: {}  # end", f"name: x\r\ntuning: {{}}  # end\r\nstakes:\r\n  3: {FLOW}"),
        ("", f"stakes:\n  3: {FLOW}\n"),
        ("# only a comment\n", f"# only a comment\nstakes:\n  3: {FLOW}\n"),
        ("---\nname: x\n...\n# after the end\n", f"---\nname: x\nstakes:\n  3: {FLOW}\n...\n# after the end\n"),
        ("  name: x\n  end: 3\n", f"  name: x\n  end: 3\n  stakes:\n    3: {FLOW}\n"),
    ],
    ids=["lf", "crlf-no-final-break", "empty", "comment-only", "document-end", "indented"],
)
def test_a_missing_stakes_key_is_added_at_the_end(before: str, after: str) -> None:
    assert put(before) == after


# --- a parent written as one flow mapping ----------------------------------------------------------------------

FLOW_STAKES = f"name: Flow\nstakes: {{2: {{out: [4, all_out]}}, 3: {{out: [4, 2, all_out]}}, 4: {PRINTED_4}}}   # one line\nend: {{stars: 8}}\n"


def test_a_flow_mapping_stays_one_and_only_the_value_changes() -> None:
    assert put(FLOW_STAKES) == FLOW_STAKES.replace("3: {out: [4, 2, all_out]}", f"3: {FLOW}")


@pytest.mark.parametrize(
    ("key", "old", "new"),
    [
        (1, "{2: ", f"{{1: {FLOW}, 2: "),
        (3, "{out: [4, all_out]}, 4:", f"{{out: [4, all_out]}}, 3: {FLOW}, 4:"),
        (6, f"{PRINTED_4}}}", f"{PRINTED_4}, 6: {FLOW}}}"),
    ],
)
def test_a_new_sheet_in_a_flow_mapping_goes_in_key_order(key: int, old: str, new: str) -> None:
    text = f"stakes: {{2: {{out: [4, all_out]}}, 4: {PRINTED_4}}}\n"
    assert put(text, key) == text.replace(old, new)


def test_an_empty_flow_mapping_gets_its_first_sheet() -> None:
    assert put("stakes: {}  # none\n") == f"stakes: {{3: {FLOW}}}  # none\n"


def test_comments_inside_a_multi_line_flow_mapping_survive() -> None:
    text = (
        "stakes: {   # sheets\n"
        "  2: {out: [4, all_out]},  # two\n"
        "  3: {out: [5,   # lone OUT\n"
        "        # own line\n"
        "        3, all_out], in: [1, 2, 2]}, 4: {out: [1]},\n"
        "  # the end\n"
        "}\n"
    )
    assert put(text) == (
        "stakes: {   # sheets\n"
        "  2: {out: [4, all_out]},  # two\n"
        f"  3: {FLOW}  # lone OUT  # own line\n"
        "        , 4: {out: [1]},\n"
        "  # the end\n"
        "}\n"
    )


# --- what it refuses -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("base: &b {out: [1]}\nstakes:\n  3: *b\n", 3, "anchors or aliases"),
        ("stakes:\n  4: &b {out: [1]}\nother: *b\n", 2, "anchors or aliases"),
        ("stakes:\n  ? 3\n  : {out: [1]}\n", 2, "explicit key"),
        ("name: x\n---\nname: y\n", 3, "more than one YAML document"),
        ("base: &b {stakes: {4: {}}}\n<<: *b\n", 1, "merge key"),
        ("stakes: 5\n", 1, "not a mapping"),
        ("stakes: ~\n", 1, "not a mapping"),
        ("- 1\n- 2\n", 1, "not a mapping"),
        ("{name: x}\n", 1, "one flow mapping"),
        ("stakes: {3, 4: {}}\n", 1, "without a value"),
    ],
)
def test_what_cannot_be_edited_faithfully_is_refused_with_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(VariantError) as caught:
        put(text)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (PATH, line, "stakes.3")
    assert problem.message.startswith("cannot edit") and message in problem.message


def test_broken_yaml_is_reported_where_it_is() -> None:
    with pytest.raises(VariantError, match="YAML syntax error") as caught:
        put("stakes: [\n")
    assert caught.value.problems[0].line == 2


def test_a_value_that_would_not_read_back_is_refused() -> None:
    """A date is written as a date but the loader reads dates as text: raise, never return a wrong text."""
    with pytest.raises(VariantError, match="would not read back"):
        put("stakes:\n  4: {}\n", value={"since": datetime.date(2024, 1, 1)})


def test_an_edit_that_would_change_a_neighbour_is_refused() -> None:
    """A kept literal (``|+``) owns the blank lines after it: inserting there would change it."""
    with pytest.raises(VariantError, match="would not read back"):
        put("stakes:\n  2:\n    note: |+\n      kept\n\n  4: {}\n")


def test_a_wrong_text_is_never_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamledit, "_flow", lambda value: "{out: [1, 2]}")
    with pytest.raises(VariantError, match="would not read back"):
        put(ONE_LINE)


def test_a_value_yaml_cannot_write_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="cannot write"):
        put("stakes: {}\n", value={"x": object()})


# --- the property ----------------------------------------------------------------------------------------------

NOTE = st.text(alphabet=st.sampled_from("ab #:{}[],'\"-&*!|>%@"), max_size=8)
COMMENT = st.text(alphabet=st.sampled_from("ab #:{}[],'\"-&*!|>%@`"), max_size=10).map(str.strip)


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    """A stakes sheet, sometimes with a note full of YAML punctuation."""
    n = draw(st.integers(1, 3))
    sheet: dict[str, Any] = {
        "out": [*draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), "all_out"],
        "in": draw(st.lists(st.integers(0, 4), min_size=n + 1, max_size=n + 1)),
        "source": draw(st.sampled_from(["printed", "proposed"])),
    }
    if draw(st.booleans()):
        sheet["note"] = draw(NOTE)
    return sheet


class Writer:
    """Lines of a generated file, each with its owner (a sheet's key, "stakes" or None), and the comments written."""

    def __init__(self, draw: st.DrawFn):
        self.draw = draw
        self.lines: list[tuple[str, Any]] = []
        self.comments: list[str] = []

    def comment(self) -> str:
        text = f"# c{len(self.comments)}; {self.draw(COMMENT)}".rstrip()
        self.comments.append(text)
        return text

    def trailing(self) -> str:
        return ("  " + self.comment()) if self.draw(st.booleans()) else ""

    def own_line(self, indent: str, owner: Any) -> None:
        if self.draw(st.integers(0, 3)) == 0:
            self.lines.append((indent + self.comment(), owner))

    def add(self, text: str, owner: Any) -> None:
        self.lines.append((text, owner))


def flow(value: Any) -> str:
    """A value in flow style, written independently of the module: JSON strings are YAML double-quoted ones."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(flow, value)) + "]"
    if isinstance(value, str) and value not in ("all_out", "printed", "proposed"):
        return json.dumps(value)
    return str(value)


def block_sheet(out: Writer, indent: str, key: int, sheet: dict[str, Any]) -> None:
    """A sheet in block style, each key and (sometimes) each list item on its own line, comments in between."""
    out.add(f"{indent}{key}:{out.trailing()}", key)
    inner = indent + "  "
    for name, value in sheet.items():
        out.own_line(inner, key)
        if isinstance(value, list) and out.draw(st.booleans()):
            out.add(f"{inner}{name}:{out.trailing()}", key)
            for item in value:
                out.own_line(inner + "  ", key)
                out.add(f"{inner}  - {flow(item)}{out.trailing()}", key)
        else:
            out.add(f"{inner}{name}: {flow(value)}{out.trailing()}", key)


def flow_sheet_lines(out: Writer, indent: str, key: int, sheet: dict[str, Any]) -> str:
    """A sheet as a flow mapping inside a multi-line flow ``stakes``, sometimes split after ``out`` with a comment."""
    items = [f"{name}: {flow(value)}" for name, value in sheet.items()]
    if out.draw(st.booleans()):
        return f"{indent}{key}: {{{', '.join(items)}}}"
    out.add(f"{indent}{key}: {{{items[0]},  {out.comment()}", "stakes")
    return f"{indent}    {', '.join(items[1:])}}}"


@st.composite
def variant_files(draw: st.DrawFn) -> tuple[str, dict[str, Any], Writer, str, bool]:
    """(text, data, writer, newline, whether the stakes are block style) for a small variant file."""
    out = Writer(draw)
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        out.add(out.comment(), None)
    data["name"] = draw(NOTE)
    out.add(f"name: {json.dumps(data['name'])}{out.trailing()}", None)
    style = draw(st.sampled_from(["block", "flow", "flow-lines", "absent"]))
    keys = draw(st.lists(st.integers(2, 9), unique=True, max_size=4))
    entries = {key: draw(sheets()) for key in keys}
    indent = draw(st.sampled_from(["  ", "    "]))
    if style == "block":
        data["stakes"] = entries or None
        out.add(f"stakes:{out.trailing()}", "stakes")
        for key, sheet in entries.items():
            out.own_line(indent, None)
            if draw(st.booleans()):
                out.add(f"{indent}{key}: {flow(sheet)}{out.trailing()}", key)
            else:
                block_sheet(out, indent, key, sheet)
            if draw(st.integers(0, 3)) == 0:
                out.add("", None)
    elif style == "flow":
        data["stakes"] = entries
        out.add(f"stakes: {{{', '.join(f'{k}: {flow(v)}' for k, v in entries.items())}}}{out.trailing()}", "stakes")
    elif style == "flow-lines":
        data["stakes"] = entries
        out.add(f"stakes: {{{out.trailing()}", "stakes")
        for number, (key, sheet) in enumerate(entries.items()):
            out.own_line(indent, "stakes")
            last = flow_sheet_lines(out, indent, key, sheet)
            comma = "," if number < len(entries) - 1 else ""
            out.add(f"{last}{comma}{out.trailing()}", "stakes")
        out.add("}", "stakes")
    data["tuning"] = {"out_max": draw(st.integers(1, 6))}
    out.add(f"tuning: {{out_max: {data['tuning']['out_max']}}}{out.trailing()}", None)
    out.own_line("", None)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(line for line, _ in out.lines) + (newline if draw(st.booleans()) else "")
    return text, data, out, newline, style == "block"


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(any(line == other for other in rest) for line in part)


@given(variant_files(), st.integers(2, 9), sheets(), st.integers(0, 99))
def test_put_entry_sets_the_entry_and_keeps_everything_else(
    file: tuple[str, dict[str, Any], Writer, str, bool], key: int, sheet: dict[str, Any], seed: int
) -> None:
    text, data, out, newline, block = file
    assert parse_yaml(text, PATH).data == data, "the generator writes what it means"
    value = {**sheet, "provenance": {"seed": seed, "report": "tuning/a # b.html"}}

    after = put_entry(text, PATH, "stakes", key, value)

    expected = dict(data)
    expected["stakes"] = {**(data.get("stakes") or {}), key: value}
    assert json.dumps(parse_yaml(after, PATH).data, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert list(parse_yaml(after, PATH).data) == list(expected), "top-level keys in their order"
    for comment in out.comments:
        assert comment in after
    assert after.replace("\r\n", "").count("\n") == 0 if newline == "\r\n" else "\r" not in after
    assert after.endswith(newline) == text.endswith(newline)
    kept = [line for line, owner in out.lines if owner is None or (block and owner not in (key, "stakes"))]
    assert is_subsequence(kept, after.split(newline)), "every other line as it was, in order"
