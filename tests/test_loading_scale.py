"""Loading scales linearly with the input, and its fast paths give exactly what the plain ones give.

No test here measures time (``benchmarks/bench_loading.py`` prints the figures). Linearity is
checked with a deterministic work counter: the lines of ``workbench/loading.py`` run while
loading an input of size N and of size 2N. A linear loader does about twice the work for
twice the input; the quadratic one this replaced did about four times as much.

The fast paths (libyaml's parser, the one-pass reading of plain documents, merging and
splicing by one pass over the marks) are checked against independent answers: PyYAML's own
parser with the general construction, and the straightforward merge and splice the loader
used before, kept below as reference implementations.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from workbench import loading
from workbench.errors import VariantError
from workbench.games import load_variant
from workbench.loading import Document, Key, Mark, expand_includes, load_document, merge, parse_yaml, read_yaml

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
SHIPPED = sorted([*ROOT.glob("variants/*.yaml"), *ROOT.glob("cards/*.yaml"), *ROOT.glob("tests/scenarios/*.yaml")])
#: Twice the input may cost at most this many times the work (linear: about 2; quadratic: about 4).
LINEAR = 2.3


# --- generated inputs -------------------------------------------------------------------------------------------


def card_line(index: int, *, cost: int = 0) -> str:
    return f"- {{id: c{index:05d}, name: Card {index}, when: flash, cost: {cost}, effects: [{{gain: {{coins: 1}}}}]}}\n"


def big_market(folder: Path, count: int, *, bad_last: bool = False) -> Path:
    """A variant extending the base game whose market is a card file of ``count`` cards."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [card_line(i) for i in range(count)]
    if bad_last:
        lines[-1] = card_line(count - 1, cost=-1)
    (folder / "cards.yaml").write_text("".join(lines))
    variant = folder / "variant.yaml"
    variant.write_text(f"extends: {BASE}\nname: Big market\ncards: [cards.yaml]\n")
    return variant


def many_personas(folder: Path, count: int, *, invalid: bool = False) -> Path:
    """A base variant with ``count`` personas and a variant overriding each of them (invalidly, if asked)."""
    folder.mkdir(parents=True, exist_ok=True)
    personas = "".join(f"  p{i:05d}: {{policy: heuristic, star: 1.0}}\n" for i in range(count))
    text = BASE.read_text().replace("\nbots:\n", "\nbots:\n" + personas, 1)
    (folder / "base.yaml").write_text(text.replace("../cards/", f"{ROOT}/cards/"))
    star = 500 if invalid else 1.5
    overrides = "".join(f"  p{i:05d}: {{policy: heuristic, star: {star}, min_hearts: 4}}\n" for i in range(count))
    variant = folder / "variant.yaml"
    variant.write_text(f"extends: base.yaml\nname: Many personas\nbots:\n{overrides}")
    return variant


def mixed_list(folder: Path, count: int) -> Path:
    """A variant whose card list alternates cards written inline and one-card files."""
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for i in range(count):
        if i % 2:
            (folder / f"card-{i}.yaml").write_text(card_line(i))
            items.append(f"  - card-{i}.yaml\n")
        else:
            items.append("  " + card_line(i))
    variant = folder / "variant.yaml"
    variant.write_text(f"extends: {BASE}\nname: Mixed\ncards:\n{''.join(items)}")
    return variant


def invalid_cards(folder: Path, count: int) -> Path:
    """A variant whose card file holds ``count`` cards, each with an unknown key."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = (f"- {{id: c{i:05d}, name: C, when: flash, colour: red, effects: [market]}}\n" for i in range(count))
    (folder / "cards.yaml").write_text("".join(lines))
    variant = folder / "variant.yaml"
    variant.write_text(f"extends: {BASE}\nname: Bad market\ncards: [cards.yaml]\n")
    return variant


# --- the work counter -------------------------------------------------------------------------------------------


@contextmanager
def counting_lines(counter: list[int]) -> Iterator[None]:
    """Count the lines of ``workbench/loading.py`` that run inside the block."""
    code_file = loading.__file__

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            counter[0] += 1
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == code_file else None

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(previous)


def work(load: Callable[[], Any]) -> int:
    counter = [0]
    with counting_lines(counter), suppress(VariantError):
        load()
    return counter[0]


def load_all(path: Path) -> Callable[[], Any]:
    return lambda: load_variant(path)


@pytest.mark.parametrize(
    ("make", "size"),
    [(big_market, 400), (many_personas, 300), (mixed_list, 200), (invalid_cards, 300)],
    ids=["card-file", "overridden-personas", "inline-and-included-cards", "an-error-per-card"],
)
def test_twice_the_input_is_about_twice_the_work(tmp_path: Path, make: Callable[[Path, int], Path], size: int) -> None:
    work(load_all(make(tmp_path / "warm-up", 10)))  # caches and first-time work out of the way
    small = work(load_all(make(tmp_path / "small", size)))
    large = work(load_all(make(tmp_path / "large", 2 * size)))
    assert large / small < LINEAR, f"{size}: {small:,} lines, {2 * size}: {large:,} lines"


def test_invalid_personas_are_reported_with_about_twice_the_work_for_twice_as_many(tmp_path: Path) -> None:
    def invalid(folder: Path, count: int) -> Path:
        return many_personas(folder, count, invalid=True)

    small = work(load_all(invalid(tmp_path / "small", 300)))
    large = work(load_all(invalid(tmp_path / "large", 600)))
    assert large / small < LINEAR, f"300: {small:,} lines, 600: {large:,} lines"
    with pytest.raises(VariantError) as caught:
        load_variant(tmp_path / "large" / "variant.yaml")
    assert len(caught.value.problems) == 600
    last = caught.value.problems[-1]
    assert (last.line, last.path, last.message) == (3 + 600, "bots.p00599.star", "must be at most 100, got 500")


# --- a big card file, located ----------------------------------------------------------------------------------


def test_a_10000_card_file_loads_with_every_card_at_its_line(tmp_path: Path) -> None:
    variant = big_market(tmp_path, 10_000, bad_last=True)
    cards = tmp_path / "cards.yaml"
    doc = load_document(variant, includes=("cards",))
    assert len(doc.data["cards"]) == 10_000
    assert all(doc.marks[("cards", str(i))] == (cards, i + 1) for i in range(10_000))
    assert doc.marks[("cards", "9999", "effects", "0", "gain", "coins")] == (cards, 10_000)
    with pytest.raises(VariantError) as caught:
        load_variant(variant)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (cards, 10_000, "cards.9999.cost")
    assert problem.message == "must be at least 0, got -1"


# --- parsing: libyaml and the one-pass reading against PyYAML and the general construction ---------------------


def general_document(text: str, path: Path) -> Document:
    """What the loader built before it had fast paths: PyYAML's parser, its constructor, then the marks."""
    loader = loading._MarkedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): (path, 1)}, path)
        loading._check_size(node)
        data = loader.construct_document(node)
        marks: dict[Key, Mark] = {}
        loading._collect_marks(loader, node, (), path, marks, set())
        return Document(data, marks, path)
    finally:
        loader.dispose()


def assert_same_document(fast: Document, slow: Document) -> None:
    assert repr(fast.data) == repr(slow.data)  # repr: also the types, the order of keys and NaN
    assert fast.marks == slow.marks
    assert list(fast.marks) == list(slow.marks)


def test_libyaml_is_used_when_installed() -> None:
    assert (loading._FastLoader is not None) == yaml.__with_libyaml__


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_reads_as_pyyaml_reads_it(path: Path) -> None:
    assert_same_document(read_yaml(path), general_document(path.read_text(), path))


scalars = (
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=12)
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
)
keys = st.text("abc1 :-", min_size=1, max_size=4) | st.integers(0, 3) | st.booleans()
documents = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4), max_leaves=30
)


@given(documents, st.booleans())
def test_any_dumped_document_reads_as_pyyaml_reads_it(data: Any, flow: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    assert_same_document(parse_yaml(text, Path("x.yaml")), general_document(text, Path("x.yaml")))


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1, 2]\nb: *x\n",  # an alias
        "base: &b {coins: 8}\nstart: {<<: *b, hearts: 5}\n",  # a merge key
        "a: !!set {x, y}\n",  # a tag the one-pass reading leaves alone
        "a: !!binary aGVsbG8=\n",
        "? [1, 2]\n: x\n",  # a key that is not a plain value
        "a: !!bool maybe\n",  # a value that does not read
        "a: 1\na: 2\n",  # a duplicate key
        "a: [1, 2\n",  # malformed: PyYAML words the error
        "a:\n\t- 1\n",
    ],
)
def test_documents_off_the_fast_path_read_and_fail_as_pyyaml_makes_them(text: str) -> None:
    try:
        expected: Document | str = general_document(text, Path("x.yaml"))
    except yaml.YAMLError as exc:
        expected = str(getattr(exc, "problem", None) or exc)
    try:
        got: Document | str = parse_yaml(text, Path("x.yaml"))
    except VariantError as exc:
        got = exc.problems[0].message
    if isinstance(expected, Document):
        assert isinstance(got, Document), got
        assert_same_document(got, expected)
    else:
        assert isinstance(got, str) and expected in got


# --- merging and splicing against the straightforward versions --------------------------------------------------


def reference_merge(base: Document, over: Document) -> Document:
    """The merge as it was: every replaced key scans every mark."""
    marks = dict(base.marks)

    def move(source: dict[Key, Mark], old: Key, target: dict[Key, Mark], new: Key) -> None:
        for k, mark in source.items():
            if k[: len(old)] == old:
                target[new + k[len(old) :]] = mark

    def merge_into(b: Any, o: Any, key: Key) -> Any:
        if isinstance(b, dict) and isinstance(o, dict):
            merged = dict(b)
            for k, value in o.items():
                child = key + (str(k),)
                if k in b:
                    merged[k] = merge_into(b[k], value, child)
                else:
                    merged[k] = value
                    move(over.marks, child, marks, child)
            if key in over.marks:
                marks[key] = over.marks[key]
            return merged
        for stale in [k for k in marks if k[: len(key)] == key and len(k) > len(key)]:
            del marks[stale]
        move(over.marks, key, marks, key)
        return o

    return Document(merge_into(base.data, over.data, ()), marks, over.path or base.path)


def all_keys(data: Any, key: Key = ()) -> Iterator[Key]:
    yield key
    if isinstance(data, dict):
        for k, value in data.items():
            yield from all_keys(value, key + (str(k),))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from all_keys(value, key + (str(index),))


values = st.recursive(
    st.integers(0, 3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "1", 1, 2]), inner, max_size=3),
    max_leaves=12,
)


@st.composite
def marked(draw: Any, name: str) -> Document:
    """A document whose marks cover its keys, some left out (hand-made documents do that), some extra."""
    data = draw(st.dictionaries(st.sampled_from(["a", "b", "1", 1]), values, max_size=3))
    keys = list(dict.fromkeys(all_keys(data)))
    kept = [k for k in keys if draw(st.integers(0, 4))]
    extra = draw(st.lists(st.tuples(st.sampled_from(["a", "b", "1"]), st.sampled_from(["a", "0", "1"])), max_size=3))
    return Document(data, {k: (Path(name), line) for line, k in enumerate([*kept, *extra])}, Path(name))


@given(marked("base"), marked("over"))
def test_merge_gives_what_the_straightforward_merge_gives(base: Document, over: Document) -> None:
    expected = reference_merge(Document(base.data, dict(base.marks)), over)
    got = merge(base, over)
    assert repr(got.data) == repr(expected.data)
    assert got.marks == expected.marks


def test_splicing_card_files_marks_each_item_where_it_was_written(tmp_path: Path) -> None:
    (tmp_path / "two.yaml").write_text("- {id: a, effects: [market]}\n- id: b\n  effects:\n    - market\n")
    (tmp_path / "one.yaml").write_text("# one\n- {id: c}\n")
    doc = parse_yaml(
        "cards:\n  - {id: x}\n  - two.yaml\n  - id: y\n    when: flash\n  - one.yaml\n  - two.yaml\nname: n\n",
        tmp_path / "v.yaml",
    )
    expected = dict(doc.marks)
    for k in [k for k in expected if len(k) > 1 and k[0] == "cards"]:
        del expected[k]
    written = {"0": "0", "2": "3"}  # inline items: their index before and after splicing
    for k, mark in doc.marks.items():
        if len(k) > 1 and k[0] == "cards" and k[1] in written:
            expected[("cards", written[k[1]], *k[2:])] = mark
    for start, name in ((1, "two.yaml"), (4, "one.yaml"), (5, "two.yaml")):
        for k, mark in read_yaml(tmp_path / name).marks.items():
            if k:
                expected[("cards", str(start + int(k[0])), *k[1:])] = mark
    expand_includes(doc, "cards", VariantError)
    assert [card["id"] for card in doc.data["cards"]] == ["x", "a", "b", "y", "c", "a", "b"]
    assert doc.marks == expected
    assert doc.marks[("cards", "3", "when")] == (tmp_path / "v.yaml", 5)
    assert doc.marks[("cards", "6", "effects", "0")] == (tmp_path / "two.yaml", 4)
