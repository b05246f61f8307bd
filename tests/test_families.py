"""The family extension point: every registered game is one folder plus one line, works through every command
layer function, and nothing outside its folder names it."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from workbench.games import FAMILIES, GROUP, Family

ROOT = Path(__file__).parent.parent
WORKBENCH = ROOT / "workbench"


def _names(family: Family) -> list[str]:
    """How a family can be named in code or text: its game value, its title and its folder (as a module name)."""
    folder = family.game.replace("-", "_")
    return [family.game, family.title, folder]


def _shared_files() -> list[Path]:
    """Every module and template of the workbench outside the families' folders."""
    return sorted(
        path
        for path in WORKBENCH.rglob("*")
        if path.suffix in (".py", ".j2") and "games" not in path.relative_to(WORKBENCH).parts[:1]
    )


def test_every_family_lives_in_its_own_folder_and_one_registry_line() -> None:
    """Each family is one entry point of the group ``workbench.games`` in pyproject.toml, named by its game and
    pointing at its folder's ``FAMILY``; the installed registry is that table, in its order."""
    registered = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][GROUP]
    assert sorted(registered) == sorted(FAMILIES), "pip install -e . again after editing the entry points"
    for family in FAMILIES.values():
        folder = WORKBENCH / "games" / family.game.replace("-", "_")
        assert (folder / "__init__.py").is_file(), f"{family.game}: expected {folder}"
        assert type(family).__module__.startswith(f"workbench.games.{folder.name}")
        assert registered[family.game] == f"workbench.games.{folder.name}:FAMILY"


def test_naming_the_games_imports_no_family() -> None:
    """The registry reads the entry points only: a family is imported when its game is first looked up."""
    code = (
        "import sys; from workbench.games import FAMILIES; names = list(FAMILIES); assert 'chance-it' in FAMILIES; "
        "print(names, sorted(m for m in sys.modules if m.startswith('workbench.games.')))"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == f"{list(FAMILIES)} []"


@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=list(FAMILIES))
def test_no_module_outside_a_familys_folder_names_it(family: Family) -> None:
    pattern = re.compile("|".join(re.escape(name) for name in _names(family)), re.IGNORECASE)
    named = []
    for path in [*_shared_files(), *(p for p in (WORKBENCH / "games").rglob("*") if p.is_file())]:
        relative = path.relative_to(WORKBENCH)
        if relative.parts[:2] == ("games", family.game.replace("-", "_")) or path.suffix not in (".py", ".j2"):
            continue
        text = path.read_text()
        named += [f"{relative}:{text[: m.start()].count(chr(10)) + 1}: {m.group()}" for m in pattern.finditer(text)]
    assert not named, "\n".join(named)


@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=list(FAMILIES))
def test_every_family_ships_a_valid_variant_and_its_schemas(family: Family) -> None:
    from workbench.games import load_variant

    loaded = load_variant(ROOT / "variants" / f"{family.game}.yaml")
    assert loaded.family is family
    low, high = family.player_range(loaded.variant)
    assert 1 <= low <= high
    for kind, body in family.schemas().items():
        committed = ROOT / "schemas" / f"{family.game}.{kind}.schema.json"
        assert json.loads(committed.read_text()) == body, f"run: workbench schema --out schemas --force ({kind})"


def test_a_key_that_includes_files_in_one_game_is_an_unknown_key_in_another(tmp_path: Path) -> None:
    """Chance It's ``cards:`` lists card files; in a target-dice variant (even one that extends another file) it is an
    unknown key, not a file to look for."""
    from workbench.errors import VariantError
    from workbench.games import includes_of, load_variant

    child = tmp_path / "child.yaml"
    child.write_text(f"extends: {ROOT / 'variants' / 'target-dice.yaml'}\nname: mine\ncards: [missing.yaml]\n")
    assert includes_of(child) == () and includes_of(ROOT / "variants" / "chance-it.yaml") == ("cards",)
    with pytest.raises(VariantError) as caught:
        load_variant(child)
    (problem,) = caught.value.problems
    assert problem.line == 3 and "unknown key 'cards'" in problem.message


@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=list(FAMILIES))
def test_every_family_seats_a_person(family: Family) -> None:
    """``workbench play --human`` and the studio's play panel work for every game: each decision comes as a question
    in words (a prompt, options, the holdings as a table), any option answered is legal, and the game ends."""
    from workbench import api
    from workbench.play import Question

    asked: list[Question] = []

    def answer(question: Question) -> int:
        asked.append(question)
        headers, rows = question.table
        assert question.prompt and question.kind and question.options
        assert all(isinstance(option, str) and option for option in question.options)
        assert rows and all(len(row) == len(headers) for row in rows)
        return len(asked) % len(question.options)  # every position, in turn

    variant = ROOT / "variants" / f"{family.game}.yaml"
    low, _ = family.player_range(api.load_variant(variant).variant)
    output = api.play(variant, low, 4, people={0: answer})
    assert output["end_reason"] is not None and asked
    assert {q.seat for q in asked} == {0}


@pytest.mark.parametrize(
    ("game", "name", "words"),
    [
        ("chance_it", "wins.by_seat.0.rate", "win rate, seat 0"),
        ("chance_it", "guides.chance-it.rate", "guide chance-it"),
        ("chance_it", "cards.dagger.bought_per_game", "dagger bought per game"),
        ("chance_it", "components.stars.most_held_per_game.mean", "most stars held by all players together"),
        ("target_dice", "round_ends.hit.rate", "rounds ending in a HIT"),
        ("target_dice", "points.per_round", "points per round"),
        ("target_dice", "wins.by_seat.1.rate", "win rate, seat 1"),
        ("chance_chess", "wins.by_seat.0.rate", "white wins"),
        ("chance_chess", "rounds.mean", "game length, plies"),
        ("chance_chess", "end_reasons.checkmate.rate", "ends: checkmate"),
    ],
)
def test_each_family_says_its_figures_in_words(game: str, name: str, words: str) -> None:
    assert importlib.import_module(f"workbench.games.{game}.sim").label(name) == words
