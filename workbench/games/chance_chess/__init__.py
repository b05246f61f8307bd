"""Chance Chess: chess in which a drawn card names the piece you may move, on python-chess.

The published rules are not part of this repository; :mod:`.engine` spells out the normative reading the workbench
plays. The deck (cards per piece type, ``any`` and ``reshuffle``) is the design surface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.errors import ScenarioError
from workbench.games.chance_chess.schema import Persona, PersonaFile, Variant, variant_file_schema
from workbench.loading import Document, validate

if TYPE_CHECKING:
    from workbench.expect import Replay
    from workbench.games.chance_chess.sim import Simulator
    from workbench.play import Answer
    from workbench.render.report import Figures
    from workbench.sim.paired import Measure

# Only the variant's model and what validating a file needs are imported here: the engine, the bots, the
# simulators, the odds and the reports are imported by the methods that use them (a command imports what it runs).


class ChanceChess:
    """The Chance Chess family, as the command line sees it."""

    game = "chance-chess"
    title = "Chance Chess"
    includes: tuple[str, ...] = ()
    variant_model = Variant
    default_bot = "greedy"
    notation = "PGN"

    def player_range(self, variant: Variant) -> tuple[int, int]:
        """Two players: white and black."""
        return 2, 2

    def summary(self, variant: Variant) -> list[tuple[str, str]]:
        """Short (label, text) lines describing a valid variant."""
        from workbench.games.chance_chess.text import summary

        return summary(variant)

    def play(
        self, variant: Variant, players: int, seed: int, bots: Sequence[Persona], people: Mapping[int, Answer]
    ) -> dict[str, Any]:
        """Play one seeded game, the seats of ``people`` asked, the others played by ``bots``; the final state."""
        from workbench.games.chance_chess.bots import make_bot
        from workbench.games.chance_chess.engine import Game, RandomChance, compile_variant
        from workbench.games.chance_chess.person import Person
        from workbench.sim.seeding import stream

        game = Game(compile_variant(variant), RandomChance.streams(seed, 0))
        game.play(
            [
                Person(seat, game, people[seat]) if seat in people else make_bot(persona, stream(seed, 0, "bot", seat))
                for seat, persona in enumerate(bots)
            ]
        )
        return game.snapshot()

    def personas(self, variant: Variant, extra: Path | None = None) -> dict[str, Persona]:
        """Bots by name: the built-in policies, the variant's ``bots:`` and those of an extra personas file."""
        from workbench.games.chance_chess.bots import BUILTIN
        from workbench.personas import load_personas

        found, _ = load_personas(BUILTIN, variant.bots, PersonaFile, extra)
        return found

    def replay(self, doc: Document, variant: Variant) -> Replay:
        """Replay a scenario document with the interpreter."""
        from workbench.games.chance_chess.engine import compile_variant
        from workbench.games.chance_chess.scenario import Scenario, replay

        return replay(validate(Scenario, doc, ScenarioError), doc, compile_variant(variant))

    def simulator(
        self,
        variant: Variant,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Persona],
        seed: int,
        record: tuple[Path, Path] | None = None,
        *,
        seat_bot: str | None = None,
        engine: str = "interpreter",
        notation: bool = False,
    ) -> Callable[[], Simulator]:
        """A picklable factory of the simulator for one run (built again inside each worker); ``seat_bot`` plays seat
        ``index % 2`` of game ``index``; ``notation``: each game's PGN too. The engine is the interpreter."""
        from workbench.games.chance_chess.sim import Simulator

        chosen = {name: personas[name] for name in set(bots)}
        visitor = personas[seat_bot] if seat_bot is not None else None
        return partial(Simulator, variant, players, bots, chosen, seed, visitor, record, notation)

    def table_measure(self, variants: list[Variant], players: int, bots: tuple[str, ...]) -> Measure:
        """The per-game figures of ``simulate`` for paired runs of ``variants``."""
        from workbench.games.chance_chess.sim import table_measure

        return table_measure(players, bots)

    @property
    def figures(self) -> Figures:
        from workbench.games.chance_chess.report import FIGURES

        return FIGURES

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder, weakest first: random, greedy, then search."""
        return ("random", "greedy", "search")

    def seat_measure(self) -> Measure:
        from workbench.games.chance_chess.sim import SEAT_MEASURE

        return SEAT_MEASURE

    def print_html(self, variant: Variant, options: dict[str, Any]) -> str:
        """The printable playtest set as one HTML document (see :mod:`workbench.games.chance_chess.printing`)."""
        from workbench.games.chance_chess import printing

        return printing.render_html(variant, options)

    def notate(self, output: dict[str, Any], *, event: str, names: Sequence[str] = (), seed: int | None = None) -> str:
        """A played or replayed game (its final state with the event log) in PGN, the cards drawn as comments."""
        from workbench.games.chance_chess.notation import pgn

        return pgn(output, event=event, names=names or ("?", "?"), seed=seed)

    def describe(self, event: dict[str, Any]) -> str:
        """One event of the log as a line of text."""
        from workbench.games.chance_chess.text import describe

        return describe(event)

    def state_table(self, output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the final state, for the terminal."""
        from workbench.games.chance_chess.text import state_table

        return state_table(output)

    def odds(self, variant: Variant) -> dict[str, Any]:
        """The exact odds of the variant's deck, as plain data."""
        from workbench.games.chance_chess.odds import odds

        return odds(variant)

    def odds_tables(self, data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
        """The odds as (title, headers, rows) tables for the terminal."""
        from workbench.games.chance_chess.odds import odds_tables

        return odds_tables(data)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of the variant and scenario files."""
        from workbench.games.chance_chess.scenario import Scenario

        return {"variant": variant_file_schema(), "scenario": Scenario.model_json_schema(by_alias=True)}


FAMILY = ChanceChess()
