"""YAML with line marks, ``extends`` and list includes, and pydantic errors mapped back to lines.

A loaded file is a :class:`Document`: plain data plus ``marks``, which map every key
path (a tuple of strings) to the file and line it came from. Merging and includes
carry the marks along, so an error found after merging still points at the line the
designer wrote.
"""

from __future__ import annotations

import copy
import difflib
import functools
import gc
import math
import os
import re
import stat
import types
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import typing_extensions
import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from workbench.errors import Problem, Remark, VariantError, WorkbenchError, display_path

Key = tuple[str, ...]
Mark = tuple[Path, int]
ModelT = TypeVar("ModelT", bound=BaseModel)

#: Largest document we read; anything bigger is surely not a hand-written variant.
MAX_BYTES = 5_000_000


@dataclass
class Document:
    """Plain YAML data and, for each key path, the (file, line) it was written at."""

    data: Any
    marks: dict[Key, Mark] = field(default_factory=dict)
    path: Path | None = None
    sources: tuple[Path, ...] = ()  #: every file read to make it (itself, what it extends, included card files)
    #: an edited list's item where the designer wrote it: ``("cards", "10") -> ("cards_add", "0")`` (see :func:`edit_lists`)
    written: dict[Key, Key] = field(default_factory=dict)
    #: where a key was removed by a null (``stakes: null``): a problem about the missing key points there
    removed: dict[Key, Mark] = field(default_factory=dict)

    def mark(self, key: Iterable[Any]) -> Mark | None:
        """The closest known (file, line) for a key path, walking up to its parents."""
        parts = tuple(str(k) for k in key)
        if parts not in self.marks and parts in self.removed:
            return self.removed[parts]
        while True:
            if parts in self.marks:
                return self.marks[parts]
            if not parts:
                return (self.path, 0) if self.path else None
            parts = parts[:-1]

    def problem(self, key: Iterable[Any], message: str | Remark) -> Problem:
        """A problem located at ``key`` in this document (a :class:`~workbench.errors.Remark` when it names a
        parameter of the call)."""
        parts = [str(k) for k in key]
        where = self.mark(parts)
        file, line = where if where else (self.path, None)
        shown = [*self.written.get(tuple(parts[:2]), parts[:2]), *parts[2:]]
        remark = message if isinstance(message, Remark) else None
        return Problem(file, line or None, ".".join(shown), str(message), remark)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a document is built or validated.

    Documents are trees of fresh objects without cycles, so the collector finds nothing
    to free in them, yet its passes over a growing heap cost more than reading does
    (10,000 cards: about half the time). Plain reference counting still frees them.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: The folders files may be read from, resolved (None: anywhere). The studio narrows it to the folders of the file it
#: opened, so that a file named in the editor's text (``extends: /etc/...``) cannot be read through its messages.
READABLE: ContextVar[tuple[Path, ...] | None] = ContextVar("readable", default=None)


@contextmanager
def readable_only(folders: Iterable[Path]) -> Iterator[None]:
    """Read files only inside ``folders`` (and their subfolders) within the block (and the threads it starts with
    its context)."""
    token = READABLE.set(tuple(folder.resolve() for folder in folders))
    try:
        yield
    finally:
        READABLE.reset(token)


def unreadable(path: Path) -> str | None:
    """Why ``path`` may not be read here (outside :data:`READABLE`), or None."""
    folders = READABLE.get()
    if folders is None or any(path.resolve().is_relative_to(folder) for folder in folders):
        return None
    return f"not read: only files in {', '.join(display_path(folder) for folder in folders)} (and their subfolders) are read here"


def read_yaml(path: Path, error: type[WorkbenchError] = VariantError) -> Document:
    """Read one YAML file into a :class:`Document`; syntax errors become located problems."""
    refused = unreadable(path)
    if refused is not None:
        raise error([Problem(path, None, "", refused)])
    try:
        if path.is_dir():
            raise IsADirectoryError
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):  # a pipe or a device would block or never end
            raise error([Problem(path, None, "", "not a regular file")])
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise error([Problem(path, None, "", "file not found")]) from None
    except IsADirectoryError:
        raise error([Problem(path, None, "", "this is a folder, not a YAML file")]) from None
    except (OSError, RuntimeError) as exc:  # too long a name, no permission, a symlink loop...
        raise error([Problem(path, None, "", f"cannot read: {getattr(exc, 'strerror', None) or exc}")]) from None
    if len(raw) > MAX_BYTES:
        raise error([Problem(path, None, "", f"file is larger than {MAX_BYTES // 1_000_000} MB")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error([Problem(path, None, "", f"not UTF-8 text (byte {exc.start})")]) from None
    doc = parse_yaml(text, path, error)
    doc.sources = (path,)
    return doc


def parse_yaml(text: str, path: Path, error: type[WorkbenchError] = VariantError) -> Document:
    """Parse YAML text as the file at ``path`` into a :class:`Document` with line marks.

    libyaml (PyYAML's C parser) reads the text when it is installed, many times faster
    than PyYAML's own parser; should it find the text malformed, PyYAML's parser reads it
    again, so that a syntax error is worded and located as it always was. libyaml follows
    the YAML spec in a few corners where PyYAML's parser refuses the text (a tab between
    values, or ``?`` or ``:`` inside a word in ``[...]`` or ``{...}``): such text is read
    as the spec says, and any mistake in it is then reported by validation.
    """
    try:
        loader = _MarkedLoader(text)  # its reader refuses characters YAML does not allow, before parsing starts
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise error([Problem(path, line, "", f"YAML error: the character {exc.character!r} is not allowed in YAML")]) from None
    fast = _FastLoader(text) if _FastLoader is not None else None
    with _gc_paused():
        try:
            used, node = _compose(fast, loader)
            if node is None:
                return Document(None, {(): (path, 1)}, path)
            plain = _plain_document(used, node, path)
            if plain is not None:
                return plain
            _check_size(node)
            data = used.construct_document(node)
            marks: dict[Key, Mark] = {}
            _collect_marks(used, node, (), path, marks, set())
        except yaml.MarkedYAMLError as exc:
            raise error([Problem(path, *_syntax_error(exc))]) from None
        except yaml.reader.ReaderError as exc:
            line = text.count("\n", 0, exc.position) + 1
            raise error(
                [Problem(path, line, "", f"YAML error: the character {exc.character!r} is not allowed in YAML")]
            ) from None
        except yaml.YAMLError as exc:
            raise error([Problem(path, None, "", f"YAML error: {exc}")]) from None
        except RecursionError:
            raise error([Problem(path, None, "", "YAML nested too deeply")]) from None
        finally:
            loader.dispose()
            if fast is not None:
                fast.dispose()
        return Document(data, marks, path)


def _compose(fast: _MarkedFastLoader | None, loader: _MarkedLoader) -> tuple[_MarkedConstructor, yaml.Node | None]:
    """The loader that composed the document and its node tree: libyaml's if it can, else PyYAML's."""
    if fast is not None:
        try:
            return fast, fast.get_single_node()
        except Exception:  # noqa: BLE001 -- malformed (or too deep for libyaml): PyYAML's parser reads it and says why
            pass
    return loader, loader.get_single_node()


_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
#: Scalars the one-pass reading builds itself: text, numbers, true/false and null.
_PLAIN_SCALARS = frozenset("tag:yaml.org,2002:" + kind for kind in ("str", "int", "float", "bool", "null"))


class _NotPlain(Exception):
    """The document uses something the one-pass reading leaves to PyYAML's constructor."""


def _plain_document(loader: _MarkedConstructor, node: yaml.Node, path: Path) -> Document | None:
    """The document and its marks in one pass over a tree of plain nodes; None when it is not that simple.

    Plain means: mappings, lists and the scalars of :data:`_PLAIN_SCALARS`, no aliases,
    no merge keys, no duplicate keys, at most :data:`MAX_VALUES` values. That is every
    hand-written variant and card file, and for those the result equals what
    ``construct_document`` and ``_collect_marks`` build (same data, same marks, in the
    same order), three times as fast. Anything else goes the general way, which also
    words every error.
    """
    constructors = loader.yaml_constructors
    marks: dict[Key, Mark] = {}
    seen: set[int] = set()
    count = 0

    def scalar(item: yaml.Node) -> Any:
        if not isinstance(item, yaml.ScalarNode) or item.tag not in _PLAIN_SCALARS:
            raise _NotPlain
        return item.value if item.tag == _STR else constructors[item.tag](loader, item)

    def build(item: yaml.Node, key: Key) -> Any:
        nonlocal count
        count += 1
        if id(item) in seen:  # an alias
            raise _NotPlain
        seen.add(id(item))
        marks.setdefault(key, (path, item.start_mark.line + 1))
        if isinstance(item, yaml.MappingNode):
            if item.tag != _MAP:
                raise _NotPlain
            mapping: dict[Any, Any] = {}
            for key_node, value_node in item.value:
                count += 1
                name = scalar(key_node)  # a merge key (<<) has its own tag: not plain
                if name in mapping:
                    raise _NotPlain
                child = key + (str(name),)
                marks[child] = (path, key_node.start_mark.line + 1)
                mapping[name] = build(value_node, child)
            return mapping
        if isinstance(item, yaml.SequenceNode):
            if item.tag != _SEQ:
                raise _NotPlain
            return [build(sub, key + (str(index),)) for index, sub in enumerate(item.value)]
        return scalar(item)

    try:
        data = build(node, ())
    except Exception:  # noqa: BLE001 -- not plain, or a value that does not read: the general way says what is wrong
        return None
    if count > MAX_VALUES:
        return None
    return Document(data, marks, path)


def _syntax_error(exc: yaml.MarkedYAMLError) -> tuple[int | None, str, str]:
    """(line, key path, message) for a YAML error; an unclosed bracket or quote names where it opened."""
    problem, context = exc.problem_mark, exc.context_mark
    where = problem or context
    line = where.line + 1 if where else None
    message = str(exc.problem or "")
    if exc.context:
        opened = f" (opened on line {context.line + 1})" if context and problem and context.line != problem.line else ""
        message = f"{exc.context}{opened}: {message}"
    kind = "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error"
    return line, "", f"{kind}: {message}"


#: Values a YAML document may expand to through anchors and aliases (a guard against "billion laughs").
MAX_VALUES = 200_000


def _check_size(node: yaml.Node) -> None:
    """Refuse documents whose aliases expand to too many values, or refer to themselves."""
    sizes: dict[int, int] = {}
    in_progress: set[int] = set()

    def size(item: yaml.Node) -> int:
        key = id(item)
        if key in sizes:
            return sizes[key]
        if key in in_progress:
            raise yaml.constructor.ConstructorError(None, None, "an alias refers to the value that contains it", item.start_mark)
        in_progress.add(key)
        children = (
            item.value
            if isinstance(item, yaml.SequenceNode)
            else ([part for pair in item.value for part in pair] if isinstance(item, yaml.MappingNode) else [])
        )
        total = 1 + sum(size(child) for child in children)
        in_progress.discard(key)
        if total > MAX_VALUES:
            raise yaml.constructor.ConstructorError(
                None, None, f"the document expands to more than {MAX_VALUES:,} values (anchors and aliases)", item.start_mark
            )
        sizes[key] = total
        return total

    size(node)


class _MarkedConstructor(yaml.constructor.SafeConstructor):
    """A safe constructor that rejects duplicate keys, keeps dates as text and locates bad numbers."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, yaml.MappingNode):  # a mapping tag on something else: PyYAML says so, located
            return super().construct_mapping(node, deep=deep)
        seen: dict[Any, int] = {}  # keys equal in Python (1 and true, 1 and 1.0) are one key of the dict
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base` keys may be overridden by explicit ones
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first on line {seen[key] + 1})", key_node.start_mark
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """A whole number: decimal (leading zeros too: 010 is ten) or ``0x`` hexadecimal."""
        text = str(node.value)
        try:
            value = int(text[2:], 16) if text.startswith("0x") else int(text, 10)
        except ValueError:
            digits = str(node.value).lstrip("+-").replace("_", "")
            message = "this number is far too large" if digits.isdigit() else f"{node.value!r} is not a whole number"
            raise yaml.constructor.ConstructorError(None, None, message, node.start_mark) from None
        if value.bit_length() > 4_000:  # beyond what Python will even print
            raise yaml.constructor.ConstructorError(None, None, "this number is far too large", node.start_mark)
        return value

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except yaml.YAMLError:
            raise
        except (ValueError, KeyError, AttributeError, IndexError, TypeError, OverflowError) as exc:
            tag = node.tag.rsplit(":", 1)[-1]
            raise yaml.constructor.ConstructorError(
                None, None, f"this value cannot be read as {tag} ({exc})", node.start_mark
            ) from None


class _MarkedLoader(_MarkedConstructor, yaml.SafeLoader):
    """PyYAML's own (pure Python) safe loader, with the checks of :class:`_MarkedConstructor`."""


if yaml.__with_libyaml__:

    class _MarkedFastLoader(_MarkedConstructor, yaml.CSafeLoader):
        """The same loader on libyaml's parser (C)."""


#: The loader on libyaml, when PyYAML was built with it.
_FastLoader: type[_MarkedFastLoader] | None = _MarkedFastLoader if yaml.__with_libyaml__ else None


# Dates stay text: a variant has no dates, and "2024-13-45" should not be a crash. Numbers are the plain ones of
# YAML 1.1 (what PyYAML writes unquoted stays text, so our own files read back as written) read as people mean them:
# 010 is ten, not eight, and 1_0, 1:20 (sixty-based) or 0b11 are text, which validation then reports, instead of
# numbers nobody meant.
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_INT_12 = re.compile(r"^(?:[-+]?[0-9]+|0x[0-9a-fA-F]+)$")
_FLOAT_12 = re.compile(r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_RESOLVERS: dict[Any, list[tuple[str, re.Pattern[str]]]] = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp", _INT, _FLOAT)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _first in "-+0123456789.":
    _RESOLVERS.setdefault(_first, [])
    if _first != ".":
        _RESOLVERS[_first].append((_INT, _INT_12))
    _RESOLVERS[_first].append((_FLOAT, _FLOAT_12))
_MarkedLoader.yaml_implicit_resolvers = _RESOLVERS
if _FastLoader is not None:
    _FastLoader.yaml_implicit_resolvers = _RESOLVERS
# What add_constructor does, once for both loaders: whole numbers are read by the method above.
_MarkedConstructor.yaml_constructors = {
    **yaml.constructor.SafeConstructor.yaml_constructors,
    "tag:yaml.org,2002:int": _MarkedConstructor.construct_yaml_int,
}


def _collect_marks(
    loader: _MarkedConstructor, node: yaml.Node, key: Key, path: Path, marks: dict[Key, Mark], seen: set[int]
) -> None:
    marks.setdefault(key, (path, node.start_mark.line + 1))
    if id(node) in seen:  # an alias: its contents were marked where the anchor is
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = key + (str(loader.construct_object(key_node, deep=True)),)
            marks[child] = (path, key_node.start_mark.line + 1)
            _collect_marks(loader, value_node, child, path, marks, seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _collect_marks(loader, item, key + (str(index),), path, marks, seen)


def merge(base: Document, over: Document) -> Document:
    """Merge ``over`` onto ``base``: mappings merge key by key, lists and scalars replace, and a key
    ``over`` sets to null (``stakes: {3: null}``) removes the key ``base`` has.

    The marks follow: a replaced value's marks (and those below it) are the ones
    ``over`` wrote, and a merged mapping keeps the marks of the keys ``over`` left alone.
    The merge walks the data once and notes which keys ``over`` replaced; the merged
    marks are then built in one pass over each document's marks, so the time is linear
    in the size of the input.

    >>> merge(Document({"a": {"x": 1, "y": [1]}}), Document({"a": {"y": [2]}, "b": 3})).data
    {'a': {'x': 1, 'y': [2]}, 'b': 3}
    >>> merge(Document({"stakes": {3: "s3", 4: "s4"}}), Document({"stakes": {3: None}})).data
    {'stakes': {4: 's4'}}
    """
    replaced: set[Key] = set()  # keys whose value ``over`` replaced: the marks below them go, ``over``'s come
    added: set[Key] = set()  # keys only ``over`` has: its marks come
    merged: set[Key] = set()  # mappings merged key by key: ``over``'s mark of the mapping itself comes
    removed: set[Key] = set()  # keys ``over`` set to null: gone, with their marks
    data = _merge_into(base.data, over.data, (), replaced, added, merged, removed)
    taken = replaced | added
    marks = {
        k: mark for k, mark in base.marks.items() if not _below(k, replaced, strict=True) and not _below(k, removed, strict=False)
    }
    marks.update((k, mark) for k, mark in over.marks.items() if k in merged or _below(k, taken, strict=False))
    written = {
        k: w for k, w in base.written.items() if not _below(k, replaced, strict=False) and not _below(k, removed, strict=False)
    }
    written.update(over.written)
    gone = {**base.removed, **{k: over.marks[k] for k in removed if k in over.marks}}
    sources = tuple(dict.fromkeys((*base.sources, *over.sources)))
    return Document(data, marks, over.path or base.path, sources, written, gone)


def _merge_into(base: Any, over: Any, key: Key, replaced: set[Key], added: set[Key], merged: set[Key], removed: set[Key]) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        result = dict(base)
        for k, value in over.items():
            child = key + (str(k),)
            if k in base and value is None:
                del result[k]
                removed.add(child)
            elif k in base:
                result[k] = _merge_into(base[k], value, child, replaced, added, merged, removed)
            else:
                result[k] = value
                added.add(child)
        merged.add(key)
        return result
    replaced.add(key)
    return over


def _below(key: Key, roots: set[Key], *, strict: bool) -> bool:
    """Whether ``key`` lies below one of ``roots`` (or is one of them, unless ``strict``)."""
    return bool(roots) and any(key[:end] in roots for end in range(len(key) + (0 if strict else 1)))


def load_document(
    path: Path,
    *,
    includes: tuple[str, ...] = (),
    error: type[WorkbenchError] = VariantError,
    text: str | None = None,
) -> Document:
    """Load a variant-like file, following ``extends:`` and expanding list includes.

    ``includes`` names top-level list keys (``cards``) whose string items are paths of
    YAML files, each holding a list, spliced in place. Every path is relative to the
    file that names it. ``text`` is the file's text as an editor holds it (unsaved), read instead of the file.
    """
    with _gc_paused():
        return _load_document(Path(path), includes, error, (), text)


def _load_document(
    path: Path, includes: tuple[str, ...], error: type[WorkbenchError], _seen: tuple[Path, ...], text: str | None = None
) -> Document:
    if text is None:
        doc = read_yaml(path, error)
    else:
        if len(text.encode()) > MAX_BYTES:
            raise error([Problem(path, None, "", f"file is larger than {MAX_BYTES // 1_000_000} MB")])
        doc = parse_yaml(text, path, error)
        doc.sources = (path,)
    resolved = path.resolve()  # readable, so it resolves
    if doc.data is None:
        raise error([Problem(path, 1, "", "the file is empty")])
    if not isinstance(doc.data, dict):
        raise error([doc.problem((), f"expected a mapping of keys, got {_kind(doc.data)}")])
    for key in includes:
        expand_includes(doc, key, error)
        expand_includes(doc, f"{key}_add", error)
    parent = doc.data.pop("extends", None)
    if parent is None:
        edit_lists(doc, includes, error)
        return doc
    if not isinstance(parent, str):
        raise error([doc.problem(("extends",), f"expected the path of a variant file, got {_kind(parent)}")])
    base_path = file_named(doc, ("extends",), parent, "a variant file", error)
    try:
        looped = base_path.resolve() in (*_seen, resolved)
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise error([doc.problem(("extends",), f"cannot use {parent!r}: {getattr(exc, 'strerror', None) or exc}")]) from None
    refused = unreadable(base_path)
    if refused is not None:
        raise error([doc.problem(("extends",), f"{parent}: {refused}")])
    chain = (*_seen, resolved)
    if looped:
        names = " -> ".join(p.name for p in (*chain, base_path.resolve()))
        raise error([doc.problem(("extends",), f"extends loops back on itself: {names}")])
    base = _load_document(base_path, includes, error, chain)
    merged = merge(base, doc)
    edit_lists(merged, includes, error)
    return merged


def edit_lists(doc: Document, keys: tuple[str, ...], error: type[WorkbenchError] = VariantError) -> None:
    """Apply ``<key>_remove`` and ``<key>_add`` to each list at ``keys`` (items with an ``id``), then drop them.

    ``<key>_remove`` lists ids of inherited items to take out (an id that is not there is a
    located problem); ``<key>_add`` lists items (or files of items) that replace the item of
    the same id where it stands, or come at the end. Removing comes first, so removing and
    adding one id moves it to the end.

    >>> doc = Document({"cards": [{"id": "a"}, {"id": "b"}], "cards_remove": ["a"], "cards_add": [{"id": "b", "cost": 2}]})
    >>> edit_lists(doc, ("cards",)); doc.data
    {'cards': [{'id': 'b', 'cost': 2}]}
    """
    for key in keys:
        _edit_list(doc, key, error)


def _edit_list(doc: Document, key: str, error: type[WorkbenchError]) -> None:
    removing, adding = f"{key}_remove", f"{key}_add"
    if not isinstance(doc.data, dict) or (removing not in doc.data and adding not in doc.data):
        return
    remove, add = doc.data.pop(removing, None), doc.data.pop(adding, None)
    items = doc.data.get(key, [])
    if not isinstance(items, list):
        raise error([doc.problem((key,), f"expected a list to edit with {removing}/{adding}, got {_kind(items)}")])
    result = list(items)
    origin: list[tuple[str, int]] = [(key, index) for index in range(len(items))]  # where each item comes from
    problems: list[Problem] = []

    def ident(item: Any) -> Any:
        return item.get("id") if isinstance(item, dict) else None

    if remove is not None and not isinstance(remove, list):
        problems.append(doc.problem((removing,), f"expected a list of ids, got {_kind(remove)}"))
    elif remove is not None:
        for index, name in enumerate(remove):
            if not isinstance(name, str):
                problems.append(doc.problem((removing, index), f"expected an id, got {_show(name)}"))
                continue
            places = [place for place, item in enumerate(result) if ident(item) == name]
            if not places:
                known = [str(ident(item)) for item in result if ident(item) is not None]
                problems.append(
                    doc.problem((removing, index), f"no {key} item with id {name!r} to remove{did_you_mean(name, known)}")
                )
            for place in reversed(places):
                del result[place], origin[place]
    if add is not None and not isinstance(add, list):
        problems.append(doc.problem((adding,), f"expected a list, got {_kind(add)}"))
    elif add is not None:
        first: dict[Any, int] = {}
        for index, item in enumerate(add):
            name = ident(item)
            if name is not None and name in first:
                problems.append(doc.problem((adding, index), f"id {name!r} is added twice (first at {adding}.{first[name]})"))
                continue
            first.setdefault(name, index)
            same = next((place for place, old in enumerate(result) if name is not None and ident(old) == name), None)
            if same is None:
                result.append(item)
                origin.append((adding, index))
            else:
                result[same], origin[same] = item, (adding, index)
    if problems:
        raise error(problems, UNCHECKED)
    below: dict[tuple[str, str], list[tuple[Key, Mark]]] = {}
    marks: dict[Key, Mark] = {}
    for k, mark in doc.marks.items():
        if len(k) > 1 and k[0] in (key, adding):
            below.setdefault((k[0], k[1]), []).append((k[2:], mark))
        elif not k or k[0] not in (removing, adding):
            marks[k] = mark
    for place, (source, index) in enumerate(origin):
        for rest, mark in below.get((source, str(index)), ()):
            marks[(key, str(place), *rest)] = mark
    if (key,) not in marks and (adding,) in doc.marks:
        marks[(key,)] = doc.marks[(adding,)]
    written = {k: w for k, w in doc.written.items() if k[0] != key}
    for place, (source, index) in enumerate(origin):
        was = doc.written.get((source, str(index)), (source, str(index)))
        if was != (key, str(place)):
            written[(key, str(place))] = was
    doc.data[key] = result
    doc.marks = marks
    doc.written = written


@dataclass(frozen=True)
class Setting:
    """One value to set in a variant (see :func:`set_key`): the dotted key path, the value, and where it was written."""

    path: str
    value: Any
    where: Document  #: the file that sets it (a sweep)
    at: Key  #: the value's key path in that file
    named: Key | None = None  #: where the key path is written in that file, when elsewhere (a grid axis's ``set:``)


def set_key(doc: Document, path: str, value: Any, where: Document, at: Key, named: Key | None = None) -> None:
    """Set the value at the dotted key ``path`` of ``doc`` (a loaded variant) to ``value``, written in ``where`` at ``at``.

    Each step names a mapping's key (``stakes.4``: the key 4 too) or a list's item, by its
    index or by its ``id`` (``cards.dagger.cost``); the last step may add a key to a
    mapping. The value's marks, and so any problem validation finds in it, point at
    ``where`` (a sweep file): the line the designer wrote it on. A step that leads nowhere
    is a problem located where the path is written (``named``, else ``at``). A new key of a
    mapping whose keys are numbers (``stakes.7``) is a number too.

    >>> doc = Document({"cards": [{"id": "a", "cost": 1}], "stakes": {4: {"in": [1]}}})
    >>> set_key(doc, "cards.a.cost", 3, Document({}), ()); set_key(doc, "stakes.4.in", [2], Document({}), ()); doc.data
    {'cards': [{'id': 'a', 'cost': 3}], 'stakes': {4: {'in': [2]}}}
    """
    steps = path.split(".")
    holder: Any = doc.data
    key: list[str] = []

    def wrong(message: str) -> VariantError:
        return VariantError([where.problem(named if named is not None else at, f"{path}: {message}")])

    for number, step in enumerate(steps):
        last, before = number == len(steps) - 1, ".".join(steps[:number])  # the path as written, up to this step
        whole = step.isascii() and step.isdigit()  # superscripts and other scripts' digits are not indexes
        if isinstance(holder, dict):
            found = next((k for k in holder if str(k) == step), None)
            if found is None and not last:
                raise wrong(f"no key {step!r} in {before or 'the variant'}{did_you_mean(step, [str(k) for k in holder])}")
            numbered = whole and bool(holder) and all(isinstance(k, int) for k in holder)
            name: Any = found if found is not None else int(step) if numbered else step
        elif isinstance(holder, list):
            ids = [str(item.get("id")) for item in holder if isinstance(item, dict) and "id" in item]
            name = next((i for i, item in enumerate(holder) if isinstance(item, dict) and str(item.get("id")) == step), None)
            if name is None and whole and int(step) < len(holder):
                name = int(step)
            if name is None:
                raise wrong(f"no item {step!r} in {before}{did_you_mean(step, ids)}")
            if step != str(name) and len(key) == 1:  # shown as written: cards.dagger, not cards.10
                doc.written[(key[0], str(name))] = (key[0], step)
        else:
            raise wrong(f"{before} is {_kind(holder)}, with no {step!r} inside")
        key.append(str(name))
        if last:
            holder[name] = copy.deepcopy(value)
        else:
            holder = holder[name]
    target = tuple(key)
    doc.marks = {k: m for k, m in doc.marks.items() if k[: len(target)] != target}
    mark = where.mark(at)
    if mark is not None:
        doc.marks.update({(*target, *k[len(at) :]): m for k, m in where.marks.items() if k[: len(at)] == at})
        doc.marks[target] = mark
    doc.sources = tuple(dict.fromkeys((*doc.sources, *where.sources)))


def file_named(doc: Document, key: tuple[str | int, ...], name: str, wanted: str, error: type[WorkbenchError]) -> Path:
    """The file a document read from a file names at ``key`` (``name``, relative to the document's folder), which must
    be ``wanted`` (``a variant file``); an ``error`` located at that key when it is not a file or cannot be looked at."""
    named = (doc.path.parent if doc.path is not None else Path()) / name
    try:
        if named.is_file():
            return named
        what = _not_a_file(named, wanted)
    except (OSError, RuntimeError) as exc:  # too long a name, a symlink loop
        raise error([doc.problem(key, f"cannot use {name!r}: {getattr(exc, 'strerror', None) or exc}")]) from None
    raise error([doc.problem(key, f"{what}: {name} (looked for {named})")])


def _not_a_file(path: Path, wanted: str) -> str:
    """Why ``path``, which is not a regular file, cannot be ``wanted``: a folder, a device or a pipe, or nothing there."""
    if path.is_dir():
        return f"a folder, not {wanted}"
    if path.exists():
        return f"not {wanted} (a device or a pipe?)"
    return "no such file"


def expand_includes(doc: Document, key: str, error: type[WorkbenchError]) -> None:
    """Splice the files named in the list at ``key`` into it (paths relative to the document)."""
    items = doc.data.get(key)
    if not isinstance(items, list) or not any(isinstance(item, str) for item in items):
        return
    expanded: list[Any] = []
    written: dict[str, str] = {}  # an item written in the list: its index -> its index once the files are spliced in
    spliced: list[tuple[dict[Key, Mark], dict[str, str]]] = []  # each file's marks, and its items' indexes in the list
    problems: list[Problem] = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            written[str(index)] = str(len(expanded))
            expanded.append(item)
            continue
        file = doc.path.parent / item if doc.path else Path(item)
        try:
            found = file.is_file()
        except (OSError, RuntimeError) as exc:
            problems.append(doc.problem((key, index), f"cannot use {item!r}: {getattr(exc, 'strerror', None) or exc}"))
            continue
        if not found:
            problems.append(
                doc.problem((key, index), f"{_not_a_file(file, 'a file')}: {item} (looked for {os.path.normpath(file)})")
            )
            continue
        refused = unreadable(file)
        if refused is not None:
            problems.append(doc.problem((key, index), f"{item}: {refused}"))
            continue
        try:
            included = read_yaml(file, error)
        except WorkbenchError as exc:
            problems.extend(exc.problems)
            continue
        if not isinstance(included.data, list):
            problems.append(Problem(file, 1, "", f"a {key} file must hold a list, got {_kind(included.data)}"))
            continue
        spliced.append((included.marks, {str(sub): str(len(expanded) + sub) for sub in range(len(included.data))}))
        doc.sources = (*doc.sources, file)
        expanded.extend(included.data)
    if problems:
        raise error(problems, UNCHECKED)
    marks: dict[Key, Mark] = {}
    for k, mark in doc.marks.items():
        if not (len(k) > 1 and k[0] == key):
            marks[k] = mark
        elif k[1] in written:  # an item written in the list itself, at its new place
            marks[(key, written[k[1]], *k[2:])] = mark
    for file_marks, places in spliced:  # the items of each file, at their places in the list
        for k, mark in file_marks.items():
            if k and k[0] in places:
                marks[(key, places[k[0]], *k[1:])] = mark
    doc.data[key] = expanded
    doc.marks = marks


#: Said after problems found while a file is put together (its includes and list edits): nothing else was checked yet.
UNCHECKED = "the rest of the file is checked once these are fixed"


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


# --- pydantic errors -> located problems ---------------------------------------------------------------------


def validate(model: type[ModelT], doc: Document, error: type[WorkbenchError] = VariantError, **kwargs: Any) -> ModelT:
    """Validate ``doc`` into ``model``; every pydantic error becomes a problem at its YAML line."""
    with _gc_paused():
        try:
            return model.model_validate(doc.data, **kwargs)
        except ValidationError as exc:
            errors = exc.errors()
        problems = _problems(model, doc, errors)
    has_rules = bool(model.__pydantic_decorators__.model_validators)
    rules_checked = any(err["type"] == "rules" for err in errors)
    note = "checks that involve several keys run once these are fixed" if has_rules and not rules_checked else None
    ordered = sorted(dict.fromkeys(problems), key=lambda p: (str(p.file), p.line or 0))
    raise error(ordered, note)


def _problems(model: type[BaseModel], doc: Document, errors: list[ErrorDetails]) -> list[Problem]:
    """The located problems of pydantic's ``errors``, in their order."""
    misspelt = {
        (err["loc"][:-1], closest(str(err["loc"][-1]), _keys_of(type_at(model, err["loc"][:-1]))))
        for err in errors
        if err["type"] == "extra_forbidden"
    }
    problems: list[Problem] = []
    index: dict[int, dict[str, Any]] = {}
    for err in errors:
        if err["type"] == "missing" and (err["loc"][:-1], err["loc"][-1]) in misspelt:
            continue  # "unknown key 'rolls' (did you mean 'roll'?)" says it already
        if err["type"] == "rules":  # a model's check across its keys: each key is the model's (at err["loc"])
            for key, message in err["ctx"]["problems"]:
                problems.append(doc.problem((*err["loc"], *key), message))
        else:
            steps = list(_walk(doc.data, err["loc"], index))
            key = [part for part, _ in steps]
            in_a_list = any(isinstance(holder, list) for _, holder in steps)  # list items are replaced whole, never merged
            message = explain(err, model, inherits=not in_a_list)
            if err["type"] == "missing" and (gone := (*key, str(err["loc"][-1]))) in doc.removed:  # a null took it
                key, message = list(gone), f"{message}: the null here removed the inherited one"
            problems.append(doc.problem(key, message))
    return problems


def data_path(data: Any, loc: tuple[str | int, ...], index: dict[int, dict[str, Any]] | None = None) -> list[str]:
    """Turn a pydantic ``loc`` into the key path that exists in the data (see :func:`_walk`).

    >>> data_path({"board": {2: [{"gain": {"hearst": 1}}]}}, ("board", 2, 0, "gain", "gain", "hearst", "[key]"))
    ['board', '2', '0', 'gain', 'hearst']
    """
    return [part for part, _ in _walk(data, loc, index)]


def _walk(data: Any, loc: tuple[str | int, ...], index: dict[int, dict[str, Any]] | None = None) -> Iterator[tuple[str, Any]]:
    """The parts of a pydantic ``loc`` that exist in the data, each with the mapping or list it is found in.

    pydantic adds union tags and ``[key]`` markers to locations; walking the data keeps
    only the parts a designer wrote. ``index``, shared by the calls for one document's
    errors, keeps each mapping's keys by their text, so that many errors in one big
    mapping do not each search it.
    """
    node = data
    for part in loc:
        if isinstance(node, dict):
            by_text = index.get(id(node)) if index is not None else None
            if by_text is None:
                by_text = {}
                for k in node:
                    by_text.setdefault(str(k), k)  # the first key written as this text, as YAML ordered them
                if index is not None:
                    index[id(node)] = by_text
            match = by_text.get(str(part), _MISSING)
            if match is _MISSING:
                continue
            yield str(match), node
            node = node[match]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            yield str(part), node
            node = node[part]


_MISSING = object()


def explain(err: ErrorDetails, model: type[BaseModel], *, inherits: bool = True) -> str:
    """A designer-facing message for one pydantic error of ``model`` (``inherits``: where a null could remove a key)."""
    kind, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    loc = err["loc"]
    if kind == "missing":
        return f"missing required key '{loc[-1]}'"
    if kind == "extra_forbidden":
        allowed = sorted(_keys_of(type_at(model, loc[:-1])))
        return f"unknown key '{loc[-1]}'{_hint(str(loc[-1]), allowed, 'keys')}"
    if kind == "effect":
        names = sorted(_tags_of(type_at(model, loc)))
        name = value if isinstance(value, str) else (next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None)
        if name is None:
            known = [str(key) for key in value if key in names] if isinstance(value, dict) else []
            if len(known) == 1 and isinstance(value, dict) and len(value) > 1:  # {steal: {...}, from: richest}
                effect, stray = known[0], [str(key) for key in value if key != known[0]]
                verb = "belongs" if len(stray) == 1 else "belong"
                quoted = ", ".join(f"'{key}'" for key in stray)
                return (
                    f"an effect is a one-key mapping: {quoted} {verb} inside '{effect}' ({{{effect}: {{..., {stray[0]}: ...}}}})"
                )
            return f"an effect is a name or a one-key mapping of a name to its settings ({', '.join(names)}), got {_kind(value)}"
        return f"unknown effect '{name}'{_hint(str(name), names, 'effects')}"
    if kind == "literal_error":
        literal = _strip(type_at(model, loc))
        literals = typing.get_args(literal) if typing.get_origin(literal) is typing.Literal else ctx.get("choices", ())
        expected = [str(v) for v in literals]  # a Literal's values, or the choices a validator gives
        hint = did_you_mean(str(value), expected) if isinstance(value, str) else ""
        return f"expected {ctx.get('expected')}, got {_show(value)}{hint}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"expected a whole number, got {_show(value)}"
    if kind in ("float_type", "float_parsing"):
        return f"expected a number, got {_show(value)}"
    if kind == "finite_number":
        return f"expected a finite number, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, got {_show(value)}"
    if kind in ("string_type",):
        return f"expected text, got {_show(value)}"
    nothing = " (null removes an inherited key, but there is none to remove here)" if value is None and inherits else ""
    if value is None and not err["loc"]:  # the whole file: nothing in it (or only comments)
        return "the file is empty: expected a mapping of keys"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping of keys, got {_kind(value)}{nothing}"
    if kind in ("list_type", "tuple_type"):
        return f"expected a list, got {_kind(value)}{nothing}"
    if kind == "greater_than_equal":
        return f"must be at least {_bound(ctx['ge'])}, got {_show(value)}"
    if kind == "greater_than":
        return f"must be more than {_bound(ctx['gt'])}, got {_show(value)}"
    if kind == "less_than_equal":
        return f"must be at most {_bound(ctx['le'])}, got {_show(value)}"
    if kind == "string_pattern_mismatch":
        return f"{value!r} is not allowed here (expected {ctx.get('pattern')})"
    if kind == "string_too_long":
        return f"too long: at most {ctx.get('max_length')} characters"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
    msg = err["msg"]
    if kind.startswith("value_error"):
        msg = msg.removeprefix("Value error, ")
    return msg


def _hint(word: str, allowed: list[str], what: str) -> str:
    """A did-you-mean among the allowed words, else the list of them."""
    return did_you_mean(word, allowed) or (f"; allowed {what}: {', '.join(allowed)}" if allowed else "")


def _bound(limit: Any) -> str:
    """A constraint's limit as a designer would write it: 1, not 1.0 (pydantic gives floats' limits as floats)."""
    return str(int(limit)) if isinstance(limit, float) and limit.is_integer() else str(limit)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"  # as YAML writes them
    if isinstance(value, (int, float)):
        return str(value)
    return _kind(value)


def did_you_mean(word: str, vocabulary: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known word, or nothing.

    >>> did_you_mean("stkes", {"stakes", "start", "supply"})
    " (did you mean 'stakes'?)"
    """
    close = closest(word, vocabulary)
    return f" (did you mean '{close}'?)" if close else ""


def closest(word: str, vocabulary: Iterable[str]) -> str | None:
    """The known word closest to ``word`` (not ``word`` itself), if any is close."""
    return _closest(word, tuple(sorted(w for w in vocabulary if w != word)))


@functools.lru_cache(maxsize=1024)
def _closest(word: str, candidates: tuple[str, ...]) -> str | None:
    """:func:`closest`, remembered: a big file often repeats one mistake many times."""
    close = difflib.get_close_matches(word.lower(), candidates, n=1, cutoff=0.7)
    return close[0] if close else None


def type_at(model: Any, loc: tuple[str | int, ...]) -> Any:
    """The annotation found by following a pydantic ``loc`` from ``model`` (None when lost).

    Union tags and branch labels in the location pick the union member they name.
    """
    # A list index or a number key leads to the same type whatever its value: one lookup per shape of location.
    return _type_at(model, tuple(-1 if isinstance(part, int) else part for part in loc))


@functools.lru_cache(maxsize=1024)
def _type_at(model: Any, loc: tuple[str | int, ...]) -> Any:
    tp = model
    for index, part in enumerate(loc):
        if part == "[key]":
            continue
        if index + 1 < len(loc) and loc[index + 1] == "[key]":  # the error is about this dict key itself
            part = "[key]"
        tp = _step(tp, part)
        if tp is None:
            return None
    return tp


def _step(tp: Any, part: Any) -> Any:
    chooser = _chooser(tp)
    if chooser is not None:  # a union resolved when validating: the member ``part`` names, entered at ``part``
        member = chooser.member(part)
        return None if member is None else _step(member, part)
    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            if part in (name, info.alias):
                return info.annotation
        return None
    if typing_extensions.is_typeddict(tp):
        return typing.get_type_hints(tp, include_extras=True).get(part) if isinstance(part, str) else None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is dict:
        return args[0] if part == "[key]" else args[1]
    if origin in (list, tuple) and isinstance(part, int):
        return args[0]
    if origin in (typing.Union, types.UnionType):
        for member in args:
            if part in _tags_of_member(member) or getattr(_strip(member), "__name__", None) == part:
                return member
        for member in args:
            found = _step(member, part)
            if found is not None:
                return found
    return None


def _chooser(tp: Any) -> Any:
    """The metadata of an annotation that picks its model by tag when validating (``member(tag)``, ``tags()``), or None."""
    if typing.get_origin(tp) is typing.Annotated:
        return next((meta for meta in typing.get_args(tp)[1:] if hasattr(meta, "member") and hasattr(meta, "tags")), None)
    return None


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _tags_of_member(member: Any) -> set[str]:
    if typing.get_origin(member) is typing.Annotated:
        return {meta.tag for meta in typing.get_args(member)[1:] if isinstance(getattr(meta, "tag", None), str)}
    return set()


def _tags_of(tp: Any) -> set[str]:
    """The tags of a tagged union: the effect names it accepts."""
    chooser = _chooser(tp)
    if chooser is not None:
        return set(chooser.tags())
    tp = _strip(tp)
    tags: set[str] = set()
    for member in typing.get_args(tp):
        tags |= _tags_of_member(member)
    return tags


def _keys_of(tp: Any) -> set[str]:
    """The keys a mapping of type ``tp`` may hold: a model's or a TypedDict's fields, or a dict's literal keys."""
    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return {info.alias or name for name, info in tp.model_fields.items()}
    if typing_extensions.is_typeddict(tp):
        return set(tp.__annotations__)
    if typing.get_origin(tp) is dict:
        key = _strip(typing.get_args(tp)[0])
        if typing.get_origin(key) is typing.Literal:
            return {str(v) for v in typing.get_args(key)}
    return set()
