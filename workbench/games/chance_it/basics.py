"""The building blocks every Chance It model shares: resources and amounts (the family-agnostic ones are in
:mod:`workbench.models`).

They live apart from :mod:`.schema` so that the effect kinds (:mod:`.effects`), which the
schema is built from, can use them too.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import field_validator

from workbench.models import Count, Model

Resource = Literal["coins", "hearts", "stars"]
#: The resources in their fixed order; the engine indexes them 0, 1, 2.
RESOURCES: tuple[str, ...] = ("coins", "hearts", "stars")
COINS, HEARTS, STARS = range(3)

Amounts = dict[Resource, Count]


class AmountsModel(Model):
    """A one-key effect whose value names resources and amounts ({gain: {hearts: 1}})."""

    @field_validator("*", check_fields=False)
    @classmethod
    def not_empty(cls, value: Any) -> Any:
        """An effect names at least one resource (checked after the resources themselves)."""
        if isinstance(value, dict) and not value:
            raise ValueError("name at least one resource, for example {hearts: 1}")
        return value
