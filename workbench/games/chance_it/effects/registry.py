"""The registry of effect kinds, and everything built from it.

:data:`Effect` is the annotation of an effect in every model: it validates a written
effect with the model of the kind its tag names, so a kind registered later (a test's
made-up kind) is known at once, and its JSON Schema is the registry's kinds at the time
the schema is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import yaml
from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, TypeAdapter
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from workbench.games.chance_it.effects.base import (
    Compiler,
    DieEffect,
    Drawing,
    EffectEvent,
    EffectKind,
    Effects,
    PassiveEffect,
    PlayerEffect,
    Words,
)
from workbench.models import KeyPath

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

#: Every kind by its tag, in the order registered.
REGISTRY: dict[str, EffectKind] = {}
#: Every event type an effect may emit, by its ``type``.
EVENTS: dict[str, type[EffectEvent]] = {}


def register(kind: EffectKind) -> EffectKind:
    """Add a kind (its tag must be new); returns it."""
    if kind.tag in REGISTRY:
        raise ValueError(f"an effect kind '{kind.tag}' is registered already")
    for event in kind.events:
        known = EVENTS.get(event.type)
        if known is not None and known is not event:
            raise ValueError(f"event type '{event.type}' of '{kind.tag}' is another kind's already")
    REGISTRY[kind.tag] = kind
    for event in kind.events:
        EVENTS[event.type] = event
    return kind


def unregister(tag: str) -> None:
    """Remove a kind and the events only it emits (for tests that register a made-up kind)."""
    kind = REGISTRY.pop(tag)
    still = {event for other in REGISTRY.values() for event in other.events}
    for event in kind.events:
        if event not in still:
            del EVENTS[event.type]


def tag_of(value: Any) -> str | None:
    """The tag of a written effect (a bare name or a one-key mapping) or of a validated one."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return str(next(iter(value))) if len(value) == 1 else None
    for tag, kind in REGISTRY.items():
        if isinstance(kind.model, type) and isinstance(value, kind.model):
            return tag
    return None


def kind_of(effect: Any) -> EffectKind:
    """The kind of a validated effect."""
    tag = tag_of(effect)
    if tag is None or tag not in REGISTRY:
        raise LookupError(f"no effect kind for {effect!r}")
    return REGISTRY[tag]


class EffectSlot:
    """Pydantic metadata of :data:`Effect`: validation by the registry, and the registry's JSON Schema."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_wrap_validator_function(_validate, core_schema.any_schema())

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {MARK: True}  # made a reference to the definition by :func:`with_effects`

    # The loader's hints follow these into the kinds' models (see ``workbench.loading.type_at``).

    def member(self, tag: Any) -> Any:
        """The model of the kind ``tag`` names (None for none)."""
        kind = REGISTRY.get(str(tag))
        return None if kind is None else kind.model

    def tags(self) -> set[str]:
        """Every tag."""
        return set(REGISTRY)


def _validate(value: Any, handler: Any) -> Any:
    tag = tag_of(value)
    kind = REGISTRY.get(tag) if tag is not None else None
    if kind is None:
        raise PydanticCustomError("effect", "unknown effect")
    return kind.adapter.validate_python(value)


#: An effect as the variant models hold it: a validated model of its kind (or the bare name).
Effect = Annotated[Any, EffectSlot()]
#: The JSON Schema definition every effect refers to, and the mark pydantic writes where one stands.
DEFINITION = "Effect"
MARK = "x-workbench-effect"


def with_effects(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (of a model holding effects) with each effect a reference to one definition: any registered kind's model."""
    definitions = schema.setdefault("$defs", {})
    members = []
    for kind in REGISTRY.values():
        member = TypeAdapter(kind.model).json_schema(ref_template="#/$defs/{model}")
        definitions.update(member.pop("$defs", {}))
        members.append(member)
    definitions[DEFINITION] = {
        "anyOf": members,
        "description": "An effect: a name (market) or a one-key mapping ({gain: {hearts: 1}}); see the effect table in the documentation (docs/reference/files.md).",
    }
    referred: dict[str, Any] = _refer(schema)
    return referred


def _refer(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get(MARK):
            return {"$ref": f"#/$defs/{DEFINITION}"}
        return {key: _refer(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_refer(item) for item in node]
    return node


# --- walking, compiling, valuing, printing --------------------------------------------------------------------


def iter_effects(effects: Sequence[Any], key: KeyPath, depth: int = 0) -> Iterator[tuple[KeyPath, Any, int]]:
    """Every effect of a list, nested ones included: (key path, effect, nesting depth)."""
    for index, effect in enumerate(effects):
        path = key + (index,)
        yield path, effect, depth
        for below, items in kind_of(effect).children(effect):
            yield from iter_effects(items, path + below, depth + 1)


def compile_effects(items: Sequence[Any], sides: int) -> Effects:
    """Compile a list of player effects: each becomes (apply, argument, kind)."""
    compiler = Compiler(sides, lambda nested: compile_effects(nested, sides))
    compiled = []
    for item in items:
        kind = kind_of(item)
        if not isinstance(kind, PlayerEffect):
            raise TypeError(f"{kind.tag} is not applied to a player here")  # validation rules this out
        compiled.append((kind.apply, kind.compile(item, compiler), kind))
    return tuple(compiled)


def compile_die_steps(items: Sequence[Any], sides: int) -> Effects:
    """The effects of a board face that act once per die (see :class:`DieEffect`)."""
    compiler = Compiler(sides, lambda nested: compile_effects(nested, sides))
    return tuple(
        (kind.apply, kind.compile(item, compiler), kind) for item in items if isinstance(kind := kind_of(item), DieEffect)
    )


def compile_passive(items: Sequence[Any], sides: int) -> tuple[tuple[Any, PassiveEffect], ...]:
    """Compile a passive card's effects: each becomes (argument, kind)."""
    compiler = Compiler(sides, lambda nested: compile_effects(nested, sides))
    return tuple((kind.compile(item, compiler), kind) for item in items if isinstance(kind := kind_of(item), PassiveEffect))


def modifiers(passive: Sequence[tuple[Any, PassiveEffect]]) -> dict[str, int]:
    """What a passive card's compiled effects add to its owner's modifiers."""
    total: dict[str, int] = {}
    for argument, kind in passive:
        for name, value in kind.modifiers(argument).items():
            total[name] = total.get(name, 0) + value
    return total


def effect_text(effect: Any, words: Words) -> str:
    """One effect as printed."""
    return kind_of(effect).text(effect, words)


def effect_icons(effect: Any, words: Words) -> list[tuple[str, str]]:
    """One effect's icons."""
    return kind_of(effect).icons(effect, words)


def words(sides: int, where: str) -> Words:
    """The text context of effects written at ``where`` (see :class:`Words`)."""
    return Words(sides, where, effect_text, effect_icons)


def drawings() -> dict[str, str]:
    """Every kind's icon drawings by name."""
    return {name: svg for kind in REGISTRY.values() for name, svg in kind.drawings.items()}


def rule_notes(effects: Sequence[Any]) -> list[str]:
    """The rule summary's notes for ``effects`` (nested ones included), each once."""
    notes = {kind_of(effect).rule_note(effect) for _, effect, _ in iter_effects(effects, ())}
    return sorted(note for note in notes if note)


def strategy(drawing: Drawing, placement: str = "anywhere") -> SearchStrategy[Any]:
    """One effect of any registered kind that may stand at ``placement``, as plain data."""
    from hypothesis import strategies as st

    return st.one_of(*(kind.strategy(drawing) for kind in REGISTRY.values() if kind.placement == placement))


def describe_event(event: dict[str, Any]) -> str | None:
    """An effect's logged event as text (None for an event no effect emits)."""
    kind = EVENTS.get(event["type"])
    return None if kind is None else kind.from_fields(event).text()


def reference_table(sides: int = 6) -> str:
    """Every registered kind as a Markdown table: key, meaning, example (as written in YAML), card text.

    The documentation site's file formats page is built with it (docs/hooks.py), so it cannot drift from the kinds.
    """
    rows = ["| key | meaning | example | card text |", "| --- | --- | --- | --- |"]
    for kind in REGISTRY.values():
        example = yaml.safe_dump([kind.example], default_flow_style=True, sort_keys=False, width=10_000).strip()[1:-1]
        text = effect_text(kind.adapter.validate_python(kind.example), words(sides, kind.example_where))
        cells = (f"`{kind.tag}`", " ".join(kind.meaning.split()), f"`{example}`", text)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"
