"""Cold start of ``tidx explain "t[1, 2] = 3"`` against the floor it cannot go under.

The floor is ``python -c "import numpy, rich.console, click"``: the three libraries a
cold explain needs before it does anything of its own.  The goal (issue #25) is a ratio
of at most 1.3 on the same machine.  The two commands run in turn (A B A B ...), the
ratio is taken pair by pair and its median printed, so a machine whose speed drifts
during the run (a shared one) moves both sides of a pair alike.  ``import torch`` is
printed beside for scale.

tidx runs as its console script runs it (``from cli import main``: the module's bytecode
is cached, as it is for an installed ``tidx``; ``python cli.py`` would compile cli.py on
every run).  Not a test: it prints numbers; tests count work, never time.

Run: python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 1.3

TIDX = [sys.executable, "-c", "import sys; from cli import main; sys.exit(main())",
        "explain", "t[1, 2] = 3"]
FLOOR = [sys.executable, "-c", "import numpy, rich.console, click"]
TORCH = [sys.executable, "-c", "import torch"]


def once(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    # bytecode as an installed tidx has it (PYTHONDONTWRITEBYTECODE would otherwise
    # leave edited modules to be compiled on every run)
    for part in ("engine", "tracer"):
        compileall.compile_dir(ROOT / part, quiet=1)
    compileall.compile_file(ROOT / "cli.py", quiet=1)
    once(TIDX), once(FLOOR)                     # warm the disk cache, not counted
    ours, floor, ratios = [], [], []
    for _ in range(runs):
        a, b = once(TIDX), once(FLOOR)
        ours.append(a), floor.append(b), ratios.append(a / b)
    print(f"cold start, {runs} pairs, median (min-max) wall time")
    print(f"  tidx explain \"t[1, 2] = 3\"                {statistics.median(ours) * 1e3:6.0f} ms"
          f"  ({min(ours) * 1e3:.0f}-{max(ours) * 1e3:.0f})")
    print(f"  floor: import numpy, rich.console, click  {statistics.median(floor) * 1e3:6.0f} ms"
          f"  ({min(floor) * 1e3:.0f}-{max(floor) * 1e3:.0f})")
    ratio = statistics.median(ratios)
    print(f"  ratio tidx / floor (median of pairs): {ratio:.2f}   goal <= {GOAL}"
          f"   {'met' if ratio <= GOAL else 'NOT met'}")
    try:
        torch = statistics.median(once(TORCH) for _ in range(5))
        print(f"  for scale: import torch                    {torch * 1e3:6.0f} ms")
    except subprocess.CalledProcessError:
        print("  for scale: torch is not installed")


if __name__ == "__main__":
    main()
