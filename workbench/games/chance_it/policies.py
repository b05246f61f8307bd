"""Chance It's bot policies (see :mod:`workbench.policies`): random, heuristic, search and equilibrium, the
parameters each reads, and the bots that play them (:mod:`.bots`, imported when a bot is made). All four play in the
batch engine too, by their kernel codes."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from workbench.models import Model
from workbench.policies import register_policy

GAME = "chance-it"

Weight = Annotated[float, Field(ge=-100, le=100)]


class Weights(Model):
    """What the heuristic bot weighs (see docs/how-to/simulate.md, "Bots"), and with it the search bot's playouts' players."""

    star: Weight = Field(1.0, description="Value of a star.")
    heart: Weight = Field(0.4, description="Value of a heart at or above min_hearts.")
    coin: Weight = Field(0.25, description="Value of a coin.")
    min_hearts: Annotated[int, Strict(), Field(ge=0, le=100)] = Field(
        3, description="Hearts below which the bot feels in danger."
    )
    danger: Weight = Field(1.5, description="Extra cost of each heart missing below min_hearts.")
    chance_it: Weight = Field(0.0, description="Extra liking for the CHANCE IT guide (a gambler's bias).")
    horizon: Annotated[float, Field(gt=0, le=100)] = Field(
        5.0, description="Rounds over which a kept card is expected to pay (more than 0: a card is valued per round)."
    )
    reserve: Annotated[int, Strict(), Field(ge=0, le=100)] = Field(0, description="Coins never spent on cards.")


class Heuristic(Weights):
    """What the heuristic bot reads: its weights, and how far its choices stray from the best by its values."""

    temperature: Annotated[float, Field(ge=0, le=100)] = Field(
        0.0,
        description=(
            "0: always the option worth most; more: an option is taken with a chance that grows as exp(value / "
            "temperature), so options within about a temperature of the best are taken now and then (in stars: a "
            "quantal-response player, as `calibrate` fits one to a group's recorded games). Interpreter only."
        ),
    )


class Search(Weights):
    """What the search bot reads: the heuristic's weights (its playouts' bots), its playouts and their depth."""

    playouts: Annotated[int, Strict(), Field(ge=1, le=10_000)] = Field(16, description="search: playouts per option.")
    depth: Annotated[int, Strict(), Field(ge=0, le=200)] = Field(4, description="search: rounds played out after the decision.")


class Equilibrium(Search):
    """What the equilibrium bot reads: the search bot's parameters (its market and card decisions are the search
    bot's), and for its guide the futures sampled per joint choice of the seats and the iterations of regret
    matching over them."""

    samples: Annotated[int, Strict(), Field(ge=1, le=1_000)] = Field(
        4, description="equilibrium: sampled futures per joint guide choice of the seats."
    )
    iterations: Annotated[int, Strict(), Field(ge=1, le=100_000)] = Field(
        1000, description="equilibrium: iterations of regret matching over the joint choices' payoffs."
    )


#: The batch forms that play at the kernel's search level (their decisions play sampled futures).
SEARCH_LEVEL = ("SEARCH_BOT", "EQUILIBRIUM_BOT")

register_policy(GAME, "random", None, "workbench.games.chance_it.bots:RandomBot.of", batch="RANDOM_BOT")
register_policy(GAME, "heuristic", Heuristic, "workbench.games.chance_it.bots:HeuristicBot", batch="HEURISTIC_BOT")
register_policy(GAME, "search", Search, "workbench.games.chance_it.bots:SearchBot", batch="SEARCH_BOT")
register_policy(GAME, "equilibrium", Equilibrium, "workbench.games.chance_it.bots:EquilibriumBot", batch="EQUILIBRIUM_BOT")

__all__ = ["GAME", "SEARCH_LEVEL", "Equilibrium", "Heuristic", "Search", "Weights"]
