"""Compare a scenario's ``expect:`` block with a replay's output. Family-agnostic.

- a mapping matches when every key it names matches (the rest is not checked);
- a mapping against a list checks the list entries it names by index (``players: {2: {coins: 5}}``);
- a list matches a list of the same length entry by entry;
- keys named in ``subsequence`` (``events``) match when the expected entries appear in order;
- anything else must be equal, and ``true`` is not ``1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.errors import Problem
from workbench.loading import Document

#: A key path into the compared data: mapping keys and list indices.
Key = tuple[object, ...]


def mismatches(
    expected: object, actual: object, key: Key = (), *, subsequence: frozenset[str] = frozenset()
) -> Iterator[tuple[Key, str]]:
    """Every place where ``actual`` differs from ``expected``, as (key path, message).

    >>> list(mismatches({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3], "c": 0}))
    [(('b', 1), 'expected 2, got 3')]
    """
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, value in expected.items():
            if k not in actual:
                yield key + (k,), f"no such field in the output (fields: {', '.join(map(str, actual))})"
            elif k in subsequence and isinstance(value, list) and isinstance(actual[k], list):
                yield from _subsequence(value, actual[k], key + (k,))
            else:
                yield from mismatches(value, actual[k], key + (k,), subsequence=subsequence)
    elif isinstance(expected, dict) and isinstance(actual, list):
        for k, value in expected.items():
            if not isinstance(k, int) or not 0 <= k < len(actual):
                yield key + (k,), f"no entry {k} (there are {len(actual)})"
            else:
                yield from mismatches(value, actual[k], key + (k,), subsequence=subsequence)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield key, f"expected {_show(expected)}, got {_show(actual)}"
            return
        for index, (want, got) in enumerate(zip(expected, actual)):
            yield from mismatches(want, got, key + (index,), subsequence=subsequence)
    elif not _equal(expected, actual):
        yield key, f"expected {_show(expected)}, got {_show(actual)}"


def _subsequence(expected: list[object], actual: list[object], key: Key) -> Iterator[tuple[Key, str]]:
    position = 0
    for index, want in enumerate(expected):
        while position < len(actual) and any(mismatches(want, actual[position])):
            position += 1
        if position == len(actual):
            yield key + (index,), f"no event matching {_show(want)} in order after the ones before it"
            return
        position += 1


def _equal(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    return str(value)


def count_checks(expected: object) -> int:
    """How many leaf values an ``expect`` block checks.

    >>> count_checks({"rounds": 1, "players": {0: {"coins": 4, "hearts": 7}}})
    3
    """
    if isinstance(expected, dict):
        return sum(count_checks(v) for v in expected.values())
    if isinstance(expected, list) and any(isinstance(v, (dict, list)) for v in expected):
        return sum(count_checks(v) for v in expected)
    return 1


@dataclass
class Replay:
    """The outcome of replaying one scenario, for any game."""

    path: Path | None  #: the scenario file (None for a script not read from a file)
    output: dict[str, Any]
    checks: int = 0
    failures: list[Problem] = field(default_factory=list)
    unchecked: int = 0  #: expectations on events, left unchecked by an engine that keeps no event log

    @property
    def passed(self) -> bool:
        """Whether every expectation held."""
        return not self.failures


def judged(doc: Document, output: dict[str, Any], *, events: bool = True) -> Replay:
    """A replay's ``output`` checked against the ``expect:`` of its scenario ``doc`` (if any), each failure located at
    its key; without ``events`` (an engine that keeps no log) the expected events are counted as unchecked."""
    result = Replay(doc.path, output)
    if not isinstance(doc.data, dict) or doc.data.get("expect") is None:
        return result
    expected = doc.data["expect"]
    if not events:
        every = count_checks(expected)
        expected = {key: value for key, value in expected.items() if key != "events"}
        result.unchecked = every - count_checks(expected)
    result.checks = count_checks(expected)
    result.failures = [
        doc.problem(("expect", *key), message) for key, message in mismatches(expected, output, subsequence=frozenset({"events"}))
    ]
    return result
