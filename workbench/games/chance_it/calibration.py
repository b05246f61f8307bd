"""Chance It's decisions as ``calibrate`` fits a persona to them: each recorded choice, with what the heuristic bot
would value each option at, for any weights.

A recorded game is replayed, and every decision with more than one option (a guide, a market move, a card to use, a
``choose`` option, a victim) is kept with the seat's view as it stood (:meth:`View.kept`): the heuristic bot of any
persona values its options again from it, exactly as it would have at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from workbench.errors import ScenarioError
from workbench.games.chance_it.bots import HeuristicBot
from workbench.games.chance_it.chance import bot_stream
from workbench.games.chance_it.engine import MarketMove, View, compile_variant
from workbench.games.chance_it.rules import CardDef, Effects
from workbench.games.chance_it.scenario import Scenario, ScriptedDecider, scripted_game
from workbench.games.chance_it.schema import Persona, Variant
from workbench.loading import Document, validate
from workbench.sim.calibrating import Parameter

#: The heuristic's parameters calibrate fits, each with its range and the precision that settles it (in its unit;
#: star is the unit of value and stays 1, min_hearts and reserve are whole numbers and stay as the start persona has
#: them).
PARAMETERS = (
    Parameter("heart", 0.0, 5.0, 0.1, "value of a heart, in stars"),
    Parameter("coin", 0.0, 2.0, 0.05, "value of a coin, in stars"),
    Parameter("danger", 0.0, 10.0, 0.25, "extra cost of each heart missing below min_hearts"),
    Parameter("chance_it", -5.0, 5.0, 0.25, "liking for the CHANCE IT guide, in stars"),
    Parameter("horizon", 0.5, 30.0, 1.0, "rounds over which a kept card is expected to pay", log=True),
)


@dataclass(frozen=True)
class Decision:
    """One recorded decision: its kind, the seat's view as it stood, the options and the one taken."""

    kind: str  #: guide, market, use, choose or target
    view: View
    options: tuple[Any, ...]
    chosen: int
    taking: tuple[tuple[int, int], ...] = ()  #: what a steal takes (a target's decision)

    def values(self, bot: HeuristicBot) -> list[float]:
        """What ``bot`` values each option at."""
        view, options = self.view, self.options
        if self.kind == "guide":
            values = bot.guide_values(view)
            return [values[guide] for guide in options]
        if self.kind == "market":
            return [bot.move_value(view, move) for move in options]
        if self.kind == "use":
            return bot.use_values(view, options)
        if self.kind == "choose":
            return bot.choose_values(view, options)
        return bot.target_values(view, options, self.taking)


class _Watching:
    """A scripted seat whose every decision of two or more options is kept as a :class:`Decision`."""

    def __init__(self, inner: ScriptedDecider, kept: list[Decision]):
        self.inner, self.kept = inner, kept

    def _keep(self, kind: str, view: View, options: Sequence[Any], chosen: int, taking: tuple[tuple[int, int], ...] = ()) -> None:
        if len(options) > 1:
            self.kept.append(Decision(kind, view.kept(), tuple(options), chosen, taking))

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        guide = self.inner.guide(view, options)
        self._keep("guide", view, options, options.index(guide))
        return guide

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        move = self.inner.market(view, options)
        self._keep("market", view, options, options.index(move))
        return move

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        card = self.inner.use(view, options)
        self._keep("use", view, options, options.index(card))
        return card

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        index = self.inner.choose(view, options, texts)
        self._keep("choose", view, options, index)
        return index

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        seat = self.inner.target(view, options, taking)
        self._keep("target", view, options, options.index(seat), taking)
        return seat


def decisions(docs: Sequence[Document], variant: Variant) -> list[list[Decision]]:
    """Every decision of two or more options in each recorded game, in the order they were made (the games share
    one compiled variant, so a bot values all of them on one model)."""
    rules = compile_variant(variant)
    games = []
    for doc in docs:
        scenario = validate(Scenario, doc, ScenarioError)
        kept: list[Decision] = []
        scripted_game(scenario, doc, rules, partial(_Watching, kept=kept))
        games.append(kept)
    return games


def values(kept: Sequence[Decision], persona: Persona) -> list[list[float]]:
    """What a heuristic bot of ``persona`` values each option of each decision at."""
    bot = HeuristicBot(persona, bot_stream(0, 0, 0))  # it only values: it never draws
    return [decision.values(bot) for decision in kept]
