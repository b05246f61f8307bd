"""The building blocks every family's file formats share: the strict base model, counts and key paths."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field, Strict, model_validator
from pydantic_core import PydanticCustomError

Count = Annotated[int, Strict(), Field(ge=0, le=1_000_000)]
Positive = Annotated[int, Strict(), Field(ge=1, le=1_000_000)]

#: A key path in a YAML file, as the file names it: ("stakes", 4, "in").
KeyPath = tuple[str | int, ...]


class Model(BaseModel):
    """Base of every model of a designer's file: unknown keys are errors and values never change."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # keys only as designers write them: `else`, never `else_`


class RulesModel(Model):
    """A model with rules across several keys (a variant): :meth:`rule_problems` names each broken one at its key
    path, and every problem is reported together."""

    @model_validator(mode="after")
    def check_rules(self) -> Self:
        """Rules that involve several keys; all problems are reported together."""
        problems = list(self.rule_problems())
        if problems:
            raise rules_error(problems)
        return self

    def rule_problems(self) -> Iterator[tuple[KeyPath, str]]:
        """Each rule across keys the model breaks: its key path and what is wrong."""
        return iter(())


class VariantModel(RulesModel):
    """The base of a family's variant model: its name, its game (each family narrows ``game`` to its own name, in the
    same place) and what it is about, before the family's own keys."""

    name: Annotated[str, Field(min_length=1, max_length=120)] = Field(description="The variant's name.")
    game: str = Field(description="The game family.")
    description: str | None = Field(None, description="What this variant is about.")


class Playtest(Model):
    """Where a script's game comes from when people played it at a table (``workbench record`` writes it)."""

    date: datetime.date | None = Field(None, description="The day it was played (YYYY-MM-DD).")
    table: tuple[Annotated[str, Field(min_length=1, max_length=40)], ...] = Field(
        (), description="The players' names or initials, one per seat from seat 0 (or none)."
    )
    notes: str | None = Field(None, description="Anything worth remembering about the game.")
    unfinished: bool = Field(
        False, description="The game was stopped before its end: the script holds the rounds entered so far."
    )


class ScenarioModel(RulesModel):
    """What every game's scenario script starts with: what it shows, the variant it plays, the keys it changes and,
    for a game played by people, its ``playtest`` header."""

    description: str | None = Field(None, description="What this scenario shows.")
    variant: str = Field(description="Path of the variant file, relative to this file.")
    overrides: dict[str, Any] | None = Field(None, description="Merged onto the variant like `extends`.")
    playtest: Playtest | None = Field(None, description="A game played by people at a table: when, who, notes.")

    def rule_problems(self) -> Iterator[tuple[KeyPath, str]]:
        """A playtest's table names every seat, or none."""
        players = getattr(self, "players", None)
        if self.playtest is not None and self.playtest.table and players is not None and len(self.playtest.table) != players:
            yield ("playtest", "table"), f"names {len(self.playtest.table)} players for a game of {players}: one per seat"


def rules_error(problems: list[tuple[KeyPath, str]]) -> PydanticCustomError:
    """The error a model's check across keys raises: it carries every problem, each at its key path, to the loader
    (which reports each at its line)."""
    return PydanticCustomError("rules", "{count} rule problem(s)", {"count": len(problems), "problems": problems})


#: A variant file's null for a key: it removes the entry the file would inherit.
REMOVES = {"type": "null", "description": "null removes the inherited entry (in a file with extends)."}


def file_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A variant model's JSON Schema (changed in place) made that of a variant *file*: ``extends``, and a null for any
    top-level key or persona of ``bots`` to remove the inherited one; the required keys only bind a file without
    ``extends`` (a file that extends another may leave out any key)."""
    properties = schema["properties"]
    personas = properties["bots"]["patternProperties"]
    for pattern, persona in personas.items():
        personas[pattern] = {"anyOf": [persona, REMOVES]}
    for name in list(properties):
        properties[name] = {"anyOf": [properties[name], REMOVES]}
    properties["extends"] = {"type": "string", "description": "Path of the variant this one builds on."}
    required = schema.pop("required")
    schema["if"] = {"not": {"required": ["extends"]}}
    schema["then"] = {"required": required}
    return schema
