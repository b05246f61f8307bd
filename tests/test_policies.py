"""Bot policies are one registration each: every family's conform, and a made-up one plays with nothing else edited."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deciders import FirstOption

from workbench import api
from workbench.errors import UsageError, VariantError
from workbench.games import FAMILIES
from workbench.policies import PolicyPersona, make_bot, policies, register_policy, unregister_policy
from workbench.sim.seeding import stream

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"


def persona_model(game: str) -> type[PolicyPersona]:
    model: type[PolicyPersona] = FAMILIES[game].persona_file.persona  # type: ignore[attr-defined]
    return model


@pytest.mark.parametrize("game", sorted(FAMILIES))
def test_every_policy_of_every_game_conforms(game: str) -> None:
    """The persona model holds exactly the parameters its game's policies read; each policy makes a bot for its
    built-in persona; the schema offers exactly the registered policies; each is a built-in bot."""
    family = FAMILIES[game]
    model = persona_model(game)
    registered = policies(game)
    assert registered, f"{game} registers no policy"
    read = {name for policy in registered.values() for name in policy.parameters}
    assert set(model.model_fields) - {"policy"} == read
    builtin = family.persona_file.builtin_bots()  # type: ignore[attr-defined]
    for name, policy in registered.items():
        assert policy.game == game and set(policy.parameters) <= set(model.model_fields)
        assert builtin[name].policy == name
        assert isinstance(policy.factory, str), "the shipped policies name their bots, imported when one is made"
        module, _, place = policy.factory.partition(":")
        made = getattr(importlib.import_module(module), place.split(".")[0])  # the class its factory makes
        assert isinstance(make_bot(builtin[name], stream(1, 0, "bot", 0)), made)
    assert model.model_json_schema()["properties"]["policy"]["enum"] == list(registered)


def first_options(persona: Any, rng: Any) -> FirstOption:
    """A made-up Chance It policy: the first option of every choice."""
    return FirstOption()


@pytest.fixture
def first_option() -> Iterator[None]:
    register_policy("chance-it", "first-option", None, first_options)
    try:
        yield
    finally:
        unregister_policy("chance-it", "first-option")


def test_a_made_up_policy_is_one_registration(first_option: None, tmp_path: Path) -> None:
    heard: list[str] = []
    ran = api.simulate(BASE, players=3, games=12, seed=2, bots="first-option", notice=heard.append)
    assert ran.runs[0].games == 12 and ran.runs[0].engine == "interpreter"
    assert heard[0] == "engine: interpreter (the first-option bot plays only in the interpreter)"  # auto says why
    assert ran.runs[0].figure("guides.in.rate") == 1.0  # its bots decided: IN, the first guide offered, every time
    assert ran.runs[0].personas == {
        "first-option": persona_model("chance-it").model_validate({"policy": "first-option"}).model_dump(mode="json")
    }
    with pytest.raises(UsageError) as refused:  # no batch form: only the interpreter plays it
        api.simulate(BASE, players=3, games=12, seed=2, bots="first-option", engine="batch")
    assert "the first-option bot plays only in the interpreter" in str(refused.value)
    variant = tmp_path / "mine.yaml"
    variant.write_text(
        f"extends: {BASE}\nname: Mine\nbots:\n  eager: {{policy: first-option}}\n  lazy: {{policy: first-option, star: 2}}\n"
    )
    with pytest.raises(VariantError) as wrong:  # the parameters rule knows it reads none
        api.load_variant(variant)
    assert [p.message for p in wrong.value.problems] == ["the first-option policy takes no parameters (got star)"]


def test_a_policy_no_longer_registered_is_unknown(tmp_path: Path) -> None:
    register_policy("chance-it", "first-option", None, first_options)
    unregister_policy("chance-it", "first-option")
    with pytest.raises(UsageError) as refused:
        api.simulate(BASE, players=3, games=2, bots="first-option")
    assert "unknown bot 'first-option'" in str(refused.value)
    variant = tmp_path / "mine.yaml"
    variant.write_text(f"extends: {BASE}\nname: Mine\nbots:\n  eager: {{policy: first-option}}\n")
    with pytest.raises(VariantError) as wrong:
        api.load_variant(variant)
    assert [p.message for p in wrong.value.problems] == [
        "expected 'random', 'heuristic', 'search' or 'equilibrium', got 'first-option'"
    ]


def test_a_policy_is_registered_once() -> None:
    with pytest.raises(ValueError, match="has a policy called 'random' already"):
        register_policy("chance-it", "random", None, first_options)
