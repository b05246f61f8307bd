"""Chance Chess's bot policies (see :mod:`workbench.policies`): random, greedy and search, the parameters each
reads, and the bots that play them (:mod:`.bots`, imported when a bot is made)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from workbench.models import Model
from workbench.policies import register_policy

GAME = "chance-chess"


class Search(Model):
    """What the search bot reads."""

    depth: Annotated[int, Strict(), Field(ge=1, le=4)] = Field(
        2,
        description=(
            "search: card draws looked ahead, its own included (1: the best move for the card drawn; 2: and the "
            "expected best reply over the opponent's next card; ...)."
        ),
    )
    budget: Annotated[int, Strict(), Field(ge=1, le=1_000_000)] = Field(
        400, description="search: positions it may evaluate per decision; past it, the rest are judged by material alone."
    )
    mobility: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = Field(
        2.0, description="search: centipawns per move a side can make more than the other (a pawn is 100)."
    )


register_policy(GAME, "random", None, "workbench.games.chance_chess.bots:RandomBot.of")
register_policy(GAME, "greedy", None, "workbench.games.chance_chess.bots:GreedyBot.of")
register_policy(GAME, "search", Search, "workbench.games.chance_chess.bots:SearchBot")

__all__ = ["GAME", "Search"]
