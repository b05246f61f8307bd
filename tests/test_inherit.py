"""Editing inherited content: null removes an inherited key; cards_remove and cards_add edit the inherited cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.errors import ScenarioError, VariantError
from workbench.games import load_variant, replay_scenario

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
MARKET = ROOT / "cards" / "chance-it-market.yaml"


def child(tmp_path: Path, text: str, name: str = "child.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"extends: {BASE}\nname: Child\n{text}")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    return [str(p) for p in caught.value.problems]


def ids(path: Path) -> list[str]:
    return [card.id for card in load_variant(path).variant.cards]


def test_null_removes_an_inherited_sheet(tmp_path: Path) -> None:
    variant = load_variant(child(tmp_path, "players: {min: 3, max: 5}\nstakes: {6: null}\n")).variant
    assert sorted(variant.stakes) == [2, 3, 4, 5]
    assert variant.stakes[4] == load_variant(BASE).variant.stakes[4], "the other sheets stay"


def test_removing_a_sheet_the_variant_still_needs_is_a_located_problem(tmp_path: Path) -> None:
    path = child(tmp_path, "stakes:\n  3: null\n")
    (problem,) = problems(path)
    assert "missing the 3-player stakes sheet" in problem


def test_null_removes_an_inherited_persona_and_a_key_with_a_default(tmp_path: Path) -> None:
    variant = load_variant(child(tmp_path, "bots: {gambler: null}\ndescription: null\n")).variant
    assert "gambler" not in variant.bots and "cautious" in variant.bots
    assert variant.description == type(variant).model_fields["description"].default


def test_cards_remove_takes_inherited_cards_out(tmp_path: Path) -> None:
    base = ids(BASE)
    assert ids(child(tmp_path, "cards_remove: [mending, bandage]\n")) == [i for i in base if i not in ("mending", "bandage")]


def test_removing_a_card_that_is_not_there_is_located_with_a_suggestion(tmp_path: Path) -> None:
    path = child(tmp_path, "cards_remove:\n  - mending\n  - bandge\n")
    assert problems(path) == [f"{path}:5: cards_remove.1: no cards item with id 'bandge' to remove (did you mean 'bandage'?)"]


def test_cards_add_replaces_the_same_id_in_place_and_adds_new_ones_at_the_end(tmp_path: Path) -> None:
    path = child(
        tmp_path,
        "cards_add:\n"
        "  - {id: mending, name: Big Mending, when: die-2, cost: 3, copies: 1, effects: [{gain: {hearts: 2}}]}\n"
        "  - {id: tonic, name: Tonic, when: flash, cost: 1, copies: 2, effects: [{gain: {hearts: 1}}]}\n",
    )
    base = ids(BASE)
    assert ids(path) == [*base, "tonic"]
    cards = {card.id: card for card in load_variant(path).variant.cards}
    assert (cards["mending"].name, cards["mending"].cost) == ("Big Mending", 3)


def test_a_mistake_in_an_added_card_points_at_the_line_that_adds_it(tmp_path: Path) -> None:
    path = child(
        tmp_path, "cards_add:\n  - {id: tonic, name: Tonic, when: flash, cost: -1, copies: 1, effects: [{gain: {coins: 1}}]}\n"
    )
    (problem,) = problems(path)
    assert problem.startswith(f"{path}:4: cards_add.0.cost: must be at least 0")


def test_a_mistake_in_an_added_card_keeps_its_place_through_a_chain_of_edits(tmp_path: Path) -> None:
    parent = child(
        tmp_path,
        "cards_add:\n  - {id: balm, name: Balm, when: die-2, cost: 1, copies: 1, effects: [{gain: {hearts: 1}}]}\n"
        "  - {id: tonic, name: Tonic, when: flash, cost: -1, copies: 1, effects: [{gain: {coins: 1}}]}\n",
        "parent.yaml",
    )
    grandchild = tmp_path / "grandchild.yaml"
    grandchild.write_text("extends: parent.yaml\nname: Grandchild\ncards_remove: [dagger, balm]\n")
    (problem,) = problems(grandchild)
    assert problem.startswith(f"{parent}:5: cards_add.1.cost: must be at least 0")


def test_cards_add_takes_card_files_and_edits_chain_through_extends(tmp_path: Path) -> None:
    (tmp_path / "extra.yaml").write_text(
        "- {id: tonic, name: Tonic, when: flash, cost: 1, copies: 2, effects: [{gain: {coins: 1}}]}\n"
    )
    parent = child(tmp_path, "cards_add: [extra.yaml]\ncards_remove: [mending]\n", "parent.yaml")
    grandchild = tmp_path / "grandchild.yaml"
    grandchild.write_text(
        f"extends: {parent.name}\ncards_remove: [tonic]\ncards_add:\n  - {MARKET.read_text().splitlines()[12][2:]}\n"
    )
    assert ids(parent)[-1] == "tonic" and "mending" not in ids(parent)
    assert ids(grandchild) == [i for i in ids(BASE) if i != "mending"] + ["mending"]


def test_an_id_added_twice_is_a_problem(tmp_path: Path) -> None:
    card = "{id: tonic, name: Tonic, when: flash, cost: 1, copies: 1, effects: [{gain: {coins: 1}}]}"
    path = child(tmp_path, f"cards_add:\n  - {card}\n  - {card}\n")
    assert problems(path) == [f"{path}:5: cards_add.1: id 'tonic' is added twice (first at cards_add.0)"]


def test_a_scenario_may_edit_its_variants_cards(tmp_path: Path) -> None:
    scenario = tmp_path / "scenario.yaml"
    text = f"variant: {BASE}\nplayers: 3\nseed: 1\noverrides: {{cards_remove: [bandage]}}\nmarket: [mending]\nrounds: []\n"
    scenario.write_text(text)
    replayed = replay_scenario(scenario)
    assert replayed is not None and replayed[1].passed
    scenario.write_text(text.replace("[bandage]", "[mending]"))
    with pytest.raises(ScenarioError) as caught:
        replay_scenario(scenario)
    assert [str(p) for p in caught.value.problems] == [f"{scenario}:5: market.0: no card with id 'mending' in the variant"]


def test_null_for_a_key_the_base_does_not_have_says_so(tmp_path: Path) -> None:
    path = child(tmp_path, "stakes: {7: null}\n")
    assert problems(path) == [
        f"{path}:3: stakes.7: expected a mapping of keys, got nothing (null removes an inherited key, "
        "but there is none to remove here)"
    ]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("\nstakes: null\n", ":4: stakes: missing required key 'stakes'"),
        ("stakes:\n  4: {in: null}\n", ":4: stakes.4.in: missing required key 'in'"),
    ],
    ids=["top-level key", "nested key"],
)
def test_a_required_key_removed_by_null_points_at_the_null(tmp_path: Path, text: str, where: str) -> None:
    path = child(tmp_path, text)
    (problem,) = problems(path)
    assert problem == f"{path}{where}: the null here removed the inherited one"


def test_cards_remove_names_the_entry_that_is_not_an_id(tmp_path: Path) -> None:
    path = child(tmp_path, "cards_remove: [dagger,\n  1]\n")
    assert problems(path) == [f"{path}:4: cards_remove.1: expected an id, got 1"]


def test_a_null_inside_a_list_item_is_not_taken_for_an_inheritance_edit(tmp_path: Path) -> None:
    """List items replace whole, so a null in a card's effect is just a missing value, said without the inheritance hint."""
    path = child(tmp_path, "cards_add:\n  - {id: a, name: A, when: flash, effects: [{steal: null}]}\n")
    assert problems(path) == [f"{path}:4: cards_add.0.effects.0.steal: expected a mapping of keys, got nothing"]
