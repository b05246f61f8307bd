"""The ``workbench`` command: thin Typer commands over the library. Family-agnostic."""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from workbench import GENERATOR
from workbench.errors import UsageError, WorkbenchError, display_path
from workbench.games import FAMILIES, family_of_file, load_variant, replay_scenario
from workbench.loading import did_you_mean
from workbench.sim.runner import Run, run

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


def _print_table(title: str, headers: list[str], rows: list[list[str]]) -> None:
    table = Table(title=Text(title))
    for header in headers:
        table.add_column(Text(header))
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    out.print(table)


def _print_state(family: Any, output: dict[str, Any], title: str) -> None:
    _print_table(title, *family.state_table(output))
    winners = ", ".join(f"seat {s}" for s in output["winners"]) or "nobody"
    out.print(f"ended after {output['rounds']} round(s): {output['end_reason']}; winner(s): {winners}", markup=False)


@app.command()
def simulate(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[str, typer.Option("--players", "-p", help="Player count, or several: 3,4,5,6.")] = "4",
    games: Annotated[int, typer.Option("--games", "-g", help="Games per player count.", min=1)] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run: game i depends only on (seed, i).")] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", help="One bot per seat (random, heuristic, search or a persona); one name fills every seat."
        ),
    ] = "heuristic",
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Processes to use (default: every core).", min=1)
    ] = os.cpu_count() or 1,
    out_dir: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for summary.json and report.html [default: reports/<variant>].")
    ] = None,
    records: Annotated[Path | None, typer.Option("--records", help="Also write one JSON line per game to this file.")] = None,
    personas: Annotated[
        Path | None, typer.Option("--personas", help="A YAML file of bot personas (bots: {name: {policy: ...}}).")
    ] = None,
    record_scenarios: Annotated[
        Path | None, typer.Option("--record-scenarios", help="Write every game as a scenario script into this folder.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite output files the workbench did not write.")] = False,
) -> None:
    """Play many games with bots and report what the rules do: length, fairness, eliminations, cards."""
    with _reported():
        loaded = load_variant(variant)
        counts = _player_counts(players, loaded.variant.players.min, loaded.variant.players.max, variant)
        known = loaded.family.personas(loaded.variant, personas)
        names = _bot_names(bots, known)
        tables = {count: tuple(names * count if len(names) == 1 else names) for count in counts}
        for count, table in tables.items():
            if len(table) != count:
                raise UsageError(f"--bots names {len(names)} bots, but a {count}-player table has {count} seats")
        out_dir = out_dir or Path("reports") / variant.stem
        targets = [out_dir / "summary.json", out_dir / "report.html", *([records] if records else [])]
        if record_scenarios is not None:
            targets += sorted(record_scenarios.glob("*.yaml")) if record_scenarios.is_dir() else []
        for target in targets:
            _check_overwrite(target, force)
        summaries = []
        records_file = records.open("w") if records else None
        try:
            for count, table in tables.items():
                record = (record_scenarios, variant) if record_scenarios else None
                factory = loaded.family.simulator(loaded.variant, count, table, known, seed, record)
                result = _run_with_progress(factory, games, workers, records_file, f"{count} players")
                summaries.append(_summary(loaded, variant, count, table, seed, result, workers))
                if result.interrupted:
                    break
        finally:
            if records_file:
                records_file.close()
        out_dir.mkdir(parents=True, exist_ok=True)
        body = summaries[0] if len(summaries) == 1 else {"generator": GENERATOR, "runs": summaries}
        (out_dir / "summary.json").write_text(json.dumps(body, indent=2) + "\n")
        (out_dir / "report.html").write_text(loaded.family.report(summaries))
    headers, rows = loaded.family.summary_rows(summaries)
    _print_table(f"{loaded.variant.name}: {', '.join(names)}; seed {seed}", headers, rows)
    written = ", ".join(display_path(t) for t in targets if t.suffix != ".yaml")
    out.print(f"wrote {written}", markup=False)
    if record_scenarios is not None:
        out.print(
            f"wrote {sum(s['games'] for s in summaries):,} scenario scripts into {display_path(record_scenarios)}", markup=False
        )
    if any(s["interrupted"] for s in summaries):
        err.print(f"interrupted: the outputs hold the {summaries[-1]['games']:,} games that finished", markup=False)
        raise typer.Exit(130)


def _player_counts(text: str, low: int, high: int, variant: Path) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError(f"--players {text}: expected a number or a list such as 3,4,5") from None
    for count in counts:
        if not low <= count <= high:
            raise UsageError(f"--players {count}: {display_path(variant)} is for {low} to {high} players")
    if not counts:
        raise UsageError("--players: name at least one player count")
    return list(dict.fromkeys(counts))


def _bot_names(text: str, known: dict[str, Any]) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    for name in names:
        if name not in known:
            hint = did_you_mean(name, known)
            raise UsageError(f"--bots: unknown bot {name!r}{hint}; known: {', '.join(sorted(known))}")
    return names


def _check_overwrite(target: Path, force: bool) -> None:
    """Refuse to overwrite a file the workbench did not write, unless --force."""
    if not target.exists() or force:
        return
    if target.is_dir():
        raise UsageError(f"{display_path(target)} is a folder")
    with target.open("rb") as handle:  # only the ends: a records file may be large
        head = handle.read(2000)
        handle.seek(max(0, target.stat().st_size - 4000))
        tail = handle.read()
    marker = GENERATOR.encode()
    # summary.json, HTML and proposals name the generator near the top, a PDF in its ID at the end;
    # a records file starts with a game line
    if marker not in head and marker not in tail and not head.startswith(b'{"game":'):
        raise UsageError(f"{display_path(target)} exists and was not written by the workbench; add --force to overwrite it")


def _progress_columns() -> tuple:
    return (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )


def _games_task(progress: Progress, label: str, total: int) -> Callable[[int], None]:
    """A progress row counting ``total`` games, with games/s; returns the function that advances it."""
    task = progress.add_task(label, total=total, rate="")
    started = time.perf_counter()
    done = [0]

    def advance(finished: int) -> None:
        done[0] += finished
        speed = done[0] / max(time.perf_counter() - started, 1e-9)
        progress.update(task, advance=finished, rate=f"{speed:,.0f} games/s")

    return advance


def _run_with_progress(factory: Any, games: int, workers: int, records: Any, label: str) -> Run:
    with Progress(*_progress_columns(), console=err, transient=False) as progress:
        return run(factory, games, workers=workers, records=records, progress=_games_task(progress, label, games))


def _summary(loaded: Any, path: Path, players: int, bots: tuple[str, ...], seed: int, result: Run, workers: int) -> dict:
    return {
        "generator": GENERATOR,
        "game": loaded.family.game,
        "variant": loaded.variant.name,
        "variant_file": display_path(path),
        "players": players,
        "seed": seed,
        "bots": list(bots),
        **result.tally.summary(),
        "interrupted": result.interrupted,
        "timing": {
            "workers": workers,
            "seconds": round(result.seconds, 3),
            "games_per_second": round(result.games_per_second, 1),
        },
    }


@app.command("tune-stakes")
def tune_stakes(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    players: Annotated[
        list[int], typer.Option("--players", "-p", help="A player count to tune; repeat for more.", show_default=False)
    ],
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="The bot at every seat (random, heuristic, search or a persona).")
    ] = "heuristic",
    budget: Annotated[int, typer.Option("--budget", help="Games per tuned player count.", min=100)] = 30_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same proposal.")] = 1,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Processes to use (default: every core).", min=1)
    ] = os.cpu_count() or 1,
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
    force: Annotated[bool, typer.Option("--force", help="Overwrite output files the workbench did not write.")] = False,
) -> None:
    """Propose the stakes sheets the box never printed: race candidate sheets until the game plays like the printed ones."""
    with _reported():
        family = family_of_file(variant)
        if not hasattr(family, "tune_stakes"):
            raise UsageError(f"{family.title} has no stakes sheets to tune")
        out_file = out_file or Path("reports") / "tuning" / f"{variant.stem}-stakes.yaml"
        if out_file.suffix.lower() in (".html", ".htm"):
            raise UsageError(f"--out {out_file}: the proposal is YAML (the comparison page goes beside it as .html)")
        page = out_file.with_suffix(".html")
        for target in (out_file, page):
            _check_overwrite(target, force)
        with Progress(*_progress_columns(), console=err, transient=False) as progress:
            report = family.tune_stakes(
                variant,
                sorted(set(players)),
                bots=bots,
                seed=seed,
                budget=budget,
                workers=workers,
                progress=partial(_games_task, progress),
            )
        out_file.parent.mkdir(parents=True, exist_ok=True)
        out_file.write_text(family.tuning_yaml(report, page.name))
        page.write_text(family.tuning_page(report))
        if write:
            family.write_sheets(variant, report, os.path.relpath(page, variant.parent))
    for tuned in report.tuned:
        out_text = " ".join(map(str, tuned.best.candidate.out))
        in_text = " ".join(map(str, tuned.best.candidate.in_))
        out.print(
            f"{tuned.players} players: out [{out_text} all_out], in [{in_text}] "
            f"(distance {tuned.best.distance:.2f}, {tuned.best.games:,} games)",
            markup=False,
        )
    for printed, tuned in report.left_out:
        diffs = [b - a for a, b in zip(printed.out + printed.in_, tuned.best.candidate.out + tuned.best.candidate.in_)]
        close = sum(abs(d) <= 1 for d in diffs)
        out.print(
            f"check: the printed {tuned.players}-player sheet, hidden and tuned from the others, comes back as "
            f"{tuned.best.candidate.label()} ({close} of {len(diffs)} entries within one coin)",
            markup=False,
        )
    written = [out_file, page, *([variant] if write else [])]
    out.print(f"wrote {', '.join(display_path(p) for p in written)}", markup=False)


@app.command("print")
def print_set(
    variant: Annotated[Path, typer.Argument(help="Variant file.", show_default=False)],
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="PDF to write [default: reports/<variant>.pdf]; a name ending in .html writes only the HTML."
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
            help="Guide cards for N players, stakes sheets for 2..N [default: the variant's most].",
            show_default=False,
        ),
    ] = None,
    bleed: Annotated[
        float, typer.Option("--bleed", help="Card background drawn this many mm beyond the cut on every side.")
    ] = 0.0,
    backs: Annotated[
        bool,
        typer.Option("--backs/--no-backs", help="A page of card backs after each page of fronts, mirrored for long-edge duplex."),
    ] = True,
    backs_offset: Annotated[
        str, typer.Option("--backs-offset", help="Shift the backs by DX,DY mm (right, down) for a duplex printer that misaligns.")
    ] = "0,0",
    only: Annotated[
        str | None, typer.Option("--only", help="Print only these parts: cards,guides,stakes,board,rules.", show_default=False)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite output files the workbench did not write.")] = False,
) -> None:
    """Print a playtest set as PDF: market cards, guide cards, stakes sheets, action board and rule summary."""
    with _reported():
        loaded = load_variant(variant)
        family = loaded.family
        if not hasattr(family, "print_html"):
            raise UsageError(f"{family.title} has no printable playtest set")
        out_file = out_file or Path("reports") / f"{variant.stem}.pdf"
        html_only = out_file.suffix.lower() in (".html", ".htm")
        targets = [out_file] if html_only else [out_file, *([out_file.with_suffix(".html")] if html else [])]
        for target in targets:
            _check_overwrite(target, force)
        options = {"paper": paper, "players": players, "bleed": bleed, "backs": backs, "backs_offset": backs_offset, "only": only}
        page = family.print_html(loaded.variant, options)
        document = None if html_only else family.print_pdf(loaded.variant, options, page)
        out_file.parent.mkdir(parents=True, exist_ok=True)
        for target in targets:
            if target.suffix.lower() in (".html", ".htm"):
                target.write_text(page)
            else:
                target.write_bytes(document)
    out.print(f"wrote {', '.join(display_path(t) for t in targets)}", markup=False)


@app.command()
def schema(
    kind: Annotated[str | None, typer.Argument(help="variant, scenario or cards; all when left out.")] = None,
    game: Annotated[str, typer.Option("--game", help="The game family.")] = "chance-it",
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write <game>.<kind>.schema.json files into this folder.")] = None,
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
