"""Engine speed: games/s and rounds/s with random bots on the base variant (one core).

Run: .venv/bin/python benchmarks/bench_engine.py [--players 4] [--games 2000] [--log]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from workbench.games import load_variant
from workbench.games.chance_it.bots import RandomBot
from workbench.games.chance_it.chance import RandomChance
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.sim.seeding import stream

BASE = Path(__file__).parent.parent / "variants" / "chance-it.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--log", action="store_true", help="keep the event log (off in simulations)")
    args = parser.parse_args()
    rules = compile_variant(load_variant(BASE).variant)
    rounds = 0
    start = time.perf_counter()
    for index in range(args.games):
        chance = RandomChance(stream(1, index, "chance"))
        game = Game(rules, args.players, chance, log=args.log)
        game.play(chance, [RandomBot(stream(1, index, "bot", seat)) for seat in range(args.players)])
        rounds += game.round
    seconds = time.perf_counter() - start
    print(
        f"random bots, {args.players} players, {args.games} games, log {'on' if args.log else 'off'}: "
        f"{args.games / seconds:,.0f} games/s, {rounds / seconds:,.0f} rounds/s ({rounds / args.games:.1f} rounds/game)"
    )


if __name__ == "__main__":
    main()
