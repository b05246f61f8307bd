"""Hard YAML never crashes the loader: every case ends in one located problem."""

import os
from pathlib import Path

import pytest
import yaml

from workbench.errors import VariantError
from workbench.games import load_variant
from workbench.loading import Document, merge, read_yaml

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"


def problem_of(path: Path):
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert len(caught.value.problems) == 1, caught.value.problems
    return caught.value.problems[0]


def test_alias_bombs_are_refused_before_they_expand(tmp_path: Path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{chr(97 + i)}: &{chr(97 + i)} [{', '.join(['*' + chr(96 + i)] * 10)}]" for i in range(1, 9)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    problem = problem_of(tmp_path / "bomb.yaml")
    assert "expands to more than 200,000 values" in problem.message and problem.line is not None


def test_an_alias_inside_itself_is_refused(tmp_path: Path) -> None:
    (tmp_path / "self.yaml").write_text("name: x\na: &a [1, *a]\n")
    assert "refers to the value that contains it" in problem_of(tmp_path / "self.yaml").message


def test_dates_stay_text_and_huge_numbers_are_located(tmp_path: Path) -> None:
    (tmp_path / "date.yaml").write_text("name: 2024-13-45\n")
    assert read_yaml(tmp_path / "date.yaml").data == {"name": "2024-13-45"}
    (tmp_path / "big.yaml").write_text("name: x\nforced_in_after: " + "9" * 5000 + "\n")
    problem = problem_of(tmp_path / "big.yaml")
    assert (problem.line, problem.message) == (2, "YAML error: this number is far too large")


def test_a_merge_key_may_be_overridden_but_real_duplicates_may_not(tmp_path: Path) -> None:
    (tmp_path / "merge.yaml").write_text("base: &b {coins: 8, hearts: 8}\nstart: {<<: *b, hearts: 5}\n")
    assert read_yaml(tmp_path / "merge.yaml").data["start"] == {"coins": 8, "hearts": 5}
    (tmp_path / "dup.yaml").write_text("board:\n  1: []\n  1: [market]\n")
    problem = problem_of(tmp_path / "dup.yaml")
    assert (problem.line, problem.message) == (3, "YAML error: duplicate key 1 (first on line 2)")
    (tmp_path / "kinds.yaml").write_text("a:\n  1: x\n  true: y\n")  # different in YAML, one key of a Python dict
    problem = problem_of(tmp_path / "kinds.yaml")
    assert (problem.line, problem.message) == (3, "YAML error: duplicate key True (first on line 2)")


def test_extends_naming_a_folder_says_so(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "v.yaml").write_text("extends: folder\nname: x\n")
    problem = problem_of(tmp_path / "v.yaml")
    assert (problem.line, problem.path) == (1, "extends") and "a folder, not a variant file" in problem.message


def test_extends_or_a_card_file_naming_a_pipe_says_what_it_is(tmp_path: Path) -> None:
    """A device or a FIFO exists: 'no such file' would send the designer looking for a file that is there."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "v.yaml").write_text("extends: pipe\nname: x\n")
    problem = problem_of(tmp_path / "v.yaml")
    assert problem.message == f"not a variant file (a device or a pipe?): pipe (looked for {tmp_path / 'pipe'})"


def test_a_folder_or_an_oversized_file_is_refused(tmp_path: Path) -> None:
    assert "a folder" in problem_of(tmp_path).message
    (tmp_path / "huge.yaml").write_bytes(b"#" * 5_000_001)
    assert "larger than 5 MB" in problem_of(tmp_path / "huge.yaml").message


def test_merge_keeps_the_line_marks_of_what_each_file_wrote() -> None:
    base = Document(
        {"end": {"stars": 20, "max_rounds": 200}, "cards": [1, 2]},
        {("end", "stars"): (Path("b"), 3), ("end", "max_rounds"): (Path("b"), 4), ("cards", "1"): (Path("b"), 9)},
    )
    over = Document({"end": {"stars": 12}, "cards": [7]}, {("end", "stars"): (Path("o"), 2), ("cards", "0"): (Path("o"), 5)})
    merged = merge(base, over)
    assert merged.data == {"end": {"stars": 12, "max_rounds": 200}, "cards": [7]}
    assert merged.marks[("end", "stars")] == (Path("o"), 2)
    assert merged.marks[("end", "max_rounds")] == (Path("b"), 4)
    assert ("cards", "1") not in merged.marks  # the replaced list's old entries are gone


def test_numbers_are_read_as_people_mean_them(tmp_path: Path) -> None:
    """PyYAML reads YAML 1.1: 010 would be eight, 1_0 ten and 1:20 eighty. A designer means ten, or made a typo."""
    path = tmp_path / "numbers.yaml"
    path.write_text("a: 010\nb: 1_0\nc: 1:20\nd: 0x10\ne: 0o17\nf: 1.5\ng: 1.0e+3\nh: -3\ni: 0b11\nj: 2024-01-01\nk: 0E0\n")
    assert read_yaml(path).data == {
        "a": 10, "b": "1_0", "c": "1:20", "d": 16, "e": "0o17", "f": 1.5, "g": 1000.0, "h": -3, "i": "0b11",
        "j": "2024-01-01", "k": "0E0",
    }  # fmt: skip


def test_what_pyyaml_writes_as_text_reads_back_as_text(tmp_path: Path) -> None:
    """The workbench's own files are written by PyYAML (YAML 1.1): a string it leaves unquoted must stay a string."""
    texts = ["0E0", "1e3", "0o17", "1.5e3", "0b2", "+.5x", "12:5"]
    path = tmp_path / "written.yaml"
    path.write_text(yaml.safe_dump({"names": texts}))
    assert read_yaml(path).data == {"names": texts}


def test_a_price_written_with_an_underscore_is_a_located_problem_not_ten(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'chance-it.yaml'}\nname: typo\nstart: {{coins: 1_0, hearts: 8, stars: 0}}\n")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    (problem,) = info.value.problems
    assert (problem.line, problem.path) == (3, "start.coins")
