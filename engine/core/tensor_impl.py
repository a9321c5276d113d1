"""TensorImpl: a View over a Storage with a dtype (c10/core/TensorImpl.h).

What kernels work on.  A TensorImpl is a :class:`~engine.core.view.View` (sizes,
strides, offset) over a :class:`~engine.core.storage.Storage`, a dtype and a device.
Views share the storage for real: the numpy array a kernel writes through is a strided
window on the same bytes, so ``data_ptr`` is equal and writes are visible in the base.

It knows no operators and nothing of Python's ``torch.Tensor`` API: that object is the
binding's (:mod:`engine.binding.tensor`), which wraps a TensorImpl the way
THPVariable wraps an ``at::Tensor``.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from engine.core import dtypes as D
from engine.core.before import WritesBefore
from engine.core.context import current
from engine.core.storage import Storage
from engine.core.errors import Refused, torch_error
from engine.core.view import View, compute_storage_nbytes, fmt_sizes


class VariableVersion:
    """c10::VariableVersion: one counter, shared by a tensor and the views made of it
    (c10/core/TensorImpl.h).  Every in-place or out= operator called above autograd
    bumps it once per written tensor; autograd compares it with the version a node
    saved."""

    __slots__ = ("value", "changed_by")

    def __init__(self) -> None:
        self.value = 0
        #: the statement (its index in the run) that bumped it last, -1 before any:
        #: not torch's, tidx's answer to "which statement changed it?"
        self.changed_by = -1

    def bump(self) -> None:
        self.value += 1
        self.changed_by = current().statement


class TensorImpl:
    """Storage, geometry, dtype and device: the C++ side of a tensor."""

    __slots__ = ("storage", "view", "dtype", "device_type", "serial", "requires_grad",
                 "pyobj", "wrapped_number", "is_conj", "version", "view_base",
                 "creation_meta", "_grad_fn", "output_nr", "grad_accumulator",
                 "retains_grad", "grad", "attr_version", "regenerate_grad_fn",
                 "is_inference", "__weakref__")

    def __init__(self, storage: Storage, view: View, dtype: D.dtype) -> None:
        self.storage = storage
        self.view = view
        self.dtype = dtype
        self.device_type = storage.device
        #: identity for trace labels (t$0, t$1 ...), drawn from the run's context
        self.serial = current().next_serial()
        self.requires_grad = False
        #: the Python object wrapping this TensorImpl, if one is alive (PyObject
        #: preservation: wrapping the same TensorImpl twice gives the same object)
        self.pyobj: weakref.ReferenceType[Any] | None = None
        #: TensorImpl::is_wrapped_number: a Python number made a 0-dim tensor beside a
        #: tensor operand (it only lifts the result's category in type promotion)
        self.wrapped_number = False
        #: the version counter (``t._version``): ADInplaceOrView bumps it on every in-place
        #: or out= write and shares it between a view and its base
        #: (engine/dispatch/inplace_or_view.py); a kernel's own aliases get a fresh one
        self.version = VariableVersion()
        #: autograd's view base (``t._base``): the tensor a view made above autograd
        #: looks at, always the root (a view of a view has its base's base); None if not a view
        self.view_base: TensorImpl | None = None
        #: a view's CreationMeta (torch/csrc/autograd/variable.h): made in no_grad mode
        #: ("no_grad"), in inference mode ("inference"), by an operator returning several
        #: views ("multi_output": unbind, split), else "" (DEFAULT); writing into such a
        #: view in place, or reading its grad_fn after its base was written, is an error
        self.creation_meta = ""
        #: autograd's history (engine/dispatch/autograd_graph.py): the node that made this
        #: tensor and which of its outputs it is (None for a leaf), and a leaf's
        #: AccumulateGrad once an edge points at it
        self._grad_fn: Any = None
        #: a view with a history: the version its grad_fn was made at, and how to make it
        #: again (AsStridedBackward0 over the base) once an in-place write into the base or
        #: another view changed the shared version (VariableHooks::grad_fn)
        self.attr_version: int | None = None
        self.regenerate_grad_fn: Any = None
        self.output_nr = 0
        self.grad_accumulator: Any = None
        #: retain_grad() on a tensor with a history: its .grad is kept by backward
        self.retains_grad = False
        #: ``.grad``: what AccumulateGrad (or a retain_grad hook) stored in the backward pass
        self.grad: TensorImpl | None = None
        #: the conjugate bit (DispatchKey::Conjugate, t.conj()): its elements are the
        #: conjugates of the stored ones, read as such by every operator
        self.is_conj = False
        #: an inference tensor (TensorImpl's constructor under InferenceMode): its key set
        #: has no Autograd nor ADInplaceOrView key, and it has no version counter; a view
        #: keeps its base's keys (the VIEW constructor), so this is copied to views
        self.is_inference = current().inference_mode

    @property
    def grad_fn(self) -> Any:
        """VariableHooks::grad_fn: a view's node is made again when the version it was
        made at is no longer the view's (an in-place write into its base, or into another
        view of it, rebased the base onto CopySlices)."""
        if self.attr_version is not None and self.attr_version != self.version.value:
            # (raises for a view whose CreationMeta forbids it, every time it is asked)
            self._grad_fn = self.regenerate_grad_fn(self)
            self.attr_version = self.version.value
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node: Any) -> None:
        self._grad_fn = node

    def shown_grad_fn(self) -> str | None:
        """The node's name as torch's repr shows it: "Invalid" when asking for it raises
        (a view made in no_grad mode whose base was written since: torch/_tensor_str.py
        catches the RuntimeError, pytorch#99968), None without one."""
        try:
            fn = self.grad_fn
        except RuntimeError:
            return "Invalid"
        return None if fn is None else fn.short_name()

    def with_view(self, view: View) -> "TensorImpl":
        """A new TensorImpl on the same storage (what as_strided and
        alias_with_sizes_and_strides build); a view keeps the conjugate bit."""
        out = TensorImpl(self.storage, view, self.dtype)
        out.is_conj = self.is_conj
        out.is_inference = self.is_inference
        return out

    def logical(self, values: np.ndarray) -> np.ndarray:
        """This tensor's elements as torch shows them: the stored ones, conjugated under
        the conjugate bit (a copy then)."""
        return np.conj(values) if self.is_conj else values

    # -- facts a kernel asks (TensorImpl::dim, numel, is_contiguous) -------------------
    def dim(self) -> int:
        return len(self.view.sizes)

    def numel(self) -> int:
        return self.view.numel

    def is_contiguous(self) -> bool:
        return self.view.is_contiguous

    @property
    def is_meta(self) -> bool:
        return self.device_type == "meta"

    # -- the numpy window on the storage (never a copy) --------------------------------
    def elements(self, write: bool = False) -> np.ndarray:
        """The storage as a flat array of this tensor's dtype; ``write=True`` marks the
        storage initialised (kernels that write through a view pass it)."""
        st = self.storage
        if write:
            # the statement's pictures say what this write replaced (engine/core/before.py)
            current().local(WritesBefore).note(self)
            st.initialised = True
        assert st.data is not None, "meta tensors have no data"
        item = self.dtype.itemsize
        return st.data[: st.nbytes - st.nbytes % item].view(self.dtype.np)

    def array(self, write: bool = False) -> np.ndarray:
        """A numpy view of exactly this tensor's elements; kernels that write into it pass
        ``write=True`` so the storage counts as initialised."""
        item = self.dtype.itemsize
        v = self.view
        # a dim of size 0 or 1 never steps: its stride (which may be beyond what numpy
        # takes, as x[:, ::2**62]'s is) does not matter
        try:
            return np.lib.stride_tricks.as_strided(
                self.elements(write)[v.offset:], shape=v.sizes,
                strides=tuple(s * item if n > 1 else 0 for n, s in zip(v.sizes, v.strides)),
                writeable=True)
        except ValueError:
            # sizes past any numpy array: a tensor whose resize_ failed after it set its
            # sizes (torch's keeps them too) reads out of bounds; an empty one with a huge
            # dim ((2**62, 0)) is fine in torch but cannot be a numpy array
            need = compute_storage_nbytes(v.sizes, v.strides, item, v.offset)
            if need > self.storage.nbytes:
                raise storage_out_of_bounds(v.sizes, v.strides, v.offset, item, need,
                                            self.storage.nbytes) from None
            raise Refused(f"a tensor of sizes {fmt_sizes(v.sizes)} has no elements, but "
                          "more rows than numpy can index: tidx cannot run this step") from None

    def flat(self, write: bool = False) -> np.ndarray:
        """A contiguous tensor's elements as one flat numpy view, in memory order
        (kernels that fill a tensor front to back write straight into it)."""
        assert self.is_contiguous(), "only a contiguous tensor is one flat run"
        return self.elements(write)[self.view.offset:self.view.offset + self.numel()]

    def data_ptr(self) -> int:
        base = self.storage.data_ptr()
        return base + self.view.offset * self.dtype.itemsize if base else 0

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        """What the recorder keeps of a tensor: small and bounded, no reference to it."""
        v = self.view
        numel = v.numel
        out: dict[str, Any] = {
            "kind": "tensor",
            "serial": self.serial,
            "storage_serial": self.storage.serial,
            "shape": list(v.sizes),
            "strides": list(v.strides),
            "offset": v.offset,
            "dtype": self.dtype.short,
            "device": self.device_type,
            "numel": numel,
            "nbytes": self.storage.nbytes,
        }
        if self.requires_grad:
            # autograd's part, only where there is one (--verify compares it)
            out["requires_grad"] = True
            shown = self.shown_grad_fn()
            if shown is not None:
                out["grad_fn"] = shown
            grad = self.grad
            if grad is not None and grad.numel() <= max_values:
                # what backward left in .grad (--verify compares it with torch's)
                out["grad"] = plain_values(grad.logical(grad.array()))
        if not self.storage.initialised and not self.is_meta:
            # torch.empty's bytes are whatever the allocator returned: not worth recording
            out["uninitialised"] = True
        elif not self.is_meta and numel <= max_values and _lists(v.sizes) <= max_values:
            out["values"] = plain_values(self.logical(self.array()))
            if self.is_conj:
                out["conj"] = True      # the values are not the storage's bytes
        return out

    def __repr__(self) -> str:
        return (f"TensorImpl({self.dtype}, {self.view!r}, storage {self.storage.nbytes} "
                f"bytes on {self.device_type})")


def storage_out_of_bounds(sizes, strides, offset: int, itemsize: int, need: int,
                          nbytes: int) -> BaseException:
    """checkInBoundsForStorage's error: a view that needs ``need`` bytes of a storage
    that has ``nbytes``."""
    return torch_error(RuntimeError, f"setStorage: sizes {fmt_sizes(sizes)}, strides "
                                     f"{fmt_sizes(strides)}, storage offset {offset}, and "
                                     f"itemsize {itemsize} requiring a storage size of {need} "
                                     f"are out of bounds for storage of size {nbytes}")


def _lists(sizes) -> int:
    """How many lists ``tolist()`` makes before the first dim of size 0 (a (2**62, 0)
    tensor has no elements but 2**62 empty rows)."""
    n = 1
    for s in sizes:
        if s == 0:
            break
        n *= s
    return n


def plain_values(arr: np.ndarray) -> Any:
    """Nested lists for JSON: non-finite floats become the strings 'nan', 'inf', '-inf',
    complex elements their Python repr ('(1+2j)': JSON has no complex numbers)."""
    values = arr.tolist()
    if arr.dtype.kind == "c":
        def spell(v: Any) -> Any:
            return [spell(x) for x in v] if isinstance(v, list) else repr(v)
        return spell(values)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        def fix(v: Any) -> Any:
            if isinstance(v, list):
                return [fix(x) for x in v]
            return v if np.isfinite(v) else repr(float(v))
        values = fix(values)
    return values
