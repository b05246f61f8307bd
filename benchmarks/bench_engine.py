"""Interpreter speed: games/s and rounds/s for each bot on a variant of any game, one core and all cores.

Run: .venv/bin/python benchmarks/bench_engine.py [--variant variants/chance-it.yaml] [--players 4] [--games 20000]
     [--bots random,heuristic]   (target dice: --variant variants/target-dice.yaml --bots random,greedy,search)
Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from workbench.games import load_variant
from workbench.sim.runner import Local, run

BASE = Path(__file__).parent.parent / "variants" / "chance-it.yaml"


def measure(variant: Path, bot: str, players: int, games: int, workers: int) -> tuple[float, float, float]:
    """(games/s, rounds/s, rounds per game) of one run on the interpreter."""
    loaded = load_variant(variant)
    family = loaded.family
    factory = family.simulator(loaded.variant, players, (bot,) * players, family.personas(loaded.variant), 1)
    result = run(factory, games, backend=Local(workers))
    rounds = sum(value * count for value, count in result.tally.outcomes.rounds.counts.items())
    return result.games_per_second, rounds / result.seconds, rounds / result.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=Path, default=BASE)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--bots", default="random,heuristic")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"{args.variant}, {args.players} players, {args.games:,} games per line, {cores} core(s) available")
    for bot in args.bots.split(","):
        single = None
        for workers in dict.fromkeys((1, cores)):
            games_s, rounds_s, per_game = measure(args.variant, bot, args.players, args.games, workers)
            single = single or games_s
            print(
                f"{bot:>10}, {workers} worker(s): {games_s:8,.0f} games/s {rounds_s:9,.0f} rounds/s "
                f"({per_game:.1f} rounds/game; {games_s / single:.2f}x one worker)"
            )


if __name__ == "__main__":
    main()
