"""Start-up and export costs, printed in one run (not a test: machines here are noisy).

* cold ``tidx explain "t[rows, cols] = 10"`` (a new process, as a user runs it) against
  ``python -c "import torch"``: the goal is under half of torch's import time, which is
  why cli.py imports the engine, rich and graphviz only inside the commands needing them;
* SVG export of a trace of 200+ steps, through ``dot`` and through the in-process
  WebAssembly Graphviz: the goal is under 1 s;
* the HTML stepper of a 32-statement lesson: the goal is under 1 MB, growing linearly.

Run: python benchmarks/bench_export.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BIG = "; ".join(["t[rows, cols] = 10", "t[1, 2] = 3", "y = t[1:, ::2]", "b[idx_0, idx_1]",
                 "torch.randn(3, 4)", "a[index_0]"])


def cold(args: list[str], runs: int = 7, env: dict | None = None) -> list[float]:
    """Wall times of fresh processes (the first run warms the disk cache, not counted)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, check=True, capture_output=True, env=env)
        if i:
            times.append(time.perf_counter() - start)
    return times


def show(label: str, times: list[float]) -> float:
    best, median = min(times), statistics.median(times)
    print(f"  {label:<48} best {best * 1000:7.1f} ms   median {median * 1000:7.1f} ms")
    return median


def main() -> None:
    py = sys.executable
    print("cold start (new process each run)")
    ours = show('tidx explain "t[rows, cols] = 10"',
                cold([py, "cli.py", "explain", "t[rows, cols] = 10"]))
    try:
        theirs = show('python -c "import torch"', cold([py, "-c", "import torch"]))
        print(f"  ratio tidx / import torch: {ours / theirs:.2f}  (goal < 0.5)")
    except subprocess.CalledProcessError:
        print("  torch not installed: no comparison")

    from engine.interpreter import session
    from tracer import events
    from tracer.render import export
    from tracer.render import dot as render_dot

    typed = session.run_document(BIG, seed=0)
    doc = typed.to_json()
    steps = sum(1 for st in doc["statements"] for _ in events.walk(st["events"]))
    graph = render_dot.sequence(typed)
    print(f"\nSVG export of a {steps}-step trace ({len(doc['statements'])} statements)")
    exports = []
    if shutil.which("dot"):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            export.content(typed, "svg")
            times.append(time.perf_counter() - start)
        exports.append(show("in-process, dot program (build + render)", times))
    else:
        print("  dot program not installed")
    try:
        export._wasm_svg(graph.source, "nop")  # compile (cached on disk) once
        times = []
        for _ in range(5):
            start = time.perf_counter()
            export._wasm_svg(render_dot.sequence(typed).source, "nop")
            times.append(time.perf_counter() - start)
        exports.append(show("in-process, WebAssembly Graphviz (build + render)", times))
    except export.ExportError as exc:
        print(f"  WebAssembly Graphviz unavailable: {exc}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "big.svg")
        # whole commands: start-up, running the 6 statements, export, write
        show("cold `tidx export ... -o big.svg` (dot)",
             cold([py, "cli.py", "export", BIG, "--seed", "0", "-o", out], runs=3))
        no_dot = {**os.environ, "PATH": tmp}  # no dot on PATH: the WebAssembly fallback
        show("cold `tidx export ... -o big.svg` (no dot)",
             cold([py, "cli.py", "export", BIG, "--seed", "0", "-o", out], runs=3, env=no_dot))
    if exports:
        print(f"  SVG export goal < 1 s: {'met' if max(exports) < 1 else 'NOT met'}")


def html_sizes() -> None:
    """The HTML stepper's size for lessons of 8, 16 and 32 statements (the seeds'
    lessons one after the other): the goal is under 1 MB at 32, bytes per statement
    not growing.  tests/cli/test_html_size.py holds the same lesson to it."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_html_size import lesson

    from engine.interpreter import session
    from tracer.render import export

    print("\nHTML stepper (lecture view) of the seeds' lessons")
    sizes = {}
    for n in (8, 16, 32):
        doc = session.run_document(lesson(n), seed=0)
        start = time.perf_counter()
        sizes[n] = len(export.content(doc, "html", lecture=True))
        took = time.perf_counter() - start
        print(f"  {n:>2} statements: {sizes[n] / 1e6:6.3f} MB   {sizes[n] / n / 1e3:6.1f} kB a "
              f"statement   built in {took:5.2f} s")
    print(f"  ratio 32 / 16 statements: {sizes[32] / sizes[16]:.2f}  (linear: 2.00)")
    print(f"  goal <= 1 MB at 32 statements: {'met' if sizes[32] <= 1_000_000 else 'NOT met'}")


if __name__ == "__main__":
    main()
    html_sizes()
