"""Target dice's bot policies (see :mod:`workbench.policies`): random, greedy and search, the parameters each reads,
and the bots that play them (:mod:`.bots`, imported when a bot is made)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from workbench.models import Model
from workbench.policies import register_policy

GAME = "target-dice"


class Search(Model):
    """What the search bot reads (greedy is search with no look-ahead and no rivals)."""

    depth: Annotated[int, Strict(), Field(ge=0, le=11)] = Field(
        3,
        description=(
            "search: how many of the following players' replies it plays out (0: none; a holding still open then "
            "counts for nothing, as greedy counts it)."
        ),
    )
    rivals: Annotated[float, Field(ge=0, le=10, allow_inf_nan=False)] = Field(
        0.5,
        description="search: how much each point the following players are expected to score this round costs it (0: none).",
    )


register_policy(GAME, "random", None, "workbench.games.target_dice.bots:RandomBot.of")
register_policy(GAME, "greedy", None, "workbench.games.target_dice.bots:PlanningBot.greedy")
register_policy(GAME, "search", Search, "workbench.games.target_dice.bots:PlanningBot.searching")

__all__ = ["GAME", "Search"]
