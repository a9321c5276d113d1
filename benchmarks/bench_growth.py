"""How each command's cost grows with the length of the lesson, printed in one run.

Not a test (machines here are noisy; tests/interpreter/test_growth.py counts the work instead).  The
lesson is issue 24's: ``y0 = t[0]``, ``y1 = t[1]``, ... (3,000 lines are 38 KB, under
the input limit), each statement one more view of t's storage; it took over 300 s and
13.3 GiB when every statement listed every name on that storage.  For each command and
format, run as a user types it (in-process through click, a lesson file with ``-f``),
at 100, 1,000 and 3,000 statements, it prints:

* the wall time and the peak memory: the process's resident memory at its highest
  during the command, above what it held before (ru_maxrss; each run is a fresh
  process, warmed up on a one-statement lesson first: imports, caches, Graphviz); the
  best of three runs up to 300 statements, of two up to 1,000;
* the function calls it makes (cProfile, in another fresh process: the work, free of the
  machine's noise; cProfile slows the run, so it is not timed);
* each one's ratio to the 100-statement run.  A command linear in the lesson shows
  ratios near 10 and 30; a quadratic one near 100 and 900.  Memory ratios start lower:
  a fixed part (numpy's, Pillow's buffers) weighs most at 100 statements (no ratio
  when that run took less than 1 MB).  Graphviz's ``dot``, run for SVG, PNG and PDF,
  is a process of its own: neither its calls nor its memory are counted.

``--lesson samples`` runs every lesson in ``samples/`` concatenated instead (a realistic
mix: factories, views, indexing, errors caught, pypto), 1 and 8 times over (the input
limit of 100,000 characters allows about 9).

Run: python benchmarks/bench_growth.py [--sizes 100 1000 3000] [--only explain,step]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: label -> the command's arguments ({src}: ``-f LESSON --seed 0``; {out}: an output
#: path without its suffix; {text}: the lesson's text, for compare)
COMMANDS: dict[str, list[str]] = {
    "run (engine only, no drawing)": [],
    "explain (tree, lecture view)": ["explain", "{src}", "--width", "120"],
    "explain --full": ["explain", "{src}", "--full", "--width", "120"],
    "explain --format json": ["explain", "{src}", "--format", "json"],
    "explain --format mermaid": ["explain", "{src}", "--format", "mermaid"],
    "explain --format dot": ["explain", "{src}", "--format", "dot"],
    "explain --format markdown": ["explain", "{src}", "--format", "markdown"],
    "explain --format gdb": ["explain", "{src}", "--format", "gdb"],
    "step (non-interactive)": ["step", "{src}", "--width", "120"],
    "lesson (the same text as a lesson)": ["lesson", "bench", "--seed", "0",
                                           "--width", "120"],
    "compare A B (the lesson twice)": ["compare", "{text}", "{text}", "--seed", "0",
                                       "--width", "120"],
    "export -o .json": ["export", "{src}", "-o", "{out}.json"],
    "export -o .mmd": ["export", "{src}", "-o", "{out}.mmd"],
    "export -o .md": ["export", "{src}", "-o", "{out}.md"],
    "export -o .gdb": ["export", "{src}", "-o", "{out}.gdb"],
    "export -o .gv": ["export", "{src}", "-o", "{out}.gv"],
    "export -o .html": ["export", "{src}", "-o", "{out}.html"],
    "export -o .svg": ["export", "{src}", "-o", "{out}.svg"],
    "export -o .png": ["export", "{src}", "-o", "{out}.png"],
    "export -o .pdf": ["export", "{src}", "-o", "{out}.pdf"],
    "export -o .gif": ["export", "{src}", "-o", "{out}.gif"],
}


def views(n: int) -> str:
    """Issue 24's lesson, ``n`` statements."""
    return "\n".join(f"y{k} = t[{k % 3}]" for k in range(n))


def samples(times: int) -> str:
    """Every lesson in samples/, one after the other, ``times`` times over."""
    from engine.interpreter import lessons as L
    once = "\n\n".join(lesson.text for lesson in L.available())
    return "\n\n".join([once] * times)


# -- one measurement, in a fresh process ---------------------------------------------------
def _rss() -> int:
    """The resident memory now, in bytes."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _invoke(label: str, text: str, path: Path, out: Path) -> None:
    from click.testing import CliRunner

    import cli
    from engine.interpreter import lessons as L
    from engine.interpreter import session

    args = COMMANDS[label]
    if not args:
        session.run(text, seed=0)
        return
    src = ["-f", str(path), "--seed", "0"]
    expanded: list[str] = []
    for a in args:
        expanded += src if a == "{src}" else [a.format(out=out, text=text)]
    L.load = lambda name: L.Lesson(name, "bench", text)    # what `lesson bench` runs
    res = CliRunner().invoke(cli.main, expanded, env={"NO_COLOR": "1"})
    if res.exit_code != 0:
        raise SystemExit(f"{label} exited {res.exit_code}: {res.output[-300:]}")


def child(label: str, lesson: str, size: int, mode: str) -> dict[str, Any]:
    """Run one command once on the lesson of ``size`` (after a warm-up on one
    statement) and measure it: ``mode`` "time" (wall time, peak memory) or "calls"."""
    text = (views if lesson == "views" else samples)(size)
    tmp = Path(tempfile.mkdtemp(prefix="tidx-bench-"))
    path = tmp / "lesson.py"
    small = tmp / "warm.py"
    path.write_text(text, encoding="utf-8")
    warm = views(1) if lesson == "views" else samples(1).split("\n\n")[0] + "\n"
    small.write_text(warm, encoding="utf-8")
    _invoke(label, warm, small, tmp / "warm")
    if mode == "calls":
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.enable()
        _invoke(label, text, path, tmp / "out")
        profile.disable()
        return {"calls": pstats.Stats(profile).total_calls}
    base = _rss()
    start = time.perf_counter()
    _invoke(label, text, path, tmp / "out")
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"time": seconds, "memory": max(0, peak - base)}


def measure(label: str, lesson: str, size: int, mode: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--child", label, lesson, str(size),
                           mode], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{label} at {size}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the table --------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", choices=("views", "samples"), default="views")
    parser.add_argument("--sizes", type=int, nargs="+", default=None,
                        help="statements (views) or times over (samples); "
                             "default 100 1000 3000 (views), 1 8 (samples)")
    parser.add_argument("--only", default="",
                        help="comma-separated words: the commands whose label has one")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        label, lesson, size, mode = args.child
        print(json.dumps(child(label, lesson, int(size), mode)))
        return

    sizes = args.sizes or ([100, 1000, 3000] if args.lesson == "views" else [1, 8])
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    labels = [c for c in COMMANDS if not wanted or any(w in c for w in wanted)]
    if args.lesson == "samples":
        from engine.interpreter import session
        counts = [len(session.run(samples(n), seed=0)["statements"]) for n in sizes]
        what = ", ".join(f"{c} statements ({n}x)" for c, n in zip(counts, sizes))
        print(f"samples/ concatenated: {what}")
    else:
        print(f"issue 24's lesson (yN = t[i]): {', '.join(map(str, sizes))} statements")
    first = sizes[0]
    ratio_heads = "".join(f"{f'x{n // first}':>7}" for n in sizes[1:])
    print(f"{'command':<36}" + "".join(f"{f'{n}':>9}" for n in sizes) + ratio_heads +
          " | calls" + "".join(f"{f'{n}':>12}" for n in sizes) + ratio_heads +
          " | peak MB" + "".join(f"{f'{n}':>8}" for n in sizes) + ratio_heads, flush=True)
    worst = {n: 0.0 for n in sizes[1:]}
    for label in labels:
        # the best of a few runs where they are cheap (the machine is shared): the
        # smallest lessons' times are the ratios' denominators
        timed = {n: min((measure(label, args.lesson, n, "time")
                         for _ in range(3 if n <= 300 else 2 if n <= 1000 else 1)),
                        key=lambda r: r["time"]) for n in sizes}
        calls = {n: measure(label, args.lesson, n, "calls")["calls"] for n in sizes}
        t = {n: timed[n]["time"] for n in sizes}
        m = {n: timed[n]["memory"] for n in sizes}
        for n in sizes[1:]:
            worst[n] = max(worst[n], calls[n] / calls[first])
        print(f"{label:<36}" + "".join(f"{t[n]:>8.2f}s" for n in sizes) +
              "".join(f"{t[n] / t[first]:>7.1f}" for n in sizes[1:]) +
              " |      " + "".join(f"{calls[n]:>12,}" for n in sizes) +
              "".join(f"{calls[n] / calls[first]:>7.1f}" for n in sizes[1:]) +
              " |        " + "".join(f"{m[n] / 2**20:>8.1f}" for n in sizes) +
              "".join(f"{m[n] / m[first]:>7.1f}" if m[first] >= 2**20 else f"{'-':>7}"
                      for n in sizes[1:]), flush=True)
    print("worst calls ratio: " + ", ".join(
        f"{worst[n]:.1f} for {n // first}x (linear {n // first}, quadratic "
        f"{(n // first) ** 2})" for n in sizes[1:]))


if __name__ == "__main__":
    main()
