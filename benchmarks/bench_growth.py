"""How each command's cost grows with the length of the program, printed in one run.

Not a test (machines here are noisy): the program is every lesson in ``samples/``
concatenated (a realistic mix of factories, views, indexing, errors caught, pypto), run
once as it is (1x) and once repeated eight times (8x).  For each command, run in-process
through click as a user types it, it prints the best wall time at 1x and 8x and their
ratio, the ratio of the function calls it makes (cProfile: the work, free of the
machine's noise), then the peak memory (tracemalloc) at 1x and 8x and their ratio.  A
command whose cost is linear in the statements shows ratios near 8; a quadratic one
shows ratios near 64.  The goal is at most about 9 for the calls and the memory.  Times
run a little above the calls: CPython's full garbage collections scan the whole heap,
and a heap that grows 8 times gets about 8 of them instead of 1 (at 25% growth each, so
their cost is still linear, with a larger constant).

Run: python benchmarks/bench_growth.py [--repeat N]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

import cli  # noqa: E402
from engine.interpreter import lessons as L  # noqa: E402
from engine.interpreter import session  # noqa: E402

FACTOR = 8
GOAL = 9.0


def program(times: int) -> str:
    """Every lesson, one after the other, ``times`` times over."""
    once = "\n\n".join(lesson.text for lesson in L.available())
    return "\n\n".join([once] * times)


def commands(path: str, text: str, out: str) -> dict[str, object]:
    """What to measure: a label -> the command's arguments (or a function, for the
    engine alone)."""
    src = ["-f", path, "--seed", "0"]
    return {
        "run (engine only, no rendering)": lambda: session.run(text, seed=0),
        "step (non-interactive)": ["step", *src, "--width", "120"],
        "explain (tree)": ["explain", *src, "--width", "120"],
        "explain --format json": ["explain", *src, "--format", "json"],
        "compare A B (the program twice)": ["compare", text, text, "--seed", "0",
                                            "--width", "120"],
        "export -o .svg": ["export", *src, "-o", f"{out}.svg"],
        "export -o .html": ["export", *src, "-o", f"{out}.html"],
        "export -o .json": ["export", *src, "-o", f"{out}.json"],
    }


def once(what) -> None:
    if callable(what):
        what()
        return
    res = CliRunner().invoke(cli.main, what, env={"NO_COLOR": "1"})
    if res.exit_code != 0:
        raise SystemExit(f"{' '.join(what[:1])} exited {res.exit_code}: "
                         f"{res.output.strip().splitlines()[-1:]}")


def best_time(what, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        once(what)
        times.append(time.perf_counter() - start)
    return min(times)


def work(what) -> int:
    """The function calls the command makes."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        once(what)
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def peak_memory(what) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        once(what)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per measurement; the best time is kept (default 3)")
    args = parser.parse_args()

    texts = {1: program(1), FACTOR: program(FACTOR)}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for n, text in texts.items():
            paths[n] = Path(tmp, f"lesson_{n}x.py")
            paths[n].write_text(text, encoding="utf-8")
        sizes = {n: len(session.run(texts[n], seed=0)["statements"]) for n in texts}
        print(f"the lessons concatenated: {sizes[1]} statements (1x), {sizes[FACTOR]} "
              f"({FACTOR}x); best of {args.repeat} runs")
        print(f"{'command':<34}{'1x':>9}{f'{FACTOR}x':>10}{'ratio':>7}{'calls':>7}"
              f"{'mem 1x':>10}{f'mem {FACTOR}x':>10}{'ratio':>7}")
        worst = 0.0
        labels = commands(str(paths[1]), texts[1], str(Path(tmp, "out")))
        for label in labels:
            cmd = {n: commands(str(paths[n]), texts[n], str(Path(tmp, f"out{n}")))[label]
                   for n in texts}
            once(cmd[1])  # warm: imports, caches, the WebAssembly module
            t1, t8 = best_time(cmd[1], args.repeat), best_time(cmd[FACTOR], args.repeat)
            c1, c8 = work(cmd[1]), work(cmd[FACTOR])
            m1, m8 = peak_memory(cmd[1]), peak_memory(cmd[FACTOR])
            worst = max(worst, c8 / c1, m8 / m1)
            print(f"{label:<34}{t1:>8.2f}s{t8:>9.2f}s{t8 / t1:>7.1f}{c8 / c1:>7.1f}"
                  f"{m1 / 2**20:>8.1f}MB{m8 / 2**20:>8.1f}MB{m8 / m1:>7.1f}", flush=True)
        verdict = "met" if worst <= GOAL else "NOT met"
        print(f"worst ratio of calls or memory {worst:.1f}: goal <= {GOAL:g} (linear is {FACTOR}, quadratic "
              f"{FACTOR * FACTOR}) {verdict}")


if __name__ == "__main__":
    main()
