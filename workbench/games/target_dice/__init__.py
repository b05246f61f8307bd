"""Target dice: roll the number on the card exactly, with as many dice from the stock as you dare.

The published rulebook is not part of this repository; :mod:`.engine` spells out the normative
reading the workbench plays (the optional falling-dice rule is left out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.errors import ScenarioError
from workbench.games.target_dice.schema import Persona, PersonaFile, Variant, variant_file_schema
from workbench.loading import Document, validate

if TYPE_CHECKING:
    from workbench.expect import Replay
    from workbench.games.target_dice.sim import Simulator
    from workbench.play import Answer
    from workbench.render.report import Figures
    from workbench.sim.paired import Measure

# Only the variant's model and what validating a file needs are imported here: the engine, the bots, the
# simulators, the odds and the reports are imported by the methods that use them (a command imports what it runs).


class TargetDice:
    """The target-dice family, as the command line sees it."""

    game = "target-dice"
    title = "Target dice"
    includes: tuple[str, ...] = ()
    variant_model = Variant
    default_bot = "greedy"

    def player_range(self, variant: Variant) -> tuple[int, int]:
        """The fewest and most players the variant is for."""
        return variant.players.min, variant.players.max

    def summary(self, variant: Variant) -> list[tuple[str, str]]:
        """Short (label, text) lines describing a valid variant."""
        from workbench.games.target_dice.text import summary

        return summary(variant)

    def play(
        self, variant: Variant, players: int, seed: int, bots: Sequence[Persona], people: Mapping[int, Answer]
    ) -> dict[str, Any]:
        """Play one seeded game, the seats of ``people`` asked, the others played by ``bots``; the final state."""
        from workbench.games.target_dice.bots import make_bot
        from workbench.games.target_dice.chance import RandomChance
        from workbench.games.target_dice.engine import Game, compile_variant
        from workbench.games.target_dice.person import Person
        from workbench.sim.seeding import stream

        game = Game(compile_variant(variant), players, RandomChance.streams(seed, 0))
        game.play(
            [
                Person(seat, game, people[seat]) if seat in people else make_bot(persona, stream(seed, 0, "bot", seat))
                for seat, persona in enumerate(bots)
            ]
        )
        return game.snapshot()

    def personas(self, variant: Variant, extra: Path | None = None) -> dict[str, Persona]:
        """Bots by name: the built-in policies, the variant's ``bots:`` and those of an extra personas file.

        The file may replace a name only if it lists it under ``overrides:`` (see :mod:`workbench.personas`).
        """
        from workbench.games.target_dice.bots import BUILTIN
        from workbench.personas import load_personas

        found, _ = load_personas(BUILTIN, variant.bots, PersonaFile, extra)
        return found

    def replay(self, doc: Document, variant: Variant) -> Replay:
        """Replay a scenario document with the interpreter."""
        from workbench.games.target_dice.engine import compile_variant
        from workbench.games.target_dice.scenario import Scenario, replay

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
    ) -> Callable[[], Simulator]:
        """A picklable factory of the simulator for one run (built again inside each worker); ``seat_bot`` plays seat
        ``index % players`` of game ``index``. The engine is the interpreter (the family is not :class:`Batched`)."""
        from workbench.games.target_dice.sim import Simulator

        chosen = {name: personas[name] for name in set(bots)}
        visitor = personas[seat_bot] if seat_bot is not None else None
        return partial(Simulator, variant, players, bots, chosen, seed, visitor, record)

    def table_measure(self, variants: list[Variant], players: int, bots: tuple[str, ...]) -> Measure:
        """The per-game figures of ``simulate`` for paired runs of ``variants``."""
        from workbench.games.target_dice.sim import table_measure

        return table_measure(players, bots)

    @property
    def figures(self) -> Figures:
        from workbench.games.target_dice.report import FIGURES

        return FIGURES

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder, weakest first: random, greedy, then search."""
        return ("random", "greedy", "search")

    def seat_measure(self) -> Measure:
        from workbench.games.target_dice.sim import SEAT_MEASURE

        return SEAT_MEASURE

    def print_html(self, variant: Variant, options: dict[str, Any]) -> str:
        """The printable playtest set as one HTML document (see :mod:`workbench.games.target_dice.printing`)."""
        from workbench.games.target_dice import printing

        return printing.render_html(variant, options)

    def describe(self, event: dict[str, Any]) -> str:
        """One event of the log as a line of text."""
        from workbench.games.target_dice.text import describe

        return describe(event)

    def state_table(self, output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the final state, for the terminal."""
        from workbench.games.target_dice.text import state_table

        return state_table(output)

    def odds(self, variant: Variant) -> dict[str, Any]:
        """The exact odds of the variant's dice against its targets, as plain data."""
        from workbench.games.target_dice.odds import odds

        return odds(variant).to_dict()

    def odds_tables(self, data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
        """The odds as (title, headers, rows) tables for the terminal."""
        from workbench.games.target_dice.odds import odds_tables

        return odds_tables(data)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of the variant and scenario files."""
        from workbench.games.target_dice.scenario import Scenario

        return {"variant": variant_file_schema(), "scenario": Scenario.model_json_schema(by_alias=True)}


FAMILY = TargetDice()
