"""The autograd graph's forward half: the nodes VariableType records (issue #27).

When an operator with a backward formula (derivatives.yaml, :mod:`engine.dispatch.
derivatives`) runs above autograd in grad mode and one of its inputs requires grad,
torch's generated VariableType kernel makes one node named after the formula
(``MulBackward0``), gives it one edge per argument it takes gradients for
(``collect_next_edges``: the input's own ``grad_fn`` and output number, a leaf's
``AccumulateGrad``, or nothing for an input that does not require grad) and sets it as
the ``grad_fn`` of each differentiable output (``set_history``), which then requires grad
and is no longer a leaf.  Every node takes the next sequence number of the thread
(``Node::sequence_nr``, the order the backward pass's ready queue prefers).

Each node also keeps what its formula reads in the backward pass (:mod:`engine.autograd`):
the call's arguments that are not tensors, the sizes and dtypes of those that are
(``self_sym_sizes``, ``self_scalar_type``), and the tensors it saves as
:class:`SavedVariable` -- only those the formula of an input that needs a gradient reads
(VariableType's ``should_compute_output``), each with the version it had then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.core.context import current
from engine.core.dtypes import tensor_to_string
from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl

SOURCE = "torch/csrc/autograd/function.h"

#: AccumulateGrad's sequence number (UINT64_MAX): a leaf's node runs as soon as it is
#: ready, before any other in the ready queue, and takes no number from the counter
LAST = 2 ** 64 - 1


@dataclass(frozen=True)
class InputMetadata:
    """torch::autograd::InputMetadata: the shape, dtype and device a gradient flowing
    into an input must have (validate_outputs sums a broadcast one down and casts)."""

    sizes: tuple[int, ...]
    dtype: Any
    device_type: str
    #: the strides too, which mm's formula reads (``self_sym_strides``)
    strides: tuple[int, ...] = ()

    @classmethod
    def of(cls, t: TensorImpl) -> "InputMetadata":
        return cls(tuple(t.view.sizes), t.dtype, t.device_type, tuple(t.view.strides))


class SavedVariable:
    """torch::autograd::SavedVariable (saved_variable.cpp): a tensor a node keeps for its
    formula, with the version it had when saved.  ``unpack`` is torch's check that no
    in-place operator changed it since, and that backward has not freed it."""

    __slots__ = ("data", "saved_version", "is_output", "output_nr", "node_name", "freed")

    def __init__(self, t: TensorImpl, is_output: bool, node_name: str) -> None:
        self.data = t
        self.saved_version = t.version.value
        self.is_output = is_output
        self.output_nr = t.output_nr
        #: an output's node is the node that saved it (torch keeps it weakly)
        self.node_name = node_name
        self.freed = False

    def unpack(self) -> TensorImpl:
        if self.freed:
            raise torch_error(RuntimeError, FREED)
        t = self.data
        if t.version.value != self.saved_version:
            owner = self.node_name if self.is_output else (
                t.grad_fn.name() if t.grad_fn is not None else None)
            which = "" if owner is None else \
                f", which is output {self.output_nr} of {_op_name(owner)},"
            raise torch_error(RuntimeError, (
                "one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: [{tensor_to_string(t.dtype, t.device_type)} "
                f"[{', '.join(str(n) for n in t.view.sizes)}]]{which} is at version "
                f"{t.version.value}; expected version {self.saved_version} instead. Hint: "
                "enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."))
        return t


#: SavedVariable::unpack's error for a variable reset_data() freed
FREED = ("Trying to backward through the graph a second time (or directly access saved "
         "tensors after they have already been freed). Saved intermediate values of the "
         "graph are freed when you call .backward() or autograd.grad(). Specify "
         "retain_graph=True if you need to backward through the graph a second time or if "
         "you need to access saved tensors after calling backward.")


def _op_name(node_name: str) -> str:
    """A node's name as torch's error messages give it: ``MulBackward0`` -> ``Mul``,
    ``ScatterBackward1`` -> ``Scatter1`` (measured), ``torch::autograd::CopySlices`` as
    it is.

    >>> _op_name("MulBackward0"), _op_name("ClampBackward1"), _op_name("CopySlices")
    ('Mul', 'Clamp1', 'CopySlices')
    """
    return re.sub(r"Backward([1-9]\d*)?0?$", lambda m: m.group(1) or "", node_name)


class GraphCounters:
    """The run's ``at::sequence_number`` (per thread in torch; tidx runs one thread)."""

    def __init__(self) -> None:
        self.next_sequence_nr = 0


class Node:
    """torch::autograd::Node as Python sees it (``y.grad_fn``): its name, its edges and
    a simulated address (the same every run, as tidx's data_ptr()s are)."""

    __tp_name__ = "Node"

    def __init__(self, name: str, next_functions: tuple[tuple[Node | None, int], ...],
                 sequence_nr: int | None = None) -> None:
        ctx = current()
        self._name = name
        self.next_functions = next_functions
        if sequence_nr is None:
            counters = ctx.local(GraphCounters)
            sequence_nr = counters.next_sequence_nr
            counters.next_sequence_nr += 1
        self.sequence_nr = sequence_nr
        self.address = ctx.next_address(0)
        #: the call's arguments by name, tensors as their InputMetadata (the formula's
        #: ``self_sym_sizes``, ``self_scalar_type``), and the overload that made it
        self.arguments: dict[str, Any] = {}
        self.overload = ""
        #: the tensors the formula reads, by name (a list for a list argument)
        self.saved: dict[str, Any] = {}
        #: one InputMetadata per edge (None where the argument was no tensor)
        self.input_metadata: tuple[InputMetadata | None, ...] = ()
        #: how many outputs of the forward call it is the grad_fn of (its input buffer's
        #: size in the backward pass)
        self.num_outputs = 1
        #: retain_grad() on its outputs: output number -> the tensor whose .grad the
        #: backward pass fills (torch's retains_grad hook)
        self.retained: dict[int, TensorImpl] = {}
        #: register_hook on its outputs (an AccumulateGrad: on its leaf): output number ->
        #: the hooks by handle id, in the order they were registered
        self.tensor_hooks: dict[int, dict[int, Any]] = {}

    def release_variables(self) -> None:
        """Node::release_variables: backward without retain_graph frees what was saved."""
        for v in self.saved.values():
            for sv in (v if isinstance(v, list) else [v]):
                if sv is not None:
                    sv.freed = True
        inner = self.arguments.get("fn")
        if isinstance(inner, Node):     # CopySlices releases its node's variables too
            inner.release_variables()

    def name(self) -> str:
        return self._name

    def short_name(self) -> str:
        """The class name Python shows (a hand-written node's name() is qualified:
        ``torch::autograd::CopyBackwards``)."""
        return self._name.rsplit("::", 1)[-1]

    def __repr__(self) -> str:
        return f"<{self.short_name()} object at {self.address:#x}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: the backward pass ends there, adding into
    ``.grad``.  One per leaf while the graph holds it (torch caches it weakly on the
    leaf's AutogradMeta; tidx keeps it on the TensorImpl)."""

    def __init__(self, variable: TensorImpl) -> None:
        super().__init__("torch::autograd::AccumulateGrad", (), sequence_nr=LAST)
        self.variable = variable
        self.input_metadata = (InputMetadata.of(variable),)


def gradient_edge(t: Any) -> tuple[Node | None, int]:
    """torch::autograd::impl::gradient_edge: where a gradient for ``t`` goes."""
    if not isinstance(t, TensorImpl):
        return (None, 0)
    if t.grad_fn is not None:
        return (t.grad_fn, t.output_nr)
    if t.view_base is not None and t.creation_meta in ("no_grad", "inference"):
        # a view made under no_grad: it requires grad (its base does) but has no history
        # and no AccumulateGrad of its own -- nothing flows back through it
        return (None, 0)
    if t.requires_grad:
        if t.grad_accumulator is None:
            t.grad_accumulator = AccumulateGrad(t)
        return (t.grad_accumulator, 0)
    return (None, 0)


def collect_next_edges(values: list[Any]) -> tuple[tuple[Node | None, int], ...]:
    """One edge per tensor, a list of tensors giving one per element (cat's ``tensors``)."""
    edges: list[tuple[Node | None, int]] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            edges.extend(gradient_edge(t) for t in v)
        else:
            edges.append(gradient_edge(v))
    return tuple(edges)


def set_history(node: Node, outputs: list[tuple[int, TensorImpl]]) -> None:
    """Each differentiable output (its output number, the tensor) gets the node."""
    node.num_outputs = max([nr + 1 for nr, _ in outputs] + [1])
    for nr, t in outputs:
        t.grad_fn = node
        t.output_nr = nr
        t.requires_grad = True
        if t.view_base is not None:
            t.attr_version = t.version.value
            # one of several views (unbind, split) cannot be made again: an error
            t.regenerate_grad_fn = rebase_error if t.creation_meta else as_strided_node


def geometry(t: TensorImpl) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """at::TensorGeometry: sizes, strides, storage offset."""
    return tuple(t.view.sizes), tuple(t.view.strides), t.view.offset


def as_strided_node(view: TensorImpl) -> Node:
    """The node a view gets again after its base was written in place (VariableHooks::
    grad_fn without a view replay): AsStridedBackward0 over the base's history."""
    base = view.view_base
    assert base is not None
    node = Node("AsStridedBackward0", (gradient_edge(base),))
    node.overload = "aten::as_strided"
    sizes, strides, offset = geometry(view)
    node.arguments = {"self_geometry": geometry(base), "size": list(sizes),
                      "stride": list(strides), "storage_offset": offset}
    node.input_metadata = (InputMetadata.of(base),)
    view.output_nr = 0
    return node


def copy_slices(base: TensorImpl, view: TensorImpl, fn: Node) -> Node:
    """CopySlices (torch/csrc/autograd/functions/tensor.cpp): the node an in-place write
    into a view sets as its base's grad_fn.  It takes the write's own node ``fn`` with
    it; its first edge goes to the base's old history instead of the view's, the others
    are fn's."""
    node = Node("torch::autograd::CopySlices",
                (gradient_edge(base), *fn.next_functions[1:]))
    node.arguments = {"base": geometry(base), "view": geometry(view), "fn": fn,
                      "dtype": base.dtype, "device_type": base.device_type}
    node.input_metadata = (InputMetadata.of(base), *fn.input_metadata[1:])
    base.grad_fn, base.output_nr, base.requires_grad = node, 0, True
    # the view written: its grad_fn is made again from the base's new history
    view.attr_version = view.version.value
    view.regenerate_grad_fn = as_strided_node
    view.grad_fn = as_strided_node(view)
    view.requires_grad = True
    return node


def rebase_error(view: TensorImpl) -> None:
    """handle_view_on_rebase(indirect=true) (torch/csrc/autograd/variable.cpp): the view's
    base, or another view of it, was written in place since the view was made, and its
    CreationMeta forbids making its grad_fn again."""
    raise torch_error(RuntimeError, view_error(view, indirect=True))


def view_error(view: TensorImpl, indirect: bool) -> str:
    """handle_view_on_rebase's message for a view whose CreationMeta is not DEFAULT,
    written in place itself (``indirect`` False) or through its base."""
    fn, meta = view._grad_fn, view.creation_meta
    what = "its base or another view of its base has been" if indirect else "is being"
    # (torch names the node's operator: "Output 1 of Unbind")
    node = "" if fn is None else \
        f"Output {view.output_nr} of {_op_name(fn.name())}"
    if meta in ("inference", "no_grad") or fn is None:
        prefix = f"{node} is a view of a view which was created in" if fn is not None \
            else "A view was created in"
        msg = f"{prefix} inference mode and {what} modified inplace in normal mode." \
            if meta == "inference" else \
            f"{prefix} no_grad mode and {what} modified inplace with grad mode enabled."
    else:
        msg = f"{node} is a view and {what} modified inplace."
    if meta == "multi_output":
        return (f"{msg} This view is the output of a function that returns multiple views. "
                "Such functions do not allow the output views to be modified inplace. You "
                "should replace the inplace operation by an out-of-place one.")
    block = "inference_mode" if meta == "inference" else "no_grad"
    return (f"{msg} Given that this use case is ambiguous and error-prone, it is forbidden. "
            "You can clarify your code by moving both the view and the inplace either both "
            f"inside the {block} block (if you don't want the inplace to be tracked) or "
            "both outside (if you want the inplace to be tracked).")
