"""YAML line editing: set one entry of a top-level mapping, keeping every other byte of the file.

A designer's file is theirs: comments, blank lines, key order, quoting, flow or block style
and line endings (LF or CRLF) all stay as they were. :func:`put_entry` finds the entry with
PyYAML's own scanner (token positions, so a ``#`` inside a quoted string is never taken for a
comment), rewrites only the entry's value, and parses the result again to check that it holds
exactly the intended data before returning it.

The entry's value is written as one flow-style line, ``  3: {out: [5, 3, all_out], in: [1, 2, 2]}``.
Every comment that was inside the old value survives: in a block-style parent, comments on
lines of their own move just above the entry, at its indentation; comments at the end of a
line are joined, in order, at the end of the new line. Whatever the parser cannot be trusted
to keep (anchors and aliases, merge keys, explicit ``?`` keys, several documents) is refused
with a located :class:`~workbench.errors.VariantError`, never guessed at.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from workbench.errors import Problem, VariantError
from workbench.loading import parse_yaml

#: The characters that end a line for PyYAML (``\r\n`` counts once).
_BREAKS = "\r\n\x85\u2028\u2029"
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"


def put_entry(text: str, path: Path, parent: str, key: int | str, value: dict[str, Any]) -> str:
    """The YAML text with mapping entry ``parent.key`` set to ``value``, changing only that entry's lines.

    ``parent`` is a key of the top-level mapping. An existing entry keeps its key as written and
    gets ``value`` as one flow-style line, with the comments it held kept (see the module's
    docstring); a new entry goes after the last entry whose key is smaller (or first), with the
    indentation of its siblings; a missing ``parent`` is appended at the end of the document. A
    parent written as one flow mapping stays one. New lines use the file's line ending. Raises
    :class:`~workbench.errors.VariantError` for a file that cannot be edited faithfully, or when
    the edited text would not read back as exactly the old data with the entry set.

    >>> put_entry("name: x   # mine\\r\\nstakes:\\r\\n  4: {out: [2]}\\r\\n", Path("v.yaml"), "stakes", 3, {"out": [1]})
    'name: x   # mine\\r\\nstakes:\\r\\n  3: {out: [1]}\\r\\n  4: {out: [2]}\\r\\n'
    """
    where = f"{parent}.{key}"
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        documents = []  # parse_yaml says where and why
    if len(documents) > 1:
        line = documents[1].start_mark.line + 1 if documents[1] is not None else None
        raise VariantError([Problem(path, line, where, "cannot edit a file with more than one YAML document")])
    before = parse_yaml(text, path).data
    try:
        tokens = list(yaml.scan(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as exc:  # YAML the loader takes but the stricter scanner refuses
        mark = getattr(exc, "problem_mark", None)
        reason = getattr(exc, "problem", None) or exc
        raise VariantError(
            [Problem(path, mark.line + 1 if mark else None, "", f"cannot edit this file here: {reason}")]
        ) from None
    editor = _Editor(text, path, where, tokens)
    result = editor.put(documents[0] if documents else None, before, parent, key, _flow(value))
    _check(result, path, where, before, parent, key, value)
    return result


def _flow(value: Any) -> str:
    """``value`` as one line of flow-style YAML (continuation lines only for values wider than 10,000 characters)."""
    try:
        return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10_000).strip()
    except yaml.YAMLError as exc:
        raise ValueError(f"cannot write {type(value).__name__} as YAML: {exc}") from None


def _key_text(key: int | str) -> str:
    """A mapping key as written in flow-style YAML: ``3``, ``stakes``, ``'yes'``."""
    return _flow([key])[1:-1]


@dataclass
class _Span:
    """One scanner token and where it lies in the text (character offsets, end exclusive)."""

    start: int
    end: int
    token: yaml.Token


class _Editor:
    """The text of one document with its tokens, and the edits :func:`put_entry` makes to it."""

    def __init__(self, text: str, path: Path, where: str, tokens: list[yaml.Token]):
        self.text = text
        self.path = path
        self.where = where
        found = re.search(r"\r\n|[\r\n]", text)
        self.newline = found.group() if found else "\n"
        spans = [_Span(token.start_mark.index, token.end_mark.index, token) for token in tokens]
        self.spans = sorted(spans, key=lambda span: span.start)

    def refuse(self, at: yaml.Node | yaml.Token | None, message: str) -> VariantError:
        """A "cannot edit" error located at a node or token."""
        line = at.start_mark.line + 1 if at is not None else None
        return VariantError([Problem(self.path, line, self.where, f"cannot edit: {message}")])

    # --- where things are -------------------------------------------------------------------------------------

    def line_start(self, index: int) -> int:
        """The offset where the line holding ``index`` starts."""
        return max(self.text.rfind(char, 0, index) for char in _BREAKS) + 1

    def line_end(self, index: int) -> int:
        """The offset of the line break ending the line that holds ``index`` (or the end of the text)."""
        ends = [found for char in _BREAKS if (found := self.text.find(char, index)) != -1]
        return min(ends, default=len(self.text))

    def leading(self, index: int) -> str:
        """The spaces and tabs that start the line holding ``index``."""
        start = self.line_start(index)
        line = self.text[start : self.line_end(start)]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def tokens(self, start: int, end: int) -> list[_Span]:
        """The tokens that start in ``[start, end)`` and have a width."""
        return [span for span in self.spans if start <= span.start < end and span.end > span.start]

    def content_end(self, key: yaml.Node, boundary: int) -> int:
        """Where the entry starting with ``key`` ends: after its last token before ``boundary``, without trailing blanks."""
        end = max(span.end for span in self.tokens(key.start_mark.index, boundary))
        while end > key.end_mark.index and self.text[end - 1] in " \t" + _BREAKS:
            end -= 1  # a block scalar's token takes the line breaks after it
        return end

    def comments(self, start: int, end: int) -> list[tuple[str, bool]]:
        """The comments in ``[start, end)`` in order, each as (text, whether it has a line of its own)."""
        found: list[int] = []
        at = start
        for span in self.tokens(0, end):
            if span.end <= start:
                continue
            found += self._gap_comments(at, span.start)
            token = span.token
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):  # a comment on the header line `|  # ...`
                header = self.text[span.start : self.line_end(span.start)]
                if "#" in header:
                    found.append(span.start + header.index("#"))
            at = max(at, span.end)
        found += self._gap_comments(at, end)
        return [
            (
                self.text[index : self.line_end(index)].rstrip(" \t"),
                not self.text[self.line_start(index) : index].strip(" \t\ufeff"),
            )
            for index in found
        ]

    def _gap_comments(self, start: int, end: int) -> list[int]:
        """Where comments start between two tokens: there, outside any scalar, ``#`` always opens one."""
        found = []
        while start < end and (index := self.text.find("#", start, end)) != -1:
            found.append(index)
            start = self.line_end(index)
        return found

    def indented(self, flow: str, indent: str) -> str:
        """A flow text with any continuation lines indented under its entry and the file's line breaks."""
        return (self.newline + indent).join(flow.split("\n"))

    # --- the edits ----------------------------------------------------------------------------------------------

    def put(self, root: yaml.Node | None, data: Any, parent: str, key: int | str, flow: str) -> str:
        """The text with ``parent.key`` set to the flow text ``flow``."""
        if root is not None and isinstance(root, yaml.ScalarNode) and root.tag == _NULL and not root.value:
            root = None  # only comments, or nothing
        if root is not None and not isinstance(root, yaml.MappingNode):
            raise self.refuse(root, "the document is not a mapping of keys")
        pairs: list[tuple[yaml.Node, yaml.Node]] = root.value if root is not None else []
        if any(k.tag == _MERGE for k, _ in pairs):
            raise self.refuse(root, "the document has a merge key (<<); write its keys out in full")
        found = [(k, v) for k, v in pairs if isinstance(k, yaml.ScalarNode) and k.tag == _STR and k.value == parent]
        if not found:
            return self.append_parent(root, parent, key, flow)
        parent_key, node = found[0]
        self.check_plain(parent_key.start_mark.index, node.end_mark.index, parent)
        if isinstance(node, yaml.ScalarNode) and node.tag == _NULL and node.start_mark.index == node.end_mark.index:
            if root is not None and root.flow_style:
                raise self.refuse(parent_key, f"{parent} is empty inside a flow-style document")
            at = self.line_end(self.colon(parent_key, node.end_mark.index).end)
            indent = self.leading(parent_key.start_mark.index) + "  "
            return self.insert_line(at, indent, f"{_key_text(key)}: {self.indented(flow, indent + '  ')}")
        if not isinstance(node, yaml.MappingNode):
            raise self.refuse(node, f"{parent} is not a mapping")
        entries: list[tuple[yaml.Node, yaml.Node]] = node.value
        keys = list(data[parent])
        if len(keys) != len(entries) or any(not isinstance(k, yaml.ScalarNode) for k, _ in entries):
            raise self.refuse(node, f"{parent} has keys that are not plain values")
        index = next((i for i, k in enumerate(keys) if k == key), None)
        if index is not None:
            return self.replace(node, index, flow)
        smaller = [i for i, k in enumerate(keys) if _less(k, key)]
        return self.insert(node, parent_key, smaller[-1] if smaller else None, f"{_key_text(key)}: ", flow)

    def check_plain(self, start: int, end: int, parent: str) -> None:
        """Refuse anchors, aliases and explicit keys between ``start`` and ``end``: an edit could change what they mean."""
        for span in self.tokens(start, end):
            if isinstance(span.token, yaml.AnchorToken | yaml.AliasToken):
                raise self.refuse(span.token, f"{parent} uses anchors or aliases (&name, *name); write it out in full")
            if isinstance(span.token, yaml.KeyToken):
                raise self.refuse(span.token, f"{parent} has an explicit key (? key); write it as key: value")

    def colon(self, key: yaml.Node, boundary: int) -> _Span:
        """The ``:`` after a key."""
        after = self.tokens(key.end_mark.index, boundary + 1)
        if not after or not isinstance(after[0].token, yaml.ValueToken):
            raise self.refuse(key, "an entry without a value (key: value)")
        return after[0]

    def append_parent(self, root: yaml.Node | None, parent: str, key: int | str, flow: str) -> str:
        """The text with a new ``parent:`` block holding the entry, at the end of the document."""
        if isinstance(root, yaml.MappingNode) and root.flow_style:
            raise self.refuse(root, f"the document is one flow mapping; add {parent} by hand")
        indent = " " * (root.value[0][0].start_mark.column if isinstance(root, yaml.MappingNode) and root.value else 0)
        block = f"{indent}{_key_text(parent)}:{self.newline}{indent}  {_key_text(key)}: {self.indented(flow, indent + '    ')}"
        ends = [span.start for span in self.spans if isinstance(span.token, yaml.DocumentEndToken)]
        if ends:  # before the `...` that ends the document
            at = self.line_start(ends[0])
            return self.text[:at] + block + self.newline + self.text[at:]
        if self.text and self.text[-1] not in _BREAKS:
            return self.text + self.newline + block  # no line break at the end, as before
        return self.text + block + self.newline

    def insert_line(self, at: int, indent: str, entry: str) -> str:
        """The text with a line ``indent + entry`` inserted at the line end ``at``."""
        return self.text[:at] + self.newline + indent + entry + self.text[at:]

    def insert(self, node: yaml.MappingNode, parent_key: yaml.Node, after: int | None, key_text: str, flow: str) -> str:
        """The text with a new entry in the mapping ``node``, after its entry number ``after`` (or first)."""
        entries: list[tuple[yaml.Node, yaml.Node]] = node.value
        if node.flow_style:
            indent = self.leading(parent_key.start_mark.index) + "  "
            entry = key_text + self.indented(flow, indent)
            if after is not None:
                at = entries[after][1].end_mark.index
                return self.text[:at] + ", " + entry + self.text[at:]
            if entries:
                at = entries[0][0].start_mark.index
                return self.text[:at] + entry + ", " + self.text[at:]
            opening = next(
                s
                for s in self.tokens(node.start_mark.index, node.end_mark.index)
                if isinstance(s.token, yaml.FlowMappingStartToken)
            )
            return self.text[: opening.end] + entry + self.text[opening.end :]
        first = entries[0][0]
        indent = self.leading(first.start_mark.index)
        if self.text[self.line_start(first.start_mark.index) : first.start_mark.index] != indent:
            raise self.refuse(first, "an entry that does not start its line")
        if after is None:
            at = self.line_end(self.colon(parent_key, node.start_mark.index).end)
        else:
            at = self.line_end(self.content_end(entries[after][0], self.boundary(node, after)))
        return self.insert_line(at, indent, key_text + self.indented(flow, indent + "  "))

    def boundary(self, node: yaml.MappingNode, index: int) -> int:
        """Where entry ``index`` of a mapping can reach at most: its value's end, or the next key of a block mapping."""
        entries: list[tuple[yaml.Node, yaml.Node]] = node.value
        if node.flow_style:
            return int(entries[index][1].end_mark.index)
        later = [k.start_mark.index for k, _ in entries if k.start_mark.index > entries[index][0].start_mark.index]
        return min(later, default=node.end_mark.index)

    def replace(self, node: yaml.MappingNode, index: int, flow: str) -> str:
        """The text with entry ``index`` of ``node`` given the value ``flow``, its comments kept."""
        key, value = node.value[index]
        boundary = self.boundary(node, index)
        start = self.colon(key, boundary).end
        end = self.content_end(key, boundary)
        prefix = self.text[self.line_start(key.start_mark.index) : key.start_mark.index]
        indent = self.leading(key.start_mark.index)
        if not node.flow_style and prefix != indent:
            raise self.refuse(key, "an entry that does not start its line")
        comments = self.comments(start, end)
        above = [] if node.flow_style else [text for text, own_line in comments if own_line]
        joined = [text for text, own_line in comments if node.flow_style or not own_line]
        gap = self.text[start : value.start_mark.index]
        new = (gap if gap and not gap.strip(" \t") else " ") + self.indented(flow, indent + "  ")
        new += "".join("  " + text for text in joined)
        rest = self.text[end : self.line_end(end)].lstrip(" \t")
        if joined and rest and not rest.startswith("#"):  # more of a flow mapping follows on that line
            new += self.newline + self.leading(end)
        line = self.line_start(key.start_mark.index)
        moved = "".join(indent + text + self.newline for text in above)
        return self.text[:line] + moved + self.text[line:start] + new + self.text[end:]


def _less(a: Any, b: Any) -> bool:
    """Whether key ``a`` sorts before ``b`` (keys that cannot be compared do not)."""
    try:
        return bool(a < b)
    except TypeError:
        return False


def _check(text: str, path: Path, where: str, before: Any, parent: str, key: int | str, value: dict[str, Any]) -> None:
    """Raise unless ``text`` reads as ``before`` with ``parent.key`` set to ``value``, every other key as it was."""
    try:
        after = parse_yaml(text, path).data
    except VariantError as exc:
        raise VariantError([Problem(path, None, where, f"cannot edit: the edit would not read back ({exc})")]) from None
    old = before if isinstance(before, dict) else {}
    expected = dict(old)
    entries = dict(old.get(parent) or {})
    entries[key] = value
    expected[parent] = entries
    if not isinstance(after, dict) or list(after) != list(expected) or not _same(after, expected):
        raise VariantError([Problem(path, None, where, "cannot edit: the edit would not read back as the intended data")])


def _same(a: Any, b: Any) -> bool:
    """Whether two plain YAML values are equal, types included (``1`` is not ``true``, nor ``1.0``).

    >>> _same({"a": [1, float("nan")]}, {"a": [1, float("nan")]}), _same({"a": 1}, {"a": True})
    (True, False)
    """
    if isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        keys = {(type(k), k): k for k in b}
        return all((type(k), k) in keys and _same(v, b[keys[type(k), k]]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and bool(a == b)


__all__ = ["put_entry"]
