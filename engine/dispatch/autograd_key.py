"""The Autograd key's checks: what torch's generated VariableType kernels
(torch/csrc/autograd/generated/VariableType_*.cpp, from gen_variable_type.py) and the
hand-written ones of VariableTypeManual.cpp do before they redispatch, and the refusal
where they would record a graph node.

tidx does not build autograd graphs yet (issue #27).  What it does already is what
happens before any node is made, with torch's errors at the operator that raises them:

* ``check_inplace``: with grad mode on, an in-place operator on a leaf that requires
  grad raises "a leaf Variable that requires grad is being used in an in-place
  operation." (and a view made in no_grad mode, modified in place with grad mode on,
  raises handle_view_on_rebase's error);
* ``throw_error_out_requires_grad``: an out= operator whose outputs are differentiable
  raises when any argument requires grad -- named ``sum()`` by a generated kernel, or
  ``aten::rand()`` by the not-implemented fallback of an operator with no derivative
  formula (the factories);
* ``resize_`` of a tensor that requires grad raises, in any grad mode.

Where torch would record a ``grad_fn``, tidx refuses in one line rather than show a
result without it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch import autograd_graph as G
from engine.dispatch.declarations import COMPOSITE, FUNCTIONAL, INPLACE, OUT, Declaration
from engine.dispatch.schema import FunctionSchema

if TYPE_CHECKING:
    from engine.dispatch.derivatives import Formula

SOURCE = "torch/csrc/autograd/VariableTypeUtils.h"

#: the node VariableType makes and sets as the outputs' grad_fn (set_history)
NODE = step("<Node>Backward", Layer.DISPATCHER,
            source="torch/csrc/autograd/generated/VariableType_0.cpp")


_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
    "of `torch.inference_mode()`.")


def requires_grad(args: tuple, kwargs: dict[str, Any]) -> bool:
    """compute_requires_grad: does any tensor argument (lists included) require grad?"""
    for a in (*args, *kwargs.values()):
        if isinstance(a, TensorImpl) and a.requires_grad:
            return True
        if isinstance(a, (list, tuple)) and requires_grad(tuple(a), {}):
            return True
    return False


def differentiable(dtype: Any) -> bool:
    """isDifferentiableType: floating point and complex dtypes."""
    return dtype.is_floating_point or dtype.is_complex


def _tensors(values: Any) -> list[TensorImpl]:
    out: list[TensorImpl] = []
    for v in values:
        if isinstance(v, TensorImpl):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(_tensors(v))
    return out


@lru_cache(maxsize=None)
def _out_positions(schema: str) -> tuple[tuple[int, str], ...]:
    """The out arguments of a schema: (position, name) -- a fact of the schema's text."""
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    return tuple((parsed.arguments.index(a), a.name) for a in parsed.out)


def _outs(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> list[TensorImpl]:
    """The tensors given as the out arguments, by keyword or by position."""
    given = [kwargs[name] if name in kwargs else args[i] if i < len(args) else None
             for i, name in _out_positions(op.schema)]
    return _tensors(given)


def check_before(op: Declaration, args: tuple, kwargs: dict[str, Any],
                 wants_grad: bool) -> bool:
    """The Autograd kernel's checks before it redispatches (called above autograd;
    ``wants_grad``: grad mode is on and an argument requires grad); True when it then
    clones self to save its old value (the dispatcher runs that clone)."""
    if op.name == "resize_" and args and isinstance(args[0], TensorImpl) \
            and args[0].requires_grad:
        # VariableTypeManual.cpp resize_: whatever the grad mode
        raise torch_error(RuntimeError, "cannot resize variables that require grad")
    if not wants_grad:
        return False
    _check_saveable(op, args, kwargs)
    if op.kind == INPLACE:
        self = args[0] if args and isinstance(args[0], TensorImpl) else None
        if self is None:
            return False
        if self.view_base is not None:
            if self.creation_meta:
                # handle_view_on_rebase: a view made in no_grad or inference mode, or
                # one of several views an operator returned
                raise torch_error(RuntimeError, G.view_error(self, indirect=False))
            if self.requires_grad and self.view_base.grad_fn is None:
                raise torch_error(RuntimeError, "a view of a leaf Variable that requires "
                                                "grad is being used in an in-place operation.")
        if self.requires_grad and self.grad_fn is None:
            raise torch_error(RuntimeError, "a leaf Variable that requires grad is being "
                                            "used in an in-place operation.")
        return _saves_original_self(op, args, kwargs)
    elif op.kind == OUT:
        outs = _outs(op, args, kwargs)
        if not any(o.dtype.is_floating_point for o in outs):
            return False    # integer or bool outputs are not differentiable: nothing to check
        inputs = _tensors(args)
        name = op.name if any(t not in outs for t in inputs) else op.op_name
        raise torch_error(RuntimeError, f"{name}(): functions with out=... arguments don't "
                                        "support automatic differentiation, but one of the "
                                        "arguments requires grad.")
    return False


def _check_saveable(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> None:
    """SavedVariable's constructor refuses an inference tensor: the node saves its inputs
    before the kernel runs, so the error comes before the kernel (torch.profiler records
    the operator with nothing inside)."""
    entry = _formula(op)
    if entry is None or entry[0] == "-":
        return
    named = _named(op, args, kwargs)
    needing = {n for n in entry[1] if requires_grad(tuple(_tensors([named.get(n)])), {})}
    for saved_name, users in entry[4]:
        if needing.intersection(users) and any(
                t.is_inference for t in _tensors([named.get(saved_name)])):
            raise torch_error(RuntimeError, _INFERENCE_SAVED)


def _saves_original_self(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> bool:
    """Does this in-place call clone self before the kernel writes, its formula needing
    self's old value (gen_variable_type.py's ``original_self = self.clone()``: an
    aten::clone the profiler records inside the operator)?"""
    entry = _formula(op)
    if entry is None or entry[3] == "-":
        return False
    needs = entry[3]
    if needs == "?":
        raise Refused(f"{op.op_name} in place with a tensor that requires grad: whether "
                      "torch saves self's old value depends on a formula tidx does not "
                      "evaluate yet; use .detach() or torch.no_grad() to see its path")
    return needs == "*" or requires_grad(tuple(_arguments(op, args, kwargs, (needs,))), {})


def metadata_before(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> Any:
    """An in-place call's self as it was before the kernel: its metadata (the node's
    ``self_sym_sizes``: squeeze_ changes them) and the node's edges (VariableType
    collects them before it redispatches: the kernel's version bump would make the
    grad_fn of a view among the inputs again)."""
    if op.kind == INPLACE and args and isinstance(args[0], TensorImpl):
        entry = _formula(op)
        edges = None if entry is None else G.collect_next_edges(
            _arguments(op, args, kwargs, entry[1]))
        return G.InputMetadata.of(args[0]), edges
    entry = _formula(op)
    if entry is not None and entry[0] != "-":
        # collect_next_edges runs before the kernel: an input whose grad_fn cannot be
        # made again (a view made in no_grad mode, its base written since) raises there
        for t in _tensors(_arguments(op, args, kwargs, entry[1])):
            t.grad_fn       # noqa: B018 - the property's check is the point
    return None


def record_after(op: Declaration, result: Any, args: tuple, kwargs: dict[str, Any],
                 original_self: TensorImpl | None = None, self_before: Any = None) -> None:
    """What VariableType does once the kernel below returned, in grad mode with an input
    that requires grad: record the operator's node (engine/dispatch/autograd_graph.py)
    on its differentiable outputs.  No node where torch makes none: an integer or bool
    result (x > 0, x.argmax()), an input handed back as it is, detach, the factories that
    only copy an input's options (zeros_like, new_ones), and a CompositeImplicitAutograd
    operator (the operators it called made theirs).  Refused in one line where tidx does
    not model what torch records: an in-place write into a view (CopySlices), an
    operator whose formula tidx has no entry for.  An in-place write into a tensor that
    is not a view rebases its history: the node becomes its grad_fn."""
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    if op.kind not in (INPLACE, OUT) and any(r is a for r in results for a in args):
        return      # an input handed back as it is (resolve_conj without a conj bit)
    if op.name in ("detach", "detach_") or op.name.endswith("_like") or \
            op.name.startswith("new_"):
        return
    outputs = [(nr, r) for nr, r in enumerate(results) if isinstance(r, TensorImpl)
               and differentiable(r.dtype)]
    if not outputs:
        return
    if op.kind == COMPOSITE and op.autograd_as is None:
        # the operators it called made their nodes; one that ran a kernel straight
        # (as tidx does where torch.profiler records a single operator) made none
        if any(r.grad_fn is None and not r.requires_grad for _, r in outputs):
            raise Refused(f"{op.op_name} on a tensor that requires grad: tidx runs its "
                          "kernel without the inner operator whose autograd node torch "
                          "records; use .detach() or torch.no_grad() to see its path")
        return
    # an in-place call rebases self's history onto the node (rebase_history): its edges
    # were collected from self's old history, before the kernel ran
    entry = _formula(op) or _not_implemented(op)
    if entry is None and op.category_override == "factory":
        return      # a factory's tensor arguments (linspace's start) give it no node
    if entry is None:
        raise Refused(f"{op.op_name} on a tensor that requires grad: torch records its "
                      "autograd node (grad_fn), whose formula tidx has no entry for; use "
                      ".detach() or torch.no_grad() to see its path")
    name, with_gradients, outs, _, saved = entry
    if name == "-":
        return      # derivatives.yaml's outputs are not differentiable: no node (histc, any)
    inputs = _arguments(op, args, kwargs, with_gradients)
    if name == "torch::autograd::NotImplemented":
        # the autograd fallback (autograd_not_implemented_fallback.cpp) collects edges
        # only from the tensors that require grad: torch.floor_divide(x, 2.)'s node has
        # one edge, not a None for the wrapped number (measured against torch 2.13)
        kept = [(n, v) for n, v in zip(with_gradients, inputs)
                if isinstance(v, TensorImpl) and v.requires_grad]
        with_gradients, inputs = tuple(n for n, _ in kept), [v for _, v in kept]
    # an in-place call's edges were collected before its kernel (metadata_before)
    edges = self_before[1] if self_before is not None and self_before[1] is not None \
        else G.collect_next_edges(inputs)
    shown = ", ".join("None" if n is None else n.short_name() for n, _ in edges)
    with span(NODE.named(name), edges=f"({shown})",
              note=Note("autograd.node", node=name, edges=shown or "none")) as s:
        node = G.Node(name, edges)
        node.overload = op.full_name
        node.arguments = {n: _metadata(v) for n, v in _named(op, args, kwargs).items()}
        node.input_metadata = tuple(_flat_metadata(inputs))
        if self_before is not None:
            node.arguments["self"] = self_before[0]
            if with_gradients[:1] == ("self",):
                node.input_metadata = (self_before[0], *node.input_metadata[1:])
        # which inputs need a gradient (should_compute_output): one edge per input, a
        # list argument giving one per element
        needed = {n for n, v in zip(with_gradients, _edge_groups(inputs, edges)) if any(
            e[0] is not None for e in v)}
        written = outputs[0][1] if op.kind == INPLACE else None
        if written is not None and written.view_base is not None:
            # rebase_history of a view: the base's history becomes CopySlices around
            # this node, and the view's is made again over it
            node.num_outputs = 1
            for saved_name, users in saved:
                if needed.intersection(users):
                    node.saved[saved_name] = _save(op, saved_name, node, args, kwargs,
                                                   results, original_self)
            wrapper = G.copy_slices(written.view_base, written, node)
            s.set_result(f"{node!r} inside {wrapper!r} (the grad_fn of the view's base)")
            return
        G.set_history(node, [(nr, r) for nr, r in outputs if outs is None or outs[nr]])
        for saved_name, users in saved:
            if needed.intersection(users):
                node.saved[saved_name] = _save(op, saved_name, node, args, kwargs, results,
                                               original_self)
        s.set_result(repr(node))


def _named(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
    where = _positions(op.schema)
    return {n: kwargs[n] if n in kwargs else args[i] for n, i in where.items()
            if n in kwargs or i < len(args)}


def _metadata(value: Any) -> Any:
    """An argument as the node keeps it: a tensor by its InputMetadata."""
    if isinstance(value, TensorImpl):
        return G.InputMetadata.of(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, TensorImpl) for v in value):
        return [_metadata(v) for v in value]
    return value


def _flat_metadata(inputs: list[Any]) -> list[G.InputMetadata | None]:
    out: list[G.InputMetadata | None] = []
    for v in inputs:
        for t in (v if isinstance(v, (list, tuple)) else [v]):
            out.append(G.InputMetadata.of(t) if isinstance(t, TensorImpl) else None)
    return out


def _edge_groups(inputs: list[Any], edges: tuple) -> list[tuple]:
    """The edges, grouped by the argument they came from."""
    groups, at = [], 0
    for v in inputs:
        n = len(v) if isinstance(v, (list, tuple)) else 1
        groups.append(edges[at:at + n])
        at += n
    return groups


def _save(op: Declaration, name: str, node: G.Node, args: tuple, kwargs: dict[str, Any],
          results: list[Any], original_self: TensorImpl | None) -> Any:
    """SavedVariable(x, is_output) for one saved name: an output (``result``,
    ``result1``), an in-place call's ``self`` (its clone, when one was made), or an
    input (a list of them for a list argument)."""
    if name.startswith("result"):
        nr = int(name[6:] or 0)
        return G.SavedVariable(results[nr], True, node.name())
    if name == "self" and op.kind == INPLACE:
        if original_self is None:
            return G.SavedVariable(results[0], True, node.name())
        return G.SavedVariable(original_self, False, node.name())
    returned = _returns(op.schema)
    if name in returned and name not in _positions(op.schema):
        # an output saved by its schema name (sort's and topk's ``indices``)
        return G.SavedVariable(results[returned[name]], True, node.name())
    value = _named(op, args, kwargs).get(name)
    if isinstance(value, (list, tuple)):
        return [G.SavedVariable(v, False, node.name()) if isinstance(v, TensorImpl) else None
                for v in value]
    return G.SavedVariable(value, False, node.name()) if isinstance(value, TensorImpl) \
        else None


#: The nodes VariableTypeManual.cpp makes by hand (no derivatives.yaml row): copy_'s
#: CopyBackwards, with edges to self's old history and to src.
_MANUAL: dict[str, "Formula"] = {
    "copy_": ("torch::autograd::CopyBackwards", ("self", "src"), None, "-", ())}


def _formula(op: Declaration) -> "Formula | None":
    from engine.dispatch.derivatives import derivatives    # only once a graph is made
    table = derivatives()
    key = f"{op.name}.{op.overload}" if op.overload else op.name
    if key in _MANUAL:
        return _MANUAL[key]
    if op.autograd_as is not None:
        return table.get(op.autograd_as)
    if key in table or op.kind != INPLACE:
        return table.get(key)
    # an in-place form without a row of its own uses its functional form's (torchgen)
    functional = op.name[:-1]
    row = table.get(f"{functional}.{op.overload}" if op.overload else functional)
    if row is not None:
        return row
    # torchgen pairs them by signature, not by overload name (pow_.Tensor takes
    # pow.Tensor_Tensor's row): gen_autograd.py match_differentiability_info keys the
    # functional rows by FunctionSchema.signature()
    from engine.dispatch.declarations import REGISTRY
    mine = _signature(op.schema)
    return next((table[key] for key in table if key.split(".")[0] == functional
                 and f"aten::{key}" in REGISTRY
                 and _signature(REGISTRY[f"aten::{key}"].schema) == mine), None)


def _not_implemented(op: Declaration) -> "Formula | None":
    """An operator with its own kernel and no derivatives.yaml row: torchgen's
    gen_variable_type records ``NotImplemented("aten::NAME")`` with an edge for each
    tensor argument (floor_divide, remainder.Scalar_Tensor, scatter's reduce= forms), whose
    apply raises "derivative for aten::NAME is not implemented"."""
    if op.kind not in (FUNCTIONAL, INPLACE) or op.category_override == "factory":
        # (a factory's tensor arguments -- linspace's start and end -- give it no node:
        # measured, torch.linspace(x[0], x[1], 3) does not require grad)
        return None
    parsed = FunctionSchema.parse(op.schema.split("::", 1)[-1])
    tensors = tuple(a.name for a in parsed.arguments
                    if not a.is_out and str(a.type.without_annotation()) == "Tensor")
    return ("torch::autograd::NotImplemented", tensors, None, "", ()) if tensors else None


@lru_cache(maxsize=None)
def _signature(schema: str) -> tuple[str, ...]:
    """torchgen's FunctionSchema.signature(strip_default=True): the base name without
    its in-place ``_``, the arguments but the out= ones without aliasing annotations or
    defaults, the returns' types without annotations or names -- equal for the
    functional, in-place and out= forms of one function."""
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    name = parsed.name[:-1] if parsed.name.endswith("_") and not parsed.name.startswith("__") \
        else parsed.name
    args = tuple(f"{a.type.without_annotation()} {a.name}{'*' if a.kwarg_only else ''}"
                 for a in parsed.arguments if not a.is_out)
    returns = tuple(str(r.type.without_annotation()) for r in parsed.returns)
    return (name, *args, "->", *returns)


@lru_cache(maxsize=None)
def _positions(schema: str) -> dict[str, int]:
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    return {a.name: i for i, a in enumerate(parsed.arguments)}


@lru_cache(maxsize=None)
def _returns(schema: str) -> dict[str, int]:
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    return {r.name: i for i, r in enumerate(parsed.returns) if r.name}


def _arguments(op: Declaration, args: tuple, kwargs: dict[str, Any],
               names: tuple[str, ...]) -> list[Any]:
    """The values of the named arguments, given by keyword or by position."""
    where = _positions(op.schema)
    return [kwargs[n] if n in kwargs else args[where[n]] if where.get(n, len(args)) < len(args)
            else None for n in names]
