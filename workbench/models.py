"""The building blocks every family's file formats share: the strict base model, counts and key paths."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, Strict

Count = Annotated[int, Strict(), Field(ge=0, le=1_000_000)]
Positive = Annotated[int, Strict(), Field(ge=1, le=1_000_000)]

#: A key path in a YAML file, as the file names it: ("stakes", 4, "in").
KeyPath = tuple[str | int, ...]


class Model(BaseModel):
    """Base of every model of a designer's file: unknown keys are errors and values never change."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # keys only as designers write them: `else`, never `else_`
