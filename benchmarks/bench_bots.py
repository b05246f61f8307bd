"""Bot strength, head to head: one bot against three others, its seat rotated, with a 95 % interval.

Run: .venv/bin/python benchmarks/bench_bots.py [--bot search] [--against heuristic] [--games 200]
A fair share is 1/players; a clearly stronger bot's interval sits above it.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from workbench.games import FAMILIES, load_variant
from workbench.sim.runner import run
from workbench.sim.stats import rate

BASE = Path(__file__).parent.parent / "variants" / "chance-it.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200, help="games in all, split over the seats")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    loaded = load_variant(BASE)
    family = FAMILIES[loaded.family.game]
    personas = family.personas(loaded.variant)
    wins = games = 0
    for seat in range(args.players):
        table = tuple(args.bot if s == seat else args.against for s in range(args.players))
        factory = family.simulator(loaded.variant, args.players, table, personas, args.seed + seat)
        result = run(factory, args.games // args.players, workers=os.cpu_count() or 1)
        wins += result.tally.wins[seat]
        games += result.games
    figure = rate(wins, games)
    print(
        f"{args.bot} against {args.players - 1} x {args.against}, {games} games, seats rotated: "
        f"wins {100 * figure['rate']:.1f}% (95% CI {100 * figure['low']:.1f}-{100 * figure['high']:.1f}); "
        f"a fair share is {100 / args.players:.1f}%"
    )


if __name__ == "__main__":
    main()
