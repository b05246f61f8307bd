"""The ``workbench`` command: thin Typer commands over :mod:`workbench.api`. Family-agnostic.

Each command parses its options, calls one library function and prints the result;
whatever text came from a user's file is printed with control characters escaped.
"""

import contextlib
import json
import os
import re
import shlex
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer._click import exceptions as click_errors  # Typer's own copy of Click (tests/test_cli.py checks the use)
from typer.core import TyperGroup

from workbench import studio as studio_server
from workbench.errors import BROKEN_PIPE, LATE_STOP, Interrupted, ScenarioError, UsageError, WorkbenchError, display_path
from workbench.play import Chance, Left, Question, Table
from workbench.render.formats import FORMATS
from workbench.render.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from workbench import api

# The library (and through it pydantic, the families, NumPy, Numba, Jinja2, Dask) is imported by the commands that
# use it, so that `workbench --help` starts at once and a command imports only what it runs.


class _Commands(TyperGroup):
    """Typer's command group, with a mistyped option reported like every other problem of the input: one line, exit 1."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        given = list(args) if args is not None else sys.argv[1:]
        empty = _empty_value(given)
        if empty is not None:
            warn(empty)
            sys.exit(1)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except _ReaderGone:
            _reader_gone()
        except click_errors.NoArgsIsHelpError as exc:  # nothing to work on: the help, and 1 as for any missing input
            exc.show()
            sys.exit(1)
        except click_errors.BadParameter as exc:
            command = exc.ctx.command_path if exc.ctx is not None else "workbench"
            warn(f"{command}: {_in_our_words(exc, list(args) if args is not None else sys.argv[1:])} (see {command} --help)")
            sys.exit(1)
        except click_errors.NoSuchOption as exc:  # the framework's guess is any option sharing a few letters
            from workbench.loading import did_you_mean

            command = exc.ctx.command_path if exc.ctx is not None else "workbench"
            known = [name for p in exc.ctx.command.params for name in p.opts + p.secondary_opts] if exc.ctx else []
            warn(f"{command}: no option {exc.option_name}{did_you_mean(exc.option_name, known)} (see {command} --help)")
            sys.exit(1)
        except click_errors.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx is not None else "workbench"
            warn(f"{command}: {exc.format_message()} (see {command} --help)")
            sys.exit(1)
        except click_errors.ClickException as exc:
            warn(exc.format_message())
            sys.exit(1)
        except typer.Abort:
            warn("interrupted")
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:  # ``workbench --help | head -0``: Typer would exit 1
            raise _ReaderGone from None
        except KeyboardInterrupt:  # while the command line is read (a command's lazy imports): Typer exits 130 silently
            warn("interrupted")
            raise typer.Exit(130) from None

    def invoke(self, ctx: Any) -> Any:
        _heard.clear()
        _written.clear()
        previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
        try:
            done = super().invoke(ctx)
            _ending["finished"] = not _heard  # a stop heard with the results written is said below, else by _over
        except BrokenPipeError:
            raise _ReaderGone from None
        except KeyboardInterrupt:  # not taken by a run's stop handling (the command's imports, its checks): said, where
            # Typer would exit 130 silently
            warn("interrupted")
            raise typer.Exit(130) from None
        finally:  # the handlers of _results are this command's (a notebook or a test runs several); the command
            # line's process ends with its command: from now on a signal is only heard (_over)
            with contextlib.suppress(ValueError, TypeError):  # ValueError: not the main thread
                for signum, handler in previous.items():
                    signal.signal(signum, _over if "main" in _ending else handler)
        if _heard:
            _heard.clear()
            say(LATE_STOP)
        return done


#: The framework's words for a value out of an option's bounds, and the workbench's.
_BOUNDS = (
    (re.compile(r"Input should be greater than or equal to (\S+)"), "give {} or more"),
    (re.compile(r"Input should be greater than (\S+)"), "give more than {}"),
    (re.compile(r"Input should be less than or equal to (\S+)"), "give at most {}"),
    (re.compile(r"Input should be a valid integer"), "expected a whole number"),
    (re.compile(r"Input should be a valid number"), "expected a number"),
)


def _in_our_words(exc: "click_errors.BadParameter", args: list[str]) -> str:
    """A refused option value said as the workbench says every problem: ``--workers 0: give 1 or more`` (the value as
    typed, found among ``args``), a missing one with what it is for (``LOG is missing (games played at a table...)``);
    a message the workbench has no words for is the framework's."""
    param = getattr(exc, "param", None)
    if isinstance(exc, click_errors.MissingParameter) and param is not None and param.name:
        shown = option_of(param.name) if param.param_type_name == "option" else RENAMED.get(param.name, param.name.upper())
        what = (getattr(param, "help", None) or "").rstrip(".")
        return f"{shown} is missing" + (f" ({what[:1].lower()}{what[1:]})" if what else "")
    names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())] if param is not None else []
    value = None
    for index, arg in enumerate(args):
        for name in names:
            if arg == name and index + 1 < len(args):
                value = args[index + 1]
            elif arg.startswith(name + "="):
                value = arg.partition("=")[2]
    text = exc.format_message()
    for pattern, words in _BOUNDS:
        found = pattern.search(text)
        if found and names:
            option = max((name for name in names if name.startswith("--")), key=len, default=names[0])
            shown = f"{option} {printable(value)}" if value is not None else option
            return f"{shown}: {words.format(*found.groups())}"
    return text


app = typer.Typer(
    cls=_Commands,
    name="workbench",
    help="Design workbench for chance-driven tabletop games: validate, play, simulate, compare, tune and print rules variants written in YAML.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@cache
def console(stderr: bool = False) -> "Console":
    """The terminal: standard output, or standard error (rich is imported when something is first printed)."""
    return _console_class()(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)  # ":thumbs_up:" stays text


@cache
def _console_class() -> "type[Console]":
    """rich's console, ending quietly when the reader of standard output stops reading (``... | head``): the shell's
    convention, 128 + SIGPIPE, where rich would exit 1 (an error, which it is not)."""
    from rich.console import Console

    class Quiet(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            _reader_gone()

    return Quiet


def _empty_value(args: list[str]) -> str | None:
    """What to say of an empty value on the command line (``--out "$DIR"`` with DIR unset), or None: no command takes
    one, and a path would have meant the current folder (``--out=`` wrote the results there).

    >>> _empty_value(["simulate", "v.yaml", "--out="])
    'workbench simulate: --out: an empty value (an unset shell variable?): give one, or leave the option out'
    >>> _empty_value(["validate", ""]), _empty_value(["validate", "v.yaml"])
    ('workbench validate: an empty argument (an unset shell variable?)', None)
    """
    command = " ".join(["workbench", *(arg for arg in args[:1] if not arg.startswith("-"))])
    for at, arg in enumerate(args):
        option, equals, value = arg.partition("=")
        if arg.startswith("--") and equals and not value:
            named: str | None = option
        elif arg == "":
            named = args[at - 1] if at and args[at - 1].startswith("-") and "=" not in args[at - 1] else None
        else:
            continue
        if named is None:
            return f"{command}: an empty argument (an unset shell variable?)"
        return f"{command}: {named}: an empty value (an unset shell variable?): give one, or leave the option out"
    return None


def _reader_gone() -> NoReturn:
    """End quietly: the reader of standard output stopped reading (``... | head``), as the shell's own tools do (exit
    128 + SIGPIPE; standard output pointed at nothing, so that no more is flushed at exit). A run whose results were
    written when it noticed says on standard error that they stand (a run that noticed earlier wrote nothing)."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if _written:
        with contextlib.suppress(OSError):
            shown = ", ".join(display_path(path) for path in _written)
            warn(f"the reader of the output stopped reading once the results were written; they stand: {shown}")
    sys.exit(BROKEN_PIPE)


class _ReaderGone(Exception):
    """A closed standard output, carried past the framework (which would exit 1 for it) to :class:`_Commands`."""


_debug = {"on": False}


def say(text: str, *, wrap: bool = False) -> None:
    """Print a line on standard output (control characters escaped); ``wrap`` folds prose to the terminal's width.
    Each line is flushed: a long-running command (the studio's address) is heard at once in a log."""
    if wrap:
        console().print(printable(text), markup=False, soft_wrap=False)
    else:
        print(printable(text), flush=True)  # as rich would print it unstyled, without importing rich for a line


def _notice(text: str) -> None:
    """What a run says as it goes (the engine, the handover), said at once; but for a signal heard once its results
    were written, said last, after what the command prints (see :func:`_results`)."""
    if text == LATE_STOP:
        _heard.append(0)
    else:
        say(text)


def say_json(body: object, indent: int | None = None) -> None:
    """Print JSON on standard output (``json.dumps`` escapes every control character itself)."""
    print(json.dumps(body, indent=indent))


def warn(text: str) -> None:
    """Print a line on standard error (control characters escaped)."""
    print(printable(text), file=sys.stderr)


@app.callback()
def _options(
    debug: Annotated[bool, typer.Option("--debug", help="Show a traceback when something fails.")] = False,
) -> None:
    _debug["on"] = debug


#: The library's parameters that every command names otherwise than ``--`` and the name with dashes.
RENAMED = {"notation": "--pgn", "people": "--human", "logs": "LOG"}  # LOG: the positional games of playtests, calibrate


def option_of(parameter: str, renamed: Mapping[str, str] = RENAMED) -> str:
    """The option that sets a library parameter: ``--players`` for ``players``, ``--record-scenarios`` for
    ``record_scenarios``, or as ``renamed`` says."""
    return renamed.get(parameter, "--" + parameter.replace("_", "-"))


@contextmanager
def _reported(failures: list[str] | None = None, renamed: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn library errors into ``file:line: key: message`` lines (exit 1), a refused parameter named by its option
    (``renamed``: this command's own names); a stop into exit 130; anything else into one line (exit 2). With
    ``failures``, an error is said and added there instead, and the command goes on."""
    try:
        yield
    except BrokenPipeError:  # the reader stopped reading: main() ends quietly
        raise
    except Interrupted:
        warn("interrupted: nothing was written (an unfinished comparison proves nothing)")
        raise typer.Exit(130) from None
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 - the user gets one line, --debug gives the rest
        shown = _say_error(exc, renamed)
        if failures is None:
            raise typer.Exit(exc.exit_code if isinstance(exc, WorkbenchError) else 2) from None
        failures.extend(shown)


def _given(option: str) -> bool:
    """Whether the command line being run gave ``option`` (True when that cannot be told: outside a command)."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is None:
        return True
    for parameter in ctx.command.params:
        if option in parameter.opts and parameter.name is not None:
            return ctx.get_parameter_source(parameter.name) is not ParameterSource.DEFAULT
    return True


def _say_error(exc: Exception, renamed: Mapping[str, str] | None = None) -> list[str]:
    """Say what went wrong on standard error: a library error's located problems (and its note), anything else in
    one line (a bug: ``--debug`` shows its traceback); the lines said."""
    if not isinstance(exc, WorkbenchError):
        if _debug["on"]:
            traceback.print_exception(exc)
        warn(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)")
        return [f"internal error: {exc}"]
    naming = partial(option_of, renamed={**RENAMED, **(renamed or {})})
    if isinstance(exc, UsageError):
        option = naming(exc.field) if exc.field is not None else None
        if option is not None and exc.value is not None and not _given(option):  # a default the user never typed
            shown = [f"{exc.value} (the default of {option}): {exc.why(naming)}"]
        else:
            shown = [exc.text(naming)]
    else:
        shown = [p.text(naming) for p in exc.problems]
    for line in shown:
        warn(line)
    if exc.note:
        warn(f"note: {exc.note}")
    return shown


#: Options several commands share, worded once.
Workers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        help="Processes to use [default: every core; at most four a core, or 16; with --scheduler, the cluster's].",
        min=1,
        show_default=False,
    ),
]
BackendName = Annotated[
    str,
    typer.Option(
        "--backend",
        help="local (this machine's processes) or dask (a Dask cluster: --scheduler, or one started here); same results.",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", help="The Dask scheduler to run on (tcp://HOST:8786), with --backend dask.", show_default=False),
]
Bots = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        help="One bot per seat (a built-in bot or a persona); one name fills every seat [default: the game's default bot].",
        show_default=False,
    ),
]
Personas = Annotated[Path | None, typer.Option("--personas", help="A YAML file of bot personas (bots: {name: {policy: ...}}).")]
Force = Annotated[
    bool, typer.Option("--force", help="Replace output files the workbench did not write (or that were changed since).")
]
Yes = Annotated[
    bool, typer.Option("--yes", "-y", help="Play a run the workbench estimates at more than a day all the same (else refused).")
]
Notation = Annotated[
    Path | None,
    typer.Option(
        "--pgn", help="Also write the game(s) in the game's standard notation to this file (PGN for chess).", show_default=False
    ),
]
EngineOption = Annotated[
    str,
    typer.Option(
        "--engine", help="batch (compiled, fast), interpreter, or auto: the batch engine when it can play every bot and card."
    ),
]


@app.command()
def validate(
    variants: Annotated[list[Path], typer.Argument(help="Variant files to check.", show_default=False)],
) -> None:
    """Check variant files; print a short summary of each valid one, every problem of an invalid one."""
    from workbench.validation import validate as check  # not the api: a check imports no run machinery

    failures: list[str] = []  # problems of every file, and any internal error (reported as it happens)
    for path in variants:
        with _reported(failures):
            checked = check(path)
            if checked.ok:
                say(f"{display_path(path)}: valid {checked.title} variant '{checked.name}'")
                for label, text in checked.summary:
                    say(f"  {label}: {text}")
                continue
            failures.extend(checked.problems)
            for problem in checked.problems:
                warn(problem)
            if checked.note:
                warn(f"note: {checked.note}")
            warn(f"{display_path(path)}: {len(checked.problems)} problem(s)")
    if failures:
        raise typer.Exit(1)


@app.command()
def replay(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario files to replay.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print each result as one JSON object per line.")] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Print the event log, one line per event.")] = False,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="interpreter (auto: it keeps the event log), or batch: the compiled engine, to check it ends the same.",
        ),
    ] = "interpreter",
    pgn: Notation = None,
    force: Force = False,
) -> None:
    """Replay scripted games and check their `expect:` blocks; exit 1 if any scenario fails."""
    from workbench import api

    report = partial(_report_replay, as_json=as_json, trace=trace)
    with _reported():
        replays = api.replay_all(scenarios, engine, notice=warn, trace=trace, notation=pgn, force=force, each=report)
    passed = sum(r.passed is True for r in replays)
    failed = sum(r.passed is False for r in replays)
    if len(scenarios) > 1 and not as_json:
        say(f"{passed} passed, {failed} failed")
    games = sum(r.result is not None for r in replays)
    if pgn is not None and games:
        warn(f"wrote {games} game(s) to {display_path(pgn)}")
    if failed:
        raise typer.Exit(1)


def _report_replay(replayed: "api.Replayed", *, as_json: bool, trace: bool) -> None:
    """Report one scenario as it ends: PASS or FAIL with its length and checks, SKIP for a variant file."""
    from workbench.games import game_length

    path = replayed.path
    if replayed.error is not None:
        if trace and isinstance(replayed.error, ScenarioError):  # the events up to the failure, then the failure
            for line in replayed.error.trace:
                say(line)
        _say_error(replayed.error)
        if not as_json:
            warn(f"FAIL {display_path(path)}")
        return
    if replayed.family is None or replayed.result is None:
        warn(f"skip {display_path(path)}: a variant file, not a scenario")
        return
    family, result = replayed.family, replayed.result
    output = result.output
    if trace:
        for event in output["events"]:
            say(family.describe(event))
    if as_json:
        say_json(output)
    for problem in result.failures:
        warn(str(problem))
    if not as_json:
        end = output["end_reason"] or "not ended"
        checks = f"{result.checks} expectation(s) checked" if result.checks else "no expectations"
        if result.unchecked:
            checks += f" ({result.unchecked} on events left unchecked: the batch engine keeps no event log)"
        verdict = "PASS" if result.passed else "FAIL"
        say(f"{verdict} {display_path(path)}: {game_length(family, output)}, {end}; {checks}")


@app.command()
def play(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="Number of players [default: 4, or as near as the variant allows].", show_default=False
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the game's dice, shuffles and bots.")] = 1,
    human: Annotated[
        list[int] | None,
        typer.Option(
            "--human",
            help="Your seat (from 0): each of its decisions is asked in the terminal, numbered options read from "
            "standard input. Repeat for several people at one table.",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[str, typer.Option("--bots", help="Bot at every other seat, or one per seat, comma-separated.")] = "random",
    personas: Personas = None,
    trace: Annotated[bool, typer.Option("--trace", help="Print the event log, one line per event.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
    pgn: Notation = None,
    force: Force = False,
) -> None:
    """Play one seeded game with bots (random by default), or take a seat yourself with --human, and show how it
    ended."""
    from workbench import api
    from workbench.games import game_length

    people = human or []
    terminal = _Terminal(console(stderr=as_json))  # the dialogue keeps out of the JSON
    with _reported():
        if len(set(people)) < len(people):
            raise UsageError("people", "name each seat once")
        if people and sys.stdin is None:
            raise UsageError("people", "standard input is closed, and the answers are read from it")
        loaded = api.load_variant(variant)
        terminal.unit = loaded.family.figures.length[0]
        (players,) = api.player_counts(loaded, players, variant)
        people_at = dict.fromkeys(people, terminal)
        output = api.play(loaded, players, seed, bots=bots, people=people_at, personas=personas, notation=pgn, force=force)
    if people and not trace:  # how the game went on after the last decision, to its end
        for event in output["events"][terminal.seen :]:
            terminal.show(loaded.family.describe(event))
    if trace:  # beside --json, on standard error: standard output stays one JSON document
        for event in output["events"]:
            terminal.show(loaded.family.describe(event))
    if as_json:
        say_json(output)
        return
    _print_table(f"{loaded.variant.name}, {players} players, seed {seed}", *loaded.family.state_table(output))
    winners = ", ".join(loaded.family.figures.seat(s) for s in output["winners"]) or "nobody"
    say(f"ended after {game_length(loaded.family, output)}: {output['end_reason']}; winner(s): {winners}")
    if people:
        won = any(seat in output["winners"] for seat in people)
        say("you won!" if won else "you did not win this time" if output["winners"] else "nobody won this time", wrap=True)


@app.command()
def record(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Scenario file to write the game to (after every round).", show_default=False)
    ],
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="Number of players [default: 4, or as near as the variant allows].", show_default=False
        ),
    ] = None,
    names: Annotated[
        str | None,
        typer.Option("--names", help="The players' names or initials, comma-separated, from seat 0.", show_default=False),
    ] = None,
    notes: Annotated[str | None, typer.Option("--notes", help="Notes kept with the game.", show_default=False)] = None,
    date: Annotated[
        str | None, typer.Option("--date", help="The day it was played, YYYY-MM-DD [default: today].", show_default=False)
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on with the unfinished game in --out.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace --out if it exists (the game in it is lost).")] = False,
) -> None:
    """Enter a game played at a table as it happens: the dice, each player's decisions and the cards that come up,
    each checked against the rules. The game is written as a scenario script after every round; a game stopped
    midway is kept, marked unfinished, and --resume goes on with it."""
    import datetime

    from workbench import api, playtest
    from workbench.games import game_length

    terminal = _Terminal(console())
    saved: list[playtest.Recording] = []
    try:
        with _reported(renamed={"names": "--names"}):
            terminal.unit = api.load_variant(variant).family.figures.length[0]
            if sys.stdin is None:
                raise UsageError(None, "standard input is closed, and the game's entries are read from it")
            day = None
            if date is not None:
                try:
                    if len(date) != 10 or date[4] != "-" or date[7] != "-":
                        raise ValueError(date)
                    day = datetime.date.fromisoformat(date)
                except ValueError:
                    raise UsageError("date", "expected a day as YYYY-MM-DD", date) from None
            table = Table(terminal, terminal.enter)
            listed = [name.strip() for name in names.split(",")] if names else []
            recording = playtest.record(
                variant, out, table, players, resume=resume, force=force, names=listed, notes=notes, date=day, saved=saved
            )
    except (typer.Exit, KeyboardInterrupt) as stopped:
        if isinstance(stopped, KeyboardInterrupt):  # Ctrl-C at the table: said here, with what was kept
            warn("interrupted")
        if not saved and not resume and terminal.seen + terminal.entries:
            warn("nothing was kept: the game stopped before its setup was entered")
        if saved:
            kept = saved[-1]
            warn(
                f"kept unfinished in {display_path(kept.path)}, {kept.length} "
                f"entered (not the one in play): go on with workbench record {shlex.quote(str(variant))} --out "
                f"{shlex.quote(display_path(kept.path))} --resume"
            )
        if isinstance(stopped, KeyboardInterrupt):
            raise typer.Exit(130) from None
        raise
    output, family = recording.script["expect"], recording.family
    winners = ", ".join(family.figures.seat(seat) for seat in output["winners"]) or "nobody"
    say(f"ended after {game_length(family, output)}: {output['end_reason']}; winner(s): {winners}")
    say(f"wrote {display_path(recording.path)}: check it with workbench replay {shlex.quote(display_path(recording.path))}")


def _option_names(words: str) -> set[str]:
    """What an option may be typed as besides its number: its words, those before a colon or a bracket, or one word
    in its brackets (a move's other notation).

    >>> sorted(_option_names("RAISE IT: take part, and raise (+2 coins)"))[0]
    'raise it'
    >>> sorted(_option_names("Nf3 (g1f3)"))
    ['g1f3', 'nf3', 'nf3 (g1f3)']
    """
    text = words.casefold()
    names = {text, text.split(":")[0].strip(), text.split(" (")[0].strip(), text.split(" [")[0].strip()}
    inside = text.rpartition("(")[2].rstrip(")")
    return names | ({inside} if "(" in text and inside and " " not in inside else set())


#: Entries that are not options, one after another, before answers that do not come from a person (a pipe) stop.
MAX_WRONG_ENTRIES = 100


class _Terminal:
    """A person's seat in the terminal: each question shown (what happened, the holdings, the dice, the options
    numbered from 1), the answer read from standard input; asked again after an entry that is not an option."""

    def __init__(self, console: "Console"):
        self.console = console
        self.seen = 0  #: events of the log told so far
        self.unit = "round"  #: what the game counts its steps in (its length's unit: a ply for chess)
        self.table: tuple[int, object] | None = None  #: the holdings last shown, with their round
        self.entries = 0  #: entries asked of the person (questions and what chance brought)

    def show(self, text: str) -> None:
        self.console.print(printable(text), markup=False)

    def __call__(self, question: Question) -> int:
        for line in question.fresh(self.seen):  # several people's seats: what one was told is not told again
            self.show(line)
        self.seen = max(self.seen, question.seen)
        if (question.round, question.table) != self.table:  # several people's seats: an unchanged table is not shown again
            _print_table(f"{self.unit} {question.round}", *question.table, on=self.console)
            self.table = (question.round, question.table)
        if question.dice:
            self.show(f"dice: {' '.join(str(d) for d in question.dice)}")
        who = f"seat {question.seat} ({question.name})" if question.name else f"seat {question.seat}"
        self.show(f"{who}: {question.prompt}")
        count = len(question.options)
        for number, words in enumerate(question.options, 1):
            self.show(f"  {number}. {words}")

        def option(entry: str) -> int:
            if entry.isascii() and entry.isdigit() and len(entry) <= 9 and 1 <= int(entry) <= count:
                return int(entry) - 1
            named = [i for i, words in enumerate(question.options) if entry.casefold() in _option_names(words)]
            if len(named) == 1:  # an option's own words (a guide card's name, a move: e4)
                return named[0]
            raise ValueError(f"{entry[:40]!r} is not one of the options: type a number from 1 to {count}")

        where = f"{self.unit} {question.round}, seat {question.seat}"
        (chosen,) = self._read(f"your choice ({'1' if count == 1 else f'1-{count}'}): ", lambda entry: (option(entry),), where)
        return chosen

    def enter(self, chance: Chance) -> tuple[int, ...]:
        """What chance brought at the table, typed in: the dice's faces, or a card by its number or name."""
        for line in chance.fresh(self.seen):  # what happened since the last question or entry
            self.show(line)
        self.seen = max(self.seen, chance.seen)
        self.show(chance.prompt)
        for number, option in enumerate(chance.options, 1):
            self.show(f"  {number}. {option}" if chance.numbered else f"  - {option}")
        card = "card (number or name): " if chance.numbered else "card (its name): "
        ask = card if chance.options else f"{'die' if chance.count == 1 else 'dice'} (1-{chance.sides}): "
        return self._read(ask, chance.read, f"{self.unit} {chance.round}" if chance.round else "the setup")

    def _read(self, ask: str, read: Callable[[str], tuple[int, ...]], where: str) -> tuple[int, ...]:
        """An entry read from standard input and checked by ``read`` (asked again, saying why, until it passes)."""
        self.entries += 1
        for _ in range(MAX_WRONG_ENTRIES if not sys.stdin.isatty() else sys.maxsize):
            self.console.print(ask, end="", markup=False)
            self.console.file.flush()
            line = sys.stdin.readline()
            if not line:
                self.show("")
                raise Left(f"the input ended before the game did ({where}): it stopped unfinished")
            entry = line.strip()
            if not sys.stdin.isatty():  # a pipe's answers are not echoed: show them, so the transcript reads as a dialogue
                self.show(entry)
            try:
                return read(entry)
            except ValueError as exc:
                self.show(str(exc))
        raise Left(f"{MAX_WRONG_ENTRIES} entries in a row were not options: the game stopped unfinished")


@app.command()
def studio(
    variant: Annotated[
        Path | None,
        typer.Argument(
            help="Variant file to open: the studio writes only it, and reads only in its folder and those of its own "
            "files (card files, what it extends) [default: the first game's variant in variants/].",
            show_default=False,
        ),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free one).")] = studio_server.PORT,
    host: Annotated[
        str | None,
        typer.Option("--host", help="Address to listen on [default: 127.0.0.1, this machine only].", show_default=False),
    ] = None,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the page in a browser, where one can be opened.")
    ] = True,
) -> None:
    """A local web page to edit the variant (checked as you type), see its printed set, play against bots, and run
    simulate or compare; it saves only when asked, and never over a file changed meanwhile."""
    from workbench.games import FAMILIES

    if host is not None and not studio_server.is_loopback(host):
        warn(f"warning: --host {host}: other machines can reach the studio; the token in its address guards it")
    with _reported():
        opened = variant if variant is not None else Path("variants") / f"{next(iter(FAMILIES))}.yaml"
        studio_server.serve(opened, host=host or studio_server.LOOPBACK, port=port, browser=browser, say=say)


@app.command()
def odds(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON (exact fractions).")] = False,
) -> None:
    """Exact odds of the variant's dice or deck, as its game uses them (computed, not simulated)."""
    from workbench import api

    with _reported():
        loaded = api.load_variant(variant)
        data = api.odds(loaded)
    if as_json:
        say_json(data)
        return
    for title, headers, rows in loaded.family.odds_tables(data):
        _print_table(title, headers, rows)


def _print_table(title: str, headers: list[str], rows: list[list[str]], on: "Console | None" = None) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(printable(title)))
    for header in headers:
        table.add_column(Text(printable(header)), overflow="fold")  # a narrow terminal wraps figures, never cuts them
    for row in rows:
        table.add_row(*(Text(printable(cell)) for cell in row))
    (on or console()).print(table, soft_wrap=False)  # a long title wraps to the table, never past the terminal


def _say_notes(runs: list[dict[str, Any]]) -> None:
    """Each run's notes (``summary.json``'s ``notes``: the bots' blind spots), one line each, by player count when there
    are several."""
    for run in runs:
        at = f"{run['players']} players: " if len(runs) > 1 else ""
        for note in run.get("notes", []):
            say(f"note: {at}{note['text']}", wrap=True)


#: The signals heard once a run's results are written (see :func:`_results`).
_heard: list[int] = []
#: What this command's run has put in place so far (see :func:`_results`).
_written: list[Path] = []


@contextmanager
def _results() -> Iterator[None]:
    """Around a run's library call. From the instant its results are in place (the one writer tells, as it puts them
    there) to the command's end, a Ctrl-C or SIGTERM is heard, not obeyed, so that what the command prints and its
    exit code stay true; the command then says so (:class:`_Commands`), as a run does for a signal during its commit.
    Before that instant a signal does what it did (the run's own stop handling takes over while it plays)."""
    from workbench.outputs import told

    obeyed: dict[int, Any] = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}

    def heard(signum: int, frame: FrameType | None) -> None:
        if _written:
            _heard.append(signum)
            return
        previous = obeyed[signum]
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:  # the system's: ends the process by the signal
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    with contextlib.suppress(ValueError):  # not the main thread: the signals are not this command's
        for signum in obeyed:
            signal.signal(signum, heard)
    with told(_written.extend):
        yield


def _stopped_before_any_game(what: str = "game") -> NoReturn:
    warn(f"interrupted before any {what} finished: nothing was written (earlier outputs are as they were)")
    raise typer.Exit(130)


def _wrote(written: list[Path], interrupted: bool, finished: str) -> None:
    """Say what a run wrote; a stopped run says so and exits 130 (its outputs hold the ``finished`` games)."""
    say(f"wrote {', '.join(display_path(p) for p in written)}", wrap=True)
    if interrupted:
        warn(f"interrupted: the outputs hold the games that finished ({finished})")
        raise typer.Exit(130)


def _player_counts(values: list[str] | None) -> list[int] | None:
    """Player counts from ``--players`` given once or repeated, each a number or a list: ``-p 3,4 -p 6``; None when
    not given (the variant's usual table)."""
    if not values:
        return None
    try:
        return [int(part) for text in values for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError("players", "expected a number or a list such as 3,4,5", ",".join(values)) from None


@app.command()
def simulate(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Player count, or several: 3,4,5,6 (or repeat the option) [default: 4, or as near as the variant allows].",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Games per player count.", min=1)] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run: game i depends only on (seed, i).")] = 1,
    bots: Bots = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for summary.json and report.html [default: reports/<variant>]."),
    ] = None,
    records: Annotated[
        Path | None, typer.Option("--records", help="Also write one JSON line per game to this file (played by the interpreter).")
    ] = None,
    personas: Personas = None,
    record_scenarios: Annotated[
        Path | None, typer.Option("--record-scenarios", help="Write every game as a scenario script into this folder.")
    ] = None,
    pgn: Notation = None,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
) -> None:
    """Play many games with bots and report what the rules do: length, fairness, and the figures of the game."""
    from workbench import api
    from workbench.render.report import summary_rows
    from workbench.sim import backends

    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        simulation = api.simulate(
            variant,
            players=_player_counts(players),
            games=games,
            seed=seed,
            bots=bots,
            backend=runner,
            personas=personas,
            out=out_dir or Path("reports") / variant.stem,
            create_out=out_dir is None,
            records=records,
            record_scenarios=record_scenarios,
            notation=pgn,
            force=force,
            yes=yes,
            engine=engine,
            progress=progress,
            notice=_notice,
        )
    if not simulation.written and simulation.interrupted:
        _stopped_before_any_game()
    runs = [run.to_dict() for run in simulation.runs]
    first = simulation.runs[0]
    _print_table(
        f"{first.variant}: {', '.join(dict.fromkeys(first.bots))}; seed {seed}", *summary_rows(runs, simulation.family.figures)
    )
    _say_notes(runs)
    say(f"wrote {', '.join(display_path(p) for p in simulation.written)}")
    if record_scenarios is not None:
        say(f"wrote {simulation.scripts:,} scenario scripts into {display_path(record_scenarios)}")
    for name in simulation.kept:
        warn(f"kept {name} in {display_path(record_scenarios or Path())}: changed since the workbench wrote it")
    if simulation.interrupted:
        each = ", ".join(f"{run.players} players: {run.games:,}" for run in simulation.runs)
        warn(f"interrupted: the outputs hold the {simulation.games:,} games that finished ({each})")
        raise typer.Exit(130)


@contextmanager
def _progress() -> "Iterator[api.Progress]":
    """Rich progress rows, one per call of the returned factory: (label, games) -> advance(finished).

    The display starts with the first row, so a command refused before any work prints nothing else.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[left]}"),
        console=console(stderr=True),
        transient=False,
    )
    started: list[bool] = []

    def row(label: str, total: int) -> Callable[[int], None]:
        if not started:
            progress.start()
            started.append(True)
        return _games_task(progress, label, total)

    try:
        yield row
    finally:
        if started:
            progress.stop()


def _games_task(progress: "Progress", label: str, total: int) -> Callable[[int], None]:
    """A progress row counting ``total`` games, with games/s since it started and the time left at that speed (the
    speed a run's estimate judges); returns the function that advances it."""
    from workbench.runs import time_left

    task = progress.add_task(printable(label), total=total, rate="", left="")
    started = time.perf_counter()
    done = [0]

    def advance(finished: int) -> None:
        done[0] += finished
        speed = done[0] / max(time.perf_counter() - started, 1e-9)
        left = time_left((total - done[0]) / speed) if speed else ""
        progress.update(task, advance=finished, rate=f"{speed:,.0f} games/s", left=left)

    return advance


@app.command()
def compare(
    variants: Annotated[
        list[Path], typer.Argument(help="Two or more variant files; the first is the reference.", show_default=False)
    ],
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Player count, or several: 3,4,5,6 (or repeat the option) [default: 4, or as near as the variant allows].",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Games per variant and player count.", min=1)] = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: game i of every variant uses the same streams.")] = 1,
    bots: Bots = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for compare.json and compare.html [default: reports/compare-<A>-vs-<B>]."),
    ] = None,
    personas: Personas = None,
    every: Annotated[bool, typer.Option("--all", help="List every figure, not only those that changed significantly.")] = False,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
) -> None:
    """Compare variants on the same games (paired): what changed, with intervals and a correction for many figures."""
    from workbench import studies
    from workbench.sim import backends

    default = Path("reports") / ("compare-" + "-vs-".join(v.stem[:40] for v in variants[:3]))  # a name any system takes
    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        comparison = studies.compare(
            variants,
            players=_player_counts(players),
            games=games,
            seed=seed,
            bots=bots,
            backend=runner,
            personas=personas,
            out=out_dir or default,
            create_out=out_dir is None,
            force=force,
            yes=yes,
            engine=engine,
            progress=progress,
            notice=_notice,
        )
    if not comparison.runs:
        _stopped_before_any_game()
    for line in comparison.letters():
        say(line, wrap=True)
    for title, headers, rows in comparison.tables(every):
        if rows:
            _print_table(title, headers, rows)
        else:
            say(f"{title}: none", wrap=True)
    for line in comparison.untested_lines():
        say(line, wrap=True)
    say(f"significance: {comparison.correction}", wrap=True)
    for line in comparison.note_lines():
        say(f"note: {line}", wrap=True)
    _wrote(comparison.written, comparison.interrupted, f"{comparison.runs[-1].games:,} games at the last count")


@app.command()
def playtests(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    logs: Annotated[
        list[Path],
        typer.Argument(help="Games played at a table: scenario scripts of the variant (workbench record).", show_default=False),
    ],
    games: Annotated[int, typer.Option("--games", "-g", help="Bot games per player count of the logs.", min=1)] = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the bots' games.")] = 1,
    bots: Bots = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for playtests.json and playtests.html [default: reports/playtests-<variant>]."),
    ] = None,
    personas: Personas = None,
    every: Annotated[bool, typer.Option("--all", help="List every figure, not only those where people and bots differ.")] = False,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
) -> None:
    """Set the figures of games people played at a table beside the bots' on the same variant: where they differ,
    with intervals honest for a few dozen games, and how many more games would tell."""
    from workbench import playtests as study
    from workbench.sim import backends

    default = Path("reports") / f"playtests-{variant.stem[:40]}"
    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        found = study.playtests(
            variant,
            logs,
            games=games,
            seed=seed,
            bots=bots,
            backend=runner,
            personas=personas,
            out=out_dir or default,
            create_out=out_dir is None,
            force=force,
            yes=yes,
            engine=engine,
            progress=progress,
            notice=_notice,
        )
    if not found.tables:
        _stopped_before_any_game()
    for title, headers, rows in found.terminal_tables(every):
        if rows:
            _print_table(title, headers, rows)
        else:
            say(f"{title}: no figure differs beyond chance", wrap=True)
    for line in found.lines():
        say(line, wrap=True)
    say(f"significance: {found.to_dict()['correction']['about']}", wrap=True)
    say(
        "note: a difference is between these people and these bots (their policy and parameters), not people in "
        "general; `workbench calibrate` fits bots that decide more like this group",
        wrap=True,
    )
    _wrote(found.written, found.interrupted, f"{found.tables[-1].bot_games:,} bot games at the last count")


@app.command()
def calibrate(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    logs: Annotated[
        list[Path],
        typer.Argument(help="Games played at a table: scenario scripts of the variant (workbench record).", show_default=False),
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Personas file to write the fitted bot to (for --personas).", show_default=False)
    ],
    name: Annotated[str, typer.Option("--name", help="The fitted bot's name in the file.")] = "calibrated",
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            help="The bot the fit starts from; what it does not fit stays as this bot has it [default: heuristic].",
            show_default=False,
        ),
    ] = None,
    fit: Annotated[
        str | None,
        typer.Option(
            "--fit",
            help="The parameters to fit, comma-separated [default: the few that set a group apart; the output names them]; the temperature always.",
            show_default=False,
        ),
    ] = None,
    personas: Personas = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the choice of held-out games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the fit and its evidence as JSON.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace --out if it exists.")] = False,
) -> None:
    """Fit a bot to the decisions of games played at a table: how the group values hearts, coins and gambles, and how
    often it strays from the best choice; written as a persona every command takes with --personas."""
    from workbench import calibrate as calibrating

    with _results(), _reported():
        found = calibrating.calibrate(
            variant,
            logs,
            out,
            name=name,
            start=start,
            fitted=[part.strip() for part in fit.split(",")] if fit else None,
            personas=personas,
            seed=seed,
            force=force,
            notice=_notice if not as_json else warn,
        )
    if as_json:
        say_json(found.to_dict(), indent=2)
        return
    for line in found.lines():
        say(line, wrap=True)
    for line in found.warnings:
        warn(f"warning: {line}")
    say(
        "note: a bot fitted to these games, not the people; it plays on the interpreter (its temperature draws among "
        "its options). Use it with",
        wrap=True,
    )
    say(f"  --personas {shlex.quote(display_path(out))} --bots {shlex.quote(name)}")
    say(f"wrote {display_path(out)}")


@app.command()
def sweep(
    path: Annotated[Path, typer.Argument(help="Sweep file (see sweeps/).", show_default=False)],
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Folder for sweep.json, sweep.html and points/ [default: reports/<sweep>]."),
    ] = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    force: Force = False,
    yes: Yes = False,
) -> None:
    """Play a sweep: each point of a grid (or list) of rules ideas beside its base variant on the same games."""
    from workbench import sweep as sweeps
    from workbench.sim import backends

    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        swept = sweeps.run_sweep(
            path,
            out=out_dir or Path("reports") / (path.stem.strip(".") or "sweep"),
            create_out=out_dir is None,
            backend=runner,
            force=force,
            yes=yes,
            progress=progress,
            notice=_notice,
        )
    if not swept.rows:
        _stopped_before_any_game("point")
    for title, headers, rows in swept.tables():
        _print_table(title, headers, rows)
    for players, best in swept.best.items():
        if best is not None:
            names = {p.id: p.name for p in swept.points}
            close = f"; not told apart from {', '.join(names[p] for p in best.close)}" if best.close else ""
            finished = sum(row.players == players for row in swept.rows)
            of = f" (of the {finished} points finished)" if finished < len(swept.points) else ""
            say(f"best at {players} players: {names[best.point]}{of}{close}", wrap=True)
    named = {p.id: p.name for p in swept.points}
    for row in swept.rows:
        for note in row.notes or []:
            say(f"note: {named[row.point]}, {row.players} players: {note['text']}", wrap=True)
    points = [path for path in swept.written if path.parent.name == "points"]
    if points:
        say(f"wrote {len(points)} point file(s) in {display_path(points[0].parent)}", wrap=True)
    done = f"{len(swept.rows)} of {len(swept.rows) + len(swept.missing)} points; run the sweep again to play the rest"
    _wrote([path for path in swept.written if path not in points], swept.interrupted, done)


@app.command()
def cards(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    extra: Annotated[
        Path | None,
        typer.Option("--with", help="A card file: its cards join the market for this study (no file is edited) and are studied."),
    ] = None,
    only: Annotated[
        list[str] | None, typer.Option("--card", "-c", help="Study only this card (repeat for several).", show_default=False)
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="Number of players [default: 4, or as near as the variant allows].", show_default=False
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Games per card (and without one).", min=1)] = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: game i uses the same streams with and without a card.")] = 1,
    bots: Bots = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for cards.json and cards.html [default: reports/cards-<variant>].")
    ] = None,
    personas: Personas = None,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
) -> None:
    """How strong is each card? Give it to one seat and play the same games with and without it (by intervention)."""
    from workbench import studies
    from workbench.sim import backends

    with (
        _results(),
        _reported(renamed={"extra": "--with", "only": "--card"}),
        backends.opened(backend, workers, scheduler) as runner,
        _progress() as progress,
    ):
        strength = studies.cards(
            variant,
            extra=extra,
            only=only or (),
            players=players,
            games=games,
            seed=seed,
            bots=bots,
            backend=runner,
            personas=personas,
            out=out_dir or Path("reports") / f"cards-{variant.stem}",
            create_out=out_dir is None,
            force=force,
            yes=yes,
            engine=engine,
            progress=progress,
            notice=_notice,
        )
    if not strength.games:
        _stopped_before_any_game()
    _print_table(*strength.table())
    for line in strength.lines():
        say(line, wrap=True)
    _print_table(*strength.observed_table())
    say(f"verdicts: {studies.CARD_RULE}", wrap=True)
    for note in strength.notes:
        say(f"note: {note['text']}", wrap=True)
    _wrote(strength.written, strength.interrupted, f"{strength.games:,} games")


@app.command()
def skill(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help="Number of players [default: 4, or as near as the variant allows].", show_default=False
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Games per rung of the ladder.", min=1)] = 300,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: game i uses the same dice for every rung.")] = 1,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", "-b", help="The field: the bot at every other seat [default: the game's default bot].", show_default=False
        ),
    ] = None,
    ladder: Annotated[
        str | None,
        typer.Option(
            "--ladder", help="Bots to rank, weakest first, comma-separated [default: the game's ladder of built-in bots]."
        ),
    ] = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for skill.json and skill.html [default: reports/skill-<variant>].")
    ] = None,
    personas: Personas = None,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
) -> None:
    """Does skill matter? A ladder of bots of rising strength, each at one seat against the same field and dice."""
    from workbench import studies
    from workbench.sim import backends

    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        result = studies.skill(
            variant,
            players=players,
            games=games,
            seed=seed,
            bots=bots,
            ladder=[name.strip() for name in ladder.split(",") if name.strip()] if ladder is not None else None,
            backend=runner,
            personas=personas,
            out=out_dir or Path("reports") / f"skill-{variant.stem}",
            create_out=out_dir is None,
            force=force,
            yes=yes,
            engine=engine,
            progress=progress,
            notice=_notice,
        )
    if not result.games:
        _stopped_before_any_game()
    _print_table(*result.table())
    say(result.verdict(), wrap=True)
    _wrote(result.written, result.interrupted, f"{result.games:,} games")


@app.command("tune-stakes")
def tune_stakes(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[
        list[str],
        typer.Option("--players", "-p", help="Player counts to tune: 3,6 (or repeat the option).", show_default=False),
    ],
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="The bot at every seat (a built-in bot or a persona) [default: the game's default bot].",
            show_default=False,
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            help=(
                "Games per tuned player count [default: a few minutes on two cores: 600,000 heuristic games on the batch "
                "engine, 30,000 on the interpreter, 200 times fewer for the search bot]."
            ),
            min=100,
            show_default=False,
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same proposal.")] = 1,
    personas: Personas = None,
    workers: Workers = None,
    backend: BackendName = "local",
    scheduler: Scheduler = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Proposal file [default: reports/tuning/<variant>-stakes.yaml]; the comparison page goes beside it as .html.",
        ),
    ] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Also put the proposed sheets into the variant file (only their lines change).")
    ] = False,
    replace_printed: Annotated[
        bool, typer.Option("--replace-printed", help="With --write, allow replacing a sheet marked `source: printed`.")
    ] = False,
    force: Force = False,
    yes: Yes = False,
    engine: EngineOption = "auto",
    exploit_bot: Annotated[
        str | None,
        typer.Option(
            "--exploit-bot",
            help="The strong bot that then plays one seat on every sheet against the tuning bots [default: search].",
            show_default=False,
        ),
    ] = None,
    exploit_games: Annotated[
        int | None,
        typer.Option(
            "--exploit-games",
            help="Its games on each sheet; 0 measures nothing [default: budget / 20, at most 2,000].",
            min=0,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Propose the stakes sheets the box never printed: race candidate sheets until the game plays like the printed ones."""
    from workbench import api
    from workbench.sim import backends

    with _results(), _reported(), backends.opened(backend, workers, scheduler) as runner, _progress() as progress:
        tuning = api.tune_stakes(
            variant,
            _player_counts(players) or [],
            bots=bots,
            personas=personas,
            budget=budget,
            seed=seed,
            backend=runner,
            out=out_file or Path("reports") / "tuning" / f"{variant.stem}-stakes.yaml",
            create_folders=out_file is None,
            write=write,
            replace_printed=replace_printed,
            force=force,
            engine=engine,
            exploit_bot=exploit_bot,
            exploit_games=exploit_games,
            yes=yes,
            progress=progress,
            notice=_notice,
        )
    report = tuning.report
    for tuned in report.tuned:
        best = tuned.best
        say(
            f"{tuned.players} players: out [{' '.join(map(str, best.candidate.out))} all_out], "
            f"in [{' '.join(map(str, best.candidate.in_))}] (distance {best.distance:.2f}, {best.games:,} games)"
        )
        if tuned.check is not None:
            say(f"  {tuned.check.said()}")
        exploit = report.exploits.get(tuned.players)
        if exploit is not None:
            more = report.exploitable(tuned.players)
            than = "" if more is None else ": more than on every printed sheet" if more else ": no more than on a printed sheet"
            than += " (roughly: a fair share shrinks as the table grows)" if than else ""
            say(f"  {exploit.said()}{than}")
    for n in report.measured:
        if n in report.exploits:
            say(f"printed {n}-player sheet: {report.exploits[n].said()}")
    if report.unexploited:
        say(f"exploitability: {report.unexploited}")
    for printed, tuned in report.left_out:
        proposed = tuned.best.candidate
        diffs = [b - a for a, b in zip(printed.out + printed.in_, proposed.out + proposed.in_)]
        close = sum(abs(d) <= 1 for d in diffs)
        say(
            f"check: the printed {tuned.players}-player sheet, hidden and tuned from the others, comes back as "
            f"{proposed.label()} ({close} of {len(diffs)} entries within one coin)"
        )
    for warning in tuning.warnings:
        warn(f"warning: {warning.text(option_of)}")
    say(f"wrote {', '.join(display_path(p) for p in tuning.written)}")


@app.command("print")
def print_set(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="PDF to write [default: reports/<variant>.pdf, or reports/<variant>-cards.pdf]; a name ending in .html "
            "writes only the HTML; with --format png or tts, the folder [default: reports/<variant>-cards/ or -tts/].",
        ),
    ] = None,
    html: Annotated[
        bool, typer.Option("--html", help="Also write the HTML beside the PDF (a browser shows it as the PDF looks).")
    ] = False,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="The set is for N players: the player pieces and sheets they need [default: the variant's most].",
            show_default=False,
        ),
    ] = None,
    bleed: Annotated[
        float | None,
        typer.Option(
            "--bleed",
            help="Card background drawn this many mm beyond the cut on every side, up to 6 (a sheet then holds fewer "
            "cards) [default: none on sheets, the shop's for its formats].",
            show_default=False,
        ),
    ] = None,
    backs: Annotated[
        bool,
        typer.Option("--backs/--no-backs", help="A page of card backs after each page of fronts, mirrored for long-edge duplex."),
    ] = True,
    backs_offset: Annotated[
        str, typer.Option("--backs-offset", help="Shift the backs by DX,DY mm (right, down) for a duplex printer that misaligns.")
    ] = "0,0",
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            help="Print only these parts, comma-separated, such as cards,rules, or calibration: the duplex alignment page (a wrong one lists them).",
            show_default=False,
        ),
    ] = None,
    form: Annotated[
        str,
        typer.Option(
            "--format",
            help="; ".join(f"{name}: {shown.what}" for name, shown in FORMATS.items()) + ".",
        ),
    ] = "sheets",
    shop: Annotated[
        str, typer.Option("--shop", help="Whose card size, bleed and page order: generic, drivethrucards or gamecrafter.")
    ] = "generic",
    dpi: Annotated[
        int | None,
        typer.Option("--dpi", help="Dots per inch of the images [default: 300 for png, 150 for tts].", show_default=False),
    ] = None,
    changed_since: Annotated[
        Path | None,
        typer.Option(
            "--changed-since",
            help="An earlier set (its PDF, folder or record): print only the cards that changed since, and say which.",
            show_default=False,
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="With --format tts: the address the images will be put at (else the saved object names their files).",
            show_default=False,
        ),
    ] = None,
    force: Force = False,
) -> None:
    """Print a playtest set as PDF: the variant's cards, the sheets and board its game has, and a rule summary."""
    from workbench import api

    stem = f"{variant.stem}-changed" if changed_since is not None else variant.stem  # a reprint goes beside the set
    default = FORMATS.get(form, FORMATS["sheets"]).out.format(stem=stem)
    with _results(), _reported():
        written = api.print_set(
            variant,
            out_file or Path("reports") / default,
            create_folders=out_file is None,
            format=form,
            shop=shop,
            dpi=dpi,
            base_url=base_url,
            changed_since=changed_since,
            html=html,
            paper=paper,
            players=players,
            bleed=bleed,
            backs=backs,
            backs_offset=backs_offset,
            only=only,
            force=force,
            notice=_notice,
        )
    if written:
        say(f"wrote {', '.join(display_path(t) for t in written)}")


@app.command()
def schema(
    kind: Annotated[
        str | None,
        typer.Argument(help="variant, scenario or another format of the game, or sweep (every game's); all when left out."),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option("--game", help="The game (the value of game: in a variant); with --out, every game when left out."),
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Write <game>.<kind>.schema.json files (and sweep.schema.json) into this folder.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace schema files the workbench did not write.")] = False,
) -> None:
    """Print (or write) the JSON Schema of a game's file formats: variant, scenario and the others it has."""
    from workbench import api

    with _results(), _reported():
        if out_dir is None:
            chosen = api.schemas(game, kind)
            say_json(chosen[kind] if kind else chosen, indent=2)
            return
        written = api.write_schemas(out_dir, game, kind, force=force)
    say(f"wrote {', '.join(display_path(target) for target in written)}" if written else "the schema files are current")


#: The command line's process (set by :func:`main`): ``finished`` once its command has ended well (see :func:`_over`).
_ending: dict[str, bool] = {}


def _over(signum: int, frame: FrameType | None) -> None:
    """A Ctrl-C or SIGTERM once the command is over: what it wrote and its exit code stand. A command that ended well
    says so, once, as a stop heard after its results were written (the process ends anyway, in a moment); after a
    failure or an interruption, already said, it changes nothing."""
    if _ending.pop("finished", False):
        with contextlib.suppress(OSError):
            os.write(sys.stdout.fileno(), f"{LATE_STOP}\n".encode())


def main() -> None:
    """Run the command line (the ``workbench`` script, whose entry point makes SIGTERM stop any command as Ctrl-C
    does: exit 130)."""
    _ending["main"] = True
    try:
        app()
    except KeyboardInterrupt:
        warn("interrupted")
        sys.exit(130)
    except BrokenPipeError:  # the reader of standard output stopped, out of a command (in Python's last flush)
        _reader_gone()
    finally:  # the command is over: a late Ctrl-C or SIGTERM must not break the interpreter's shutdown
        signal.signal(signal.SIGINT, _over)
        signal.signal(signal.SIGTERM, _over)
