"""The Chance It variant format: frozen pydantic models, one per YAML mapping.

The models check shape and types field by field; :meth:`Variant.rule_problems` finds
what needs several fields at once (sheet sizes against player counts, die faces
against the dice) and names the YAML keys in its messages.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    GetPydanticSchema,
    Strict,
    Tag,
    field_validator,
    model_validator,
    with_config,
)
from typing_extensions import TypedDict  # pydantic reads typing.TypedDict only from Python 3.12

from workbench.games.chance_it.basics import RESOURCES, Resource
from workbench.games.chance_it.effects import REGISTRY, DieEffect, Effect, Site, kind_of, with_effects
from workbench.games.chance_it.policies import GAME, Equilibrium, Heuristic
from workbench.loading import did_you_mean
from workbench.models import REMOVES, Count, KeyPath, Model, Positive, VariantModel, file_schema
from workbench.personas import PersonaFileModel, PersonaName, named_like_builtins
from workbench.policies import PolicyPersona

Guide = Literal["in", "out", "chance-it"]
#: The guide cards in the order bots and tables list them.
GUIDES: tuple[str, ...] = ("in", "out", "chance-it")

CARD_ID = r"^[a-z0-9][a-z0-9_-]*$"
WHEN = r"^(flash|chance-it|passive|die-[0-9]{1,3})$"
_DIE = re.compile(r"^die-([0-9]{1,3})$")


class Players(Model):
    """How many people the variant is for."""

    min: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Fewest players.")
    max: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Most players.")


class Start(Model):
    """What each player takes from the supply at setup."""

    coins: Count = Field(0, description="Starting coins.")
    hearts: Annotated[int, Strict(), Field(ge=1, le=1_000_000)] = Field(description="Starting hearts (at least 1).")
    stars: Count = Field(0, description="Starting stars.")


class Tokens(Model):
    """A limited supply made of small (value 1) and big tokens."""

    small: Count = Field(description="Small tokens, worth 1 each.")
    big: Count = Field(0, description="Big tokens.")
    big_value: Positive = Field(5, description="What one big token is worth.")

    @property
    def total(self) -> int:
        """Total value of the tokens."""
        return self.small + self.big * self.big_value


def by_kind(value: Any) -> str:
    """Tag a value by its YAML kind, so a union reports only the branch the designer meant."""
    if isinstance(value, str):
        return "word"
    if isinstance(value, (dict, BaseModel)):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "number"


SupplyEntry = Annotated[
    Annotated[Tokens, Tag("mapping")] | Annotated[Literal["unlimited"], Tag("word")],
    Discriminator(by_kind, custom_error_type="supply", custom_error_message="expected `unlimited` or {small, big, big_value}"),
]
OutEntry = Annotated[
    Annotated[Count, Tag("number")] | Annotated[Literal["all_out"], Tag("word")],
    Discriminator(by_kind, custom_error_type="out_entry", custom_error_message="expected a number of coins or all_out"),
]


class Supply(Model):
    """The physical tokens of each resource, or `unlimited`."""

    coins: SupplyEntry = Field("unlimited", description="Coin tokens.")
    hearts: SupplyEntry = Field("unlimited", description="Heart tokens.")
    stars: SupplyEntry = Field("unlimited", description="Star tokens.")

    def total(self, resource: str) -> int | None:
        """Total value of a resource's tokens; None when unlimited."""
        entry = getattr(self, resource)
        return None if entry == "unlimited" else entry.total


class Dice(Model):
    """The dice the starting player rolls each round."""

    count: Annotated[int, Strict(), Field(ge=1, le=20)] = Field(description="Dice rolled each round.")
    sides: Annotated[int, Strict(), Field(ge=2, le=100)] = Field(description="Faces per die, numbered 1..sides.")


class Sheet(Model):
    """One stakes sheet: what out-players take and in-players pay, by how many chose each."""

    out: tuple[OutEntry, ...] = Field(
        description="out[k-1]: coins each out-player takes when k played OUT; the last entry is all_out."
    )
    in_: tuple[Count, ...] = Field(alias="in", description="in[m-1]: coins each in or chance-it player pays when m are in.")
    source: Literal["printed", "proposed", "tuned"] = Field(
        "proposed", description="printed (from the box), proposed (a guess or the stakes tuner's proposal) or tuned."
    )
    provenance: dict[str, Any] | None = Field(
        None, description="Where a proposed sheet came from: the tuner's targets, bots, seed, budget and measured figures."
    )


class Market(Model):
    """How the market of face-up cards works."""

    face_up: Annotated[int, Strict(), Field(ge=1, le=50)] = Field(4, description="Cards laid out when the market is empty.")
    reshuffle_discard: bool = Field(True, description="Shuffle the discard pile into a new pile when the pile runs out.")


class End(Model):
    """When the game ends and who wins."""

    stars: Positive = Field(20, description="Stars that end the game.")
    tiebreak: tuple[Resource, ...] = Field(("stars", "hearts", "coins"), min_length=1, description="Winner order.")
    max_rounds: Annotated[int, Strict(), Field(ge=1, le=100_000)] = Field(200, description="Rounds after which the game stops.")

    @field_validator("tiebreak")
    @classmethod
    def each_resource_once(cls, tiebreak: tuple[str, ...]) -> tuple[str, ...]:
        """A resource named twice breaks no tie the first did not: a slip, refused."""
        twice = sorted({resource for resource in tiebreak if tiebreak.count(resource) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} named more than once: name each resource once, in the order that breaks ties")
        return tiebreak


# --- stakes tuning ---------------------------------------------------------------------------------------------

#: What the stakes tuner compares, by name (see docs/tutorials/stakes-sheets.md).
Metric = Literal[
    "rounds_mean",
    "rounds_sd",
    "eliminations_per_player",
    "out_share",
    "in_share",
    "chance_it_share",
    "no_winner",
    "balance",
    "in_out_gap",
]
TUNING_METRICS: tuple[str, ...] = typing.get_args(Metric)


#: A share or a rate: a finite number from 0 to 1.
Unit = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


@with_config(ConfigDict(extra="forbid"))
class Targets(TypedDict, total=False):
    """Target values of the tuned metrics, each in the range the metric can take."""

    rounds_mean: Annotated[
        float,
        Field(ge=1, allow_inf_nan=False, description="Rounds per game, mean: from 1 (every game has a round) to end.max_rounds."),
    ]
    rounds_sd: Annotated[
        float,
        Field(gt=0, le=100_000, allow_inf_nan=False, description="Rounds per game, spread (sd): more than 0, at most 100,000."),
    ]
    eliminations_per_player: Annotated[Unit, Field(description="Eliminations per game, per player: 0 to 1.")]
    out_share: Annotated[Unit, Field(description="Share of OUT picks: 0 to 1.")]
    in_share: Annotated[Unit, Field(description="Share of IN picks: 0 to 1.")]
    chance_it_share: Annotated[Unit, Field(description="Share of CHANCE IT picks: 0 to 1.")]
    no_winner: Annotated[Unit, Field(description="Share of games nobody wins: 0 to 1.")]
    balance: Annotated[Unit, Field(description="Balance, 1 - the largest gap between seats' win rates: 0 to 1.")]
    in_out_gap: Annotated[
        float,
        Field(ge=0, le=1000, allow_inf_nan=False, description="Bots' mean value gap between IN and OUT: 0 to 1,000."),
    ]


assert tuple(Targets.__annotations__) == TUNING_METRICS == typing.get_args(Metric)


class Tuning(Model):
    """How ``workbench tune-stakes`` searches: targets and weights to override, and bounds of the sheets."""

    # The tuner reads a plain mapping of metric names to numbers; validation (and the JSON Schema) use
    # Targets, so that each metric has its own range.
    targets: Annotated[dict[Metric, float], GetPydanticSchema(lambda _type, handler: handler(Targets))] = Field(
        {}, description="Target values that replace the printed sheets' measured ones (each within its metric's range)."
    )
    weights: dict[Metric, Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]] = Field(
        {}, description="Weight of each metric: a finite number from 0 to 100 (0 ignores the metric)."
    )
    out_max: Annotated[int, Strict(), Field(ge=0, le=20)] = Field(6, description="Most coins an OUT player may take.")
    in_max: Annotated[int, Strict(), Field(ge=0, le=20)] = Field(4, description="Most coins an IN player may pay.")

    @model_validator(mode="after")
    def aims_at_something(self) -> Tuning:
        """At least one metric keeps a weight above 0."""
        if len(self.weights) == len(TUNING_METRICS) and not any(self.weights.values()):  # a metric left out weighs 1
            raise ValueError("every weight is 0: the tuner would have nothing to aim at")
        return self


# --- bot personas ----------------------------------------------------------------------------------------------


class Persona(Equilibrium, Heuristic, PolicyPersona):
    """A bot for simulations: a policy and its parameters (see the README's "Bots")."""

    game = GAME


Personas = dict[PersonaName, Persona]


class PersonaFile(PersonaFileModel[Persona]):
    """A file of bot personas, for ``--personas`` (see :class:`workbench.personas.PersonaFileModel`)."""

    #: Built-in besides one bot per policy: a quicker search (4 playouts: a rung of the skill ladder).
    named: ClassVar[Mapping[str, Mapping[str, Any]]] = {"search-4": {"policy": "search", "playouts": 4}}


# --- cards and the variant --------------------------------------------------------------------------------------


class Card(Model):
    """A market card: when it is used, what it costs and does, how many copies are in the pile."""

    id: Annotated[str, Field(pattern=CARD_ID, max_length=40)] = Field(
        description="Short unique id (lower case, digits, - and _)."
    )
    name: Annotated[str, Field(min_length=1, max_length=60)] = Field(description="Name printed on the card.")
    when: Annotated[str, Field(json_schema_extra={"pattern": WHEN})] = Field(description="flash, chance-it, passive or die-N.")
    cost: Count = Field(0, description="Coins paid to buy it.")
    copies: Annotated[int, Strict(), Field(ge=1, le=100)] = Field(1, description="Copies in the market pile.")
    effects: tuple[Effect, ...] = Field(description="What the card does (at least one effect).")
    text: str | None = Field(None, description="Optional rules text for printing.")

    @field_validator("when")
    @classmethod
    def is_a_timing(cls, when: str) -> str:
        """flash, chance-it, passive or die-N, with a suggestion for a misspelt one."""
        if not re.match(WHEN, when):
            hint = did_you_mean(when, ("flash", "chance-it", "passive")) if not when.startswith("die") else ""
            raise ValueError(f"expected flash, chance-it, passive or die-N (N a face of the dice), got '{when}'{hint}")
        return when

    @field_validator("effects")
    @classmethod
    def has_effects(cls, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
        """A card does something (checked after its effects are valid)."""
        if not effects:
            raise ValueError("a card needs at least one effect")
        return effects

    @property
    def face(self) -> int | None:
        """The die face of a die card, else None."""
        match = _DIE.match(self.when)
        return int(match.group(1)) if match else None

    @property
    def where(self) -> str:
        """Where its effects stand, as effect kinds name it: ``die``, ``passive`` or ``card`` (flash or CHANCE IT)."""
        return "die" if self.face is not None else "passive" if self.when == "passive" else "card"


class Variant(VariantModel):
    """A Chance It rules variant."""

    game: Literal["chance-it"] = Field(description="The game family.")
    players: Players
    start: Start
    supply: Supply = Field(Supply(), description="Physical tokens; a resource may be `unlimited`.")
    dice: Dice
    stakes: dict[Annotated[int, Strict()], Sheet] = Field(
        description="One sheet per number of players still in the game, 2..players.max."
    )
    all_out: tuple[Effect, ...] = Field(description="Applied to every player when everybody played OUT.")
    chance_it: tuple[Effect, ...] = Field(description="The CHANCE IT action.")
    forced_in_after: Annotated[int, Strict(), Field(ge=1, le=12)] = Field(
        2, description="This many or more CHANCE IT players must play IN next round."
    )
    board: dict[Annotated[int, Strict()], tuple[Effect, ...]] = Field(description="Die face -> effects.")
    market: Market = Field(Market(), description="The market of face-up cards.")
    end: End = Field(End(), description="When the game ends.")
    cards: tuple[Card, ...] = Field(description="The market cards (inline, or paths of card files).")
    bots: Personas = Field({}, description="Bot personas for simulations: name -> {policy, parameters}.")
    tuning: Tuning = Field(Tuning(), description="Settings of the stakes tuner.")

    def rule_problems(self) -> Iterator[tuple[KeyPath, str]]:
        players, sides = self.players, self.dice.sides
        if players.max < players.min:
            yield ("players", "max"), f"max ({players.max}) is below min ({players.min})"
        for n, sheet in sorted(self.stakes.items()):
            if n < 2:
                yield ("stakes", n), "a stakes sheet is for 2 or more players"
                continue
            for key, entries in (("out", sheet.out), ("in", sheet.in_)):
                if len(entries) != n:
                    yield ("stakes", n, key), f"expected {n} entries, got {len(entries)}"
            if sheet.out and sheet.out[-1] != "all_out":
                yield ("stakes", n, "out", len(sheet.out) - 1), f"the last out entry must be all_out, got {sheet.out[-1]!r}"
            for index, entry in enumerate(sheet.out[:-1]):
                if entry == "all_out":
                    yield ("stakes", n, "out", index), "only the last out entry is all_out"
        for n in range(2, players.max + 1):
            if n not in self.stakes:
                yield (
                    ("stakes",),
                    (
                        f"missing the {n}-player stakes sheet (needed from 2 to players.max = {players.max}, "
                        f"since eliminations shrink the table); write one, or let `workbench tune-stakes` propose it"
                    ),
                )
        for face in sorted(self.board):
            if not 1 <= face <= sides:
                yield ("board", face), f"no face {face} on a {sides}-sided die"
        missing = [face for face in range(1, sides + 1) if face not in self.board]
        if missing:
            faces = ", ".join(map(str, missing))
            if self.board and missing[0] > max(self.board):  # more sides than the board has faces: located at the
                # dice, where a variant that extends another changed them (its board is the other file's)
                yield ("dice", "sides"), (
                    f"dice of {sides} sides, but the board has no entry for face {faces} (add `{missing[0]}: []` to the "
                    "board for a face that does nothing)"
                )  # fmt: skip
            else:
                yield ("board",), f"no entry for face {faces} (write `{missing[0]}: []` for a face that does nothing)"
        for face, effects in self.board.items():
            yield from self._check_effects(effects, ("board", face), "board", face=face)
            steps = [index for index, effect in enumerate(effects) if isinstance(kind_of(effect), DieEffect)]
            for index in steps[1:]:  # a die is moved once: a second step would move a die no longer there
                first = kind_of(effects[steps[0]]).tag
                yield ("board", face, index), f"face {face} already has {first}: a die is moved once (remove one)"
        yield from self._check_effects(self.all_out, ("all_out",), "all_out")
        yield from self._check_effects(self.chance_it, ("chance_it",), "chance_it")
        yield from named_like_builtins(self.bots, PersonaFile.builtin_names())
        first_index: dict[str, int] = {}
        for index, card in enumerate(self.cards):
            if card.id in first_index:
                yield ("cards", index, "id"), f"duplicate card id '{card.id}' (also cards.{first_index[card.id]})"
            first_index.setdefault(card.id, index)
            if card.face is not None and not 1 <= card.face <= sides:
                yield ("cards", index, "when"), f"no face {card.face} on a {sides}-sided die"
            yield from self._check_effects(card.effects, ("cards", index, "effects"), card.where)
        rounds = self.tuning.targets.get("rounds_mean")
        if rounds is not None and rounds > self.end.max_rounds:
            yield (
                ("tuning", "targets", "rounds_mean"),
                f"a mean of {rounds:g} rounds is beyond end.max_rounds ({self.end.max_rounds}): no game lasts that long",
            )
        if self.start.stars >= self.end.stars:
            yield (
                ("start", "stars"),
                f"{self.start.stars} stars at the start reach end.stars ({self.end.stars}): the game would be over before it begins",
            )
        for resource in RESOURCES:
            total = self.supply.total(resource)
            need = players.max * getattr(self.start, resource)
            if total is not None and need > total:
                yield (
                    ("start", resource),
                    (
                        f"{players.max} players x {getattr(self.start, resource)} {resource} = {need}, "
                        f"but the supply holds only {total}"
                    ),
                )

    def _check_effects(
        self,
        effects: tuple[Effect, ...],
        key: KeyPath,
        where: str,
        *,
        face: int | None = None,
        repeat: int = 1,
        depth: int = 0,
    ) -> Iterator[tuple[KeyPath, str]]:
        """Each effect where it stands: its placement (board, passive card, anywhere), then its kind's own checks.

        ``where`` is the list's place, ``face`` the board face of a list written directly on the board,
        ``repeat`` how many times the effects around the list may apply it (see :class:`Site`) and ``depth``
        how many effects hold the list.
        """
        if depth > MOST_NESTING and effects:
            yield key, f"effects nest {depth} deep here; at most {MOST_NESTING} (nobody could read such a card at the table)"
            return
        sides = self.dice.sides
        passives = sorted(tag for tag, kind in REGISTRY.items() if kind.placement == "passive")
        for index, effect in enumerate(effects):
            path, kind, site = key + (index,), kind_of(effect), Site(sides, face, where, self.dice.count, repeat)
            if kind.placement == "board" and site.face is None:
                yield path, f"{kind.tag} works only as a board effect ({kind.placement_reason})"
            elif kind.placement == "passive" and where != "passive":
                yield path, f"{kind.tag} works only on a passive card (when: passive): {kind.placement_reason}"
            elif where == "passive" and kind.placement != "passive":
                yield (
                    path,
                    f"a passive card is never used, so it holds only {', '.join(passives)}; "
                    f"{kind.tag} needs a card with when: flash, chance-it or die-N",
                )
            else:  # an effect that cannot stand here is one problem: what it holds is not looked at
                yield from kind.check(effect, path, site)
                for below, items in kind.children(effect):
                    repeats = repeat * kind.repeats(effect, site)
                    yield from self._check_effects(items, path + below, where, repeat=repeats, depth=depth + 1)


#: How deep effect lists may nest inside one another (``chance`` in ``choose`` in ``for_each`` ...).
MOST_NESTING = 12


def variant_file_schema() -> dict[str, Any]:
    """JSON Schema of a variant *file*: the variant, plus ``extends``, card-file paths and the edits of inherited content.

    A file that extends another may leave out any key, so the required keys apply
    only to files without ``extends``. It may also set an inherited key to null to remove
    it (a top-level key, a stakes sheet, a persona), and edit the inherited cards with
    ``cards_remove`` (ids) and ``cards_add`` (cards replacing the same id, or added).
    """
    schema = with_effects(Variant.model_json_schema(by_alias=True))
    properties = schema["properties"]
    card_or_file = {
        "anyOf": [{"$ref": "#/$defs/Card"}, {"type": "string", "description": "Path of a card file (a list of cards)."}]
    }
    properties["cards"]["items"] = card_or_file
    properties["stakes"]["additionalProperties"] = {"anyOf": [properties["stakes"]["additionalProperties"], REMOVES]}
    file_schema(schema)
    properties["cards_remove"] = {
        "type": "array",
        "items": {"type": "string"},
        "description": "Ids of inherited cards to take out (each must exist).",
    }
    properties["cards_add"] = {
        "type": "array",
        "items": card_or_file,
        "description": "Cards that replace the inherited card of the same id where it stands, or are added at the end.",
    }
    return schema


def to_yaml(variant: Variant) -> str:
    """The variant as YAML that loads back to an equal variant (keys as the format names them)."""
    import yaml

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(item) for item in value]
        return value

    # allow_unicode=False: non-ASCII text is written escaped, so line-break-like characters (U+0085) survive
    return yaml.safe_dump(plain(variant.model_dump(by_alias=True, exclude_unset=True)), sort_keys=False, allow_unicode=False)
