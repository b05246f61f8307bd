"""Loading scales linearly: seconds to load and validate big card files and many overridden personas.

Run: .venv/bin/python benchmarks/bench_loading.py [--cards 1000,10000,100000] [--personas 3000] [--invalid 10000] [--no-cli]
Each case is generated in a temporary folder beside a variant that extends the base game. "load" is
load_variant in this process; "cli" is a fresh `workbench validate` process (start-up included), the
figure the target (10,000 cards in under 2 s) is about. A card file holds at most 10,000 cards here:
the loader refuses a file over 5 MB or 200,000 YAML values, so 100,000 cards come as 10 card files.
Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from workbench.errors import VariantError
from workbench.games import load_variant

BASE = Path(__file__).resolve().parent.parent / "variants" / "chance-it.yaml"
WORKBENCH = Path(sys.executable).parent / "workbench"
#: Cards per card file (10 YAML values each, so 10,000 stay well inside the loader's limits).
PER_FILE = 10_000


#: One mistake per card, in turn: a negative cost, an unknown key, a misspelt effect.
MISTAKES = ("cost: -1, effects: [market]", "cost: 0, colour: red, effects: [market]", "cost: 0, effects: [markt]")


def card_files(folder: Path, count: int, *, invalid: bool = False) -> list[str]:
    """Write ``count`` cards into card files of at most PER_FILE cards; their names."""
    names = []
    for start in range(0, count, PER_FILE):
        name = f"cards-{start // PER_FILE:03d}.yaml"
        lines = (
            f"- {{id: c{i:06d}, name: Card {i}, when: flash, {MISTAKES[i % 3] if invalid else 'cost: 0, effects: [market]'}}}\n"
            for i in range(start, min(count, start + PER_FILE))
        )
        (folder / name).write_text("".join(lines))
        names.append(name)
    return names


def cards_case(folder: Path, count: int, *, invalid: bool = False) -> Path:
    """A variant extending the base game whose market is ``count`` generated cards (each with a mistake if ``invalid``)."""
    files = card_files(folder, count, invalid=invalid)
    variant = folder / "variant.yaml"
    variant.write_text(f"extends: {BASE}\nname: Big market\ncards: [{', '.join(files)}]\n")
    return variant


def personas_case(folder: Path, count: int) -> Path:
    """A base with ``count`` personas and a variant extending it that overrides every one of them."""
    base = BASE.read_text().replace(
        "\nbots:", "\nbots:\n" + "".join(f"  p{i:05d}: {{policy: heuristic, star: 1.0}}\n" for i in range(count)), 1
    )
    (folder / "base.yaml").write_text(
        base.replace("../cards/chance-it-market.yaml", str(BASE.parent.parent / "cards" / "chance-it-market.yaml"))
    )
    variant = folder / "variant.yaml"
    lines = "".join(f"  p{i:05d}: {{policy: heuristic, star: 1.5, min_hearts: 4}}\n" for i in range(count))
    variant.write_text(f"extends: base.yaml\nname: Many personas\nbots:\n{lines}")
    return variant


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def load(path: Path) -> str:
    """Load a variant; a short description of the outcome."""
    try:
        loaded = load_variant(path)
    except VariantError as exc:
        return f"{len(exc.problems):,} problem(s)"
    return f"valid, {len(loaded.variant.cards):,} cards, {len(loaded.variant.bots):,} personas"


def cli(path: Path) -> tuple[float, int]:
    """Seconds and exit code of a fresh `workbench validate` process."""
    start = time.perf_counter()
    done = subprocess.run([str(WORKBENCH), "validate", str(path)], capture_output=True, check=False)
    return time.perf_counter() - start, done.returncode


def report(label: str, path: Path, *, with_cli: bool) -> None:
    outcome: list[str] = []
    seconds = timed(lambda: outcome.append(load(path)))
    line = f"{label:>32}: load {seconds:7.2f} s"
    if with_cli:
        cli_seconds, code = cli(path)
        line += f", cli {cli_seconds:7.2f} s (exit {code})"
    print(f"{line}  [{outcome[0]}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="1000,10000,100000", help="card counts, comma-separated")
    parser.add_argument("--personas", type=int, default=3_000, help="overridden personas (0 skips)")
    parser.add_argument("--invalid", type=int, default=10_000, help="cards each with an error (0 skips)")
    parser.add_argument("--no-cli", action="store_true", help="skip the `workbench validate` processes")
    args = parser.parse_args()
    with_cli = not args.no_cli and WORKBENCH.exists()
    print(f"{os.cpu_count() or 1} core(s); variants extend {BASE.name}")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (int(c) for c in args.cards.split(",") if c.strip()):
            folder = Path(tmp) / f"cards-{count}"
            folder.mkdir()
            report(f"{count:,} cards", cards_case(folder, count), with_cli=with_cli)
        if args.personas:
            folder = Path(tmp) / "personas"
            folder.mkdir()
            report(f"{args.personas:,} overridden personas", personas_case(folder, args.personas), with_cli=with_cli)
        if args.invalid:
            folder = Path(tmp) / "invalid"
            folder.mkdir()
            report(f"{args.invalid:,} cards, each invalid", cards_case(folder, args.invalid, invalid=True), with_cli=with_cli)


if __name__ == "__main__":
    main()
