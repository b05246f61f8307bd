"""The search bot (or the equilibrium bot) on both engines: games per second in the same run, its strength, a tuning.

1. One ``--bot`` (default the built-in ``search``: 16 playouts of depth 4; or ``equilibrium``)
   and three heuristic bots, base variant, 4 players, one worker: games per second on the
   interpreter and on the batch engine, and the ratio (both play the very same games:
   tests/test_batch.py checks it).
2. Its strength, as ``workbench skill variants/chance-it.yaml --players 4 --ladder
   heuristic,BOT --games 2000 --seed 1`` measures it on the batch engine (the interpreter
   plays the same games, so the bot wins exactly as often), and the run's wall time.
3. With ``--tune``: the wall time of ``workbench tune-stakes variants/chance-it.yaml --players 3
   --players 6 --bots BOT`` (its default budget) on every core.

The compiled code (the batch engine's and its search level's) is made ready before any clock
starts. Run: .venv/bin/python benchmarks/bench_search.py [--bot equilibrium] [--interpreter-games 20]
[--batch-games 400] [--tune]. Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workbench.games import FAMILIES, load_variant
from workbench.sim.runner import Local, run

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
FIELD = ("heuristic", "heuristic", "heuristic")


def games_per_second(bot: str, engine: str, games: int) -> float:
    loaded = load_variant(BASE)
    family = FAMILIES[loaded.family.game]
    known = family.personas(loaded.variant)
    table = (bot, *FIELD)
    if engine == "batch":
        batched = family.batched
        assert batched is not None
        batched.compiled_for([known[name] for name in table]).wait()  # compiled (or found in the cache) first
    factory = family.simulator(loaded.variant, 4, table, known, 1, engine=engine)
    return games / run(factory, games, backend=Local(1)).seconds


def command(*words: str) -> float:
    """The wall seconds of one ``workbench`` process."""
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "workbench"), *words], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=("search", "equilibrium"), default="search")
    parser.add_argument("--interpreter-games", type=int, default=20)
    parser.add_argument("--batch-games", type=int, default=400)
    parser.add_argument("--tune", action="store_true", help="also time tune-stakes --players 3 --players 6 --bots BOT")
    args = parser.parse_args()
    print(f"base variant, 4 players, {' '.join((args.bot, *FIELD))}, {os.cpu_count()} core(s) available")
    batch = games_per_second(args.bot, "batch", args.batch_games)
    slow = games_per_second(args.bot, "interpreter", args.interpreter_games)
    print(f"one worker: interpreter {slow:.2f} games/s, batch {batch:.1f} games/s: {batch / slow:.1f}x")
    with tempfile.TemporaryDirectory() as folder:
        seconds = command(
            "skill", str(BASE), "--players", "4", "--ladder", f"heuristic,{args.bot}", "--games", "2000", "--seed", "1",
            "--engine", "batch", "--out", folder,
        )  # fmt: skip
        rungs = json.loads((Path(folder) / "skill.json").read_text())["rungs"]
        for rung in rungs:
            rate = rung["win_rate"]
            print(
                f"skill, {rung['bot']} in the rotating seat: wins {rate['value']:.1%} ({rate['low']:.1%} to {rate['high']:.1%})"
            )
        print(f"skill, 2,000 games a rung on the batch engine: {seconds:.1f} s")
        if args.tune:
            seconds = command(
                "tune-stakes", str(BASE), "--players", "3", "--players", "6", "--bots", args.bot, "--out",
                str(Path(folder) / "proposal.yaml"),
            )  # fmt: skip
            print(f"tune-stakes --players 3 --players 6 --bots {args.bot} (default budget): {seconds / 60:.1f} minutes")


if __name__ == "__main__":
    main()
