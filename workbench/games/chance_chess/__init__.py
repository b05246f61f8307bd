"""Chance Chess: chess in which a drawn card names the piece you may move, on python-chess.

The published rules are not part of this repository; :mod:`.engine` spells out the normative reading the workbench
plays. The deck (cards per piece type, ``any`` and ``reshuffle``) is the design surface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from workbench.games import Family
from workbench.games.base import FamilyParts
from workbench.games.chance_chess.schema import PersonaFile, Variant, variant_file_schema

# Only the variant's model and what validating a file needs are imported here: the engine, the bots, the
# simulators, the odds and the reports are imported by the methods that use them (a command imports what it runs).


class ChanceChess(FamilyParts):
    """The Chance Chess family, as the command line sees it (its shared parts: :class:`FamilyParts`)."""

    game = "chance-chess"
    title = "Chance Chess"
    variant_model = Variant
    default_bot = "greedy"
    notation = "PGN"
    package = __name__
    persona_file = PersonaFile

    @property
    def notated(self) -> Self:
        """Chance Chess games are written in PGN."""
        return self

    def player_range(self, variant: Variant) -> tuple[int, int]:
        """Two players: white and black."""
        return 2, 2

    def new_game(self, variant: Variant, players: int, seed: int) -> Any:
        from workbench.games.chance_chess.engine import Game, RandomChance, compile_variant

        return Game(compile_variant(variant), RandomChance.streams(seed, 0))

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder, weakest first: random, greedy, then search."""
        return ("random", "greedy", "search")

    def notate(self, output: dict[str, Any], *, event: str, names: Sequence[str] = (), seed: int | None = None) -> str:
        """A played or replayed game (its final state with the event log) in PGN, the cards drawn as comments."""
        from workbench.games.chance_chess.notation import pgn

        return pgn(output, event=event, names=names or ("?", "?"), seed=seed)

    def odds(self, variant: Variant) -> dict[str, Any]:
        """The exact odds of the variant's deck, as plain data."""
        from workbench.games.chance_chess.odds import odds

        return odds(variant)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of the variant and scenario files."""
        from workbench.games.chance_chess.scenario import Scenario

        return {"variant": variant_file_schema(), "scenario": Scenario.model_json_schema(by_alias=True)}


FAMILY: Family = ChanceChess()
