"""Personas: a personas file replaces a built-in bot or a variant's persona only when it says so.

Each test writes a small personas file, merges it with the built-in bots and a variant's
personas, and checks the bots by name or the located problem (file, line, key path, message).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.errors import Problem, VariantError
from workbench.games import load_variant
from workbench.games.chance_it.schema import Persona, PersonaFile
from workbench.loading import read_yaml
from workbench.personas import load_personas, merge_personas

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
#: The base game's personas: cautious, gambler and greedy.
VARIANT_BOTS = load_variant(BASE).variant.bots


def personas_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "personas.yaml"
    path.write_text(text)
    return path


def merged(tmp_path: Path, text: str) -> tuple[dict[str, Persona], tuple[str, ...]]:
    return merge_personas(BUILTIN, VARIANT_BOTS, PersonaFile, read_yaml(personas_file(tmp_path, text)))


def problems(tmp_path: Path, text: str) -> list[Problem]:
    with pytest.raises(VariantError) as caught:
        merged(tmp_path, text)
    return caught.value.problems


def only(found: list[Problem]) -> Problem:
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def test_without_a_file_the_bots_are_the_built_in_ones_and_the_variants() -> None:
    personas, overridden = merge_personas(BUILTIN, VARIANT_BOTS, PersonaFile)
    assert sorted(personas) == ["cautious", "equilibrium", "gambler", "greedy", "heuristic", "random", "search", "search-4"]
    assert personas["cautious"] == VARIANT_BOTS["cautious"] and overridden == ()
    assert (personas["search-4"].policy, personas["search-4"].playouts) == ("search", 4)  # the skill ladder's rung


def test_a_file_may_not_redefine_search_4_without_saying_so(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="'search-4' is a built-in bot"):
        merged(tmp_path, "bots:\n  search-4: {policy: random}\n")


def test_a_file_adds_personas_with_new_names(tmp_path: Path) -> None:
    personas, overridden = merged(tmp_path, "bots:\n  careful: {policy: heuristic, min_hearts: 5}\n  wild: {policy: random}\n")
    assert personas["careful"].min_hearts == 5 and personas["wild"].policy == "random"
    assert personas["cautious"] == VARIANT_BOTS["cautious"] and personas["heuristic"] == BUILTIN["heuristic"]
    assert overridden == ()


def test_redefining_a_persona_of_the_variant_is_an_error_at_its_line(tmp_path: Path) -> None:
    problem = only(problems(tmp_path, "bots:\n  careful: {policy: random}\n  cautious: {policy: heuristic, min_hearts: 6}\n"))
    assert (problem.file, problem.line, problem.path) == (tmp_path / "personas.yaml", 3, "bots.cautious")
    assert problem.message == (
        "'cautious' is a persona of the variant; list it under overrides: to replace it, or give the persona another name"
    )


def test_a_persona_of_the_variant_listed_under_overrides_is_replaced(tmp_path: Path) -> None:
    personas, overridden = merged(
        tmp_path,
        "bots:\n  greedy: {policy: heuristic, star: 2}\n  cautious: {policy: heuristic, min_hearts: 6}\noverrides: [cautious, greedy]\n",
    )
    assert personas["cautious"].min_hearts == 6 and personas["greedy"].star == 2
    assert overridden == ("greedy", "cautious")  # in the order the file defines them


@pytest.mark.parametrize("name", ["random", "heuristic", "search", "equilibrium"])
def test_redefining_a_built_in_bot_is_an_error_at_its_line(tmp_path: Path, name: str) -> None:
    problem = only(problems(tmp_path, f"bots:\n  {name}: {{policy: heuristic}}\n"))
    assert (problem.line, problem.path) == (2, f"bots.{name}")
    assert (
        problem.message == f"'{name}' is a built-in bot; list it under overrides: to replace it, or give the persona another name"
    )


def test_a_built_in_bot_listed_under_overrides_is_replaced(tmp_path: Path) -> None:
    personas, overridden = merged(tmp_path, "bots:\n  heuristic: {policy: heuristic, danger: 3}\noverrides: [heuristic]\n")
    assert personas["heuristic"].danger == 3 and overridden == ("heuristic",)


def test_an_override_that_is_not_a_persona_of_the_file_is_an_error(tmp_path: Path) -> None:
    text = "bots:\n  cautious: {policy: random}\noverrides:\n  - cautios\n"
    problem = only(problems(tmp_path, text))  # the file's own mistakes first; the variant's personas are checked after
    assert (problem.line, problem.path) == (4, "overrides.0")
    assert problem.message == "'cautios' is not a persona of this file (did you mean 'cautious'?)"
    assert merged(tmp_path, text.replace("cautios", "cautious"))[1] == ("cautious",)


def test_an_override_that_replaces_nothing_is_an_error(tmp_path: Path) -> None:
    problem = only(problems(tmp_path, "bots:\n  careful: {policy: random}\noverrides: [careful]\n"))
    assert (problem.line, problem.path) == (3, "overrides.0")
    assert problem.message == "'careful' overrides nothing: it is neither a built-in bot nor a persona of the variant"


def test_an_override_listed_twice_is_an_error(tmp_path: Path) -> None:
    problem = only(problems(tmp_path, "bots:\n  greedy: {policy: random}\noverrides: [greedy, greedy]\n"))
    assert (problem.line, problem.path, problem.message) == (3, "overrides.1", "'greedy' is listed twice")


@pytest.mark.parametrize(
    ("overrides", "path", "words"),
    [("greedy", "overrides", "expected a list"), ("[9lives]", "overrides.0", "is not allowed here")],
    ids=["not-a-list", "not-a-name"],
)
def test_overrides_is_a_list_of_persona_names(tmp_path: Path, overrides: str, path: str, words: str) -> None:
    problem = only(problems(tmp_path, f"bots:\n  greedy: {{policy: random}}\noverrides: {overrides}\n"))
    assert (problem.line, problem.path) == (3, path) and words in problem.message


def test_load_personas_reads_the_file(tmp_path: Path) -> None:
    path = personas_file(tmp_path, "bots:\n  gambler: {policy: random}\noverrides: [gambler]\n")
    personas, overridden = load_personas(BUILTIN, VARIANT_BOTS, PersonaFile, path)
    assert personas["gambler"].policy == "random" and overridden == ("gambler",)
    assert load_personas(BUILTIN, VARIANT_BOTS, PersonaFile) == merge_personas(BUILTIN, VARIANT_BOTS, PersonaFile)


def test_a_variant_may_not_redefine_a_built_in_bot(tmp_path: Path) -> None:
    variant = tmp_path / "variant.yaml"
    variant.write_text(f"extends: {BASE}\nname: Mine\nbots:\n  mine: {{policy: random}}\n  search: {{policy: heuristic}}\n")
    with pytest.raises(VariantError) as caught:
        load_variant(variant)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (variant, 5, "bots.search")
    assert problem.message == "'search' is a built-in bot name; give the persona another name"


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_an_empty_personas_file_says_it_is_empty(tmp_path: Path, text: str) -> None:
    """Not 'got nothing (null removes an inherited key ...)': a personas file inherits nothing."""
    problem = only(problems(tmp_path, text))
    assert (problem.line, problem.path, problem.message) == (1, "", "the file is empty: expected a mapping of keys")
