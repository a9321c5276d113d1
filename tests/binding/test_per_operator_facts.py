"""Every per-operator fact lives in the operator's declaration (issue #25).

What torch's registrations add to an operator -- its Python meta function, its CUDA
wrapper's device check, the dtypes its AT_DISPATCH takes, the note of its Python step --
is written in ``declare(...)`` beside the kernel, so adding an operator touches its
family's module and nothing that keeps a list of operators elsewhere.  This test reads
every module outside engine/dispatch and fails on a module-level table keyed by
operator names (``"aten::..."`` strings, or two or more names of declared operators),
unless it is one of the few below, each kept for the reason it gives.
"""

from __future__ import annotations

import ast
from pathlib import Path

import engine  # noqa: F401  (declares every operator)
from engine.dispatch.declarations import REGISTRY, python_note
from engine.interpreter import session

ROOT = Path(__file__).resolve().parents[2]

#: (module, table): why it is keyed by operator names and is not a declaration's field.
KEPT = {
    ("engine/binding/function_parameter.py", "NUMBERS_AS_TENSORS"):
        "python_arg_parser.cpp's should_allow_numbers_as_tensors: torch's parser keeps "
        "this list by name itself",
    ("engine/binding/python_signatures.py", "_SKIP_PYTHON_BINDINGS"):
        "torchgen's own skip lists (gen_python_functions.py), which it keeps by name",
    ("engine/binding/functional.py", "FUNCTIONS"):
        "torch/functional.py's functions written in Python, not operators",
    ("engine/binding/contraction.py", "FUNCTIONS"):
        "torch/functional.py's einsum and tensordot, written in Python, not operators",
    ("engine/binding/methods.py", "_PROPERTIES"):
        "python_variable.cpp's getter table (real, imag are attributes there)",
    ("engine/binding/methods.py", "_VIEW_PROPERTIES"):
        "python_variable.cpp's getters T, mT, H, mH",
    ("engine/binding/methods.py", "_OPERATORS"):
        "python_variable_methods.cpp's table of Python special methods",
    ("engine/interpreter/builtins.py", "FIXED"):
        "Python's builtins (abs, range), not torch's operators",
    ("engine/ops/math_unary.py", "FLOAT_OPS"):
        "the float functions' family generator: each row declares one operator (structured "
        "out=, functional, in-place) with its numpy function and measured fidelity",
    ("engine/rng/libm.py", "_CALIBRATION_DOMAIN"):
        "glibc's libm functions and the inputs they are calibrated on, not torch's operators",
    ("engine/interpreter/pymath.py", "_ONE_NUMBER"):
        "CPython's math functions (math.isnan, math.sqrt), not torch's operators",
    ("engine/interpreter/pymath.py", "_OTHERS"):
        "CPython's math functions (math.pow, math.fmod), not torch's operators",
    ("engine/binding/ndarray.py", "METHODS"):
        "numpy's ndarray methods (a.sum(), a.reshape()), not torch's operators",
    ("engine/interpreter/iterables.py", "NAMES"):
        "Python's builtins max, min, sum",
    ("engine/interpreter/verify_cuda.py", "_DEVICE_BRANCHES"):
        "--verify's model of which operators torch.profiler shows on each device, "
        "compared with torch by tests/cuda",
    ("engine/ops/compare.py", "_COMPARISONS"):
        "the comparison family's generator: each entry is declared from it",
    ("engine/ops/logic.py", "_BITWISE"): "the bitwise family's generator",
    ("engine/ops/logic.py", "_LOGICAL"): "the logical family's generator",
    ("engine/ops/index_reduce.py", "_INDEX_REDUCE"):
        "the values of index_reduce's reduce= argument, not operators",
    ("engine/ops/scatter_reduce.py", "NEW_OPTIONS"):
        "get_reduction_enum: the values of scatter_reduce's reduce= argument",
    ("engine/ops/scatter_reduce.py", "OLD_OPTIONS"):
        "get_operator_enum: the values of scatter's reduce= argument",
}


def _operator_names() -> set[str]:
    names = set()
    for d in REGISTRY.values():
        if d.namespace == "aten":
            names |= {d.name, f"{d.name}.{d.overload}" if d.overload else d.name}
    return names


def _keys(value: ast.AST) -> list[ast.AST]:
    if isinstance(value, ast.Call) and value.args:     # frozenset({...}), dict({...})
        value = value.args[0]
    if isinstance(value, ast.Dict):
        return [k for k in value.keys if k is not None]
    if isinstance(value, (ast.Set, ast.List, ast.Tuple)):
        return list(value.elts)
    return []


def _tables() -> dict[tuple[str, str], list[str]]:
    """Module-level tables keyed by operator names: (module, name) -> the names."""
    names = _operator_names()
    found = {}
    files = [p for p in (ROOT / "engine").rglob("*.py") if p.parent.name != "dispatch"]
    files += list((ROOT / "tracer").rglob("*.py")) + [ROOT / "cli.py"]
    for path in sorted(files):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            else:
                continue
            keys = [k.value for k in _keys(value)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            hits = [k for k in keys if k.startswith("aten::") or k in names]
            if hits and (len(hits) >= 2 or hits[0].startswith("aten::")) \
                    and isinstance(target, ast.Name) and target.id != "__all__":
                found[(str(path.relative_to(ROOT)), target.id)] = hits
    return found


def test_no_module_outside_dispatch_keeps_a_table_of_operators():
    tables = _tables()
    assert {k: v for k, v in tables.items() if k not in KEPT} == {}
    # and every table kept for a reason is still there (the list cannot go stale)
    assert sorted(set(KEPT) - set(tables)) == []


def test_the_python_step_s_note_is_its_declaration_s():
    by_name: dict[str, set[str]] = {}
    for d in REGISTRY.values():
        if d.python_note is not None:
            by_name.setdefault(d.name, set()).add(d.python_note)
    # one note per Python name, however many of its overloads say it
    assert all(len(notes) == 1 for notes in by_name.values()), by_name
    assert {"randn", "zeros_like", "where", "new_full", "randint_like"} <= set(by_name)
    doc = session.run("x = torch.randn(2)\ny = torch.where(x > 0, x, 0.0)", seed=0)
    shown = {e["name"]: e.get("note_id") for st in doc["statements"] for e in st["events"]}
    assert shown["torch.randn"] == python_note("randn") == "factory.randn"
    assert shown["torch.where"] == python_note("where") == "function.where"
