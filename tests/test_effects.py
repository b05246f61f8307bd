"""The effect registry: every kind supplies every part, and a kind registered later works everywhere.

The conformance test walks :data:`REGISTRY`: each kind's example validates where it may
stand, compiles, is valued, printed with icons that have drawings, applied by the engine
(emitting the events it declares, which read back and describe themselves), and its
Hypothesis strategy draws valid effects. The made-up ``donate`` kind of this file is
registered by a fixture only: validating, simulating with random and heuristic bots,
recording and replaying scripts with ``--trace``, printing, the JSON Schema and the test
strategies all take it up without an edit anywhere else.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import strategies
import yaml
from donate import DonateKind, InterpretedDonateKind, gift_variant
from hypothesis import find, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from workbench import api
from workbench.cli import app
from workbench.errors import UsageError, VariantError
from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it import printing
from workbench.games.chance_it.batch import NoBatchForm, compile_program
from workbench.games.chance_it.batch.kernel import OPS, PARTS, batch_forms
from workbench.games.chance_it.batchable import Writer, blocker
from workbench.games.chance_it.bots import RandomBot
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.effects import (
    EVENTS,
    REGISTRY,
    BatchForm,
    Compiler,
    EffectEvent,
    EffectKind,
    Kernel,
    PassiveEffect,
    Valuer,
)
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.games.chance_it.invariants import Invariants
from workbench.games.chance_it.schema import Variant
from workbench.games.chance_it.text import describe
from workbench.sim.compiled import CACHE_ENV

PROJECT = Path(__file__).resolve().parent.parent
TEST_VARIANT = PROJECT / "tests" / "scenarios" / "variant-test.yaml"
KINDS = list(REGISTRY.values())


def base_data() -> dict[str, Any]:
    """The scenarios' test variant as plain data."""
    return yaml.safe_load(TEST_VARIANT.read_text())


def showcase(kind: EffectKind, effect: Any) -> dict[str, Any]:
    """The test variant with ``effect`` where its kind may stand: on every board face (a board effect on face 1
    only), or on cards when it is written for them (a passive card, or die cards for an example written for a
    die card); the market then holds only those cards, free, so every seat gets them."""
    data = base_data()
    if kind.placement == "passive":
        data["cards"] = [{"id": "show", "name": "Show", "when": "passive", "cost": 0, "copies": 8, "effects": [effect]}]
        data["board"][5] = [{"chance": {"roll": 4, "then": [{"gain": {"stars": 1}}]}}]
    elif kind.placement == "board":
        data["board"][1] = [effect]
    elif kind.example_where == "die" and effect is kind.example:
        data["cards"] = [
            {"id": f"show{face}", "name": f"Show {face}", "when": f"die-{face}", "cost": 0, "copies": 4, "effects": [effect]}
            for face in range(1, 7)
        ]
    else:
        data["board"] = {face: [effect] for face in range(1, 7)}
        data["board"][6] = [effect, "market"]
    return data


def played_events(data: dict[str, Any], players: int = 4, games: int = 8) -> list[dict[str, Any]]:
    """Every event of a few seeded games of ``data`` with random bots, the invariants checked after every step."""
    rules = compile_variant(Variant.model_validate(data))
    events: list[dict[str, Any]] = []
    for seed in range(games):
        chance = RandomChance.streams(seed, 0)
        game = Game(rules, players, chance, log=True)
        game.after_step = Invariants(game)
        game.play(chance, [RandomBot(bot_stream(seed * 10 + seat, 0, 0)) for seat in range(players)])
        events += game.events
    return events


# --- conformance ------------------------------------------------------------------------------------------------


def test_the_registry_holds_the_card_language() -> None:
    assert list(REGISTRY) == [
        "gain",
        "lose",
        "others_lose",
        "steal",
        "market",
        "chance",
        "choose",
        "if",
        "for_each",
        "chance_bonus",
        "reroll_ones",
    ]
    modules = [type(kind).__module__ for kind in KINDS]
    assert len(set(modules)) == len(modules), "one module per kind"


@pytest.mark.parametrize("kind", KINDS, ids=[k.tag for k in KINDS])
def test_every_kind_supplies_every_part(kind: EffectKind) -> None:
    assert kind.meaning.strip() and kind.model is not None and kind.example is not None
    assert kind.placement in ("anywhere", "board", "passive")
    assert kind.placement == "anywhere" or kind.placement_reason or isinstance(kind, PassiveEffect)
    assert kinds.tag_of(kind.example) == kind.tag
    variant = Variant.model_validate(showcase(kind, kind.example))
    effect = kind.adapter.validate_python(kind.example)
    assert kinds.kind_of(effect) is kind

    argument = kind.compile(effect, Compiler(6, lambda nested: kinds.compile_effects(nested, 6)))
    value = kind.value(argument, Valuer(sides=6, dice=5, face=3))
    assert isinstance(value, tuple) and len(value) == 6 and all(isinstance(x, float | int) for x in value)
    if isinstance(kind, PassiveEffect):
        assert kind.modifiers(argument) and all(isinstance(v, int) for v in kind.modifiers(argument).values())
    else:
        assert callable(kind.apply)
    exact = kind.exact(argument, kinds.Exact(6, lambda nested: kinds.outcome()))  # None: it depends on the table
    assert exact is None or all(len(outcome) == len(kinds.OUTCOME) for outcome in exact.outcomes())
    assert exact is None or sum(exact.probability(outcome) for outcome in exact.outcomes()) == 1

    words = kinds.words(6, kind.example_where)
    assert kind.text(effect, words).strip()
    icons = kind.icons(effect, words)
    assert icons, "every effect has an icon"
    drawn = printing.drawings()
    for name, label in icons:
        assert name == "word" or name in drawn, f"{kind.tag}: no drawing for icon {name!r}"
        if name != "word":
            assert printing.drawing(name, label).strip()
    assert compile_variant(variant) is not None
    numbers = kind.batch(argument, Writer().batch)  # None: no batch form, which the engine names (auto plays the interpreter)
    form = kind.batch_form(PARTS)
    assert (numbers is None) == (form is None), "a row and a batch form, or neither"
    if numbers is not None and form is not None:
        assert len(numbers) <= 5 and all(isinstance(x, int) for x in numbers)
        assert [part for part in kind.batch_parts if not callable(getattr(form, part))] == []
        # the dispatches call each function with this many arguments (see BatchForm)
        arity = {"apply": 12, "value": 11 if isinstance(kind, PassiveEffect) else 14}
        assert {part: len(inspect.signature(getattr(form, part)).parameters) for part in kind.batch_parts} == {
            part: arity[part] for part in kind.batch_parts
        }
    try:
        compile_program(compile_variant(variant))
    except NoBatchForm as exc:
        if form is None:
            assert f"the effect kind '{kind.tag}' has no batch form" in str(exc)
        else:  # a kind registered after the kernel was loaded (the made-up one): its form is not compiled in
            assert kind.tag not in OPS and f"'{kind.tag}' was registered after the batch engine was loaded" in str(exc)
    else:
        assert form is not None and kind.tag in OPS
    # asked without the kernel (a first run), the same answer, but for a kind registered after the kernel was loaded
    said = blocker(compile_variant(variant))
    assert said == (None if form is not None else f"the effect kind '{kind.tag}' has no batch form")


def test_every_built_in_kind_has_a_batch_form() -> None:
    for kind in KINDS:
        compile_program(compile_variant(Variant.model_validate(showcase(kind, kind.example))))


@pytest.mark.parametrize("kind", KINDS, ids=[k.tag for k in KINDS])
def test_every_kind_applies_and_its_events_read_back(kind: EffectKind) -> None:
    events = played_events(showcase(kind, kind.example))
    for event_type in kind.events:
        logged = [e for e in events if e["type"] == event_type.type]
        assert logged, f"{kind.tag}'s example never emitted {event_type.type!r}"
        for fields in logged[:50]:
            plain = {k: v for k, v in fields.items() if k not in ("round", "type")}
            typed = event_type.from_fields(fields)
            assert isinstance(typed, EffectEvent) and typed.fields() == plain
            assert describe(fields) == f"round {fields['round']}: {typed.text()}"


def test_every_event_type_is_one_class_a_kind_declares() -> None:
    declared = {event for kind in REGISTRY.values() for event in kind.events}
    assert set(EVENTS.values()) == declared and len({event.type for event in declared}) == len(declared)


@pytest.mark.parametrize("kind", KINDS, ids=[k.tag for k in KINDS])
@settings(max_examples=20)
@given(data=st.data())
def test_every_kinds_strategy_draws_valid_effects(kind: EffectKind, data: st.DataObject) -> None:
    face = 1 if kind.placement == "board" else None
    drawn = data.draw(kind.strategy(strategies.drawing(6, 2, face=face)))
    assert kinds.tag_of(drawn) == kind.tag
    Variant.model_validate(showcase(kind, drawn))


@pytest.mark.parametrize("kind", KINDS, ids=[k.tag for k in KINDS])
def test_the_json_schema_has_every_kind(kind: EffectKind) -> None:
    schema = api.schemas("chance-it", "variant")["variant"]
    members = schema["$defs"]["Effect"]["anyOf"]
    assert any(_names(member, schema, kind.tag) for member in members), kind.tag


def _names(member: dict[str, Any], schema: dict[str, Any], tag: str) -> bool:
    """Whether a member of the Effect definition is the kind ``tag`` (a one-key object or a bare name)."""
    if "$ref" in member:
        member = schema["$defs"][member["$ref"].rsplit("/", 1)[1]]
    return tag in member.get("properties", {}) or member.get("const") == tag or tag in member.get("enum", [])


def test_an_unknown_kind_is_not_valued_printed_or_applied_silently() -> None:
    with pytest.raises(LookupError, match="no effect kind"):
        kinds.kind_of({"stael": {"coins": 1}})
    with pytest.raises(KeyError):
        printing.drawing("no-such-icon")


# --- a kind registered later ------------------------------------------------------------------------------------


@pytest.fixture
def donate() -> Iterator[DonateKind]:
    yield from registered(DonateKind())


@pytest.fixture
def interpreted_donate() -> Iterator[DonateKind]:
    yield from registered(InterpretedDonateKind())


def registered(kind: DonateKind) -> Iterator[DonateKind]:
    kinds.register(kind)
    strategies.forget()
    try:
        yield kind
    finally:
        kinds.unregister(kind.tag)
        strategies.forget()


def test_the_made_up_kind_passes_conformance(donate: DonateKind) -> None:
    test_every_kind_supplies_every_part(donate)
    test_every_kind_applies_and_its_events_read_back(donate)
    test_every_event_type_is_one_class_a_kind_declares()
    test_the_json_schema_has_every_kind(donate)


def test_a_kind_without_a_batch_form_is_played_by_the_interpreter_which_says_why(
    interpreted_donate: DonateKind, tmp_path: Path
) -> None:
    heard: list[str] = []
    run = api.simulate(gift_variant(tmp_path), players=[3], games=5, bots="random", out=tmp_path / "out", notice=heard.append)
    assert run.runs[0].engine == "interpreter"
    assert heard == ["engine: interpreter (the effect kind 'donate' has no batch form)"]
    with pytest.raises(UsageError, match=r"^engine batch: the effect kind 'donate' has no batch form"):
        api.simulate(gift_variant(tmp_path), players=[3], games=5, bots="random", engine="batch")


def test_a_kind_registered_after_the_batch_engine_loaded_is_played_by_the_interpreter(donate: DonateKind, tmp_path: Path) -> None:
    """The kernel compiles the forms of the kinds registered when it loads (this process loaded it before)."""
    heard: list[str] = []
    run = api.simulate(gift_variant(tmp_path), players=[3], games=5, bots="random", out=tmp_path / "out", notice=heard.append)
    assert run.runs[0].engine == "interpreter"
    assert heard == ["engine: interpreter (the effect kind 'donate' was registered after the batch engine was loaded)"]


def test_a_cache_compiled_for_other_kinds_is_refused_not_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numba's cache does not see the registry: a kernel compiled when other kinds were registered answers another
    key, and the engine refuses it, saying why, rather than play rows its dispatches do not know."""
    from workbench.games.chance_it.batch import Engine, kernel
    from workbench.sim.compiled import CompileFailed

    rules = compile_variant(Variant.model_validate(base_data()))
    Engine(rules, 4)  # the cache matches this process's kinds
    monkeypatch.setattr(kernel, "FORMS_KEY", kernel.FORMS_KEY + 1)
    with pytest.raises(CompileFailed, match="compiled for other effect kinds than this process has registered"):
        Engine(rules, 4)


def test_a_batch_form_without_a_part_its_placement_asks_is_refused_naming_the_kind() -> None:
    class HalfDonateKind(DonateKind):
        def batch_form(self, kernel: Kernel) -> BatchForm | None:
            form = super().batch_form(kernel)
            return BatchForm(apply=form.apply) if form is not None else None

    kinds.register(HalfDonateKind())
    try:
        with pytest.raises(TypeError, match=r"^the batch form of the effect kind 'donate' has no value$"):
            batch_forms()
    finally:
        kinds.unregister("donate")
    assert "donate" not in REGISTRY


REGISTER_DONATE = """
import donate
from workbench.games.chance_it import effects

effects.register(donate.DonateKind())
"""

BOTH_ENGINES = """
import json
import sys
from pathlib import Path

import donate
from workbench import api

folder = Path(sys.argv[1])
written = {}
for engine in ("batch", "interpreter"):
    out = folder / engine
    api.simulate(
        donate.gift_variant(folder), players=[3], games=60, seed=5, bots="heuristic,random,heuristic", engine=engine, out=out,
        records=out / "games.jsonl", record_scenarios=out / "scripts",
    )
    body = json.loads((out / "summary.json").read_text())
    assert body.pop("engine") == engine
    body.pop("timing")
    scripts = [script.read_text() for script in sorted((out / "scripts").glob("*.yaml"))]
    written[engine] = (body, (out / "games.jsonl").read_text(), scripts)
assert written["batch"] == written["interpreter"]
print(f"the same {len(written['batch'][2])} games on both engines")
"""


@pytest.mark.slow
def test_the_made_up_kinds_batch_form_plays_the_interpreters_games(tmp_path: Path) -> None:
    """Processes that register ``donate`` as they start (a ``sitecustomize``: the run's and the compiler's) compile
    its batch form into the kernel, in a cache of their own, and the batch engine then plays the interpreter's
    games with it: the same summary, records and scripts, with heuristic and random bots."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(REGISTER_DONATE)
    path = os.pathsep.join(str(folder) for folder in (tmp_path / "site", PROJECT / "tests", PROJECT))
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache"), "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-c", BOTH_ENGINES, str(tmp_path)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "the same 60 games on both engines"


def test_the_made_up_kind_validates_and_is_located_when_wrong(donate: DonateKind, tmp_path: Path) -> None:
    path = gift_variant(tmp_path)
    assert api.validate(path).ok
    path.write_text(path.read_text().replace("{donate: 2}", "{donate: 0}"))
    with pytest.raises(VariantError) as info:
        api.load_variant(path)
    (problem,) = info.value.problems
    assert (problem.line, problem.path) == (4, "cards_add.0.effects.0.donate") and "at least 1" in problem.message
    path.write_text(path.read_text().replace("{donate: 0}", "{donat: 2}"))
    (problem,) = _problems(path)
    assert "unknown effect 'donat'" in problem.message and "donate" in problem.message


def _problems(path: Path) -> list[Any]:
    with pytest.raises(VariantError) as info:
        api.load_variant(path)
    return info.value.problems


def test_without_the_registration_the_kind_is_unknown(tmp_path: Path) -> None:
    problems = _problems(gift_variant(tmp_path))
    assert [(problem.line, problem.path) for problem in problems] == [
        (4, "cards_add.0.effects.0"), (6, "board.4.0.choose.0.0"), (7, "board.5.1")
    ]  # fmt: skip
    assert all("unknown effect 'donate'" in problem.message for problem in problems)


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_the_made_up_kind_plays_records_and_replays(donate: DonateKind, tmp_path: Path, bots: str) -> None:
    path = gift_variant(tmp_path)
    scripts = tmp_path / "scripts"
    run = api.simulate(path, players=[3], games=20, seed=2, bots=bots, record_scenarios=scripts, create_out=True)
    assert run.runs[0].games == 20
    recorded = sorted(scripts.rglob("*.yaml"))
    assert recorded
    given = 0
    for script in recorded[:5]:
        result = CliRunner().invoke(app, ["replay", str(script), "--trace"])
        assert result.exit_code == 0, result.output
        given += result.output.count("coins to seat")
    assert given > 0, "the donations show in the trace"


def test_the_made_up_kind_prints_with_its_icon_and_text(donate: DonateKind, tmp_path: Path) -> None:
    (html,) = api.print_set(gift_variant(tmp_path), tmp_path / "set.html", only="cards,board")
    page = html.read_text()
    assert "give 2 coins to the next player in the round" in page
    assert "give 1 coin to the next player in the round" in page  # the board
    assert "#0a7e8c" in page  # its drawing


def test_the_made_up_kind_is_in_the_json_schema_and_the_strategies(donate: DonateKind) -> None:
    schema = api.schemas("chance-it", "cards")["cards"]
    assert "donate" in json.dumps(schema)
    drawn = find(strategies.effect_lists(6), lambda effects: any("donate" in str(e) for e in effects))
    assert any(isinstance(e, dict) and e.get("donate", 0) >= 1 for e in drawn)


def test_a_kept_card_whose_failure_eliminates_its_owner_logs_nothing_after_the_elimination() -> None:
    """A failed roll that costs the last heart: the owner is out at once (rule 12), so no 'kept' event follows;
    the invariants (checked after every step of every game) refuse any event of an eliminated player."""
    data = base_data()
    doom = {"chance": {"roll": 6, "else": [{"lose": {"hearts": 3}}], "on_fail": "keep"}}
    data["cards"] = [{"id": "doom", "name": "Doom", "when": "die-4", "cost": 0, "copies": 8, "effects": [doom]}]
    events = played_events(data, games=30)
    kept = [e for e in events if e["type"] == "kept"]
    assert kept and any(e["type"] == "eliminated" for e in events)  # both happen in these games


def test_a_choice_among_many_options_records_and_replays(tmp_path: Path) -> None:
    """Any number of options a variant allows can be scripted: games recorded with 150 options replay."""
    data = base_data()
    data["board"][2] = [{"choose": [[{"gain": {"coins": i % 3}}] for i in range(150)]}]
    path = tmp_path / "many.yaml"
    path.write_text(yaml.safe_dump(data))
    scripts = tmp_path / "scripts"
    api.simulate(path, players=[3], games=5, seed=1, bots="random", record_scenarios=scripts, create_out=True)
    recorded = sorted(scripts.rglob("*.yaml"))
    assert any(re.search(r"choose: (1[0-4][0-9]|10[1-9])\b", script.read_text()) for script in recorded)
    for script in recorded:
        result = CliRunner().invoke(app, ["replay", str(script)])
        assert result.exit_code == 0, result.output
