"""The batch engine against the interpreter: rounds per second on the base variant, in the same run.

For random and heuristic bots, on one worker and on every core: each engine's rounds per
second and the ratio. Then the whole process, as a designer runs it (the compiled engine
cached): ``workbench simulate variants/chance-it.yaml --players 4 --games 200000 --bots
random --engine batch --workers 1``, its wall time and peak memory, and the same for ten
times fewer games (memory stays flat with the number of games).

Run: .venv/bin/python benchmarks/bench_batch.py [--players 4] [--interpreter-games 3000] [--batch-games 200000]
Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workbench.games import FAMILIES, load_variant
from workbench.sim.runner import Local, run

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"


def rounds_per_second(engine: str, bot: str, players: int, games: int, workers: int) -> float:
    loaded = load_variant(BASE)
    family = FAMILIES[loaded.family.game]
    known = family.personas(loaded.variant)
    if engine == "batch":
        family.compiled.wait()  # compiled (or found in the cache) before the clock starts
    factory = family.simulator(loaded.variant, players, (bot,) * players, known, 1, engine=engine)
    result = run(factory, games, backend=Local(workers))
    rounds = sum(value * count for value, count in result.tally.outcomes.rounds.counts.items())
    return rounds / result.seconds


def whole_process(games: int, players: int) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one ``workbench simulate`` process."""
    workbench = Path(sys.executable).parent / "workbench"
    with tempfile.TemporaryDirectory() as folder:
        command = [
            str(workbench), "simulate", str(BASE), "--players", str(players), "--games", str(games), "--bots", "random",
            "--engine", "batch", "--workers", "1", "--out", folder,
        ]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--interpreter-games", type=int, default=3000)
    parser.add_argument("--batch-games", type=int, default=200_000)
    parser.add_argument("--bots", default="random,heuristic")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"base variant, {args.players} players, {cores} core(s) available")
    for bot in args.bots.split(","):
        for workers in dict.fromkeys((1, cores)):
            slow = rounds_per_second("interpreter", bot, args.players, args.interpreter_games, workers)
            fast = rounds_per_second("batch", bot, args.players, args.batch_games, workers)
            print(
                f"{bot:>10}, {workers} worker(s): interpreter {slow:9,.0f} rounds/s, batch {fast:11,.0f} rounds/s: "
                f"{fast / slow:5.1f}x"
            )
    for games in (args.batch_games // 10, args.batch_games):
        seconds, peak = whole_process(games, args.players)
        print(f"workbench simulate --games {games:,} --bots random --engine batch --workers 1: {seconds:.1f} s, {peak:.0f} MiB")


if __name__ == "__main__":
    main()
