"""Memory stays flat however many games run: peak memory of a run of N games.

Run: .venv/bin/python benchmarks/bench_memory.py --games 10000
     .venv/bin/python benchmarks/bench_memory.py --games 1000000
and compare the two peaks (the target: within 10 %). Each run is a fresh process.
"""

from __future__ import annotations

import argparse
import resource
from pathlib import Path

from workbench.games import FAMILIES, load_variant
from workbench.sim.runner import Local, run

BASE = Path(__file__).parent.parent / "variants" / "chance-it.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    loaded = load_variant(BASE)
    family = FAMILIES[loaded.family.game]
    factory = family.simulator(loaded.variant, 4, (args.bots,) * 4, family.personas(loaded.variant), 1)
    result = run(factory, args.games, backend=Local(args.workers))
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{result.games:,} games, {args.workers} worker(s), {result.seconds:.0f} s: "
        f"peak memory {own:.1f} MiB (main process), {workers:.1f} MiB (largest worker)"
    )


if __name__ == "__main__":
    main()
