"""The backends on one machine: the same simulate run on the local process pool and on a Dask LocalCluster.

Run: .venv/bin/python benchmarks/bench_backends.py [--variant variants/chance-it.yaml] [--games 200000]
     [--bots random] [--engine batch] [--workers 2]
Prints each backend's games/s (the cluster's start-up apart) and checks the summaries agree. Needs the dask extra.
Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from workbench import api
from workbench.sim.cluster import Dask
from workbench.sim.runner import Local

BASE = Path(__file__).parent.parent / "variants" / "chance-it.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=Path, default=BASE)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--engine", default="batch")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    options = {"players": [4], "games": args.games, "seed": 1, "bots": args.bots, "engine": args.engine}
    local = api.simulate(args.variant, backend=Local(args.workers), **options)
    started = time.perf_counter()
    with Dask(workers=args.workers) as cluster:
        cluster.start()
        up = time.perf_counter() - started
        api.simulate(args.variant, backend=cluster, **options)  # the workers load the compiled engine once
        dask = api.simulate(args.variant, backend=cluster, **options)
    print(f"{args.variant}, 4 players, {args.games:,} games, {args.bots} bots, {args.engine} engine, {args.workers} workers")
    for name, result in (("local", local), ("dask", dask)):
        timing = result.runs[0].timing
        print(f"  {name:6} {timing['games_per_second']:>12,.0f} games/s  ({timing['seconds']:.2f} s)")
    print(f"  the LocalCluster started in {up:.1f} s")
    same = [json.dumps({**r.to_dict(), "timing": None}) for r in (local.runs[0], dask.runs[0])]
    print(f"  summaries identical (timing aside): {same[0] == same[1]}")


if __name__ == "__main__":
    main()
