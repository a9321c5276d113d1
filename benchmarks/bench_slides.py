"""Image exports of a lesson, printed in one run (issue 28; not a test: machines here
are noisy, tests/cli/test_export_pages.py counts the work instead).

The lesson is the samples' statements in order (seed 001, views and copies, seed
004 ...) cut to 32 statements, then repeated for the larger sizes.  For each format
(PNG, PDF, SVG slide pages; the GIF) and size, a fresh process runs ``tidx export -f
LESSON -o OUT`` as a user types it, and this prints:

* the wall time, and the CPU time of the process and its children (``dot``): on a
  machine other jobs share, the CPU time is the steadier number;
* the peak memory: the largest resident set of the process or of one of its children;
* the pages written, and each number's ratio to the smallest size's (a linear
  export shows the ratio of the sizes).

The goals (issue 28), for 32 statements: PNG within 5 s, GIF within 5 s and 400 MB.

Run: python benchmarks/bench_slides.py [--sizes 32 64 128] [--only png,gif]
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ["seed_001_indexing", "views_and_copies", "seed_004_gather_as_fancy_indexing",
           "seed_004_masks_and_fancy", "joining_and_splitting", "factories"]
FORMATS = ("png", "pdf", "svg", "gif")
GOALS = {"png": (5.0, None), "gif": (5.0, 400)}


def lesson(statements: int) -> str:
    """``statements`` top-level statements of the samples, in order, repeated."""
    body: list[str] = []
    for name in SAMPLES:
        text = (ROOT / "samples" / f"{name}.py").read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue   # a docstring
            body.append(ast.get_source_segment(text, node))
    first = body[:32]
    return "\n".join((first * (statements // 32 + 1))[:statements]) + "\n"


def measure(fmt: str, size: int, tmp: str) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak MB, files) of one export in a fresh process."""
    src = Path(tmp) / f"lesson{size}.py"
    src.write_text(lesson(size), encoding="utf-8")
    out = Path(tmp) / f"out{size}" / f"l.{fmt}"
    out.parent.mkdir(exist_ok=True)
    for old in out.parent.iterdir():
        old.unlink()
    script = ("import resource, subprocess, sys, time\n"
              "start = time.perf_counter()\n"
              "code = subprocess.run(sys.argv[1:]).returncode\n"
              "wall = time.perf_counter() - start\n"
              "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
              "print(wall, r.ru_utime + r.ru_stime, r.ru_maxrss / 1024, code)\n")
    res = subprocess.run([sys.executable, "-c", script, sys.executable, "cli.py", "export",
                          "-f", str(src), "-o", str(out), "--seed", "0"],
                         cwd=ROOT, capture_output=True, text=True)
    wall, cpu, peak, code = res.stdout.split()[-4:]
    if int(code) not in (0, 1):
        raise SystemExit(f"export failed: {res.stdout[-500:]}")
    return float(wall), float(cpu), float(peak), len(list(out.parent.iterdir()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--only", default=",".join(FORMATS))
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        measure("svg", 1, tmp)   # warm the disk cache and Graphviz's font cache
        for fmt in args.only.split(","):
            print(f"\n{fmt.upper()}")
            first = None
            for size in args.sizes:
                wall, cpu, peak, files = measure(fmt, size, tmp)
                ratio = ""
                if first:
                    ratio = (f"   x{wall / first[0]:.1f} wall  x{cpu / first[1]:.1f} cpu"
                             f"  x{peak / first[2]:.1f} memory  (sizes x{size / args.sizes[0]:.0f})")
                else:
                    first = (wall, cpu, peak)
                print(f"  {size:>4} statements: {wall:6.1f} s wall  {cpu:6.1f} s cpu  "
                      f"{peak:7.1f} MB peak  {files:>4} files{ratio}")
                goal = GOALS.get(fmt)
                if goal and size == 32:
                    met = cpu <= goal[0] and (goal[1] is None or peak <= goal[1])
                    print(f"        goal <= {goal[0]} s" +
                          (f", <= {goal[1]} MB" if goal[1] else "") +
                          f": {'met' if met else 'NOT met'} (CPU time; wall time depends "
                          "on what else the machine runs)")


if __name__ == "__main__":
    main()
