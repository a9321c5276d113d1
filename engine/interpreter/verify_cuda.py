"""--verify of statements on tidx's simulated CUDA device, where there is no GPU.

torch here may be a CPU build (or a machine without a GPU), so a CUDA statement is run
in real torch with every device mapped to the CPU: ``device='cuda'`` / ``'cuda:0'`` (and
``.to('cuda')``, ``torch.device('cuda')``) become ``'cpu'``, ``.cuda(...)`` becomes
``.cpu()``.  What does not depend on the device is then compared as usual: shapes,
strides, storage offsets, dtypes, errors, values of deterministic operators, and the aten
operators with tidx's device copies left out.  What does depend on it is not:

* random draws: the CUDA generator is Philox (engine/rng/philox.py), the CPU's mt19937,
  so the numbers differ by design; from the first CUDA draw on, the CPU run's generator
  has also moved where tidx's has not, so no later values are compared either;
* a mixed-device error (only a GPU run raises it: on the CPU every tensor is on one device);
* a value that names the device (``x.device``, ``x.is_cuda``, ``x.get_device()``).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
from typing import Any

from engine.interpreter.statements import Statement

#: Tensor attributes and methods whose value is the device itself.
DEVICE_QUERIES = frozenset({"device", "is_cuda", "is_cpu", "get_device"})
#: Operators whose path branches on the device, and what each side runs that the other
#: does not: (under the CUDA run, under the CPU run); None: the operator and all under it.
#: * a device move: tidx's .cuda() / .to('cuda') / .cpu() is aten::to -> _to_copy ->
#:   empty_strided + copy_; on the CPU the same call is aten::to alone (nothing to move);
#: * zero_ (Fill.cpp): its CPU fast path zero_cpu_ is a memset; elsewhere it calls fill_(0);
#: * fill_(Tensor) (Fill.cpp): a CPU value into a non-CPU tensor is read with item()
#:   (fill_out(self, value.item())); on the CPU the value is copied in with copy_.
_DEVICE_BRANCHES: dict[str, tuple[str | None, str | None]] = {
    "aten::_to_copy": (None, None), "aten::zero_": ("aten::fill_", ""),
    "aten::fill_": ("aten::item", "aten::copy_")}


def _is_cuda_text(value: Any) -> bool:
    return isinstance(value, str) and value.partition(":")[0] == "cuda"


class _ToCpu(ast.NodeTransformer):
    """'cuda' / 'cuda:N' -> 'cpu'; x.cuda(...) -> x.cpu()."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if _is_cuda_text(node.value):
            return ast.copy_location(ast.Constant("cpu"), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
            func = ast.copy_location(ast.Attribute(node.func.value, "cpu", ast.Load()),
                                     node.func)
            return ast.copy_location(ast.Call(func, [], []), node)
        return node


def on_cpu(st: Statement) -> Statement:
    """The statement with every device mapped to the CPU (a copy; ``st`` is unchanged)."""
    node = ast.fix_missing_locations(_ToCpu().visit(copy.deepcopy(st.node)))
    return dataclasses.replace(st, node=node, value=None, printed=[])


def names_cuda(node: ast.AST) -> bool:
    """Does the statement name the CUDA device (a 'cuda' string or a .cuda() call)?"""
    return any((isinstance(n, ast.Constant) and _is_cuda_text(n.value))
               or (isinstance(n, ast.Attribute) and n.attr == "cuda") for n in ast.walk(node))


def queries_device(node: ast.AST) -> bool:
    """Does the statement read the device (whose value differs on the CPU by design)?"""
    return any(isinstance(n, ast.Attribute) and n.attr in DEVICE_QUERIES
               for n in ast.walk(node))


def _events(events: list[dict]):
    for ev in events:
        yield ev
        yield from _events(ev.get("children") or [])


def draws_random(ours: dict[str, Any]) -> bool:
    """Did tidx's run of the statement draw random numbers (a step of the rng layer)?"""
    return any(ev.get("layer") == "rng" for ev in _events(ours.get("events") or []))


def device_error(ours: dict[str, Any], theirs: dict | None) -> bool:
    """tidx raised and the CPU run did not, with an error about devices: only a GPU run
    can raise it (torch's mixed-device checks, 'Expected all tensors to be on the same
    device ...')."""
    error = ours.get("error")
    return theirs is None and error is not None and "device" in error.get("message", "")


def without_moves(tree: list[tuple[int, str]], side: str = "cuda") -> list[tuple[int, str]]:
    """An operator tree without what only one device runs (``side``: whose tree, "cuda"
    for tidx's, "cpu" for the CPU run's): the device copies, zero_'s fill_, fill_'s item or
    copy_ (each with everything under it)."""
    which = 0 if side == "cuda" else 1
    kept: list[tuple[int, str]] = []
    cut: int | None = None      # drop everything deeper than this
    parent: dict[int, str] = {}
    for depth, name in tree:
        if cut is not None and depth > cut:
            continue
        cut = None
        above = _DEVICE_BRANCHES.get(parent.get(depth - 1, "") if depth else "")
        whole = _DEVICE_BRANCHES.get(name, ("", ""))[which] is None
        if whole or (above is not None and above[which] == name):
            cut = depth
            continue
        parent[depth] = name
        kept.append((depth, name))
    return kept


def cuda_names(ours: dict[str, Any], names: set[str]) -> set[str]:
    """The names bound to CUDA tensors after the statement (``names`` before it)."""
    now = set(names)
    for name, bound in (ours.get("bindings") or {}).items():
        if ((bound or {}).get("summary") or {}).get("device") == "cuda":
            now.add(name)
        else:
            now.discard(name)
    return now


def reads_cuda(node: ast.AST, ours: dict[str, Any], names: set[str]) -> bool:
    """Is the statement a CUDA one: it names the device, reads a name bound to a CUDA
    tensor, binds one, or ran a simulated CUDA step?"""
    return names_cuda(node) \
        or any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node)) \
        or bool(cuda_names(ours, set())) \
        or any(((ev.get("args") or {}).get("simulated") or {}).get("value")
               for ev in _events(ours.get("events") or []))
