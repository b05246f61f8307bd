"""The building blocks every Chance It model shares: resources, amounts, the strict base model.

They live apart from :mod:`.schema` so that the effect kinds (:mod:`.effects`), which the
schema is built from, can use them too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator

Resource = Literal["coins", "hearts", "stars"]
#: The resources in their fixed order; the engine indexes them 0, 1, 2.
RESOURCES: tuple[str, ...] = ("coins", "hearts", "stars")
COINS, HEARTS, STARS = range(3)

Count = Annotated[int, Strict(), Field(ge=0, le=1_000_000)]
Positive = Annotated[int, Strict(), Field(ge=1, le=1_000_000)]
Amounts = dict[Resource, Count]

#: A key path in the variant, as the YAML names it: ("stakes", 4, "in").
KeyPath = tuple[str | int, ...]


class Model(BaseModel):
    """Base of every variant model: unknown keys are errors and values never change."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # keys only as designers write them: `else`, never `else_`


class AmountsModel(Model):
    """A one-key effect whose value names resources and amounts ({gain: {hearts: 1}})."""

    @field_validator("*", check_fields=False)
    @classmethod
    def not_empty(cls, value: Any) -> Any:
        """An effect names at least one resource (checked after the resources themselves)."""
        if isinstance(value, dict) and not value:
            raise ValueError("name at least one resource, for example {hearts: 1}")
        return value
