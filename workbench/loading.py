"""YAML with line marks, ``extends`` and list includes, and pydantic errors mapped back to lines.

A loaded file is a :class:`Document`: plain data plus ``marks``, which map every key
path (a tuple of strings) to the file and line it came from. Merging and includes
carry the marks along, so an error found after merging still points at the line the
designer wrote.
"""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, TypeVar

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
        raw = path.read_bytes()
    except FileNotFoundError:
        raise error([Problem(path, None, "", "file not found")]) from None
    except OSError as exc:
        raise error([Problem(path, None, "", f"cannot read: {exc.strerror or exc}")]) from None
    if len(raw) > MAX_BYTES:
        raise error([Problem(path, None, "", f"file is larger than {MAX_BYTES // 1_000_000} MB")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error([Problem(path, None, "", f"not UTF-8 text (byte {exc.start})")]) from None
    loader = _MarkedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): (path, 1)}, path)
        data = loader.construct_document(node)
        marks: dict[Key, Mark] = {}
        _collect_marks(loader, node, (), path, marks)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise error([Problem(path, line, "", f"YAML syntax error: {message}")]) from None
    except yaml.YAMLError as exc:
        raise error([Problem(path, None, "", f"YAML error: {exc}")]) from None
    except RecursionError:
        raise error([Problem(path, None, "", "YAML nested too deeply")]) from None
    finally:
        loader.dispose()
    return Document(data, marks, path)


class _MarkedLoader(yaml.SafeLoader):
    """A safe loader that rejects duplicate keys instead of silently keeping the last."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        self.flatten_mapping(node)
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    f"while reading the mapping opened on line {node.start_mark.line + 1}",
                    node.start_mark,
                    f"duplicate key {key!r} (first on line {seen[key] + 1})",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _collect_marks(loader: yaml.SafeLoader, node: yaml.Node, key: Key, path: Path, marks: dict[Key, Mark]) -> None:
    marks.setdefault(key, (path, node.start_mark.line + 1))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = key + (str(loader.construct_object(key_node, deep=True)),)
            marks[child] = (path, key_node.start_mark.line + 1)
            _collect_marks(loader, value_node, child, path, marks)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _collect_marks(loader, item, key + (str(index),), path, marks)


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
                _copy_marks(child, over_marks, marks)
        if key in over_marks:
            marks[key] = over_marks[key]
        return merged
    for stale in [k for k in marks if k[: len(key)] == key and len(k) > len(key)]:
        del marks[stale]
    _copy_marks(key, over_marks, marks)
    return over


def _copy_marks(key: Key, source: dict[Key, Mark], target: dict[Key, Mark]) -> None:
    for k, mark in source.items():
        if k[: len(key)] == key:
            target[k] = mark


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
    resolved = path.resolve()
    if resolved in _seen:
        chain = " -> ".join(p.name for p in (*_seen, resolved))
        raise error([Problem(path, None, "extends", f"extends loops back on itself: {chain}")])
    doc = read_yaml(path, error)
    if doc.data is None:
        raise error([Problem(path, 1, "", "the file is empty")])
    if not isinstance(doc.data, dict):
        raise error([doc.problem((), f"expected a mapping of keys, got {_kind(doc.data)}")])
    for key in includes:
        _expand_includes(doc, key, error)
    parent = doc.data.pop("extends", None)
    if parent is None:
        return doc
    if not isinstance(parent, str):
        raise error([doc.problem(("extends",), f"expected the path of a variant file, got {_kind(parent)}")])
    base_path = path.parent / parent
    if not base_path.is_file():
        raise error([doc.problem(("extends",), f"no such file: {parent} (looked for {base_path})")])
    base = load_document(base_path, includes=includes, error=error, _seen=(*_seen, resolved))
    return merge(base, doc)


def _expand_includes(doc: Document, key: str, error: type[WorkbenchError]) -> None:
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
        if not file.is_file():
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
        vocabulary = model_vocabulary(model)
        problems: list[Problem] = []
        for err in exc.errors():
            if err["type"] == "rules":
                for key, message in err["ctx"]["problems"]:
                    problems.append(doc.problem(key, message))
            else:
                key = data_path(doc.data, err["loc"])
                problems.append(doc.problem(key, explain(err, vocabulary)))
        raise error(sorted(dict.fromkeys(problems), key=lambda p: (str(p.file), p.line or 0))) from None


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


def explain(err: dict, vocabulary: set[str]) -> str:
    """A designer-facing message for one pydantic error."""
    kind, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    loc = err["loc"]
    if kind == "missing":
        return f"missing required key '{loc[-1]}'"
    if kind == "extra_forbidden":
        return f"unknown key '{loc[-1]}'{did_you_mean(str(loc[-1]), vocabulary)}"
    if kind == "effect":
        name = value if isinstance(value, str) else (next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None)
        if name is None:
            return f"an effect is a name (market) or a one-key mapping ({{gain: {{hearts: 1}}}}), got {_kind(value)}"
        return f"unknown effect '{name}'{did_you_mean(str(name), vocabulary)}"
    if kind == "literal_error":
        hint = did_you_mean(str(value), vocabulary) if isinstance(value, str) else ""
        return f"expected {ctx.get('expected')}, got {value!r}{hint}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"expected a whole number, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, got {_show(value)}"
    if kind in ("string_type",):
        return f"expected text, got {_show(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping of keys, got {_kind(value)}"
    if kind in ("list_type", "tuple_type"):
        return f"expected a list, got {_kind(value)}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}, got {value}"
    if kind == "greater_than":
        return f"must be more than {ctx['gt']}, got {value}"
    if kind == "less_than_equal":
        return f"must be at most {ctx['le']}, got {value}"
    if kind == "string_pattern_mismatch":
        return f"{value!r} is not allowed here (expected {ctx.get('pattern')})"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
    msg = err["msg"]
    if kind.startswith("value_error"):
        msg = msg.removeprefix("Value error, ")
    return msg


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else f"{value} ({_kind(value)})"


def did_you_mean(word: str, vocabulary: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known word, or nothing.

    >>> did_you_mean("stkes", {"stakes", "start", "supply"})
    " (did you mean 'stakes'?)"
    """
    close = difflib.get_close_matches(word.lower(), sorted(vocabulary), n=1, cutoff=0.7)
    return f" (did you mean '{close[0]}'?)" if close else ""


def model_vocabulary(model: type[BaseModel]) -> set[str]:
    """Every key, alias and literal value reachable from ``model``: the words a designer may write."""
    words: set[str] = set()
    _walk_type(model, words, set())
    return words


def _walk_type(tp: Any, words: set[str], seen: set[int]) -> None:
    if id(tp) in seen:
        return
    seen.add(id(tp))
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            words.add(info.alias or name)
            _walk_type(info.annotation, words, seen)
        return
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        words.update(str(v) for v in typing.get_args(tp))
        return
    if isinstance(tp, typing.ForwardRef):
        return
    for arg in typing.get_args(tp):
        if isinstance(arg, str):
            words.add(arg)
        elif isinstance(arg, (type, types.GenericAlias, types.UnionType)) or typing.get_origin(arg) is not None:
            _walk_type(arg, words, seen)
        elif hasattr(arg, "tag") and isinstance(getattr(arg, "tag"), str):
            words.add(arg.tag)
