"""The target-dice variant format: frozen pydantic models, one per YAML mapping.

The models check shape and types field by field; :meth:`Variant.rule_problems` finds what
needs several fields at once (number cards against the dice, a deck that can always give
a number card, player counts) and names the YAML keys in its messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import Field, Strict

from workbench.games.target_dice.policies import GAME, Search
from workbench.models import KeyPath, Model, Positive, VariantModel, file_schema
from workbench.personas import PersonaFileModel, PersonaName, named_like_builtins
from workbench.policies import PolicyPersona

#: The special cards, in the order tables and counters list them.
SPECIALS: tuple[str, ...] = ("red", "orange", "yellow", "purple")
Special = Literal["red", "orange", "yellow", "purple"]
#: What happens to a roll below the target: its dice stay on the table (``keep``) or go back (``miss``).
Under = Literal["keep", "miss"]

#: Copies of one card in the deck.
Copies = Annotated[int, Strict(), Field(ge=0, le=100)]
#: The number printed on a number card.
Number = Annotated[int, Strict(), Field(ge=1, le=10_000)]


class Players(Model):
    """How many people the variant is for."""

    min: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Fewest players.")
    max: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Most players.")


class Dice(Model):
    """The stock of dice every turn takes from."""

    count: Annotated[int, Strict(), Field(ge=1, le=20)] = Field(description="Dice in the stock.")
    sides: Annotated[int, Strict(), Field(ge=2, le=100)] = Field(description="Faces per die, numbered 1..sides.")


class Specials(Model):
    """Copies of each special card in the deck (0: the card is not in the game)."""

    red: Copies = Field(0, description="Red: after the roll, return one rolled die to the stock or roll one more.")
    orange: Copies = Field(0, description="Orange: after the roll, add or subtract 1 from the result, or not.")
    yellow: Copies = Field(0, description="Yellow: a second number card; after the roll, choose which one the roll was for.")
    purple: Copies = Field(0, description="Purple: after the roll, keep it or roll all those dice again.")

    def copies(self) -> dict[str, int]:
        """Copies by colour, in the order of :data:`SPECIALS`."""
        return {colour: getattr(self, colour) for colour in SPECIALS}


class Deck(Model):
    """The cards: number cards (the targets) and special cards."""

    numbers: dict[Number, Annotated[int, Strict(), Field(ge=1, le=100)]] = Field(
        description="Number card -> copies in the deck (5: 2 puts two 5s in the deck).",
        json_schema_extra={"propertyNames": {"pattern": "^[1-9][0-9]{0,3}$"}},
    )
    specials: Specials = Field(Specials(), description="Copies of each special card (red, orange, yellow, purple).")

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(self.numbers.values()) + sum(self.specials.copies().values())


# --- bot personas ----------------------------------------------------------------------------------------------


class Persona(Search, PolicyPersona):
    """A bot for simulations: a policy and its parameters (see :mod:`workbench.games.target_dice.bots`)."""

    game = GAME


Personas = dict[PersonaName, Persona]


PersonaFile = PersonaFileModel[Persona]  # the file of bot personas, for ``--personas``


# --- the variant -----------------------------------------------------------------------------------------------


class Variant(VariantModel):
    """A target-dice rules variant."""

    game: Literal["target-dice"] = Field(description="The game family.")
    players: Players = Field(description="How many people the variant is for.")
    dice: Dice = Field(description="The stock of dice.")
    deck: Deck = Field(description="Number cards and special cards, with their copies.")
    goal: Positive = Field(50, description="Points that end the game at once.")
    under: Under = Field(
        "keep",
        description=(
            "A roll below the target: keep (the dice stay on the table, the next players roll for the difference "
            "and the last valid roll scores at the round's end) or miss (the dice go back; nothing is kept)."
        ),
    )
    max_rounds: Annotated[int, Strict(), Field(ge=1, le=100_000)] = Field(
        200, description="Rounds after which the game stops (the highest score wins)."
    )
    bots: Personas = Field({}, description="Bot personas for simulations: name -> {policy, parameters}.")

    def rule_problems(self) -> Iterator[tuple[KeyPath, str]]:
        players, dice, deck = self.players, self.dice, self.deck
        if players.max < players.min:
            yield ("players", "max"), f"max ({players.max}) is below min ({players.min})"
        most = dice.count * dice.sides
        for number in sorted(deck.numbers):
            if number > most:
                yield (
                    ("deck", "numbers", number),
                    f"{number} can never be hit: the stock's {dice.count} dice with {dice.sides} sides roll at most {most}",
                )
        cards = sum(deck.numbers.values())
        if not cards:
            yield ("deck", "numbers"), "the deck needs at least one number card (a round's target)"
        elif cards < 2 and deck.specials.yellow:
            yield (
                ("deck", "specials", "yellow"),
                "a yellow card needs a second number card, but the deck holds only one number card",
            )
        yield from named_like_builtins(self.bots, PersonaFile.builtin_names())


def variant_file_schema() -> dict[str, Any]:
    """JSON Schema of a variant *file* (see :func:`workbench.models.file_schema`)."""
    return file_schema(Variant.model_json_schema(by_alias=True))


__all__ = [
    "SPECIALS",
    "Deck",
    "Dice",
    "Persona",
    "PersonaFile",
    "Players",
    "Special",
    "Specials",
    "Under",
    "Variant",
    "variant_file_schema",
]
