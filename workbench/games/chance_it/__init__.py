"""Chance It (Zoch, 2022): dice, guide cards, stakes sheets and a market of cards."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from workbench.errors import Remark, ScenarioError
from workbench.games import CardInfo, Family, Loaded, load_variant_with
from workbench.games.base import FamilyParts
from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.compiled import BATCH, SEARCH
from workbench.games.chance_it.policies import SEARCH_LEVEL
from workbench.games.chance_it.schema import Persona, PersonaFile, Variant
from workbench.loading import Document, read_yaml, validate
from workbench.policies import policies
from workbench.sim.compiled import CompiledEngine

if TYPE_CHECKING:
    from workbench.expect import Replay
    from workbench.play import Answer
    from workbench.sim.calibrating import Parameter
    from workbench.sim.paired import Measure

#: The batch engine's kernel module (it imports Numba): whether this process has loaded it.
_KERNEL = "workbench.games.chance_it.batch.kernel"

# Only the variant's model and what validating a file needs are imported here: the engine, the bots, the
# simulators, the odds and the reports are imported by the methods that use them (a command imports what it runs).


class ChanceIt(FamilyParts):
    """The Chance It family, as the command line sees it (its shared parts: :class:`FamilyParts`)."""

    game = "chance-it"
    title = "Chance It"
    includes = ("cards",)
    variant_model = Variant
    default_bot = "heuristic"
    compiled: CompiledEngine = BATCH
    package = __name__
    persona_file = PersonaFile

    @property
    def batched(self) -> Self:
        """Chance It has a compiled batch engine (:mod:`.batch`)."""
        return self

    @property
    def tunable(self) -> Self:
        """Chance It's stakes sheets can be tuned (:mod:`.tune`)."""
        return self

    @property
    def studied(self) -> Self:
        """Chance It's cards can be measured (``cards``)."""
        return self

    @property
    def calibratable(self) -> Self:
        """Chance It's heuristic bot can be fitted to recorded games (:mod:`.calibration`)."""
        return self

    calibrated_policy = "heuristic"
    #: What sets a group apart at the table: its taste for CHANCE IT and its fear for its last hearts.
    calibration_defaults = ("chance_it", "danger")

    def calibration_parameters(self) -> Sequence[Parameter]:
        from workbench.games.chance_it.calibration import PARAMETERS

        return PARAMETERS

    def decisions(self, docs: Sequence[Document], variant: Variant) -> list[list[Any]]:
        from workbench.games.chance_it.calibration import decisions

        return list(decisions(docs, variant))

    def values(self, decisions: Sequence[Any], persona: Persona) -> list[list[float]]:
        from workbench.games.chance_it.calibration import values

        return values(decisions, persona)

    def player_range(self, variant: Variant) -> tuple[int, int]:
        """The fewest and most players the variant is for."""
        return variant.players.min, variant.players.max

    def summary(self, variant: Variant) -> list[tuple[str, str]]:
        timings: Counter[str] = Counter()
        for card in variant.cards:
            timings[card.when] += card.copies
        order = sorted(timings, key=lambda when: (when != "flash", when == "chance-it", when))
        cards = ", ".join(f"{when} {timings[when]}" for when in order)
        total = sum(timings.values())
        sheets = ", ".join(f"{n} {sheet.source}" for n, sheet in sorted(variant.stakes.items()))
        return [
            ("players", f"{variant.players.min}-{variant.players.max}"),
            ("cards", f"{total} in the pile ({len(variant.cards)} different); copies by timing: {cards}" if total else "none"),
            ("stakes", sheets),
        ]

    def play(
        self, variant: Variant, players: int, seed: int, bots: Sequence[Persona], people: Mapping[int, Answer]
    ) -> dict[str, Any]:
        from workbench.games.chance_it.chance import BOTS, RandomChance, game_streams
        from workbench.games.chance_it.engine import Game, compile_variant
        from workbench.games.chance_it.person import Person
        from workbench.policies import make_bot

        streams = game_streams(seed, 0, players)  # game 0 of a simulation with this seed
        chance = RandomChance(streams)
        game = Game(compile_variant(variant), players, chance)
        deciders = [
            Person(seat, game, people[seat], variant) if seat in people else make_bot(persona, streams.stream(BOTS + seat))
            for seat, persona in enumerate(bots)
        ]
        game.play(chance, deciders)
        return game.snapshot()

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
        **options: Any,
    ) -> Callable[[], Any]:
        """A picklable factory of the simulator for one run (built again inside each worker), on the interpreter or,
        with ``engine="batch"``, handing over to the batch engine once it is compiled.

        ``record`` = (folder, variant file) writes every game as a scenario script there;
        ``seat_bot`` plays a rotating seat; ``options``: ``gift``, a rotating seat's :class:`~.sim.Gift`.
        """
        from workbench.games.chance_it.sim import BatchSimulator
        from workbench.sim.runner import Handover

        interpreter = self.factory(variant, players, bots, personas, seed, record, seat_bot, **options)
        if engine != "batch":
            return interpreter
        compiled = partial(BatchSimulator, *interpreter.args, **interpreter.keywords)
        code = self.compiled_for([personas[bot] for bot in (*bots, *([seat_bot] if seat_bot else []))])
        return Handover(interpreter, compiled, code.ready, code.hurry)

    def compiled_for(self, personas: list[Persona]) -> CompiledEngine:
        """The batch engine's code, or for a table with a search or equilibrium bot its search level's (compiled on
        first use)."""
        searching = any(policies(self.game)[persona.policy].batch in SEARCH_LEVEL for persona in personas)
        return SEARCH if searching else BATCH

    def gifted_simulator(
        self,
        variant: Variant,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Persona],
        seed: int,
        *,
        card: str | None = None,
        coins: int = 0,
        engine: str = "interpreter",
    ) -> Callable[[], Any]:
        """:meth:`simulator` with a rotating seat's :class:`Gift`: the card ``card`` or ``coins`` coins."""
        from workbench.games.chance_it.sim import Gift

        return self.simulator(variant, players, bots, personas, seed, engine=engine, gift=Gift(card, coins))

    def batch_blocker(self, variant: Variant, personas: list[Persona]) -> str | None:
        """Asked without loading the batch engine (Numba) unless this process has loaded it already: a first run,
        whose compiled code is not there yet, plays on the interpreter at once."""
        from workbench.games.chance_it.batchable import NoBatchForm, blocker
        from workbench.games.chance_it.engine import compile_variant

        for persona in personas:
            if policies(self.game)[persona.policy].batch is None:
                return f"the {persona.policy} bot plays only in the interpreter"
            if persona.temperature:
                return "a heuristic bot with a temperature (it draws among its options by their values) plays only in the interpreter"
        rules = compile_variant(variant)
        if _KERNEL not in sys.modules:
            return blocker(rules)
        from workbench.games.chance_it.batch import compile_program  # loaded: it knows the kinds it was loaded with

        try:
            compile_program(rules)
        except NoBatchForm as exc:
            return str(exc)
        return None

    def table_measure(self, variants: list[Variant], players: int, bots: tuple[str, ...]) -> Measure:
        """The per-game figures of ``simulate`` for paired runs of ``variants`` (every card of any of them)."""
        from workbench.games.chance_it.sim import table_measure

        return table_measure(players, bots, list(dict.fromkeys(card.id for v in variants for card in v.cards)))

    gift = (
        "one seat (seat i mod N in game i, so every seat takes its turn) gets the card before the first round, as an "
        "extra copy (the market pile is unchanged, so both games deal the same cards): in its tableau, or, for a flash "
        "card, its effects applied at once, as if bought before round 1"
    )

    def with_cards(self, path: Path, extra: Path) -> tuple[Loaded, list[str]]:
        loaded = load_variant_with(path, "cards", extra)
        items = read_yaml(extra).data  # a list of valid cards: the variant loaded with them
        return loaded, [str(item["id"]) for item in items]

    def reference_coins(self, variant: Variant, players: int) -> int:
        """The dearest card's price (at least 1), as far as the coins left in the supply after setup go."""
        wanted = max([1, *(card.cost for card in variant.cards)])
        total = variant.supply.total("coins")
        return wanted if total is None else max(0, min(wanted, total - players * variant.start.coins))

    def card_list(self, variant: Variant) -> list[CardInfo]:
        return [CardInfo(card.id, card.name, card.cost, card.when) for card in variant.cards]

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder, weakest first against heuristic bots (measured: docs/how-to/simulate.md, "Bots"): random,
        heuristic, equilibrium, then search with 4 and 16 playouts."""
        return ("random", "heuristic", "equilibrium", "search-4", "search")

    def card_usage(self, summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
        keys = ("bought", "discarded", "bought_per_game", "round_bought")
        return {card_id: {key: figures[key] for key in keys} for card_id, figures in summary["cards"].items()}

    def tune_stakes(self, path: Path, counts: list[int], **options: Any) -> Any:
        """Propose stakes sheets for ``counts`` (see :mod:`workbench.games.chance_it.tune`)."""
        from workbench.games.chance_it import tune

        return tune.tune_stakes(self, path, counts, **options)

    def tuning_budget(self, engine: str, persona: Persona | None, players: int) -> int:
        """A few minutes on two cores: 600,000 games of heuristic bots on the batch engine (which plays them 30 to 45
        times faster), 30,000 on the interpreter; a search bot plays ``playouts`` futures of ``depth`` + 1 rounds for
        each option of each decision, so it gets 200 times fewer for the default search (16 playouts, depth 4), more
        for a lighter one (3,000 and 150 games: the base game's 3- and 6-player sheets in about 10 minutes). An
        equilibrium bot's guide plays ``samples`` futures for each of 3 ** ``players`` joint choices where the search
        bot's plays ``playouts`` for 3 guides: fewer again, by that ratio at the largest table."""
        budget = {"batch": 600_000, "interpreter": 30_000}[engine]
        if persona is not None and persona.policy in ("search", "equilibrium"):
            budget = budget * 16 * 5 // (200 * persona.playouts * (persona.depth + 1))
        if persona is not None and persona.policy == "equilibrium":
            budget = budget * 3 * persona.playouts // (3**players * persona.samples)
        return max(100, budget)

    def tuning_yaml(self, report: Any, page: str | None) -> str:
        """The proposal file of a tuning run."""
        from workbench.games.chance_it import tune

        return tune.proposal_yaml(report, page)

    def tuning_warnings(self, report: Any) -> list[Remark]:
        """What a tuning run should warn about (a budget too small for its proposals)."""
        return list(report.warnings())

    def tuning_page(self, report: Any) -> str:
        """The HTML comparison of a tuning run."""
        from workbench.games.chance_it import tune

        return tune.render_tuning(report)

    def tuning_variant(self, path: Path, counts: list[int]) -> Variant:
        from workbench.games.chance_it import tune

        return tune.load_for_tuning(path, counts)[0]

    def check_write(self, path: Path, counts: list[int]) -> None:
        """Refuse, before any game, a variant file whose sheets for ``counts`` cannot be edited in place."""
        from workbench.games.chance_it import tune

        tune.check_write_back(path, counts)

    def write_sheets(self, path: Path, report: Any, page: str | None, still: str | None = None) -> None:
        """Put a tuning run's proposals into the variant file, changing only their lines (if it still has ``still``)."""
        from workbench.games.chance_it import tune

        tune.write_back(path, report, page, still=still)

    def replay_batch(self, doc: Document, variant: Variant) -> Replay:
        """Replay a scenario document with the batch engine."""
        from workbench.games.chance_it.batch.replay import replay_batch
        from workbench.games.chance_it.scenario import Scenario

        return replay_batch(validate(Scenario, doc, ScenarioError), doc, self.rules(variant))

    def state_table(self, output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        headers = ["seat", *RESOURCES, "cards", "status"]
        rows = []
        winners = set(output["winners"])
        for p in output["players"]:
            status = "eliminated" if p["eliminated"] else "winner" if p["seat"] in winners else ""
            if p["forced_in"]:
                status = (status + " forced in").strip()
            rows.append([str(p["seat"]), *(str(p[r]) for r in RESOURCES), " ".join(p["cards"]), status])
        return headers, rows

    def schemas(self) -> dict[str, dict[str, Any]]:
        from pydantic import TypeAdapter

        from workbench.games.chance_it.effects import with_effects
        from workbench.games.chance_it.scenario import Scenario
        from workbench.games.chance_it.schema import Card, variant_file_schema

        return {
            "variant": variant_file_schema(),
            "cards": with_effects(TypeAdapter(list[Card]).json_schema()),
            "scenario": Scenario.model_json_schema(),
        }


FAMILY: Family = ChanceIt()
