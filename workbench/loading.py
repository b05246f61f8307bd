"""YAML with line marks, ``extends`` and list includes, and pydantic errors mapped back to lines.

A loaded file is a :class:`Document`: plain data plus ``marks``, which map every key
path (a tuple of strings) to the file and line it came from. Merging and includes
carry the marks along, so an error found after merging still points at the line the
designer wrote.
"""

from __future__ import annotations

import difflib
import stat
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from workbench.errors import Problem, VariantError, WorkbenchError

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

    def mark(self, key: Iterable[Any]) -> Mark | None:
        """The closest known (file, line) for a key path, walking up to its parents."""
        parts = tuple(str(k) for k in key)
        while True:
            if parts in self.marks:
                return self.marks[parts]
            if not parts:
                return (self.path, 0) if self.path else None
            parts = parts[:-1]

    def problem(self, key: Iterable[Any], message: str) -> Problem:
        """A problem located at ``key`` in this document."""
        parts = [str(k) for k in key]
        where = self.mark(parts)
        file, line = where if where else (self.path, None)
        return Problem(file, line or None, ".".join(parts), message)


def read_yaml(path: Path, error: type[WorkbenchError] = VariantError) -> Document:
    """Read one YAML file into a :class:`Document`; syntax errors become located problems."""
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
    return parse_yaml(text, path, error)


def parse_yaml(text: str, path: Path, error: type[WorkbenchError] = VariantError) -> Document:
    """Parse YAML text as the file at ``path`` into a :class:`Document` with line marks."""
    try:
        loader = _MarkedLoader(text)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, found before parsing starts
        line = text.count("\n", 0, exc.position) + 1
        raise error([Problem(path, line, "", f"YAML error: the character {exc.character!r} is not allowed in YAML")]) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): (path, 1)}, path)
        _check_size(node)
        data = loader.construct_document(node)
        marks: dict[Key, Mark] = {}
        _collect_marks(loader, node, (), path, marks, set())
    except yaml.MarkedYAMLError as exc:
        raise error([Problem(path, *_syntax_error(exc))]) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise error([Problem(path, line, "", f"YAML error: the character {exc.character!r} is not allowed in YAML")]) from None
    except yaml.YAMLError as exc:
        raise error([Problem(path, None, "", f"YAML error: {exc}")]) from None
    except RecursionError:
        raise error([Problem(path, None, "", "YAML nested too deeply")]) from None
    finally:
        loader.dispose()
    return Document(data, marks, path)


def _syntax_error(exc: yaml.MarkedYAMLError) -> tuple[int | None, str, str]:
    """(line, key path, message) for a YAML error; an unclosed bracket or quote names where it opened."""
    problem, context = exc.problem_mark, exc.context_mark
    line = (problem or context).line + 1 if (problem or context) else None
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


class _MarkedLoader(yaml.SafeLoader):
    """A safe loader that rejects duplicate keys, keeps dates as text and locates bad numbers."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
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
        try:
            value = super().construct_yaml_int(node)
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


# Dates stay text: a variant has no dates, and "2024-13-45" should not be a crash.
_MarkedLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_MarkedLoader.add_constructor("tag:yaml.org,2002:int", _MarkedLoader.construct_yaml_int)


def _collect_marks(
    loader: yaml.SafeLoader, node: yaml.Node, key: Key, path: Path, marks: dict[Key, Mark], seen: set[int]
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
    """Merge ``over`` onto ``base``: mappings merge key by key, lists and scalars replace.

    >>> merge(Document({"a": {"x": 1, "y": [1]}}), Document({"a": {"y": [2]}, "b": 3})).data
    {'a': {'x': 1, 'y': [2]}, 'b': 3}
    """
    marks = dict(base.marks)
    data = _merge_into(base.data, over.data, (), marks, over.marks)
    return Document(data, marks, over.path or base.path)


def _merge_into(base: Any, over: Any, key: Key, marks: dict[Key, Mark], over_marks: dict[Key, Mark]) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for k, value in over.items():
            child = key + (str(k),)
            if k in base:
                merged[k] = _merge_into(base[k], value, child, marks, over_marks)
            else:
                merged[k] = value
                _move_marks(over_marks, child, marks, child)
        if key in over_marks:
            marks[key] = over_marks[key]
        return merged
    for stale in [k for k in marks if k[: len(key)] == key and len(k) > len(key)]:
        del marks[stale]
    _move_marks(over_marks, key, marks, key)
    return over


def load_document(
    path: Path,
    *,
    includes: tuple[str, ...] = (),
    error: type[WorkbenchError] = VariantError,
    _seen: tuple[Path, ...] = (),
) -> Document:
    """Load a variant-like file, following ``extends:`` and expanding list includes.

    ``includes`` names top-level list keys (``cards``) whose string items are paths of
    YAML files, each holding a list, spliced in place. Every path is relative to the
    file that names it.
    """
    path = Path(path)
    doc = read_yaml(path, error)
    resolved = path.resolve()  # readable, so it resolves
    if doc.data is None:
        raise error([Problem(path, 1, "", "the file is empty")])
    if not isinstance(doc.data, dict):
        raise error([doc.problem((), f"expected a mapping of keys, got {_kind(doc.data)}")])
    for key in includes:
        expand_includes(doc, key, error)
    parent = doc.data.pop("extends", None)
    if parent is None:
        return doc
    if not isinstance(parent, str):
        raise error([doc.problem(("extends",), f"expected the path of a variant file, got {_kind(parent)}")])
    base_path = path.parent / parent
    try:
        found = base_path.is_file()
        what = "a folder, not a variant file" if base_path.is_dir() else "no such file"
        looped = found and base_path.resolve() in (*_seen, resolved)
    except (OSError, RuntimeError) as exc:  # too long a name, a symlink loop
        raise error([doc.problem(("extends",), f"cannot use {parent!r}: {getattr(exc, 'strerror', None) or exc}")]) from None
    if not found:
        raise error([doc.problem(("extends",), f"{what}: {parent} (looked for {base_path})")])
    chain = (*_seen, resolved)
    if looped:
        names = " -> ".join(p.name for p in (*chain, base_path.resolve()))
        raise error([doc.problem(("extends",), f"extends loops back on itself: {names}")])
    base = load_document(base_path, includes=includes, error=error, _seen=chain)
    return merge(base, doc)


def expand_includes(doc: Document, key: str, error: type[WorkbenchError]) -> None:
    """Splice the files named in the list at ``key`` into it (paths relative to the document)."""
    items = doc.data.get(key)
    if not isinstance(items, list) or not any(isinstance(item, str) for item in items):
        return
    expanded: list[Any] = []
    marks = {k: m for k, m in doc.marks.items() if not (len(k) > 1 and k[0] == key)}
    problems: list[Problem] = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            _move_marks(doc.marks, (key, str(index)), marks, (key, str(len(expanded))))
            expanded.append(item)
            continue
        file = doc.path.parent / item if doc.path else Path(item)
        try:
            found = file.is_file()
        except (OSError, RuntimeError) as exc:
            problems.append(doc.problem((key, index), f"cannot use {item!r}: {getattr(exc, 'strerror', None) or exc}"))
            continue
        if not found:
            problems.append(doc.problem((key, index), f"no such file: {item} (looked for {file})"))
            continue
        try:
            included = read_yaml(file, error)
        except WorkbenchError as exc:
            problems.extend(exc.problems)
            continue
        if not isinstance(included.data, list):
            problems.append(Problem(file, 1, "", f"a {key} file must hold a list, got {_kind(included.data)}"))
            continue
        for sub, value in enumerate(included.data):
            _move_marks(included.marks, (str(sub),), marks, (key, str(len(expanded))))
            expanded.append(value)
    if problems:
        raise error(problems)
    doc.data[key] = expanded
    doc.marks = marks


def _move_marks(source: dict[Key, Mark], old: Key, target: dict[Key, Mark], new: Key) -> None:
    for k, mark in source.items():
        if k[: len(old)] == old:
            target[new + k[len(old) :]] = mark


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


# --- pydantic errors -> located problems ---------------------------------------------------------------------


def validate(model: type[ModelT], doc: Document, error: type[WorkbenchError] = VariantError, **kwargs: Any) -> ModelT:
    """Validate ``doc`` into ``model``; every pydantic error becomes a problem at its YAML line."""
    try:
        return model.model_validate(doc.data, **kwargs)
    except ValidationError as exc:
        problems: list[Problem] = []
        errors = exc.errors()
        misspelt = {
            (err["loc"][:-1], closest(str(err["loc"][-1]), _keys_of(type_at(model, err["loc"][:-1]))))
            for err in errors
            if err["type"] == "extra_forbidden"
        }
        for err in errors:
            if err["type"] == "missing" and (err["loc"][:-1], err["loc"][-1]) in misspelt:
                continue  # "unknown key 'rolls' (did you mean 'roll'?)" says it already
            if err["type"] == "rules":
                for key, message in err["ctx"]["problems"]:
                    problems.append(doc.problem(key, message))
            else:
                key = data_path(doc.data, err["loc"])
                problems.append(doc.problem(key, explain(err, model)))
        has_rules = bool(model.__pydantic_decorators__.model_validators)
        rules_checked = any(err["type"] == "rules" for err in errors)
        note = "checks that involve several keys run once these are fixed" if has_rules and not rules_checked else None
        ordered = sorted(dict.fromkeys(problems), key=lambda p: (str(p.file), p.line or 0))
        raise error(ordered, note) from None


def data_path(data: Any, loc: tuple) -> list[str]:
    """Turn a pydantic ``loc`` into the key path that exists in the data.

    pydantic adds union tags and ``[key]`` markers to locations; walking the data keeps
    only the parts a designer wrote.

    >>> data_path({"board": {2: [{"gain": {"hearst": 1}}]}}, ("board", 2, 0, "gain", "gain", "hearst", "[key]"))
    ['board', '2', '0', 'gain', 'hearst']
    """
    path: list[str] = []
    node = data
    for part in loc:
        if isinstance(node, dict):
            match = next((k for k in node if str(k) == str(part)), _MISSING)
            if match is _MISSING:
                continue
            path.append(str(match))
            node = node[match]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(str(part))
            node = node[part]
    return path


_MISSING = object()


def explain(err: dict, model: type[BaseModel]) -> str:
    """A designer-facing message for one pydantic error of ``model``."""
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
            return f"an effect is a name (market) or a one-key mapping ({{gain: {{hearts: 1}}}}), got {_kind(value)}"
        return f"unknown effect '{name}'{_hint(str(name), names, 'effects')}"
    if kind == "literal_error":
        literal = _strip(type_at(model, loc))
        expected = [str(v) for v in typing.get_args(literal)] if typing.get_origin(literal) is typing.Literal else []
        hint = did_you_mean(str(value), expected) if isinstance(value, str) else ""
        return f"expected {ctx.get('expected')}, got {_show(value)}{hint}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"expected a whole number, got {_show(value)}"
    if kind in ("float_type", "float_parsing"):
        return f"expected a number, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, got {_show(value)}"
    if kind in ("string_type",):
        return f"expected text, got {_show(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping of keys, got {_kind(value)}"
    if kind in ("list_type", "tuple_type"):
        return f"expected a list, got {_kind(value)}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}, got {_show(value)}"
    if kind == "greater_than":
        return f"must be more than {ctx['gt']}, got {_show(value)}"
    if kind == "less_than_equal":
        return f"must be at most {ctx['le']}, got {_show(value)}"
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


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
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
    candidates = sorted(w for w in vocabulary if w != word)
    close = difflib.get_close_matches(word.lower(), candidates, n=1, cutoff=0.7)
    return close[0] if close else None


def type_at(model: Any, loc: tuple) -> Any:
    """The annotation found by following a pydantic ``loc`` from ``model`` (None when lost).

    Union tags and branch labels in the location pick the union member they name.
    """
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
    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            if part in (name, info.alias):
                return info.annotation
        return None
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
    tp = _strip(tp)
    tags: set[str] = set()
    for member in typing.get_args(tp):
        tags |= _tags_of_member(member)
    return tags


def _keys_of(tp: Any) -> set[str]:
    """The keys a mapping of type ``tp`` may hold: a model's fields, or a dict's literal keys."""
    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return {info.alias or name for name, info in tp.model_fields.items()}
    if typing.get_origin(tp) is dict:
        key = _strip(typing.get_args(tp)[0])
        if typing.get_origin(key) is typing.Literal:
            return {str(v) for v in typing.get_args(key)}
    return set()
