"""What every game family is made of alike, written once.

A family's ``Game`` keeps its own state and rules and takes :class:`EventLog` for the log its
replays, traces and recorded scripts read; its ``View`` starts from :class:`SeatView` (or
:class:`TableView` for a game played in rounds). Its scenario replay keeps its place in the
script on a :class:`ScriptCursor` (a refused decision, a script that outlives the game) and
its problems carry their trace (:func:`traced`); its invariant checker reads the log from a
:class:`LogChecker`. Its ``Simulator`` starts from :class:`RunFrame`, which seats the bots of
game ``index`` on their own streams and writes the game as a scenario script when the run
records them. And the family itself starts from :class:`FamilyParts`, which fills the members
of :class:`workbench.games.Family` that every game fills the same way from its modules.
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar, cast

from workbench.errors import IllegalDecision, ScenarioError
from workbench.expect import Key, judged
from workbench.loading import Document, validate
from workbench.personas import PersonaFileModel
from workbench.play import Chance
from workbench.policies import make_bot
from workbench.recording import script_name, script_text
from workbench.sim.seeding import stream

if TYPE_CHECKING:
    from workbench.expect import Replay
    from workbench.games import Batched, Calibratable, Notated, Studied, Tunable
    from workbench.play import Answer, Table
    from workbench.render.report import Figures
    from workbench.sim.paired import Measure

#: One event of a game's log: the step it happened at ("round" or "ply"), its "type" and its fields.
Event = dict[str, Any]


class EventLog:
    """A game's event log, kept when asked (``events`` is None otherwise): each event stamped with the game's step."""

    #: The counter each event is stamped with: ``round``, or ``ply`` for a game counted in plies.
    stamp: ClassVar[str] = "round"
    events: list[Event] | None

    def log(self, kind: str, **fields: Any) -> None:
        """Append an event to the log (when logging)."""
        if self.events is not None:
            self.events.append({self.stamp: getattr(self, self.stamp), "type": kind, **fields})

    def with_events(self, out: dict[str, Any], events: bool) -> dict[str, Any]:
        """A snapshot ``out``, with the event log under ``events`` when asked (the replay output format)."""
        if events:
            out["events"] = list(self.events or ())
        return out


#: The game a view reads.
G = TypeVar("G")


class SeatView(Generic[G]):
    """What one seat may see when it decides: read through to the game, never its chance source."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: G, seat: int):
        self._game = game
        self.seat = seat


class RoundGame(Protocol):
    """A game played in rounds, each started by one seat, with a face-up discard pile."""

    round: int
    starting_player: int

    @property
    def discard(self) -> list[Any]: ...


#: A game played in rounds that a view reads.
R = TypeVar("R", bound=RoundGame)


class TableView(SeatView[R]):
    """A seat's view of a game played in rounds."""

    __slots__ = ()

    @property
    def round(self) -> int:
        """The round being played (1 for the first)."""
        return self._game.round

    @property
    def starting_player(self) -> int:
        """The seat that started the round."""
        return self._game.starting_player

    @property
    def discard(self) -> tuple[Any, ...]:
        """The discard pile (face up)."""
        return tuple(self._game.discard)


#: A family's scenario model and its compiled rules.
S = TypeVar("S")
RulesT = TypeVar("RulesT")


class ScriptCursor(Generic[S, RulesT]):
    """The scenario being replayed, shared by its scripted chance and its deciders: the script, its document (where
    a problem is located), the compiled rules and the key of the entry read last; a family's cursor adds where in
    the script the replay is."""

    def __init__(self, scenario: S, doc: Document, rules: RulesT, first: Key):
        self.scenario = scenario
        self.doc = doc
        self.rules = rules
        self.last_key: Key = first  #: the script's entry read last: where a refused decision is located

    def fail(self, key: Key, message: str) -> NoReturn:
        """Stop the replay with a problem at ``key`` of the script."""
        raise ScenarioError([self.doc.problem(key, message)])

    @contextmanager
    def deciding(self, step: str = "round", seat: Callable[[int], str] = "seat {}".format) -> Iterator[None]:
        """A decision the rules refuse, as a problem at the entry that gave it (``step``: the game's unit)."""
        try:
            yield
        except IllegalDecision as exc:
            problem = self.doc.problem(self.last_key, f"{step} {exc.round}: {seat(exc.seat)}: {exc.message}")
            raise ScenarioError([problem]) from None

    def going_on(self, game: Any, index: int, rounds: int) -> None:
        """Refuse round ``index`` of a script of ``rounds`` rounds once the game is over."""
        if game.is_over:
            message = (
                f"the game ended in round {game.round} ({game.end_reason}), "
                f"but the script goes on for {rounds - index} more round(s)"
            )
            raise ScenarioError([self.doc.problem(("rounds", index), message)])


class TableSource(Generic[G]):
    """What a family's chance source at a table shares: the table it asks, the game once set up, and what of the
    game's log it has told (each entry carries what happened since the last one, so the person recording sees the
    end of a round, a card used, a seat's only move taken without asking, before the next entry)."""

    def __init__(self, table: Table, describe: Callable[[Event], str]):
        self.table = table
        self.describe = describe
        self.game: G | None = None  #: the game, once set up
        self.told = 0  #: events of the game's log told so far

    @property
    def round(self) -> int:
        """The round (or ply) being played: 0 at the setup."""
        return int(getattr(self.game, "round", 0)) if self.game is not None else 0

    def news(self) -> tuple[tuple[str, ...], int]:
        """What happened since the last entry, one line per event, and the events of the log told with it."""
        events = getattr(self.game, "events", None) or ()
        said = tuple(self.describe(event) for event in events[self.told :])
        self.told = len(events)
        return said, self.told

    def dice(self, kind: str, prompt: str, count: int, sides: int, round_: int | None = None) -> list[int]:
        """``count`` dice as they fell, entered."""
        said, seen = self.news()
        at = self.round if round_ is None else round_
        return list(self.table.enter(Chance(at, kind, prompt, count=count, sides=sides, said=said, seen=seen)))


#: A game entered at a table, as a family's ``table.record(variant, players, table, resumed=None)`` yields it: after
#: the setup and after every round (or ply), the scenario script so far (``variant`` left for the caller to fill in)
#: and whether the game has ended; ``resumed``, an unfinished script of the game and its document, is replayed first
#: (its players are the table's). :func:`entered` makes one.
Entered = Iterator[tuple[dict[str, Any], bool]]


def entered(
    game: Any,
    source: TableSource[Any],
    people: Sequence[Any],
    script: Callable[[], dict[str, Any]],
    step: Callable[[], None],
    *,
    resumed: bool,
) -> Entered:
    """A game entered at a table, as a family's ``table.record`` yields it: after the setup and after each ``step``
    (a round, a ply), the ``script`` so far and whether the game has ended. ``source`` asks what chance brought,
    ``people`` are the table's seats (each a family's person, with its ``asking``); what the log of a ``resumed``
    game holds already is not told again."""
    source.game = game
    if resumed:
        source.told = len(game.events or ())
        for person in people:
            person.asking.shown = source.told
    yield script(), game.is_over
    while not game.is_over:
        step()
        yield script(), game.is_over


@contextmanager
def traced(game: Any, describe: Callable[[Event], str]) -> Iterator[None]:
    """A replay's problem carries the events up to it, in words (``--trace`` shows them)."""
    try:
        yield
    except ScenarioError as exc:
        exc.trace = [describe(event) for event in game.events or ()]
        raise


class InvariantError(AssertionError):
    """An invariant of the rules does not hold."""


class Logged(Protocol):
    """A game that keeps its event log."""

    events: list[Event] | None


#: A game whose log an invariant checker reads.
L = TypeVar("L", bound=Logged)


class LogChecker(Generic[L]):
    """The frame of a family's invariant checker (for the tests): it reads the game's own event log after each step
    (``seen``: the events checked so far), and raises :class:`InvariantError` naming a broken rule."""

    def __init__(self, game: L):
        if game.events is None:
            raise ValueError("the invariant checker reads the event log: create the game with log=True")
        self.game = game
        self.events: list[Event] = game.events  # the game's log itself, which it appends to
        self.seen = 0  # events already checked


class RunFrame(ABC):
    """What a run's simulator holds in any game: the rules, the table (the bot names and the persona of each seat),
    the seed, a visiting bot that plays seat ``index % players`` of game ``index`` instead of that seat's own, where
    the recorded scenario scripts go with the variant file they name, and whether each game's result carries its
    notation (a family that has one: :class:`workbench.games.Notated`)."""

    #: The family's game name, as its scripts' schema is named.
    game: ClassVar[str]

    @staticmethod
    @abstractmethod
    def compile(variant: Any) -> Any:
        """The rules the family's engine plays, from a valid variant (a family sets ``staticmethod(compile_variant)``)."""

    def __init__(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        visitor: Any | None = None,
        record: tuple[Path, Path] | None = None,
        notation: bool = False,
    ):
        self.variant_name: str = variant.name
        self.rules = self.compile(variant)
        self.players = players
        self.bots = bots
        self.personas = tuple(personas[name] for name in bots)
        self.seed = seed
        self.visitor = visitor
        self.record = record  # (folder for scenario scripts, the variant file they name)
        self.notation = notation

    def seated(self, index: int) -> list[Any]:
        """The persona of each seat in game ``index`` (the visitor in its seat)."""
        personas = list(self.personas)
        if self.visitor is not None:
            personas[index % self.players] = self.visitor
        return personas

    def deciders(self, index: int) -> list[Any]:
        """The bots of game ``index``, each drawing from its own stream ``stream(seed, index, "bot", seat)``."""
        return [make_bot(persona, stream(self.seed, index, "bot", seat)) for seat, persona in enumerate(self.seated(index))]

    def recorded(self, index: int, script: Callable[[str, str], dict[str, Any]]) -> tuple[str, str] | None:
        """Game ``index`` as a scenario script (its file name and text) when the run records them, else None;
        ``script`` makes the script's body from the variant's path (relative to the scripts' folder) and its
        description."""
        if self.record is None:
            return None
        folder, variant = self.record
        description = f"Game {index} of a simulation (seed {self.seed}, bots {', '.join(self.bots)}), recorded."
        body = script(os.path.relpath(variant, folder), description)
        return script_name(self.players, index), script_text(body, folder, self.game)


class FamilyParts:
    """The members of a family (:class:`workbench.games.Family`) that every game fills the same way, each from one
    module of the family's package, imported when first used (validating a file imports none of them):
    ``text`` (summary, describe, state_table), ``engine`` (compile_variant), ``scenario``
    (Scenario, replay, scripted_game), ``table`` (record: a game entered at a table), ``sim`` (Simulator, Result,
    table_measure, SEAT_MEASURE), ``report`` (FIGURES), ``printing`` (render_html) and ``odds`` (odds, odds_tables). A family overrides what it does otherwise."""

    #: The family's package, whose modules hold its parts.
    package: ClassVar[str]
    #: The model of its personas file (``--personas``).
    persona_file: ClassVar[type[PersonaFileModel[Any]]]
    #: List keys whose string items are paths of files to splice in (none unless the family says).
    includes: tuple[str, ...] = ()

    # the capabilities a family may lack (:class:`workbench.games.Family`): a family that has one returns itself

    @property
    def batched(self) -> Batched | None:
        """None: the interpreter plays every game."""
        return None

    @property
    def tunable(self) -> Tunable | None:
        """None: no stakes sheets to tune."""
        return None

    @property
    def notated(self) -> Notated | None:
        """None: no standard notation."""
        return None

    @property
    def recordable(self) -> Self:
        """Every family here enters games played at a table (its ``table`` module's ``record``)."""
        return self

    @property
    def calibratable(self) -> Calibratable | None:
        """None: its bots cannot be fitted to recorded games yet."""
        return None

    @property
    def studied(self) -> Studied | None:
        """None: no cards to measure."""
        return None

    @property
    def printable(self) -> Self:
        """Every family here prints its playtest set (its ``printing`` module)."""
        return self

    @property
    def ranked(self) -> Self:
        """Every family here ranks its bots (its ``sim`` module's seat measure, its ``ladder``)."""
        return self

    def part(self, module: str) -> Any:
        """One module of the family's package, imported now."""
        return importlib.import_module(f"{self.package}.{module}")

    def summary(self, variant: Any) -> list[tuple[str, str]]:
        """Short (label, text) lines describing a valid variant."""
        return cast(list[tuple[str, str]], self.part("text").summary(variant))

    def describe(self, event: dict[str, Any]) -> str:
        """One event of the log as a line of text."""
        return cast(str, self.part("text").describe(event))

    def state_table(self, output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the final state, for the terminal."""
        return cast(tuple[list[str], list[list[str]]], self.part("text").state_table(output))

    def play(self, variant: Any, players: int, seed: int, bots: Sequence[Any], people: Mapping[int, Answer]) -> dict[str, Any]:
        """Play one seeded game (game 0 of a simulation with this seed), the seats of ``people`` asked, the others
        played by ``bots``; the final state with its event log."""
        game = self.new_game(variant, players, seed)
        person = self.part("person").Person
        game.play(
            [
                person(seat, game, people[seat]) if seat in people else make_bot(persona, stream(seed, 0, "bot", seat))
                for seat, persona in enumerate(bots)
            ]
        )
        return cast(dict[str, Any], game.snapshot())

    def new_game(self, variant: Any, players: int, seed: int) -> Any:
        """Game 0 of a simulation with this seed, set up (the family's ``Game`` on its keyed chance streams)."""
        raise NotImplementedError(f"{type(self).__name__} plays its games its own way")

    def personas(self, variant: Any, extra: Path | None = None) -> dict[str, Any]:
        """Bots by name: the built-in policies, the variant's ``bots:`` and those of an extra personas file (which
        may replace a name only if it lists it under ``overrides:``)."""
        from workbench.personas import load_personas

        found, _ = load_personas(self.persona_file.builtin_bots(), variant.bots, self.persona_file, extra)
        return found

    def replay(self, doc: Document, variant: Any) -> Replay:
        """Replay a scenario document with the interpreter."""
        scenario = self.part("scenario")
        return cast("Replay", scenario.replay(validate(scenario.Scenario, doc, ScenarioError), doc, self.rules(variant)))

    def record(self, variant: Any, players: int, table: Table, resumed: Document | None = None) -> Entered:
        """A game entered at a table (the ``table`` module's ``record``), after the unfinished script ``resumed`` (checked
        by the family's scenario model) if given."""
        scenario = self.part("scenario")
        found = None if resumed is None else (validate(scenario.Scenario, resumed, ScenarioError), resumed)
        return cast(Entered, self.part("table").record(variant, players, table, found))

    def played(self, doc: Document, variant: Any) -> tuple[int, bool, Any]:
        """A scenario document replayed as a game people played: its players, whether it ended, and the game as the
        family's per-game measure (:meth:`table_measure`) reads a finished one."""
        scenario = self.part("scenario")
        script = validate(scenario.Scenario, doc, ScenarioError)
        game = scenario.scripted_game(script, doc, self.rules(variant))
        checked = judged(doc, game.snapshot())
        if not checked.passed:  # a script edited by hand: its game is not the one it says
            raise ScenarioError(checked.failures, "its expect: is not the state its game ends in (replay it to see)")
        return script.players, game.is_over, self.part("sim").Result({}, game)

    def rules(self, variant: Any) -> Any:
        """The variant compiled for the engine."""
        return self.part("engine").compile_variant(variant)

    def simulator(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        record: tuple[Path, Path] | None = None,
        *,
        seat_bot: str | None = None,
        engine: str = "interpreter",
        **options: Any,
    ) -> Callable[[], Any]:
        """A picklable factory of the simulator for one run, built again inside each worker (``seat_bot`` plays seat
        ``index % players`` of game ``index``; ``options``: the family's own, as ``notation``). The engine is the
        interpreter, unless the family is :class:`workbench.games.Batched`."""
        return self.factory(variant, players, bots, personas, seed, record, seat_bot, **options)

    def factory(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        record: tuple[Path, Path] | None,
        seat_bot: str | None,
        **options: Any,
    ) -> partial[Any]:
        """The family's ``Simulator`` for one run, as a picklable factory (``options``: the family's own)."""
        chosen = {name: personas[name] for name in set(bots)}
        visitor = personas[seat_bot] if seat_bot is not None else None
        return partial(self.part("sim").Simulator, variant, players, bots, chosen, seed, visitor, record, **options)

    def table_measure(self, variants: list[Any], players: int, bots: tuple[str, ...]) -> Measure:
        """The per-game figures of ``simulate`` for paired runs of ``variants``."""
        return cast("Measure", self.part("sim").table_measure(players, bots))

    def seat_measure(self) -> Measure:
        """The per-game figures of one seat, for ``cards`` and ``skill``."""
        return cast("Measure", self.part("sim").SEAT_MEASURE)

    @property
    def figures(self) -> Figures:
        """How the shared report shows the family's figures."""
        return cast("Figures", self.part("report").FIGURES)

    def print_html(self, variant: Any, options: dict[str, Any]) -> str:
        """The printable playtest set as one HTML document (see the family's ``printing`` module)."""
        return cast(str, self.part("printing").render_html(variant, options))

    def table_pieces(self, variant: Any) -> list[Any]:
        """The dice and tokens of the set, for an online table (see the family's ``printing`` module)."""
        return cast(list[Any], self.part("printing").table_pieces(variant))

    def odds(self, variant: Any) -> dict[str, Any]:
        """The exact odds of the variant's chance, as plain data."""
        return cast(dict[str, Any], self.part("odds").odds(variant).to_dict())

    def odds_tables(self, data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
        """The odds as (title, headers, rows) tables for the terminal."""
        return cast(list[tuple[str, list[str], list[list[str]]]], self.part("odds").odds_tables(data))


__all__ = [
    "Event",
    "EventLog",
    "FamilyParts",
    "InvariantError",
    "LogChecker",
    "RoundGame",
    "RunFrame",
    "ScriptCursor",
    "SeatView",
    "TableView",
]
