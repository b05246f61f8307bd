"""Hypothesis strategies for Chance It variants, as the plain data a YAML file holds.

:func:`variants` draws valid variants (``Variant.model_validate`` accepts them) small
enough that a game plays in milliseconds; :func:`games` adds a player count.
:func:`broken_variants` draws a valid variant and breaks exactly one validation rule
(the list of issue 2), returning the data and an :class:`Expected` naming the key path
the loader must point at and a fragment of its message.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.effects.chance import ChanceTest
from workbench.games.chance_it.schema import (
    RESOURCES,
    Card,
    Dice,
    End,
    Market,
    Persona,
    PersonaFile,
    Players,
    Sheet,
    Start,
    Supply,
    Tokens,
    Variant,
)

MAX_PLAYERS = 6
MAX_ROUNDS = 60
MAX_SIDES = 8

KEY_PATH = tuple[str, ...]

# --- building blocks ----------------------------------------------------------------------------------------------

#: Small amounts keep games short.
small = st.integers(0, 3)
#: The schema allows amounts up to 1,000,000, and so do generated stakes.
PLAYABLE_STAKE = 1_000_000
#: Any text a YAML file can hold (no lone surrogates).
texts = st.characters(exclude_categories=("Cs",))
names = st.text(texts, min_size=1, max_size=12)
card_ids = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,9}", fullmatch=True)
persona_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,9}", fullmatch=True).filter(
    lambda name: name not in PersonaFile.builtin_bots()
)


#: A non-empty mapping of resources to amounts (``{hearts: 1}``).
amounts = st.dictionaries(st.sampled_from(RESOURCES), small, min_size=1)


def drawing(
    sides: int, depth: int, *, amounts_: st.SearchStrategy[dict] = amounts, face: int | None = None, where: str = "card"
) -> kinds.Drawing:
    """What the effect kinds draw their effects with (nested lists one level down, for the same place)."""
    nested = lambda n: effect_lists(sides, depth=depth - 1, max_size=n, where=where)  # noqa: E731
    return kinds.Drawing(sides, depth, amounts_, nested, face, where)


@functools.cache
def effects(sides: int, *, depth: int = 2, where: str = "card") -> st.SearchStrategy[Any]:
    """One effect of any registered kind that may stand anywhere on ``where``; nested lists go ``depth`` levels down."""
    return kinds.strategy(drawing(sides, depth, where=where))


@functools.cache
def effect_lists(
    sides: int, *, depth: int = 2, min_size: int = 0, max_size: int = 3, where: str = "card"
) -> st.SearchStrategy[list]:
    """A list of effects for ``where`` (never one that belongs on the board or on a passive card only)."""
    return st.lists(effects(sides, depth=depth, where=where), min_size=min_size, max_size=max_size)


@functools.cache
def passive_effects(sides: int) -> st.SearchStrategy[list]:
    """The effects of a passive card."""
    return st.lists(kinds.strategy(drawing(sides, 0), "passive"), min_size=1, max_size=2)


@functools.cache
def board_effects(sides: int, face: int) -> st.SearchStrategy[Any]:
    """An effect that stands only directly on board face ``face`` (nothing when none may)."""
    return kinds.strategy(drawing(sides, 0, face=face), "board")


def forget() -> None:
    """Drop the cached strategies built from the effect registry (after a test registers or removes a kind)."""
    for cached in (effects, effect_lists, passive_effects, board_effects):
        cached.cache_clear()


@functools.cache
def whens(sides: int) -> st.SearchStrategy[str]:
    """flash, chance-it, passive or die-N for a face of the dice."""
    return st.one_of(st.sampled_from(["flash", "chance-it", "passive"]), st.integers(1, sides).map(lambda face: f"die-{face}"))


@st.composite
def cards(draw: Any, sides: int, card_id: str) -> dict:
    """One market card with the given id; cost, copies and text are optional keys."""
    card: dict[str, Any] = {"id": card_id, "name": draw(names), "when": draw(whens(sides))}
    if draw(st.booleans()):
        card["cost"] = draw(st.integers(0, 6))
    if draw(st.booleans()):
        card["copies"] = draw(st.integers(1, 3))
    where = "die" if card["when"].startswith("die-") else "card"
    card["effects"] = draw(passive_effects(sides) if card["when"] == "passive" else effect_lists(sides, min_size=1, where=where))
    if draw(st.integers(0, 3)) == 0:
        card["text"] = draw(st.none() | st.text(texts, max_size=20))
    return card


@functools.cache
def sheets(n: int, largest: int = PLAYABLE_STAKE) -> st.SearchStrategy[dict]:
    """A stakes sheet for ``n`` players: n-1 numbers then all_out, and n numbers (mostly small, up to ``largest``)."""
    amounts_ = st.one_of(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5), st.integers(0, largest))
    return st.fixed_dictionaries(
        {
            "out": st.lists(amounts_, min_size=n - 1, max_size=n - 1).map(lambda out: [*out, "all_out"]),
            "in": st.lists(amounts_, min_size=n, max_size=n),
        },
        optional={"source": st.sampled_from(["printed", "proposed", "tuned"])},
    )


@st.composite
def tokens(draw: Any, need: int) -> dict:
    """Limited tokens whose total covers ``need``; ``big`` and ``big_value`` optional."""
    entry: dict[str, Any] = {}
    big, big_value = 0, 5
    if draw(st.booleans()):
        big = entry["big"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        big_value = entry["big_value"] = draw(st.integers(1, 5))
    entry["small"] = max(0, need - big * big_value) + draw(st.integers(0, 15))
    return dict(sorted(entry.items(), key=lambda kv: kv[0] != "small"))


@st.composite
def boards(draw: Any, sides: int) -> dict:
    """An entry for every face; now and then an effect that belongs on that face only (reroll_ones on 1)."""
    board: dict[int, list] = {}
    for face in range(1, sides + 1):
        items = draw(effect_lists(sides, depth=1, max_size=2))
        if draw(st.booleans()):
            extra = draw(st.none() | board_effects(sides, face))
            if extra is not None:
                items.insert(draw(st.integers(0, len(items))), extra)
        board[face] = items
    if draw(st.booleans()):  # a market face, so that cards get bought and used
        items = board[draw(st.integers(1, sides))]
        items.insert(draw(st.integers(0, len(items))), "market")
    return board


@st.composite
def personas(draw: Any) -> dict:
    """A bot persona: a policy and parameters that fit it."""
    policy = draw(st.sampled_from(["random", "heuristic", "search", "equilibrium"]))
    persona: dict[str, Any] = {"policy": policy}
    if policy != "random":
        weights = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
        persona.update(
            draw(st.fixed_dictionaries({}, optional={"star": weights, "coin": weights, "min_hearts": st.integers(0, 10)}))
        )
    if policy in ("search", "equilibrium"):
        persona.update(draw(st.fixed_dictionaries({}, optional={"playouts": st.integers(1, 4), "depth": st.integers(0, 3)})))
    if policy == "equilibrium":
        persona.update(draw(st.fixed_dictionaries({}, optional={"samples": st.integers(1, 3), "iterations": st.integers(1, 50)})))
    return persona


@st.composite
def variants(
    draw: Any, *, max_players: int = MAX_PLAYERS, max_rounds: int = MAX_ROUNDS, largest_stake: int = PLAYABLE_STAKE
) -> dict:
    """A valid variant as plain data; optional keys are left out now and then.

    No game is won before it starts: ``end.stars`` is above the starting stars (the schema
    allows a variant whose players hold enough stars at setup, and the engine then never
    ends it by stars, see ``test_a_game_won_at_setup_ends_after_the_first_step``).
    """
    sides = draw(st.integers(2, MAX_SIDES))
    top = draw(st.integers(2, max_players))
    data: dict[str, Any] = {"name": draw(names), "game": "chance-it"}
    if draw(st.integers(0, 3)) == 0:
        data["description"] = draw(st.none() | st.text(texts, max_size=30))
    data["players"] = {"min": draw(st.integers(2, top)), "max": top}
    start: dict[str, int] = {}
    if draw(st.integers(0, 3)):
        start["coins"] = draw(st.integers(0, 10))
    start["hearts"] = draw(st.integers(1, 10) | st.integers(4, 10))
    if draw(st.booleans()):
        start["stars"] = draw(st.integers(0, 3))
    data["start"] = start
    if draw(st.booleans()):
        supply: dict[str, Any] = {}
        for resource in RESOURCES:
            kind = draw(st.sampled_from(["limited", "unlimited", "default"]))
            if kind == "limited":
                supply[resource] = draw(tokens(top * start.get(resource, 0)))
            elif kind == "unlimited":
                supply[resource] = "unlimited"
        data["supply"] = supply
    data["dice"] = {"count": draw(st.integers(1, 6)), "sides": sides}
    stakes = {n: draw(sheets(n, largest_stake)) for n in range(2, top + 1)}
    if draw(st.integers(0, 4)) == 0:  # a sheet beyond players.max is allowed (and unused)
        stakes[top + 1] = draw(sheets(top + 1, largest_stake))
    data["stakes"] = stakes
    data["all_out"] = draw(effect_lists(sides, max_size=2))
    data["chance_it"] = draw(effect_lists(sides, max_size=2))
    if draw(st.booleans()):
        data["forced_in_after"] = draw(st.integers(1, 4))
    data["board"] = draw(boards(sides))
    if draw(st.booleans()):
        data["market"] = draw(
            st.fixed_dictionaries({}, optional={"face_up": st.integers(1, 4), "reshuffle_discard": st.booleans()})
        )
    end: dict[str, Any] = {}
    if draw(st.booleans()):
        end["stars"] = draw(st.integers(start.get("stars", 0) + 1, 30))
    if draw(st.booleans()):
        end["tiebreak"] = draw(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=3, unique=True))
    end["max_rounds"] = draw(st.integers(1, max_rounds) | st.integers(max(1, max_rounds // 3), max_rounds))
    data["end"] = end
    ids = draw(st.lists(card_ids, max_size=6, unique=True))
    data["cards"] = [draw(cards(sides, card_id)) for card_id in ids]
    if draw(st.integers(0, 4)) == 0:
        data["bots"] = draw(st.dictionaries(persona_names, personas(), max_size=2))
    return data


@st.composite
def games(draw: Any, **kwargs: Any) -> tuple[dict, int]:
    """A valid variant and a player count it allows."""
    data = draw(variants(**kwargs))
    return data, draw(st.integers(data["players"]["min"], data["players"]["max"]))


# --- broken variants -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    """Where the loader must point for a broken variant: the rule, a key path prefix, a message fragment."""

    rule: str
    path: KEY_PATH
    fragment: str

    def matches(self, problem: Any) -> bool:
        """Whether a problem's key path starts with ``path`` and its message holds ``fragment``."""
        parts = problem.path.split(".") if problem.path else []
        return parts[: len(self.path)] == list(self.path) and self.fragment in problem.message


def _key(path: tuple) -> KEY_PATH:
    return tuple(str(part) for part in path)


def get(data: Any, path: tuple) -> Any:
    """The value at a key path of plain data."""
    for part in path:
        data = data[part]
    return data


def effect_sites(data: dict) -> list[tuple]:
    """Key paths of every top-level list of effects that takes any effect: all_out, chance_it, board faces, cards but passive ones."""
    sites: list[tuple] = [("all_out",), ("chance_it",)]
    sites += [("board", face) for face in data["board"]]
    sites += [("cards", index, "effects") for index, card in enumerate(data["cards"]) if card["when"] != "passive"]
    return sites


def iter_chance_tests(effects: list, path: tuple) -> Iterator[tuple]:
    """Key paths of the ``{roll, then, else}`` mappings in a list of effects, nested ones included."""
    for index, effect in enumerate(effects):
        if isinstance(effect, dict) and "chance" in effect:
            inner = path + (index, "chance")
            yield inner
            for branch in ("then", "else"):
                yield from iter_chance_tests(effect["chance"].get(branch, []), inner + (branch,))


def insert_effect(draw: Any, data: dict, effect: Any, sites: list[tuple] | None = None) -> tuple:
    """Insert ``effect`` into a drawn list of effects; returns its key path."""
    site = draw(st.sampled_from(sites or effect_sites(data)))
    items = get(data, site)
    index = draw(st.integers(0, len(items)))
    items.insert(index, effect)
    return site + (index,)


def ensure_card(draw: Any, data: dict) -> int:
    """The index of a drawn card, adding one when the variant has none."""
    if not data["cards"]:
        taken = {card["id"] for card in data["cards"]}
        card_id = draw(card_ids.filter(lambda i: i not in taken))
        data["cards"].append(draw(cards(data["dice"]["sides"], card_id)))
    return draw(st.integers(0, len(data["cards"]) - 1))


def typo(word: str) -> list[str]:
    """A few misspellings of a key."""
    found = [word + word[-1], word + "s"]
    if len(word) > 2:
        found += [word[:-1], word[0] + word[2] + word[1] + word[3:]]
    return [w for w in dict.fromkeys(found) if w != word]


def _keys(model: Any) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


#: The keys each kind of mapping allows (so a misspelling is never another valid key).
ALLOWED = {
    "variant": _keys(Variant) | {"extends"},
    "players": _keys(Players),
    "start": _keys(Start),
    "supply": _keys(Supply),
    "tokens": _keys(Tokens),
    "dice": _keys(Dice),
    "sheet": _keys(Sheet),
    "market": _keys(Market),
    "end": _keys(End),
    "card": _keys(Card),
    "chance": _keys(ChanceTest),
    "persona": _keys(Persona),
}
#: Unknown keys to add.
UNKNOWN_KEYS = ("colour", "notes", "weight", "shape")


def _mappings(data: dict) -> list[tuple[tuple, str]]:
    """Every mapping with fixed keys in the variant: (key path, kind)."""
    found: list[tuple[tuple, str]] = [
        ((), "variant"),
        (("players",), "players"),
        (("start",), "start"),
        (("dice",), "dice"),
        (("end",), "end"),
    ]
    found += [(("stakes", n), "sheet") for n in data["stakes"]]
    found += [(("cards", i), "card") for i in range(len(data["cards"]))]
    if "supply" in data:
        found.append((("supply",), "supply"))
        found += [(("supply", r), "tokens") for r, entry in data["supply"].items() if isinstance(entry, dict)]
    if "market" in data:
        found.append((("market",), "market"))
    for name in data.get("bots", {}):
        found.append((("bots", name), "persona"))
    for site in effect_sites(data):
        found += [(path, "chance") for path in iter_chance_tests(get(data, site), site)]
    return found


def _unknown_key(draw: Any, data: dict) -> Expected:
    path, kind = draw(st.sampled_from(_mappings(data)))
    mapping = get(data, path)
    keys = sorted(mapping, key=str)
    if keys and draw(st.booleans()):  # misspell a key that is there
        old = draw(st.sampled_from(keys))
        new = draw(st.sampled_from([w for w in typo(str(old)) if w not in ALLOWED[kind]]))
        renamed = {(new if key == old else key): value for key, value in mapping.items()}
        mapping.clear()
        mapping.update(renamed)
    else:
        new = draw(st.sampled_from(UNKNOWN_KEYS))
        mapping[new] = draw(st.sampled_from([1, "x", [1], {"a": 1}]))
    return Expected("unknown or misspelt key", _key(path + (new,)), "unknown key")


def _missing_sheet(draw: Any, data: dict) -> Expected:
    n = draw(st.integers(2, data["players"]["max"]))
    del data["stakes"][n]
    return Expected("missing stakes sheet", ("stakes",), f"missing the {n}-player stakes sheet")


def _sheet_length(draw: Any, data: dict) -> Expected:
    n = draw(st.integers(2, data["players"]["max"]))
    sheet = data["stakes"][n]
    key = draw(st.sampled_from(["in", "out"]))
    entries = sheet[key]
    if key == "in" and draw(st.booleans()):
        del entries[draw(st.integers(0, len(entries) - 1))]
    else:  # one number too many (before all_out, so the last entry stays all_out)
        entries.insert(draw(st.integers(0, len(entries) - 1 if key == "out" else len(entries))), draw(small))
    return Expected("sheet length", ("stakes", str(n), key), f"expected {n} entries, got")


def _last_not_all_out(draw: Any, data: dict) -> Expected:
    n = draw(st.integers(2, data["players"]["max"]))
    data["stakes"][n]["out"][-1] = draw(small)
    return Expected("last out entry", ("stakes", str(n), "out", str(n - 1)), "the last out entry must be all_out")


def _negative(draw: Any, data: dict) -> Expected:
    value = draw(st.integers(-1_000, -1))
    where = draw(st.sampled_from(["start", "cost", "stake", "effect", "supply"]))
    if where == "start":
        resource = draw(st.sampled_from(RESOURCES))
        data["start"][resource] = value
        return Expected("negative amount", ("start", resource), "must be at least")
    if where == "cost":
        index = ensure_card(draw, data)
        data["cards"][index]["cost"] = value
        return Expected("negative cost", ("cards", str(index), "cost"), "must be at least 0")
    if where == "stake":
        n = draw(st.integers(2, data["players"]["max"]))
        key = draw(st.sampled_from(["in", "out"]))
        index = draw(st.integers(0, n - (2 if key == "out" else 1)))
        data["stakes"][n][key][index] = value
        return Expected("negative stake", ("stakes", str(n), key, str(index)), "must be at least 0")
    if where == "supply":
        resource = draw(st.sampled_from(RESOURCES))
        data.setdefault("supply", {})[resource] = {"small": value}
        return Expected("negative supply", ("supply", resource, "small"), "must be at least 0")
    kind, resource = draw(st.sampled_from(["gain", "lose", "others_lose"])), draw(st.sampled_from(RESOURCES))
    path = insert_effect(draw, data, {kind: {resource: value}})
    return Expected("negative amount", _key(path + (kind, resource)), "must be at least 0")


def _board_face(draw: Any, data: dict) -> Expected:
    sides = data["dice"]["sides"]
    face = draw(st.sampled_from([0, -1, sides + 1, sides + 2, 100]))
    data["board"][face] = draw(effect_lists(sides, depth=1, max_size=1))
    return Expected("die face on the board", ("board", str(face)), f"no face {face} on a {sides}-sided die")


def _when_face(draw: Any, data: dict) -> Expected:
    sides = data["dice"]["sides"]
    index = ensure_card(draw, data)
    face = draw(st.sampled_from([0, sides + 1, sides + 2, 100]))
    data["cards"][index]["when"] = f"die-{face}"
    return Expected("die face in when", ("cards", str(index), "when"), f"no face {face} on a {sides}-sided die")


def _missing_face(draw: Any, data: dict) -> Expected:
    face = draw(st.integers(1, data["dice"]["sides"]))
    del data["board"][face]
    top = face > max(data["board"], default=0)  # the die has more sides than the board faces: said at the dice
    return Expected("board missing a face", ("dice", "sides") if top else ("board",), f"no entry for face {face}")


def _duplicate_id(draw: Any, data: dict) -> Expected:
    first = ensure_card(draw, data)
    copy_of = copy.deepcopy(data["cards"][first])
    if "copies" in copy_of and draw(st.booleans()):
        del copy_of["copies"]
    cards_ = data["cards"]
    if len(cards_) > first + 1 and draw(st.booleans()):  # give a later card the same id
        later = draw(st.integers(first + 1, len(cards_) - 1))
        cards_[later]["id"] = cards_[first]["id"]
    else:
        later = draw(st.integers(first + 1, len(cards_)))
        cards_.insert(later, copy_of)
    return Expected("duplicate card id", ("cards", str(later), "id"), f"duplicate card id '{cards_[first]['id']}'")


def _unknown_resource(draw: Any, data: dict) -> Expected:
    kind = draw(st.sampled_from(["gain", "lose", "others_lose"]))
    bad = draw(st.sampled_from(["gold", "heart", "coin", "Stars", "lives"]))
    path = insert_effect(draw, data, {kind: {bad: 1}})
    return Expected("unknown resource", _key(path + (kind, bad)), "expected 'coins', 'hearts' or 'stars'")


def _unknown_effect(draw: Any, data: dict) -> Expected:
    effect = draw(
        st.sampled_from(
            [
                "shuffle",
                "markets",
                "reroll",
                {"stael": {"coins": 1}},
                {"gian": {"hearts": 1}},
                {"gain": {"coins": 1}, "lose": {"coins": 1}},
                7,
                ["market"],
            ]
        )
    )
    path = insert_effect(draw, data, effect)
    return Expected("unknown effect", _key(path), "effect")


def _chance_roll(draw: Any, data: dict) -> Expected:
    sides = data["dice"]["sides"]
    roll = draw(st.sampled_from([0, sides + 1, sides + 5]))
    test: dict[str, Any] = {"roll": roll}
    if draw(st.booleans()):
        test["then"] = [{"gain": {"stars": 1}}]
    path = insert_effect(draw, data, {"chance": test})
    return Expected("chance.roll out of range", _key(path + ("chance", "roll")), "must be")


def _reroll_off_board(draw: Any, data: dict) -> Expected:
    where = draw(st.sampled_from(["card", "nested", "action"]))
    if where == "card":
        index = ensure_card(draw, data)
        path = insert_effect(draw, data, "reroll_ones", [("cards", index, "effects")])
    elif where == "action":
        path = insert_effect(draw, data, "reroll_ones", [("all_out",), ("chance_it",)])
    else:  # inside a chance test, even on the board
        branch = draw(st.sampled_from(["then", "else"]))
        path = insert_effect(draw, data, {"chance": {"roll": 1, branch: ["reroll_ones"]}}) + ("chance", branch, 0)
    return Expected("reroll_ones off the board", _key(path), "reroll_ones works only as a board effect")


def _start_uncovered(draw: Any, data: dict) -> Expected:
    covered = [r for r in RESOURCES if data["start"].get(r, 0) > 0]
    resource = draw(st.sampled_from(covered))
    need = data["players"]["max"] * data["start"][resource]
    data.setdefault("supply", {})[resource] = {"small": draw(st.integers(0, need - 1)), "big": 0}
    return Expected("start not covered", ("start", resource), "but the supply holds only")


#: One breaker per validation rule of issue 2: each mutates valid data in place and says where the error must point.
BREAKERS: dict[str, Callable[[Any, dict], Expected]] = {
    "unknown key": _unknown_key,
    "missing sheet": _missing_sheet,
    "sheet length": _sheet_length,
    "last out entry": _last_not_all_out,
    "negative": _negative,
    "board face": _board_face,
    "when face": _when_face,
    "missing face": _missing_face,
    "duplicate id": _duplicate_id,
    "unknown resource": _unknown_resource,
    "unknown effect": _unknown_effect,
    "chance roll": _chance_roll,
    "reroll_ones on a card": _reroll_off_board,
    "start not covered": _start_uncovered,
}


@st.composite
def broken_variants(draw: Any, rules: tuple[str, ...] = tuple(BREAKERS)) -> tuple[dict, Expected]:
    """A valid variant with exactly one validation rule broken: (data, where the error must point)."""
    data = copy.deepcopy(draw(variants(largest_stake=1_000_000)))
    expected = BREAKERS[draw(st.sampled_from(rules))](draw, data)
    return data, expected
