"""Start-up and the first run: what a designer waits for, on one machine in one run.

1. Start-up: ``python -c "import typer"``, ``workbench --help`` and ``workbench validate
   variants/chance-it.yaml``, run in turn ``--runs`` times after one run each that writes Python's bytecode cache (as
   on a designer's machine: ``PYTHONDONTWRITEBYTECODE`` is left out), the medians and their ratios to the first.
2. The README's main job (``simulate variants/chance-it.yaml --players 4 --games 5000 --seed 1``)
   with ``WORKBENCH_CACHE_DIR`` at an empty folder (cold: the interpreter plays while the compiler
   waits for the run to end), then again once the compile is done (warm, the median of ``--runs``);
   the ratio, and how long the compile took (from its manifest).
3. A second variant compiles nothing: ``simulate variants/card-lab.yaml`` on the warm cache plays on
   the batch engine at once, and the cache holds the same files.
4. A damaged cache: one compiled file changed; the run says so in one line and still plays.

Run: .venv/bin/python benchmarks/bench_startup.py [--runs 5]
Figures only; no test asserts timings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent
QUICK_START = ["simulate", "variants/chance-it.yaml", "--players", "4", "--games", "5000", "--seed", "1"]


#: The environment of every command: this one, with Python's bytecode cache written as it is on a designer's machine.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def seconds(command: list[str], env: dict[str, str] = ENV) -> tuple[float, str]:
    """Wall seconds of one command run from the project folder, and what it printed on standard error."""
    started = time.perf_counter()
    ran = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.perf_counter() - started
    if ran.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({ran.returncode}):\n{ran.stderr}")
    return took, ran.stdout + ran.stderr


def median(command: list[str], runs: int, env: dict[str, str] = ENV) -> float:
    return statistics.median(seconds(command, env)[0] for _ in range(runs))


def medians(commands: list[list[str]], runs: int) -> list[float]:
    """The median seconds of each command, run in turn (a machine's slower moments fall on all of them alike)."""
    for command in commands:
        seconds(command)  # writes the bytecode cache
    taken: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for command, times in zip(commands, taken):
            times.append(seconds(command)[0])
    return [statistics.median(times) for times in taken]


def cache_files(cache: Path) -> dict[str, float]:
    return {str(p.relative_to(cache)): p.stat().st_mtime for p in cache.rglob("*") if p.is_file() and p.suffix != ".lock"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    workbench = str(BIN / "workbench")

    typer, helped, validated = medians(
        [[sys.executable, "-c", "import typer"], [workbench, "--help"], [workbench, "validate", "variants/chance-it.yaml"]],
        3 * args.runs,
    )
    print("start-up (median of", 3 * args.runs, "runs)")
    print(f"  python -c 'import typer'               {typer:6.2f} s")
    print(f"  workbench --help                       {helped:6.2f} s  ({helped / typer:.1f} x; target at most 2 x)")
    print(f"  workbench validate variants/chance-it.yaml {validated:6.2f} s  ({validated / typer:.1f} x; target at most 4 x)")

    with tempfile.TemporaryDirectory() as folder:
        cache, out = Path(folder) / "cache", Path(folder) / "out"
        env = {**ENV, "WORKBENCH_CACHE_DIR": str(cache)}
        job = [workbench, *QUICK_START, "--out", str(out), "--force"]
        cold, said = seconds(job, env)
        interpreted = json.loads((out / "summary.json").read_text())["timing"].get("interpreter_games", 0)
        started = time.perf_counter()
        while not list(cache.glob("*/MANIFEST.json")):  # the compiler, started by the cold run, compiles after it
            time.sleep(0.5)
        after = time.perf_counter() - started
        manifest = json.loads(next(cache.glob("*/MANIFEST.json")).read_text())
        warm = median(job, args.runs, env)
        print(f"the README's main job ({' '.join(QUICK_START)})")
        print(f"  cold (empty cache)   {cold:6.2f} s  ({interpreted:,} games on the interpreter; said: {said.splitlines()[0]!r})")
        print(f"  warm (median)        {warm:6.2f} s  (cold / warm = {cold / warm:.1f}; target at most 3)")
        print(f"  the compile took {manifest['seconds']:.0f} s, done {after:.0f} s after the cold run ended")

        before = cache_files(cache)
        second, said = seconds(
            [workbench, "simulate", "variants/card-lab.yaml", "--games", "2000", "--out", str(out), "--force"], env
        )
        same = cache_files(cache) == before
        print(f"  a second variant: {second:.2f} s, {said.splitlines()[0]!r}, cache unchanged: {same}")

        compiled = next(p for p in sorted(cache.rglob("*.nbc")))
        compiled.write_bytes(compiled.read_bytes()[:-7] + b"damaged")
        damaged, said = seconds(job, env)
        notes = [line for line in said.splitlines() if line.startswith("note:")]
        print(f"  a damaged cache file: {damaged:.2f} s, exit 0, said: {notes}")
        while len(list(cache.glob("*/MANIFEST.json"))) < 2:  # compiled again (and not left running on a removed folder)
            time.sleep(0.5)
        print("  compiled again after it, beside the folder set aside")


if __name__ == "__main__":
    main()
