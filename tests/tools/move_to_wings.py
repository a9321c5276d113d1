"""Move tests/ into wings that mirror the code they test: ``python tests/tools/move_to_wings.py``.

For the integrator, once the branches that edit test files are merged (moving them while
six branches edit them would conflict with every one). It ``git mv``s each file of WINGS
into ``tests/<wing>/``, then fixes what a move breaks:

* paths a moved test computes from its own ``__file__`` (the repository's root, the
  golden files, the directory the fuzz hunt puts on ``sys.path``) gain one level;
* every ``tests/test_x.py`` named in the repository's text (docs, docstrings, comments,
  README) becomes ``tests/<wing>/test_x.py``.

Shared helpers (conftest.py, oracle.py, torch_worker.py, parser_oracle.py, cdp.py ...)
and golden/ stay in tests/, as do the tests of the suite itself; tests/conftest.py
already puts every wing on ``sys.path``, so ``from conftest import ...``, ``from oracle
import ...`` and a wing's ``from test_i18n import ...`` resolve as before, and one
conftest.py serves every wing (a second ``conftest`` module would shadow the first for
``from conftest import``). A test file that WINGS does not name (a branch's new one) stays
where it is and is listed, to be added here.

``--dry-run`` prints the moves and edits without making them. The tree must be clean.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

WINGS: dict[str, list[str]] = {
    # engine/ops: one kernel family per file, each against torch
    "ops": ["kernel_marks", "arange_torch", "factories", "factories_new_torch", "factories_ranges_torch",
            "factory_properties", "flip", "indexed_torch", "join_torch", "meta_python",
            "nonzero_scan", "pointwise_torch", "random_bounds_torch", "randperm_torch",
            "reduce_loop", "reductions_torch", "roll_repeat_torch",
            "scatter_gather_shapes_torch", "sorting_large_torch", "sorting_torch",
            "stl_compiled", "triangles_torch", "views_torch", "where_torch"],
    # engine/binding and engine/dispatch: argument parsing, declarations, indexing
    "binding": ["arg_parser_torch", "argparser", "at_dispatch", "aten_calls", "declarations",
                "operator_cache", "storage_repr", "stubs", "indexing_properties",
                "inputs_torch", "python_signatures", "schema"],
    # engine/memory: allocators, the budget, what shares memory
    "memory": ["allocated_torch", "cuda_allocator", "memory", "memory_budget",
               "memory_facts_torch"],
    # engine/rng and the CPU capability its kernels read
    "rng": ["cpu_capability", "philox", "rng", "rng_explained_torch", "rng_wasm"],
    # the simulated GPU
    "cuda": ["cuda_copy", "cuda_device", "cuda_device_check", "cuda_indexing",
             "cuda_runtime", "verify_cuda"],
    # engine/interpreter: statements, sessions, lessons, verify, whole programs
    "interpreter": ["application", "evaluator", "fuzz_programs", "growth", "learner_corpus_torch",
                    "lessons", "pypto", "python_builtins_torch", "python_forms_torch",
                    "python_functions_torch", "python_loops_torch",
                    "samples", "session",
                    "tensor_str", "values", "verify"],
    # tracer/: the recorder, notes and languages, every renderer
    "tracer": ["step_specs", "temporaries", "diagram", "error_explanations", "filters", "gif", "i18n", "lecture",
               "notes", "picture", "recorder", "render_dot", "render_html",
               "render_markdown", "render_mermaid", "render_storage", "render_tree",
               "terminal_safety", "timeline", "values_render"],
    # cli.py, tidx.py and what they write
    "cli": ["cli_setup", "export_pages", "html_size", "notebook_kernel", "numbering",
            "step_screen", "stepper_layout", "cli", "cli_exits", "compare", "export", "export_files", "export_safety",
            "export_slides", "export_wasm", "gdb_libtorch", "notebook", "step",
            "stepper_chromium"],
}
# the suite's own tests stay beside the helpers they test
STAY = ["architecture", "mypy", "harness", "hypothesis_settings", "oracle"]

# (pattern, replacement) for a file moved one level down
ONE_LEVEL_DOWN = [
    (r"Path\(__file__\)\.resolve\(\)\.parent\.parent\b", "Path(__file__).resolve().parents[2]"),
    (r"Path\(__file__\)\.parent\.parent\b", "Path(__file__).parents[2]"),
    (r'Path\(__file__\)\.parent / "golden"', 'Path(__file__).parents[1] / "golden"'),
    (r"sys\.path\.insert\(0, str\(Path\(__file__\)\.resolve\(\)\.parent\)\)",
     "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))"),
]
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ""}


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def plan() -> tuple[dict[str, str], list[str]]:
    """{file name: wing} for the files present, and the test files WINGS leaves out."""
    wing_of = {f"test_{name}.py": wing for wing, names in WINGS.items() for name in names}
    assert len(wing_of) == sum(map(len, WINGS.values())), "a file is in two wings"
    present = {p.name for p in TESTS.glob("test_*.py")}
    moves = {name: wing for name, wing in wing_of.items() if name in present}
    unplaced = sorted(present - set(wing_of) - {f"test_{n}.py" for n in STAY})
    return moves, unplaced


def rewrite_references(moves: dict[str, str], dry: bool) -> list[str]:
    """``tests/test_x.py`` -> ``tests/<wing>/test_x.py`` in every tracked text file."""
    pattern = re.compile(r"\btests/(test_\w+\.py)\b")
    changed = []
    for rel in git("ls-files").splitlines():
        path = ROOT / rel
        if rel.startswith("tests/golden/") or path.suffix not in TEXT_SUFFIXES \
                or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = pattern.sub(lambda m: f"tests/{moves[m[1]]}/{m[1]}" if m[1] in moves
                          else m[0], text)
        if new != text:
            changed.append(rel)
            if not dry:
                path.write_text(new, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    if git("status", "--porcelain", "--untracked-files=no").strip() and not args.dry_run:
        print("move_to_wings: commit or discard your changes first", file=sys.stderr)
        return 2
    moves, unplaced = plan()
    for name, wing in sorted(moves.items(), key=lambda kv: (kv[1], kv[0])):
        print(f"git mv tests/{name} tests/{wing}/{name}")
        if not args.dry_run:
            (TESTS / wing).mkdir(exist_ok=True)
            git("mv", f"tests/{name}", f"tests/{wing}/{name}")
            path = TESTS / wing / name
            text = path.read_text(encoding="utf-8")
            for pattern, replacement in ONE_LEVEL_DOWN:
                text = re.sub(pattern, replacement, text)
            path.write_text(text, encoding="utf-8")
    for rel in rewrite_references(moves, args.dry_run):
        print(f"references fixed in {rel}")
    for name in unplaced:
        print(f"left in tests/ (add it to WINGS): {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
