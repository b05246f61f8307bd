"""The ``workbench`` command: thin Typer commands over the library. Family-agnostic."""

from __future__ import annotations

import json
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from workbench.errors import UsageError, WorkbenchError, display_path
from workbench.games import FAMILIES, load_variant, replay_scenario

app = typer.Typer(
    help="Design workbench for chance-driven tabletop games: validate, replay and play rules variants written in YAML.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)
_debug = {"on": False}


@app.callback()
def _options(
    debug: Annotated[bool, typer.Option("--debug", help="Show a traceback when something fails.")] = False,
) -> None:
    _debug["on"] = debug


@contextmanager
def _reported(failures: list[str] | None = None) -> Iterator[None]:
    """Turn library errors into ``file:line: key: message`` lines; unexpected ones into one line too."""
    try:
        yield
    except WorkbenchError as exc:
        for problem in exc.problems:
            err.print(str(problem), markup=False)
        if exc.note:
            err.print(f"note: {exc.note}", markup=False)
        if failures is None:
            raise typer.Exit(1) from None
        failures.extend(str(p) for p in exc.problems)
    except (KeyboardInterrupt, typer.Exit):
        raise
    except Exception as exc:  # noqa: BLE001 - the user gets one line, --debug gives the rest
        if _debug["on"]:
            traceback.print_exc()
        err.print(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", markup=False)
        if failures is None:
            raise typer.Exit(2) from None
        failures.append(f"internal error: {exc}")


@app.command()
def validate(
    variants: Annotated[list[Path], typer.Argument(help="Variant files to check.", show_default=False)],
) -> None:
    """Check variant files; print a short summary of each valid one, every problem of an invalid one."""
    failures: list[str] = []
    for path in variants:
        before = len(failures)
        with _reported(failures):
            loaded = load_variant(path)
            out.print(f"{display_path(path)}: valid {loaded.family.title} variant '{loaded.variant.name}'", markup=False)
            for label, text in loaded.family.summary(loaded.variant):
                out.print(f"  {label}: {text}", markup=False)
        if len(failures) > before:
            err.print(f"{display_path(path)}: {len(failures) - before} problem(s)", markup=False)
    if failures:
        raise typer.Exit(1)


@app.command()
def replay(
    scenarios: Annotated[list[Path], typer.Argument(help="Scenario files to replay.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print each result as one JSON object per line.")] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Print the event log, one line per event.")] = False,
) -> None:
    """Replay scripted games and check their `expect:` blocks; exit 1 if any scenario fails."""
    outcomes = [_replay_one(path, as_json=as_json, trace=trace) for path in scenarios]
    passed, failed = outcomes.count(True), outcomes.count(False)
    if len(scenarios) > 1 and not as_json:
        out.print(f"{passed} passed, {failed} failed", markup=False)
    if failed:
        raise typer.Exit(1)


def _replay_one(path: Path, *, as_json: bool, trace: bool) -> bool | None:
    """Replay one scenario and report it: True when it passed, False when not, None for a variant file."""
    errors: list[str] = []
    with _reported(errors):
        replayed = replay_scenario(path)
    if errors:
        if not as_json:
            err.print(f"FAIL {display_path(path)}", markup=False)
        return False
    if replayed is None:
        err.print(f"skip {display_path(path)}: a variant file, not a scenario", markup=False)
        return None
    family, result = replayed
    output = result.output
    if trace:
        for event in output["events"]:
            out.print(family.describe(event), markup=False)
    if as_json:
        out.print(json.dumps(output), markup=False)
    for problem in result.failures:
        err.print(str(problem), markup=False)
    if not as_json:
        end = output["end_reason"] or "not ended"
        checks = f"{result.checks} expectation(s) checked" if result.checks else "no expectations"
        verdict = "PASS" if result.passed else "FAIL"
        out.print(f"{verdict} {display_path(path)}: {output['rounds']} round(s), {end}; {checks}", markup=False)
    return result.passed


@app.command()
def play(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the game's dice, shuffles and bots.")] = 1,
    trace: Annotated[bool, typer.Option("--trace", help="Print the event log, one line per event.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
) -> None:
    """Play one seeded game with random bots and show how it ended."""
    with _reported():
        loaded = load_variant(variant)
        low, high = loaded.variant.players.min, loaded.variant.players.max
        if not low <= players <= high:
            raise UsageError(f"--players {players}: {display_path(variant)} is for {low} to {high} players")
        output = loaded.family.play(loaded.variant, players, seed)
    if trace:
        for event in output["events"]:
            out.print(loaded.family.describe(event), markup=False)
    if as_json:
        out.print(json.dumps(output), markup=False)
        return
    _print_state(loaded.family, output, f"{loaded.variant.name}, {players} players, seed {seed}")


def _print_state(family: Any, output: dict[str, Any], title: str) -> None:
    headers, rows = family.state_table(output)
    table = Table(title=title)
    for header in headers:
        table.add_column(header)
    for row in rows:
        table.add_row(*row)
    out.print(table)
    winners = ", ".join(f"seat {s}" for s in output["winners"]) or "nobody"
    out.print(f"ended after {output['rounds']} round(s): {output['end_reason']}; winner(s): {winners}", markup=False)


@app.command()
def schema(
    kind: Annotated[Optional[str], typer.Argument(help="variant, scenario or cards; all when left out.")] = None,
    game: Annotated[str, typer.Option("--game", help="The game family.")] = "chance-it",
    out_dir: Annotated[
        Optional[Path], typer.Option("--out", help="Write <game>.<kind>.schema.json files into this folder.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite schema files that differ.")] = False,
) -> None:
    """Print (or write) the JSON Schema of the variant, scenario and card-file formats."""
    with _reported():
        if game not in FAMILIES:
            raise UsageError(f"--game {game}: unknown game; known games: {', '.join(FAMILIES)}")
        schemas = FAMILIES[game].schemas()
        if kind is not None and kind not in schemas:
            raise UsageError(f"unknown schema {kind!r}; choose one of {', '.join(schemas)}")
        chosen = {kind: schemas[kind]} if kind else schemas
        if out_dir is None:
            out.print(json.dumps(chosen[kind] if kind else chosen, indent=2), markup=False)
            return
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, body in chosen.items():
            target = out_dir / f"{game}.{name}.schema.json"
            text = json.dumps(body, indent=2) + "\n"
            if target.exists() and target.read_text() != text and not force:
                raise UsageError(f"{display_path(target)} exists and differs; add --force to overwrite it")
            target.write_text(text)
            out.print(f"wrote {display_path(target)}", markup=False)


def main() -> None:
    """Entry point of the ``workbench`` script."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
