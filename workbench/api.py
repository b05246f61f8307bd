"""The workbench as a library: every command is a function here, and the CLI only parses, calls and prints.

Each function takes paths (or a loaded variant) and returns a typed result; files are
written only where asked, through :mod:`workbench.outputs` (checked before the work,
atomic, never replacing a file the workbench did not write unless ``force``). In a
notebook::

    from workbench import api
    base = api.simulate("variants/mine.yaml", players=[4], games=2000, seed=1)
    short = api.simulate("variants/shorter.yaml", players=[4], games=2000, seed=1)  # extends mine.yaml
    base.runs[0].figure("rounds.mean"), short.runs[0].figure("rounds.mean")
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench import GENERATOR
from workbench.errors import Remark, UsageError, WorkbenchError, display_name, display_path
from workbench.expect import Replay
from workbench.games import FAMILIES, Family, Loaded, Notated, Printable, Tunable, family_of_file, replay_scenario
from workbench.games import load_variant as _load_variant
from workbench.loading import did_you_mean, read_yaml
from workbench.outputs import FileChanged, Outputs, Scripts, check_writable, sha256_of_data
from workbench.play import Answer, check_seats
from workbench.policies import said
from workbench.recording import SCRIPT_NAME
from workbench.render.formats import FORMATS
from workbench.runs import (
    ENGINES,
    Notice,
    Plan,
    Progress,
    RunOptions,
    VariantLike,
    as_loaded,
    bot_tables,
    check_run,
    choose_engine,
    job,
    one_count,
    plain_persona,
    plan,
    player_counts,
    reserve_inputs,
)
from workbench.sim.runner import LOCAL, Backend, Run, Stop
from workbench.sweep_file import SWEEP, sweep_schema
from workbench.validation import Validation, validate


def load_variant(path: str | os.PathLike[str], text: str | None = None) -> Loaded:
    """Load, merge and validate a variant file; raises :class:`~workbench.errors.VariantError` with every problem.

    ``text`` is the file's text as an editor holds it (unsaved), read instead of the file and located as the file."""
    return _load_variant(Path(path), text=text)


# --- replay -------------------------------------------------------------------------------------


def replay(
    path: str | os.PathLike[str],
    engine: str = "interpreter",
    notice: Notice | None = None,
    *,
    notation: str | os.PathLike[str] | None = None,
    force: bool = False,
) -> tuple[Family, Replay] | None:
    """Replay a scenario script and check its ``expect:``: the family and its result (None for a variant file).

    ``engine="batch"`` replays it with the batch engine, which keeps no event log: its output has no ``events``, and
    the ``events`` of ``expect:`` are not checked; ``notice`` hears what its cache says, and that it compiles first
    when it is not compiled yet. ``notation`` writes the game in its family's notation (PGN for chess), checked
    before the replay as :func:`check_notation` checks it.
    """
    (replayed,) = replay_all([path], engine, notice, notation=notation, force=force)
    if replayed.error is not None:
        raise replayed.error
    return None if replayed.family is None or replayed.result is None else (replayed.family, replayed.result)


@dataclass(frozen=True)
class Replayed:
    """One scenario of :func:`replay_all`: its family and result, neither for a variant file (skipped), or what
    stopped it (a :class:`~workbench.errors.ScenarioError` for a script that breaks the rules or cannot be read)."""

    path: Path
    family: Family | None = None
    result: Replay | None = None
    error: Exception | None = None

    @property
    def passed(self) -> bool | None:
        """Whether it replayed and met its expectations (None: a variant file, not a scenario)."""
        if self.error is not None:
            return False
        return None if self.result is None else bool(self.result.passed)


def replay_all(
    scenarios: Sequence[str | os.PathLike[str]],
    engine: str = "interpreter",
    notice: Notice | None = None,
    *,
    trace: bool = False,
    notation: str | os.PathLike[str] | None = None,
    force: bool = False,
    each: Callable[[Replayed], None] | None = None,
) -> list[Replayed]:
    """Replay every scenario in turn, each on its own (one that fails does not stop the others; ``each`` hears each
    as it ends); with ``notation``, every game replayed then goes in its family's notation to that one file.

    Checked before the first replay: the engine (``trace``: the event log will be shown, which only the
    interpreter keeps) and the notation file (as :func:`check_notation` checks it, none of the scenarios' inputs).
    """
    check_replay_engine(engine, trace=trace)
    inputs = replayed_inputs(scenarios) if notation is not None else []
    if notation is not None:
        check_notation(notation, inputs=inputs, force=force)
    done = []
    for path in map(Path, scenarios):
        try:
            found = replay_scenario(path, "batch" if engine == "batch" else "interpreter", notice)
            replayed = Replayed(path) if found is None else Replayed(path, *found)
        except Exception as exc:  # noqa: BLE001 - each scenario on its own: its problem is its result
            replayed = Replayed(path, error=exc)
        done.append(replayed)
        if each is not None:
            each(replayed)
    if done and all(r.family is None and r.error is None for r in done):  # only variant files: nothing was checked
        raise UsageError(None, "these are variant files, not scenario scripts: there is nothing to replay")
    games = [(r.family, display_path(r.path), r.result.output, ()) for r in done if r.family is not None and r.result is not None]
    if notation is not None and games:
        write_notation(notation, games, inputs=inputs, force=force)
    return done


def check_replay_engine(engine: str, *, trace: bool = False) -> None:
    """Refuse an engine a replay cannot use (``auto`` replays with the interpreter, which keeps the event log
    ``--trace`` prints and ``expect.events`` checks)."""
    if engine not in ENGINES:
        raise UsageError("engine", f"choose {said(list(ENGINES))}", repr(engine))
    if trace and engine == "batch":
        raise UsageError(
            None,
            lambda name: (
                f"{name('trace')} prints the event log, which only the interpreter keeps: leave out {name('engine')} batch"
            ),
        )


def play(
    variant: VariantLike,
    players: int | None = None,
    seed: int = 1,
    *,
    bots: str | Sequence[str] = "random",
    people: Mapping[int, Answer] | None = None,
    personas: str | os.PathLike[str] | None = None,
    notation: str | os.PathLike[str] | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """Play one seeded game: the final state with its event log (same seed and answers, same game).

    ``bots`` names the bot of every seat (one name) or of each; the seats of ``people`` are a
    person's instead, each decision asked through its :data:`~workbench.play.Answer` (a
    :class:`~workbench.play.Left` raised there stops the game and comes out of here). ``notation`` writes the game
    in its family's notation (PGN for chess: the people's seats called "you", the bots by name), checked before the
    game as :func:`check_notation` checks it.
    """
    table = plan(variant, players, bots, personas)
    count = one_count(table.counts)
    people = dict(people or {})
    check_seats(list(people), count)
    if notation is not None:
        notating(table.family)
        check_notation(notation, inputs=table.inputs, force=force)
    seats = table.tables[count]
    output = table.family.play(table.loaded.variant, count, seed, [table.known[name] for name in seats], people)
    if notation is not None:
        names = ["you" if seat in people else f"{name} (bot)" for seat, name in enumerate(seats)]
        game = (table.family, f"{table.loaded.variant.name}, seed {seed}", output, names)
        write_notation(notation, [game], inputs=table.inputs, force=force)
    return output


def odds(variant: VariantLike) -> dict[str, Any]:
    """The exact odds of a variant's dice, computed (never simulated): each chance an exact fraction with its percent."""
    loaded, _ = as_loaded(variant)
    return loaded.family.odds(loaded.variant)


def schemas(game: str | None, kind: str | None = None) -> dict[str, dict[str, Any]]:
    """The JSON Schemas of a family's file formats by kind (``variant``, ``scenario``, ...), or just ``kind``.
    ``game`` may be left out only when the workbench knows one game, or for ``sweep``, which is every game's."""
    if kind == SWEEP:
        return {SWEEP: sweep_schema()}
    (game,) = _games(game, several=False)
    found = FAMILIES[game].schemas()
    if kind is not None and kind not in found:
        raise UsageError(None, f"unknown schema {kind!r} for {game}; choose one of {', '.join(found)}")
    return {kind: found[kind]} if kind else found


def _games(game: str | None, *, several: bool) -> list[str]:
    """The games named by ``--game`` (None: every game, where ``several`` may be written at once)."""
    if game is None:
        if several or len(FAMILIES) == 1:
            return list(FAMILIES)
        raise UsageError("game", f"which game's formats? choose one of {', '.join(FAMILIES)}")
    if game not in FAMILIES:
        raise UsageError("game", f"unknown game{did_you_mean(game, FAMILIES)}; known games: {', '.join(FAMILIES)}", game)
    return [game]


def write_schemas(out: str | os.PathLike[str], game: str | None, kind: str | None = None, *, force: bool = False) -> list[Path]:
    """Write ``<game>.<kind>.schema.json`` files into ``out`` (every game's when ``game`` is None); the files written
    (one that already holds the same text is left as it is)."""
    texts = {
        Path(out) / f"{name}.{kind_}.schema.json": json.dumps(body, indent=2) + "\n"
        for name in (_games(game, several=True) if kind != SWEEP else [])
        for kind_, body in (schemas(name, kind) if kind is None or kind in FAMILIES[name].schemas() else {}).items()
    }
    if kind in (None, SWEEP):
        texts[Path(out) / f"{SWEEP}.schema.json"] = json.dumps(sweep_schema(), indent=2) + "\n"
    if not texts:
        raise UsageError(None, f"unknown schema {kind!r}; no game has one")
    with Outputs(force=force) as outputs:
        outputs.folder_for(Path(out), "out", create=False)
        for target, text in texts.items():
            if not _holds(target, text):
                outputs.file(target, "out")
                outputs.stage(target, text)
        return outputs.commit()


def _holds(path: Path, text: str) -> bool:
    try:
        return path.is_file() and path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


# --- simulate ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSummary:
    """One simulated player count: who played, every figure with its interval, and how the run went."""

    game: str
    variant: str
    variant_file: str | None
    players: int
    seed: int
    bots: tuple[str, ...]
    personas: dict[str, Any]  #: what each bot name at the table meant (its policy and parameters)
    engine: str  #: ``batch`` or ``interpreter``: the engine given the games (``timing.interpreter_games``: how many the interpreter played while the batch engine compiled)
    figures: dict[str, Any]  #: the family's figures (``games``, ``wins``, ``rounds``, ...), as in ``summary.json``
    interrupted: bool
    timing: dict[str, Any]  #: backend, workers, seconds, games_per_second: the only part that differs between machines

    @property
    def games(self) -> int:
        """Games played and tallied."""
        return int(self.figures["games"])

    def figure(self, dotted: str) -> Any:
        """A figure by its dotted path: ``figure("rounds.mean")``, ``figure("wins.by_seat.0.rate")``."""
        node: Any = self.figures
        for part in dotted.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    def to_dict(self) -> dict[str, Any]:
        """The run as it appears in ``summary.json``."""
        return {
            "generator": GENERATOR,
            "game": self.game,
            "variant": self.variant,
            "variant_file": self.variant_file,
            "players": self.players,
            "seed": self.seed,
            "bots": list(self.bots),
            "personas": self.personas,
            "engine": self.engine,
            **self.figures,
            "interrupted": self.interrupted,
            "timing": self.timing,
        }


@dataclass(frozen=True)
class Simulation:
    """What :func:`simulate` did: one summary per player count, and the files it wrote."""

    family: Family
    counts: list[int]  #: the player counts asked for (a stopped run has fewer runs)
    runs: list[RunSummary]
    written: list[Path]  #: summary, report and records files, in the order written
    scripts: int = 0  #: scenario scripts written
    kept: list[str] = field(default_factory=list)  #: earlier scripts left in place because somebody changed them

    @property
    def interrupted(self) -> bool:
        """Whether a signal stopped the run (the runs then hold the games that finished; some counts may be missing)."""
        return any(r.interrupted for r in self.runs) or len(self.runs) < len(self.counts)

    @property
    def games(self) -> int:
        """Games played over every player count."""
        return sum(r.games for r in self.runs)

    def to_dict(self) -> dict[str, Any]:
        """The body of ``summary.json``: the run itself for one player count, ``{generator, players, interrupted,
        runs}`` for several (``players``: the counts asked for; ``runs``: those played)."""
        if len(self.counts) == 1:
            return self.runs[0].to_dict()
        return {
            "generator": GENERATOR,
            "players": self.counts,
            "interrupted": self.interrupted,
            "runs": [r.to_dict() for r in self.runs],
        }

    def to_json(self) -> str:
        """``summary.json``'s text."""
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def report(self) -> str:
        """``report.html``: the runs' figures and charts."""
        from workbench.render.report import render_report  # Jinja2, for the commands that write pages

        return render_report([r.to_dict() for r in self.runs], self.family.title, self.family.figures)


def simulate(
    variant: VariantLike,
    *,
    players: int | Sequence[int] | None = None,
    games: int = 1000,
    seed: int = 1,
    bots: str | Sequence[str] | None = None,
    backend: Backend = LOCAL,
    personas: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    records: str | os.PathLike[str] | None = None,
    record_scenarios: str | os.PathLike[str] | None = None,
    notation: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_out: bool = False,
    engine: str = "auto",
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Simulation:
    """Play ``games`` games at each player count with bots and measure what the rules do.

    Files are written only where asked: ``out`` (a folder: ``summary.json`` and
    ``report.html``), ``records`` (JSON Lines, one game a line), ``record_scenarios``
    (a folder of scenario scripts) and ``notation`` (every game in the family's notation, for a
    :class:`~workbench.games.Notated` family: PGN for chess). Every one is checked before the first game: the
    folder a named file goes in must exist, and a named folder's parent (``create_out``
    makes the missing folders of ``out``: for the default place). The outputs replace the
    earlier ones together, at the end. SIGINT or SIGTERM (or ``stop``) ends the run early:
    the result and every output then describe the games that finished, marked interrupted;
    a run stopped before any game finished writes nothing. ``engine`` is ``auto`` (the batch
    engine when it can play the run), ``batch`` or ``interpreter``; ``notice`` hears which. ``backend`` plays the
    games (:data:`~workbench.sim.runner.LOCAL`: here, in this process; ``Local(4)``: four processes; a
    :class:`~workbench.sim.cluster.Dask` cluster): the figures are the same on any. A run that would take more than
    a day at the speed measured in its first seconds is refused (a :class:`UsageError` on ``games``, nothing written)
    unless ``yes``; so is each run of the other studies (see :class:`~workbench.runs.Patience`).
    """
    check_run(games)
    table = plan(variant, players, bots, personas)
    loaded, path, family = table.loaded, table.path, table.family
    notated = notating(family) if notation is not None else None
    choice = choose_engine(family, [(loaded.variant, table.seated)], engine)
    options = RunOptions(backend, engine, force, create_out, progress, notice, stop, yes)
    with job(family, choice, options, table.inputs) as work:
        files = work.out_files(out, "summary.json", "report.html")
        scripts = record = None
        if record_scenarios is not None:
            if path is None:
                raise UsageError("record_scenarios", "the scripts name their variant file; pass the variant as a path")
            scripts = _scripts(work.outputs, Path(record_scenarios), table.counts, games)
            record = (Path(record_scenarios), path)  # where the scripts go, the variant file they name
        records_file = work.outputs.file(Path(records), "records") if records is not None else None
        notation_file = work.outputs.file(Path(notation), "notation") if notation is not None else None
        summaries = []
        with work.running():
            with _records(work.outputs, records_file) as handle, _records(work.outputs, notation_file) as notes:
                for count in work.each(table.counts):
                    seats = table.tables[count]
                    if notated is not None:
                        factory = notated.simulator(
                            loaded.variant, count, seats, table.known, seed, record, engine=work.engine, notation=True
                        )
                    else:
                        factory = family.simulator(loaded.variant, count, seats, table.known, seed, record, engine=work.engine)
                    adds = scripts.add if scripts is not None else None
                    result = work.play(factory, games, f"{count} players", records=handle, scripts=adds, notations=notes)
                    if result.games:  # a count stopped before its first game has nothing to say
                        summaries.append(_summary(table, count, seed, result, work.engine))
            finished = Simulation(family, table.counts, summaries, [])
            if not summaries:  # stopped before any game finished: the earlier outputs stay
                return finished
            written = work.commit(
                {files[0]: finished.to_json(), files[1]: finished.report()} if files else {}, interrupted=finished.interrupted
            )
    scripted, kept = (len(scripts.hashes), scripts.kept) if scripts else (0, [])
    return Simulation(family, table.counts, summaries, written, scripted, kept)


def notating(family: Family) -> Notated:
    """The family, if its games have a notation (``--pgn``); refused in one line if not."""
    notated = family.notated
    if notated is None:
        raise UsageError("notation", f"{family.title} games have no standard notation to write")
    return notated


def write_notation(
    notation: str | os.PathLike[str],
    games: Sequence[tuple[Family, str, dict[str, Any], Sequence[str]]],
    *,
    inputs: Sequence[str | os.PathLike[str]] = (),
    force: bool = False,
) -> Path:
    """Write played or replayed games, each (its family, its name, its final state with the event log, the players'
    names by seat or none), in their family's notation to the file ``notation`` (``--pgn``), checked first as
    :func:`check_notation` checks it."""
    text = "".join(notating(family).notate(output, event=event, names=names) for family, event, output, names in games)
    with Outputs(force=force) as outputs:
        target = _notation_file(outputs, notation, inputs)
        outputs.ready()
        outputs.stage(target, text)
        outputs.commit()
    return Path(notation)


def check_notation(
    notation: str | os.PathLike[str], *, inputs: Sequence[str | os.PathLike[str]] = (), force: bool = False
) -> None:
    """Refuse, before any game, a notation file (``--pgn``) that cannot or may not be written: its folder missing, a
    file the workbench did not write (without ``force``), or one of the command's ``inputs`` (even with ``force``)."""
    with Outputs(force=force) as outputs:
        _notation_file(outputs, notation, inputs)


def replayed_inputs(scenarios: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """Before ``replay --pgn``: every file the scenarios read (each script, its variant and what that is made of),
    which the notation may not replace, and a refusal in one line when a scenario's game has no notation (a file
    that cannot be read is left to the replay, which says where it is wrong)."""
    inputs: list[Path] = []
    for scenario in map(Path, scenarios):
        inputs.append(scenario)
        try:
            data = read_yaml(scenario).data
            variant = scenario.parent / data["variant"]
            family, sources = family_of_file(variant)
        except (WorkbenchError, OSError, KeyError, TypeError):
            continue
        notating(family)
        inputs += sources
    return inputs


def _notation_file(outputs: Outputs, path: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]]) -> Path:
    reserve_inputs(outputs, *inputs)
    return outputs.file(Path(path), "notation")


def _scripts(outputs: Outputs, folder: Path, counts: list[int], games: int) -> Scripts:
    pattern = SCRIPT_NAME

    def this_run(name: str) -> bool:
        match = pattern.fullmatch(name)
        return match is not None and int(match.group(1)) in counts and int(match.group(2)) < games

    return outputs.scripts(folder, "record_scenarios", pattern=pattern, names=this_run)


@contextmanager
def _records(outputs: Outputs, path: Path | None) -> Iterator[Any]:
    if path is None:
        yield None
        return
    with outputs.stream(path) as handle:
        yield handle


def _summary(table: Plan, players: int, seed: int, result: Run, engine: str) -> RunSummary:
    bots = table.tables[players]
    return RunSummary(
        game=table.family.game,
        variant=table.loaded.variant.name,
        variant_file=display_path(table.path) if table.path is not None else None,
        players=players,
        seed=seed,
        bots=bots,
        personas={name: plain_persona(table.known[name]) for name in dict.fromkeys(bots)},
        engine=engine,
        figures=result.tally.summary(),
        interrupted=result.interrupted,
        timing=result.timing(),
    )


# --- tune stakes ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tuning:
    """What :func:`tune_stakes` did: the family's report (proposals, evidence), its warnings and the files written."""

    report: Any
    command: str  #: the command that reproduces the proposal, as stored in its provenance
    warnings: list[Remark]  #: e.g. a budget too small for the proposal to mean much (``str()`` or ``text(naming)``)
    written: list[Path]


def tune_stakes(
    variant: str | os.PathLike[str],
    players: Sequence[int],
    *,
    bots: str | None = None,
    personas: str | os.PathLike[str] | None = None,
    budget: int | None = None,
    seed: int = 1,
    backend: Backend = LOCAL,
    out: str | os.PathLike[str] | None = None,
    write: bool = False,
    replace_printed: bool = False,
    force: bool = False,
    create_folders: bool = False,
    engine: str = "auto",
    exploit_bot: str | None = None,
    exploit_games: int | None = None,
    yes: bool = False,
    progress: Progress | None = None,
    notice: Notice | None = None,
    stop: Stop | None = None,
) -> Tuning:
    """Propose the stakes sheets for ``players`` (and any smaller missing count) from the printed ones.

    ``exploit_bot`` (default: the top of the family's skill ladder) then plays a rotating seat on each proposed and
    printed sheet against the tuning bots, ``exploit_games`` games each (default: ``budget / 20``, at most 2,000; 0
    measures nothing): what it gains there says how exploitable each sheet is.
    ``personas`` is a personas file whose bots ``bots`` and ``exploit_bot`` may name (those ``calibrate`` fits, say).
    ``out`` is the proposal file (YAML; the comparison page goes beside it as .html). A tuning that would take more
    than a day at the speed of its first seconds is refused unless ``yes`` (see :class:`~workbench.runs.Patience`).
    ``write`` also puts the proposals into the variant file, changing only their lines;
    a printed sheet is replaced only with ``replace_printed``, and never when the file
    changed on disk during the run. A stop (SIGINT, SIGTERM) writes nothing and raises
    :class:`~workbench.sim.runner.Interrupted`.
    """
    path = Path(variant)
    found, sources = family_of_file(path)
    family = found.tunable
    if family is None:
        raise UsageError(None, f"{found.title} has no stakes sheets to tune")
    _check_tuning(budget, exploit_games, write, replace_printed)
    counts = sorted(set(players))
    tuned = family.tuning_variant(path, counts)
    given = Path(personas) if personas is not None else None
    known = family.personas(tuned, given)
    bots = family.default_bot if bots is None else bots
    ranked = found.ranked
    strong = exploit_bot if exploit_bot is not None else ranked.ladder()[-1] if ranked is not None else None
    seated = [known[bot] for bot in (bots, strong) if bot in known]  # an unknown bot is named by the tuner
    choice = choose_engine(family, [(tuned, seated)], engine)
    engine = choice.engine
    budget = budget if budget is not None else family.tuning_budget(engine, seated[0] if seated else None, counts[-1])
    command = _tuning_command(
        path, counts, f"--bots {bots} --budget {budget} --seed {seed} --engine {engine}",
        personas=given, exploit_bot=exploit_bot, exploit_games=exploit_games, write=write, replace_printed=replace_printed,
    )  # fmt: skip
    options = RunOptions(backend, engine, force, create_folders, progress, notice, stop, yes)
    with job(family, choice, options, [*sources, given]) as work:
        proposal, page = _proposal_files(work.outputs, out, create_folders)
        real = path.resolve()  # a symlinked variant is written where it really is
        before = _writable_variant(family, real, counts) if write else None
        with (
            work.running() as halt,
            work.patient(
                budget * len(counts), "budget", budget, None if exploit_games is None else ("exploit_games", exploit_games)
            ) as rows,
        ):
            report = family.tune_stakes(
                path,
                counts,
                bots=bots,
                personas=known,
                seed=seed,
                budget=budget,
                backend=backend,
                engine=engine,
                progress=rows,
                stop=halt,
                command=command,
                keep_printed=write and not replace_printed,
                exploit_bot=strong,
                exploit_games=exploit_games,
            )
            staged = {}
            if proposal is not None and page is not None:
                staged = {proposal: family.tuning_yaml(report, page.name), page: family.tuning_page(report)}
            written = work.commit(staged, interrupted=False)  # a stopped tuning raised Interrupted
            if before is not None:
                _write_sheets(family, path, real, before, report, proposal, page)
                written.append(path)
    return Tuning(report, command, family.tuning_warnings(report), written)


def _check_tuning(budget: int | None, exploit_games: int | None, write: bool, replace_printed: bool) -> None:
    """Refuse the options of :func:`tune_stakes` that cannot go together or are out of their bounds."""
    if budget is not None and budget < 100:
        raise UsageError("budget", "tune with at least 100 games per player count", str(budget))
    if exploit_games is not None and exploit_games < 0:
        raise UsageError("exploit_games", "give 0 (to measure nothing) or more games", str(exploit_games))
    if replace_printed and not write:
        raise UsageError(
            "replace_printed", lambda name: f"only with {name('write')} (without it the variant file is not changed)"
        )


def _tuning_command(
    path: Path,
    counts: list[int],
    run: str,
    *,
    personas: Path | None,
    exploit_bot: str | None,
    exploit_games: int | None,
    write: bool,
    replace_printed: bool,
) -> str:
    """The command that reproduces a proposal, as its provenance stores it: as typed (run from the same folder, it
    gives the same proposal), with the bots, budget, seed and engine of ``run``."""
    return " ".join(
        [
            f"workbench tune-stakes {path}",
            *(f"--players {n}" for n in counts),
            run,
            *([f"--personas {display_path(personas)}"] if personas is not None else []),
            *([f"--exploit-bot {exploit_bot}"] if exploit_bot is not None else []),
            *([f"--exploit-games {exploit_games}"] if exploit_games is not None else []),
            *(["--write"] if write else []),
            *(["--replace-printed"] if replace_printed else []),
        ]
    )


def _proposal_files(
    outputs: Outputs, out: str | os.PathLike[str] | None, create_folders: bool
) -> tuple[Path | None, Path | None]:
    """The proposal (YAML) and its comparison page beside it (.html), reserved; none without ``out``."""
    if out is None:
        return None, None
    if Path(out).suffix.lower() in (".html", ".htm"):
        raise UsageError("out", "the proposal is YAML (the comparison page goes beside it as .html)", display_path(Path(out)))
    return outputs.file(Path(out), "out", create_folder=create_folders), outputs.file(Path(out).with_suffix(".html"), "out")


def _write_sheets(
    family: Tunable, path: Path, real: Path, before: bytes, report: Any, proposal: Path | None, page: Path | None
) -> None:
    """Put the proposed sheets into the variant file (``real``: with symlinks followed), only if it is still the
    writable file, with the text ``before``, that the tuner read (checked again as the new text takes its place);
    the proposal is written already, so a refusal says where it is."""
    where = display_path(proposal) if proposal else "the returned report"

    def refused(why: str) -> UsageError:
        return UsageError(None, f"{display_name(path)} {why}; not written (the proposal is in {where})")

    try:
        found = real.lstat()
    except FileNotFoundError:
        raise refused("was removed while the tuner ran") from None
    except OSError as exc:
        raise refused(f"cannot be read after the tuner ran ({exc.strerror})") from None
    if stat.S_ISLNK(found.st_mode):
        raise refused(f"is now a link (to {os.readlink(real)}) since the tuner started")
    if not found.st_mode & 0o222:
        raise refused("was made read-only while the tuner ran")
    relative = os.path.relpath(page, real.parent) if page is not None else None
    try:
        family.write_sheets(real, report, relative, still=sha256_of_data(before))
    except FileChanged:
        raise refused("was removed while the tuner ran" if not real.exists() else "changed on disk while the tuner ran") from None
    except OSError as exc:  # read again to be edited: gone or unreadable since the look above
        raise refused(f"cannot be read after the tuner ran ({exc.strerror})") from None
    except WorkbenchError as exc:  # the variant is as it was
        raise WorkbenchError(exc.problems, f"{display_path(path)} is unchanged; the proposal is in {where}") from None


def _writable_variant(family: Tunable, path: Path, counts: list[int]) -> bytes:
    """The variant file's bytes (``path`` with symlinks followed), after checking that its sheets can be replaced."""
    found = path.stat()
    if not found.st_mode & 0o222:
        raise UsageError("write", "the variant file is read-only; make it writable first", display_path(path))
    if found.st_nlink > 1:
        raise UsageError(
            "write",
            f"the variant file has {found.st_nlink} hard links, which replacing it would break; work on a copy",
            display_path(path),
        )
    check_writable(path.parent, "write")
    family.check_write(path, counts)
    return path.read_bytes()


# --- print ---------------------------------------------------------------------------------------------------


def print_set(
    variant: VariantLike,
    out: str | os.PathLike[str],
    *,
    html: bool = False,
    paper: str = "a4",
    players: int | None = None,
    bleed: float | None = None,
    backs: bool = True,
    backs_offset: str = "0,0",
    only: str | None = None,
    format: str = "sheets",
    shop: str = "generic",
    dpi: int | None = None,
    base_url: str | None = None,
    changed_since: str | os.PathLike[str] | None = None,
    force: bool = False,
    create_folders: bool = False,
    notice: Notice | None = None,
) -> list[Path]:
    """Print a playtest set to ``out``; the files written.

    ``format``: ``sheets`` (a PDF of card sheets for a home printer and the set's other parts; a name ending in .html
    writes only the HTML, and ``html`` also writes it beside the PDF), ``cards-pdf`` (a PDF of one card a page, its
    TrimBox and BleedBox set, in ``shop``'s size, bleed and page order), ``png`` (``out`` a folder: one image a card
    face at ``dpi``, default 300, named ``ID-COPY-front.png`` and ``-back.png``) or ``tts`` (``out`` a folder: the
    set for Tabletop Simulator, :mod:`workbench.render.tts`, its images at ``dpi``, default 150, named by their URL
    under ``base_url``, or by their path). Options: ``paper`` (a4 or letter), ``players`` (the set is for N players),
    ``bleed`` (mm; None: none on sheets, the shop's for its formats), ``backs``, ``backs_offset`` (``"DX,DY"`` mm),
    ``only`` (a comma list of the family's parts, such as ``"cards,rules"``, or ``"calibration"``: the duplex
    alignment page; a shop's formats print only cards). Every set of cards writes the record of their versions and
    copies beside it (``NAME.cards.json``, for a file or a folder ``NAME``); ``changed_since`` (an earlier set, or its
    record) prints only the cards whose text, cost, art or copies changed since it, with their copies (nothing, when
    none did), never over that set (not for an online table, which takes a whole set).
    ``notice`` hears how many cards a sheet holds when the bleed leaves room for fewer than 3 x 3, what a shop's files
    are, and which cards changed.
    """
    loaded, _ = as_loaded(variant)
    family = _printable(loaded)
    out = Path(out)
    chosen = FORMATS.get(format, FORMATS["sheets"])  # an unknown one is refused with the other options
    folder = chosen.images is not None
    if folder and html:
        raise UsageError("html", f"with --format {format} the folder is the set: leave out --html")
    if base_url is not None:
        _check_base_url(base_url, format)
    dpi = dpi if dpi is not None else chosen.dpi or 300
    options = {"paper": paper, "players": players, "bleed": bleed, "backs": backs, "backs_offset": backs_offset}
    options |= {"only": only, "format": format, "shop": shop, "dpi": dpi}
    html_only = not folder and out.suffix.lower() in (".html", ".htm")
    earlier = None
    if changed_since is not None:
        if format == "tts":
            raise UsageError(
                "changed_since", "an online table takes the whole set: print it again without it", str(changed_since)
            )
        earlier = _card_record(Path(changed_since), loaded.variant)
        if _record_of(Path(changed_since)).resolve() == _record_of(out).resolve():
            said = "a reprint would replace the set it compares with: give it an --out of its own"
            raise UsageError("changed_since", said, display_path(Path(changed_since)))
    with Outputs(force=force) as outputs:
        reserve_inputs(outputs, *loaded.sources)
        if chosen.images is not None:
            pattern = chosen.images
            kept = outputs.scripts(
                out, "out", pattern=pattern, names=lambda name: pattern.fullmatch(name) is not None, create=create_folders
            )
            targets = [outputs.file(out / f"{out.resolve().name}.json", "out")] if format == "tts" else []
        else:
            targets = [outputs.file(out, "out", create_folder=create_folders)]
        if html and not html_only:
            targets.append(outputs.file(out.with_suffix(".html"), "html"))
        record = outputs.file(_record_of(out), "out", create_folder=create_folders) if not html_only else None
        page = print_page(loaded, **options)  # every option checked (the outputs first, as by every command)
        from workbench.render import printing  # WeasyPrint, for this command only

        versions = printing.card_record(page, loaded.variant)
        if not versions["cards"] and (chosen.cards_only or earlier is not None):
            raise UsageError("only", "no cards to print: the parts chosen have none", only or ", ".join(FORMATS))
        if earlier is not None:
            changed = _changed(earlier, versions["cards"], display_path(Path(changed_since or "")), notice)
            if not changed:
                return []
            page = print_page(loaded, **options, cards=changed)

        note = None
        if chosen.cards_only:
            note = printing.shop_note(shop, bleed, images=chosen.images is not None, backs=backs)
        elif format == "sheets":
            note = printing.layout_note(paper.lower(), bleed or 0)
        if note is not None and notice is not None:
            notice(note)
        outputs.ready()
        if format == "png":
            for image in printing.render_images(page, dpi):
                kept.add(f"{image.name}.png", image.image)
        elif format == "tts":
            from workbench.render import tts

            def url(file: str) -> str:
                return f"{base_url.rstrip('/')}/{file}" if base_url is not None else (out.resolve() / file).as_uri()

            pieces = family.table_pieces(loaded.variant)
            exported = tts.export(page, printing.render_images(page, dpi), pieces, loaded.variant.name, url)
            if exported.left_out and notice is not None:
                notice(f"not in the saved object (Tabletop Simulator has no such dice): {', '.join(exported.left_out)}")
            for name, data in exported.images.items():
                kept.add(name, data)
            outputs.stage(targets[0], exported.json())
        else:
            for target in targets:
                is_html = target.suffix.lower() in (".html", ".htm")
                outputs.stage(target, page if is_html else print_pdf(loaded, page))
        if record is not None and versions["cards"]:  # the set's record, after the set
            outputs.stage(record, json.dumps(versions, indent=1) + "\n")
        written = outputs.commit()
    return [out, *written] if folder else written


def _record_of(path: Path) -> Path:
    """The record of a set's cards: written beside the set (a PDF or a folder of images, where it really is), or named
    itself."""
    path = path.resolve() if path.is_symlink() or path.name in ("", "..") else path  # ".": the folder's own name
    return path if path.suffix == ".json" else path.with_suffix(".cards.json")


def _check_base_url(base_url: str, format: str) -> None:
    """Refuse an address for an online table's images that is not a plain http(s) folder address."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    plain = not any(c.isspace() or c in "\"'<>\\" for c in base_url)
    if format != "tts":
        raise UsageError(
            "base_url", lambda name: f"only with {name('format')} tts (where the images of an online table are)", base_url
        )
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or not plain:
        said = "expected the https:// (or http://) address of the folder the images will be put in"
        raise UsageError("base_url", said, base_url)
    if parts.query or parts.fragment:
        raise UsageError("base_url", "the address of a folder: no ? or # part", base_url)


def _card_record(path: Path, variant: Any) -> dict[str, dict[str, Any]]:
    """The cards of an earlier set of ``variant``'s game, from its record (``path`` the record, or the set beside
    which it was written)."""
    record = _record_of(path)
    try:
        if not record.is_file():  # a FIFO would hold the command forever
            raise FileNotFoundError if not record.exists() else ValueError
        body = json.loads(record.read_text(encoding="utf-8"))
        cards = body["cards"]
        if not isinstance(cards, dict) or not all(_a_card(entry) for entry in cards.values()):
            raise ValueError
    except FileNotFoundError:
        said = f"no record of its cards: {display_path(record)} (a set printed before records were kept, or moved without it)"
        raise UsageError("changed_since", said, display_path(path)) from None
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise UsageError(
            "changed_since", f"{display_path(record)} is not a record of printed cards", display_path(path)
        ) from None
    if body.get("game", variant.game) != variant.game:
        said = f"a record of {body.get('game')} cards, not of {variant.game} ones: compare a set of the same game"
        raise UsageError("changed_since", said, display_path(path))
    return cards


#: The most cards a reprint names that are no longer in the set (a record of another set would name hundreds).
MOST_NAMED = 12


def _a_card(entry: Any) -> bool:
    """Whether a record's entry is a card as :func:`workbench.render.printing.card_record` writes it."""
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("version"), str)
        and isinstance(entry.get("title", ""), str)
        and isinstance(entry.get("copies", 0), int)
    )


def _changed(earlier: dict[str, dict[str, Any]], now: dict[str, dict[str, Any]], since: str, notice: Notice | None) -> set[str]:
    """The cards that changed (or are new) since an earlier set's record, said card by card."""

    def how(key: str) -> str | None:
        card, then = now[key], earlier.get(key)
        if then is None:
            return "new"
        if then.get("version") != card["version"]:
            return "changed"
        if then.get("copies") != card["copies"]:
            return f"copies {then.get('copies')} -> {card['copies']}"
        return None

    changed = {key for key in now if how(key) is not None}
    gone = sorted(set(earlier) - set(now))
    if notice is not None:
        words = [f"{now[key]['title'] or key} ({how(key)})" for key in sorted(changed)]
        copies = sum(now[key]["copies"] for key in changed)
        notice(
            f"since {since}: {', '.join(words)}: {len(changed)} card(s), {copies} cop{'y' if copies == 1 else 'ies'} to print"
            if changed
            else f"since {since}: no card changed, nothing to print"
        )
        if gone:
            names = [earlier[key].get("title") or key for key in gone[:MOST_NAMED]]
            more = f" and {len(gone) - MOST_NAMED:,} more" if len(gone) > MOST_NAMED else ""
            notice(f"no longer in the set since {since}: {', '.join(names)}{more}")
    return changed


def _printable(loaded: Loaded) -> Printable:
    printable = loaded.family.printable
    if printable is None:
        raise UsageError(None, f"{loaded.family.title} has no printable playtest set")
    return printable


def print_page(variant: VariantLike, **options: Any) -> str:
    """The playtest set as one HTML document (what :func:`print_set` prints), with the options :func:`print_set`
    takes for it (``paper``, ``players``, ``bleed``, ``backs``, ``backs_offset``, ``only``, ``format``, ``shop``,
    ``dpi``; any left out: their defaults)."""
    loaded, _ = as_loaded(variant)
    return _printable(loaded).print_html(loaded.variant, options)


def print_pdf(variant: VariantLike, page: str) -> bytes:
    """The PDF of a playtest set's page (from :func:`print_page`), as bytes: the same page and variant, the same bytes."""
    loaded, _ = as_loaded(variant)
    from workbench.render import printing  # WeasyPrint, for this command only

    return printing.render_pdf(page, printing.content_hash(loaded.variant))


__all__ = [
    "ENGINES",
    "Notice",
    "Progress",
    "RunSummary",
    "Simulation",
    "Tuning",
    "Validation",
    "bot_tables",
    "check_run",
    "choose_engine",
    "load_variant",
    "play",
    "player_counts",
    "print_page",
    "print_pdf",
    "print_set",
    "replay",
    "replay_all",
    "schemas",
    "simulate",
    "tune_stakes",
    "validate",
    "write_schemas",
]
