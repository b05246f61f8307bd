"""Target dice: roll the number on the card exactly, with as many dice from the stock as you dare.

The published rulebook is not part of this repository; :mod:`.engine` spells out the normative
reading the workbench plays (the optional falling-dice rule is left out).
"""

from __future__ import annotations

from typing import Any

from workbench.games import Family
from workbench.games.base import FamilyParts
from workbench.games.target_dice.schema import PersonaFile, Variant, variant_file_schema

# Only the variant's model and what validating a file needs are imported here: the engine, the bots, the
# simulators, the odds and the reports are imported by the methods that use them (a command imports what it runs).


class TargetDice(FamilyParts):
    """The target-dice family, as the command line sees it (its shared parts: :class:`FamilyParts`)."""

    game = "target-dice"
    title = "Target dice"
    variant_model = Variant
    default_bot = "greedy"
    package = __name__
    persona_file = PersonaFile

    def player_range(self, variant: Variant) -> tuple[int, int]:
        """The fewest and most players the variant is for."""
        return variant.players.min, variant.players.max

    def new_game(self, variant: Variant, players: int, seed: int) -> Any:
        from workbench.games.target_dice.chance import RandomChance
        from workbench.games.target_dice.engine import Game, compile_variant

        return Game(compile_variant(variant), players, RandomChance.streams(seed, 0))

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder, weakest first: random, greedy, then search."""
        return ("random", "greedy", "search")

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of the variant and scenario files."""
        from workbench.games.target_dice.scenario import Scenario

        return {"variant": variant_file_schema(), "scenario": Scenario.model_json_schema(by_alias=True)}


FAMILY: Family = TargetDice()
