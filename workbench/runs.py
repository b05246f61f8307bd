"""The run pipeline, once: what every command that plays games does around its games.

``simulate``, ``tune-stakes``, ``compare``, ``cards``, ``skill`` and ``sweep`` each measure
something of their own; around that they all do the same: check the inputs, work out the
player counts and the bots at each table (a :class:`Plan`), choose the engine, reserve and
check every output before the first game, install the stop handling, get the engine ready,
play, and commit the outputs as one set (a :class:`Job`). Each command is a short recipe over
this module::

    plan = runs.plan(variant, players, bots, personas)
    choice = runs.choose_engine(plan.family, [(plan.loaded.variant, plan.seated)], options.engine)
    with runs.job(plan.family, choice, options, plan.inputs) as job:
        files = job.out_files(out, "summary.json", "report.html")
        with job.running():
            for count in job.each(plan.counts):
                result = job.play(factory, games, f"{count} players")
            written = job.commit({...}, interrupted=...)
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from workbench.errors import LATE_STOP, Interrupted, UsageError, display_path, players_span
from workbench.games import Family, Loaded, load_variant
from workbench.loading import did_you_mean
from workbench.outputs import Outputs
from workbench.policies import said
from workbench.sim.compiled import CompiledEngine, CompileFailed
from workbench.sim.paired import PairedFactory, PairedTally
from workbench.sim.runner import LOCAL, Backend, Factory, Handover, Local, Run, Stop, run, signals_held

#: A progress display: called with a label and a number of games, returns the function to call as games finish.
Progress = Callable[[str, int], Callable[[int], None]]
#: Where a command's remarks go (the CLI prints them; a notebook may pass ``print``).
Notice = Callable[[str], None]
#: What a variant argument may be: a path, or a variant already loaded.
VariantLike = str | os.PathLike[str] | Loaded

#: The table a command plays when no player count is given, as near as the variant allows.
USUAL_PLAYERS = 4
#: The engines a run may ask for: ``auto`` takes the batch engine when it can play the run, else the interpreter.
ENGINES = ("auto", "batch", "interpreter")


@dataclass(frozen=True)
class RunOptions:
    """How a run plays and writes, whatever it measures: where the games go (``backend``, which names its workers),
    which engine plays them, whether outputs the workbench did not write may be replaced (``force``) and a missing
    ``out`` folder made with its parents (``create_out``: for the default places), who hears the progress and the
    remarks, what stops it (None: SIGINT and SIGTERM, for the duration of the run), and whether a run that would take
    more than :data:`LONGEST_RUN` at its measured speed is played all the same (``yes``; else it is refused)."""

    backend: Backend = LOCAL
    engine: str = "auto"
    force: bool = False
    create_out: bool = False
    progress: Progress | None = None
    notice: Notice | None = None
    stop: Stop | None = None
    yes: bool = False


#: The longest run played without being asked (``yes``): a day, at the speed measured in its first seconds.
LONGEST_RUN = 24 * 3600.0
#: How long a run plays, from its first finished games, before its speed is judged: the first games carry the engine's
#: start (loading compiled code, the bots' first value models), seconds on a busy machine, and are not counted.
JUDGED_AFTER = 2.0
#: How long a run plays with no game finished before it is judged on that (:meth:`Patience.idle`): minutes, far beyond
#: any engine's start on a busy machine (seconds), so that only bots too slow to finish a game are judged so.
IDLE_AFTER = 300.0
#: Games a second that no engine or cluster here reaches: a run longer than :data:`LONGEST_RUN` even at this speed is
#: refused before it is measured.
FASTEST = 10_000_000.0


class Patience:
    """Judges a run's speed once, :data:`JUDGED_AFTER` seconds after its first games: a run that would take longer than
    :data:`LONGEST_RUN` in all is stopped, and :meth:`check` refuses it, saying the estimate as a problem of the
    parameter ``field`` that set the number of games, given as ``given`` (``clock``: seconds, for tests to give their
    own)."""

    def __init__(
        self,
        games: int,
        stop: Stop,
        clock: Callable[[], float] = time.monotonic,
        *,
        field: str = "games",
        given: int | None = None,
        parallel: int | None = None,
    ):
        self.games, self.stop, self.clock = games, stop, clock
        self.field, self.given = field, games if given is None else given
        self.parallel = parallel  #: games played at once, when known (see :meth:`idle`)
        self.started = clock()
        self.idle_for: float | None = None  #: seconds with no game finished, when judged on them (:meth:`idle`)
        self.finished = 0
        self.first: tuple[float, int] | None = None  #: when the first games finished, and how many
        self.judged = False  #: once: a run found reasonable is never stopped later
        self.estimate: float | None = None  #: the whole run's seconds, once judged too long
        self.speed = 0.0  #: games a second when it was judged (the estimate's)
        if games / FASTEST > LONGEST_RUN:  # too long at any speed: refused at once, before a game is measured (slow
            self.judged, self.speed, self.estimate = True, FASTEST, games / FASTEST  # bots measure only after minutes)
            stop.request()

    def __call__(self, finished: int) -> None:
        """Games just finished (the runner's progress)."""
        now = self.clock()
        if self.first is None:  # the first games carry the engine's start (loading it, the bots' first models)
            self.first = (now, finished)
        self.finished += finished
        since, before = self.first
        if not self.judged and self.finished > before and now - since >= JUDGED_AFTER:
            self.judged = True
            self.speed = (self.finished - before) / (now - since)
            self._judge()

    def idle(self) -> None:
        """Judge a run none of whose games has finished yet (a bot slow enough never to finish a first game): with
        ``parallel`` games at once and none done after ``elapsed`` seconds, each takes longer, and the run at least
        games / parallel times that."""
        if self.judged or self.first is not None or not self.parallel:
            return
        elapsed = self.clock() - self.started
        least = self.games / self.parallel * elapsed
        if elapsed >= IDLE_AFTER and least > LONGEST_RUN:
            self.judged, self.estimate, self.speed, self.idle_for = True, least, self.parallel / elapsed, elapsed
            self.stop.request()

    @contextmanager
    def watching(self, every: float = 1.0) -> Iterator[None]:
        """Around a run: :meth:`idle` asked every ``every`` seconds by a thread of its own, until the run ends."""
        import threading

        ended = threading.Event()

        def watch() -> None:
            while not ended.wait(every) and not self.judged and not self.stop():
                self.idle()

        watcher = threading.Thread(target=watch, name="patience", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            ended.set()
            watcher.join()

    def expect(self, games: int) -> None:
        """``games`` more than the run first said (a later stage that plays a number of games of its own, such as
        the tuner's measure of a stronger bot): judged at once when the speed is known, else with the rest."""
        self.games += games
        if self.judged and self.estimate is None:
            self._judge()

    def _judge(self) -> None:
        whole = self.games / self.speed
        if whole > LONGEST_RUN:
            self.estimate = whole
            self.stop.request()

    def check(self) -> None:
        """Refuse the run if it was judged too long (nothing of it is written)."""
        if self.estimate is None:
            return
        if self.idle_for is not None:
            about = f"at least {_duration(self.estimate or 0.0)}"
            at = f"(no game finished in its first {self.idle_for:.0f} s, {self.parallel} played at once)"
        else:
            about = f"about {_duration(self.estimate or 0.0)}"
            at = (
                f"even at {FASTEST:,.0f} games a second (no engine here is faster)"
                if self.speed == FASTEST
                else f"at the speed measured ({self.speed:,.1f} games a second)"
            )
        raise UsageError(
            self.field,
            lambda name: (
                f"{self.games:,} games would take {about} {at}: give fewer games, or {name('yes')} to play them all the same"
            ),
            f"{self.given}",
        )


def time_left(seconds: float) -> str:
    """How long a run still takes, as its progress row says it: ``0:04:09`` within a day, else in words (the same
    words as :class:`Patience`'s refusal).

    >>> time_left(249.4), time_left(30 * 3600)
    ('0:04:09', '1.2 days')
    """
    if seconds < 86400:
        minutes, second = divmod(int(seconds), 60)
        return f"{minutes // 60}:{minutes % 60:02d}:{second:02d}"
    return _duration(seconds)


def _duration(seconds: float) -> str:
    """A long time in words: ``3.2 days``, ``41 weeks``, ``12 years``.

    >>> _duration(3 * 86400), _duration(300 * 86400), _duration(4000 * 86400)
    ('3.0 days', '43 weeks', '11 years')
    """
    days = seconds / 86400
    if days < 14:
        return f"{days:.1f} days"
    if days < 730:
        return f"{days / 7:.0f} weeks"
    return f"{days / 365.25:,.0f} years"


# --- the plan: what is played ------------------------------------------------------------------------------


def as_loaded(variant: VariantLike) -> tuple[Loaded, Path | None]:
    """The variant loaded (from its path, or as given), and its file (None for a variant made in memory)."""
    loaded = variant if isinstance(variant, Loaded) else load_variant(Path(variant))
    return loaded, loaded.path


def check_run(games: int) -> None:
    """Refuse, before any work, a number of games that cannot be played (a backend checks its own workers)."""
    if not isinstance(games, int) or isinstance(games, bool):
        raise UsageError("games", "expected a whole number", repr(games))
    if games < 1:
        raise UsageError("games", "play at least one game", str(games))


def player_counts(loaded: Loaded, counts: int | Sequence[int] | None, path: Path | None = None) -> list[int]:
    """The requested player counts (one, or several), each checked against the variant (named by its file when
    given), without repeats; None: :data:`USUAL_PLAYERS`, or the variant's nearest count."""
    low, high = loaded.family.player_range(loaded.variant)
    if counts is None:
        counts = [min(max(USUAL_PLAYERS, low), high)]
    if isinstance(counts, int):
        counts = [counts]
    if not all(isinstance(count, int) and not isinstance(count, bool) for count in counts):
        raise UsageError("players", "expected whole numbers of players", repr(counts))
    if not counts:
        raise UsageError("players", "name at least one player count")
    what = display_path(path) if path is not None else repr(loaded.variant.name)
    for count in counts:
        if not low <= count <= high:
            raise UsageError("players", f"{what} is for {players_span(low, high)} players", str(count))
    return list(dict.fromkeys(counts))


def one_count(counts: list[int]) -> int:
    """The player count of a command that plays one table (``play``, ``cards``, ``skill``)."""
    if len(counts) != 1:
        raise UsageError("players", "name one player count: this plays one table", ", ".join(map(str, counts)))
    return counts[0]


def named(names: str | Sequence[str]) -> list[str]:
    """Names given as one comma-separated text (``"random, heuristic"``) or as a list."""
    return [part.strip() for part in names.split(",")] if isinstance(names, str) else list(names)


def check_bots(names: Iterable[str], known: Mapping[str, Any], parameter: str = "bots") -> None:
    """Refuse a bot name the table does not know, with the names it knows."""
    for name in names:
        if name not in known:
            raise UsageError(parameter, f"unknown bot {name!r}{did_you_mean(name, known)}; known: {', '.join(sorted(known))}")


def bot_tables(
    bots: str | Sequence[str] | None, counts: list[int], known: dict[str, Any], family: Family
) -> dict[int, tuple[str, ...]]:
    """One bot name per seat for each player count: one name fills every seat, a list names each seat (None: the
    family's default bot at every seat)."""
    bots = family.default_bot if bots is None else bots
    names = named(bots)
    check_bots(names, known)
    tables = {count: tuple(names * count if len(names) == 1 else names) for count in counts}
    for count, table in tables.items():
        if len(table) != count:
            raise UsageError("bots", f"{len(names)} bots named, but a {count}-player table has {count} seats")
    return tables


@dataclass(frozen=True)
class Plan:
    """What a run plays of one variant: its player counts, the bot names at each table and what each name means."""

    loaded: Loaded
    path: Path | None  #: the variant's file (None for a variant made in memory)
    counts: list[int]
    known: dict[str, Any]  #: every bot name the variant (and the personas file) defines -> its persona
    tables: dict[int, tuple[str, ...]]  #: player count -> the bot name of each seat
    personas: Path | None = None  #: the personas file, an input no output may replace

    @property
    def family(self) -> Family:
        return self.loaded.family

    @property
    def seated(self) -> list[Any]:
        """The personas that take a seat at any of the tables, each once, in the order they first sit."""
        return [self.known[name] for name in dict.fromkeys(name for table in self.tables.values() for name in table)]

    @property
    def inputs(self) -> list[Path]:
        """The files the run reads: none of them may be named as an output."""
        return [*self.loaded.sources, *([self.personas] if self.personas is not None else [])]


def plan(
    variant: VariantLike,
    players: int | Sequence[int] | None,
    bots: str | Sequence[str] | None,
    personas: str | os.PathLike[str] | None = None,
) -> Plan:
    """Load the variant and check, before any work, the player counts and the bots named for them."""
    loaded, path = as_loaded(variant)
    counts = player_counts(loaded, players, path)
    given = Path(personas) if personas is not None else None
    known = loaded.family.personas(loaded.variant, given)
    return Plan(loaded, path, counts, known, bot_tables(bots, counts, known, loaded.family), given)


def plain_persona(value: Any) -> Any:
    """A persona (a pydantic model) as plain data for ``summary.json``."""
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def bot_names(table: tuple[str, ...]) -> list[str]:
    """A table's bots as reports show them: one name when every seat has it."""
    return [table[0]] if len(set(table)) == 1 else list(table)


# --- the engine ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineChoice:
    """Which engine plays a run (``batch`` or ``interpreter``), why the interpreter plays when ``auto`` could not take
    the batch engine, and whether the batch engine was asked for by name (then a run waits for its compiled code;
    ``auto`` starts on the interpreter, which plays the same games, and hands over when the code is ready)."""

    engine: str
    why: str = ""
    named: bool = False
    compiled: CompiledEngine | None = None  #: the batch engine's compiled code that plays these tables


def choose_engine(family: Family, runs: Iterable[tuple[Any, Iterable[Any]]], requested: str) -> EngineChoice:
    """The engine that plays ``runs`` (each a variant and the personas it seats): ``auto`` takes the batch engine when
    it can play every variant and bot of them.

    ``--engine batch`` for a run the batch engine cannot play is refused before any work, with the reason.
    """
    if requested not in ENGINES:
        raise UsageError("engine", f"choose {said(list(ENGINES))}", repr(requested))
    if requested == "interpreter":
        return EngineChoice("interpreter", named=True)
    batched = family.batched
    blocker = None if batched is not None else f"{family.title} has no batch engine"
    seated: list[Any] = []
    if batched is not None:
        with signals_held():  # the batch engine's first look imports Numba
            for variant, given in runs:
                personas = list(given)
                seated += personas
                blocker = blocker or batched.batch_blocker(variant, personas)
        if blocker is None:
            return EngineChoice("batch", named=requested == "batch", compiled=batched.compiled_for(seated))
    if requested == "batch":
        raise UsageError(
            "engine",
            lambda name: f"{blocker} (leave out {name('engine')} batch: auto then plays on the interpreter)",
            "batch",
        )
    return EngineChoice("interpreter", blocker or "")


def ready_engine(family: Family, choice: EngineChoice, notice: Notice | None, backend: Backend, stop: Stop) -> None:
    """Get a run ready, under its stop handler: say which engine plays; get the batch engine's compiled code (from
    the cache, or compiled in the background the first time: ``auto`` on this machine plays on the interpreter
    meanwhile, anything else waits for it); reach the backend's machines, so that a cluster that cannot play says
    so before any game, and say where the games go."""
    say = notice or (lambda text: None)
    compiled = choice.compiled
    if compiled is None:
        say(f"engine: {choice.engine}" + (f" ({choice.why})" if choice.why else ""))
    else:
        hands_over = not choice.named and backend.name == LOCAL.name
        try:
            remarks = compiled.prepare()
        except CompileFailed as exc:
            if not hands_over:
                raise
            say(f"engine: interpreter (the batch engine cannot be compiled: {exc.why})")
            return _start(backend, say, stop)
        for remark in remarks:
            say(remark)
        if compiled.ready():
            say("engine: batch")
        elif hands_over:
            say(f"engine: batch, compiling {compiled.what} in the background (once per installation, {compiled.about})")
            say("the interpreter plays the same games until it is ready (the compile may outlast this command)")
        else:
            started = time.perf_counter()
            say(f"engine: batch, compiling {compiled.what} first (once per installation, {compiled.about})...")
            if not compiled.wait(stop):
                return
            say(f"compiled {compiled.what} in {time.perf_counter() - started:.0f} s")
    _start(backend, say, stop)


def _start(backend: Backend, say: Notice, stop: Stop) -> None:
    """Reach the backend's machines (unless a stop came) and say where the games go."""
    if stop():
        return
    try:
        backend.start()
    except Exception:  # a cluster whose start a Ctrl-C broke: that is the stop, not an error
        if stop():
            return
        raise
    if backend.name != LOCAL.name:
        say(f"backend: {backend.name}, {backend.workers} worker(s) at {backend.where}")


# --- the job: outputs, stop, engine, play, commit ------------------------------------------------------------


@contextmanager
def stopping(stop: Stop | None) -> Iterator[Stop]:
    """The caller's stop, or one that SIGINT and SIGTERM set for the duration of the block."""
    if stop is not None:
        yield stop
        return
    own = Stop()
    with own.on_signals():
        yield own


def reserve_inputs(outputs: Outputs, *inputs: str | os.PathLike[str] | None) -> None:
    """Keep the command's input files from being named as outputs."""
    for given in inputs:
        if given is not None:
            outputs.reserve(Path(given), f"the input {display_path(Path(given))}")


@dataclass
class Job:
    """One command's run, from the first output checked to the last one committed.

    Name the outputs first (:meth:`out_files`, or :attr:`outputs` directly), then play in
    :meth:`running`: it makes the missing folders, installs the stop handling and gets the
    engine ready. :meth:`each` walks the player counts (or points) until a stop, :meth:`play`
    and :meth:`play_paired` play and say how the engines shared the games, :meth:`commit`
    puts the outputs in place together.

    A stop (SIGINT, SIGTERM) that comes once the games are over (after the last one, in the
    commit, in what a recipe writes after it) only asks to stop: the results are whole, so
    they are written whole, and the notice says ``finished (interrupt received after the
    results were written)``; the command ends as a finished one.
    """

    family: Family
    choice: EngineChoice
    options: RunOptions
    outputs: Outputs
    halt: Stop = field(default_factory=Stop)  #: set by :meth:`running`: the run's stop
    interrupted: bool = False  #: whether a stop cut a played run short
    whole: bool = False  #: whether the last commit held every game of the run (no stop cut it short)

    @property
    def engine(self) -> str:
        return self.choice.engine

    def out_files(self, out: str | os.PathLike[str] | None, *names: str) -> tuple[Path, ...] | None:
        """Reserve the files ``names`` in the folder ``out`` (checked now, before any game); None without a folder."""
        if out is None:
            return None
        self.outputs.folder_for(Path(out), "out", create=self.options.create_out)
        return tuple(self.outputs.file(Path(out) / name, "out") for name in names)

    @contextmanager
    def running(self, *, warm: bool = True) -> Iterator[Stop]:
        """Every output is named: play under the stop handling, the engine ready (unless nothing is left to play)."""
        self.outputs.ready()
        with stopping(self.options.stop) as halt:
            self.halt = halt
            if warm:
                ready_engine(self.family, self.choice, self.options.notice, self.options.backend, halt)
            yield halt
            if halt() and self.whole and self.options.notice is not None:
                self.options.notice(LATE_STOP)

    def each(self, items: Iterable[Any]) -> Iterator[Any]:
        """The items in turn until a stop: one that came between two of them, or one that cut a run short."""
        for item in items:
            if self.halt() or self.interrupted:
                return
            yield item

    def play(self, factory: Factory | Handover, games: int, label: str, **outputs: Any) -> Run:
        """Play ``games`` games (``outputs``: the runner's records, scripts and notations) with a progress line
        called ``label``; the notice hears how the engines shared them when the compiled one was not ready for all."""
        progress = self.options.progress
        shown = progress(label, games) if progress is not None else None
        backend = self.options.backend
        parallel = backend.workers if isinstance(backend, Local) and backend.workers > 1 else None  # a pool stops mid-game
        patience = None if self.options.yes else Patience(games, self.halt, parallel=parallel)
        with patience.watching() if patience is not None and parallel else contextlib.nullcontext():
            result = run(factory, games, backend=backend, progress=_both(shown, patience), stop=self.halt, **outputs)
        if patience is not None:
            patience.check()
        shared = result.handover()
        if self.options.notice is not None and shared:
            self.options.notice(shared)
        self.interrupted = self.interrupted or result.interrupted
        return result

    @contextmanager
    def patient(self, games: int, field: str, given: int, beyond: tuple[str, int] | None = None) -> Iterator[Progress | None]:
        """For a run that plays ``games`` in all through its own machinery (the tuner's races; ``field`` set them, as
        ``given``): the progress rows to give it, which also judge its speed (:class:`Patience`, unless ``yes``); a
        run judged too long is stopped and, as it ends (its own way: :class:`~workbench.errors.Interrupted`),
        refused. Rows of more games than ``games`` in all are judged too, as set by ``beyond`` (field, given value:
        the tuner's ``exploit_games``), when given."""
        progress = self.options.progress
        if self.options.yes:
            yield progress
            return
        patience = Patience(games, self.halt, field=field, given=given)
        announced = [0]  # the games of the rows so far: beyond ``games``, the run plays more than it said

        def rows(label: str, count: int) -> Callable[[int], None]:
            more = max(0, announced[0] + count - games) - max(0, announced[0] - games)
            announced[0] += count
            if more:
                if beyond is not None:
                    patience.field, patience.given = beyond
                patience.expect(more)
            heard = _both(progress(label, count) if progress is not None else None, patience)
            return heard if heard is not None else patience

        try:
            yield rows
        except Interrupted:
            patience.check()
            raise
        patience.check()

    def play_paired(self, factory: PairedFactory | Handover, games: int, label: str) -> tuple[PairedTally, bool, dict[str, Any]]:
        """Play paired games: the tally, whether a stop cut it short, and the timing."""
        result = self.play(factory, games, label)
        tally: PairedTally = result.tally
        return tally, result.interrupted, result.timing()

    def commit(self, files: Mapping[Path, str | bytes] | None = None, *, interrupted: bool) -> list[Path]:
        """Stage ``files`` (target -> contents) and put every staged output in place, as one set; the files written.
        ``interrupted``: whether the results committed are those of a run a stop cut short (else a stop that came
        meanwhile came too late to cut anything: see the class)."""
        self.whole = not interrupted
        for target, body in (files or {}).items():
            self.outputs.stage(target, body)
        return self.outputs.commit()


def _both(*hearers: Callable[[int], None] | None) -> Callable[[int], None] | None:
    """One progress callback for those given (None for none)."""
    given = [hearer for hearer in hearers if hearer is not None]
    if not given:
        return None

    def heard(finished: int) -> None:
        for hearer in given:
            hearer(finished)

    return heard


@contextmanager
def job(
    family: Family, choice: EngineChoice, options: RunOptions, inputs: Iterable[str | os.PathLike[str] | None]
) -> Iterator[Job]:
    """A run's job: its outputs checked as they are named (none of them may be one of ``inputs``) and discarded
    unless committed."""
    with Outputs(force=options.force) as outputs:
        reserve_inputs(outputs, *inputs)
        yield Job(family, choice, options, outputs)


__all__ = [
    "ENGINES",
    "LATE_STOP",
    "LONGEST_RUN",
    "USUAL_PLAYERS",
    "EngineChoice",
    "Job",
    "Notice",
    "Patience",
    "Plan",
    "Progress",
    "RunOptions",
    "VariantLike",
    "as_loaded",
    "bot_names",
    "bot_tables",
    "check_bots",
    "check_run",
    "choose_engine",
    "job",
    "named",
    "one_count",
    "plain_persona",
    "plan",
    "player_counts",
    "ready_engine",
    "reserve_inputs",
    "stopping",
]
