"""Cold start of ``tidx explain "t[1, 2] = 3"`` against the floor it cannot go under.

The floor is ``python -c "import numpy, rich.console, click"``: the three libraries a
cold explain needs before it does anything of its own.  The goal (issue #25) is a ratio
of at most 1.3 on the same machine.  The two commands run in turn (A B A B ...), the
ratio is taken pair by pair and its median printed, so a machine whose speed drifts
during the run (a shared one) moves both sides of a pair alike.  ``import torch`` is
printed beside for scale.

tidx runs as its console script runs it (``from cli import main``).  Bytecode: every
module of engine/, tracer/ and cli.py is compiled first (``compileall``), as an installed
``tidx`` has it, so no run compiles a source file, whatever PYTHONDONTWRITEBYTECODE says
(``python cli.py`` would compile cli.py on every run).  Caches: a private folder
(``TIDX_CACHE_DIR``), which the uncounted first run fills with the operator declarations
and the dataclasses' code, as a user's second run finds them (the shared
``~/.cache/tidx`` keeps only the newest files of every checkout on the machine).  The
user+sys CPU time of each run is printed too: on a busy machine it moves less than the
wall time.  Not a test: it prints numbers; tests count work, never time.

Run: python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 1.3

TIDX = [sys.executable, "-c", "import sys; from cli import main; sys.exit(main())",
        "explain", "t[1, 2] = 3"]
FLOOR = [sys.executable, "-c", "import numpy, rich.console, click"]
TORCH = [sys.executable, "-c", "import torch"]


def once(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """The wall time and the user+sys CPU time of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    # bytecode as an installed tidx has it (PYTHONDONTWRITEBYTECODE would otherwise
    # leave edited modules to be compiled on every run)
    for part in ("engine", "tracer"):
        compileall.compile_dir(ROOT / part, quiet=1)
    compileall.compile_file(ROOT / "cli.py", quiet=1)
    with tempfile.TemporaryDirectory(prefix="tidx-bench-cache-") as cache:
        env = {**os.environ, "TIDX_CACHE_DIR": cache}
        once(TIDX, env), once(FLOOR)            # the caches and the disk cache, not counted
        ours, floor = [], []
        for _ in range(runs):
            ours.append(once(TIDX, env)), floor.append(once(FLOOR))
    print(f"cold start, {runs} pairs, median (min-max); bytecode compiled, caches warm")
    for label, times in (("tidx explain \"t[1, 2] = 3\"               ", ours),
                         ("floor: import numpy, rich.console, click ", floor)):
        wall, cpu = [t[0] * 1e3 for t in times], [t[1] * 1e3 for t in times]
        print(f"  {label}  wall {statistics.median(wall):4.0f} ms ({min(wall):.0f}-"
              f"{max(wall):.0f})  cpu {statistics.median(cpu):4.0f} ms")
    ratio = statistics.median(a[0] / b[0] for a, b in zip(ours, floor))
    cpu_ratio = statistics.median(a[1] / b[1] for a, b in zip(ours, floor) if b[1] > 0)
    print(f"  ratio tidx / floor (median of pairs): {ratio:.2f}   goal <= {GOAL}"
          f"   {'met' if ratio <= GOAL else 'NOT met'}   (cpu time: {cpu_ratio:.2f})")
    try:
        torch = statistics.median(once(TORCH)[0] for _ in range(5))
        print(f"  for scale: import torch                    {torch * 1e3:6.0f} ms")
    except subprocess.CalledProcessError:
        print("  for scale: torch is not installed")


if __name__ == "__main__":
    main()
