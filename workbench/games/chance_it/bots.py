"""Bots: deciders that choose for a seat from their own random stream.

A bot never sees the engine's chance source, only the game it is shown and the
legal options it is offered.
"""

from __future__ import annotations

import random

from workbench.games.chance_it.engine import MarketMove, View
from workbench.games.chance_it.rules import CardDef


class RandomBot:
    """Uniform over the legal options."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        return options[int(self.rng.random() * len(options))]

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        return options[int(self.rng.random() * len(options))]

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return options[int(self.rng.random() * len(options))]
