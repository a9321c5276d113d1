"""Reordering a tensor's dims without touching a byte: T, mT, H, mH, adjoint, movedim,
moveaxis, swapdims, swapaxes, transpose_, and unfold (aten/src/ATen/native/TensorShape.cpp).

Every one is a new (sizes, strides) over the same storage.  The CompositeImplicitAutograd
ones (T, mT, movedim, swapdims ...) only choose the dims and call permute or transpose,
which is why torch.profiler shows ``aten::numpy_T`` with an ``aten::permute`` inside;
``unfold`` and ``transpose_`` do their own stride arithmetic and end in ``as_strided`` /
``as_strided_``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, StepSpec, step

from engine.core import shape_math as M
from engine.core import view as S
from engine.core.errors import check
from engine.core.warn_once import warn_once as once
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten

SHAPE = "aten/src/ATen/native/TensorShape.cpp"


def _step(spec: StepSpec, note, **args):
    return span(spec, note=note, **args)


TORCH_WARN_ONCE = step("TORCH_WARN_ONCE", Layer.KERNEL, source=SHAPE)


def warn_once(what: str, message: str) -> None:
    """TORCH_WARN_ONCE: a UserWarning torch shows the first time in a process (the run),
    recorded as a step each time (engine/core/warn_once.py)."""
    # one static flag per TORCH_WARN_ONCE line: each message is its own
    with once(TORCH_WARN_ONCE, f"shape.{what}: {message}",
              note=Note("shape.warn_once", what=what), message=message):
        pass


# -- the transposes: T, mT, H, mH, adjoint -------------------------------------------------
NUMPY_T_REVERSE_THE_DIMS = step("numpy_T: reverse the dims", Layer.KERNEL, source=SHAPE)


@declare("numpy_T(Tensor(a) self) -> Tensor(a)", variants="method", kind=COMPOSITE,
         native="at::native::numpy_T", source=SHAPE)
def numpy_T(self):
    n = self.dim()
    if n == 0:
        warn_once("Tensor.T", "Tensor.T is deprecated on 0-D tensors. This function is the "
                              "identity in these cases.")
    elif n != 2:
        warn_once("Tensor.T", "The use of `x.T` on tensors of dimension other than 2 to reverse "
                              "their shape is deprecated and it will throw an error in a future "
                              "release. Consider `x.mT` to transpose batches of matrices or "
                              "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
                              "dimensions of a tensor.")
    dims = list(range(n - 1, -1, -1))
    with _step(NUMPY_T_REVERSE_THE_DIMS, Note("shape.numpy_T", dims=dims), dims=dims):
        pass
    return aten.permute.default(self, dims)


#: mT, mH and adjoint's step, named after the function (``mT: swap the last two dims``)
SWAP_LAST_TWO = step("<adjoint>: swap the last two dims", Layer.KERNEL, source=SHAPE)


def _adjoint(self, name: str, batches: bool, zero_dim: str):
    """_adjoint (TensorShape.cpp): mT, mH and adjoint swap the last two dims of a matrix
    or a batch of matrices; a 1-D tensor has no matrix, a 0-D one is itself (with a
    warning).  Real dtypes need no conj."""
    n = self.dim()
    if n == 0:
        warn_once(name, zero_dim)
        return self
    check(n != 1 if batches else n == 2, RuntimeError,
          f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D tensor."
          if batches else
          f"tensor.{name} is only supported on matrices (2-D tensors). Got {n}-D tensor."
          + (" For batches of matrices, consider using tensor.mH" if n > 2 else ""))
    with _step(SWAP_LAST_TWO.named(f"{name}: swap the last two dims"),
               Note("shape.swap_last", dim0=n - 2, dim1=n - 1)):
        pass
    return aten.transpose.int(self, -2, -1)


IDENTITY = "This function is the identity in these cases."
CONJ = "Consider using x.conj()."


@declare("mT(Tensor(a) self) -> Tensor(a)", variants="method", kind=COMPOSITE,
         native="at::native::mT", source=SHAPE)
def mT(self):
    return _adjoint(self, "mT", True, f"Tensor.mT is deprecated on 0-D tensors. {IDENTITY}")


@declare("mH(Tensor(a) self) -> Tensor(a)", variants="method", kind=COMPOSITE,
         native="at::native::mH", source=SHAPE)
def mH(self):
    return _adjoint(self, "mH", True, f"Tensor.mH is deprecated on 0-D tensors. {CONJ}")


@declare("matrix_H(Tensor(a) self) -> Tensor(a)", variants="method", kind=COMPOSITE,
         native="at::native::matrix_H", source=SHAPE)
def matrix_H(self):
    return _adjoint(self, "H", False, f"Tensor.H is deprecated on 0-D tensors. {CONJ}")


@declare("adjoint(Tensor(a) self) -> Tensor(a)", variants="function, method", kind=COMPOSITE,
         native="at::native::adjoint", source=SHAPE)
def adjoint(self):
    return _adjoint(self, "adjoint()", True, f"adjoint() is deprecated on 0-D tensors. {CONJ}")


# -- movedim / moveaxis ---------------------------------------------------------------------
MOVEDIM_THE_PERMUTATION = step("movedim: the permutation", Layer.KERNEL, source=SHAPE)


def _movedim(self, src: Sequence[int], dst: Sequence[int]):
    """movedim (TensorShape.cpp), in its order: as many sources as destinations, each
    wrapped, none repeated; a 0-dim tensor is an alias; else the permutation."""
    check(len(src) == len(dst), RuntimeError,
          f"movedim: Invalid source or destination dims: source ({S.fmt_sizes(src)} dims) "
          f"should contain the same number of dims as destination ({S.fmt_sizes(dst)} dims)")
    n = self.dim()
    nsrc = [S.maybe_wrap_dim(d, n) for d in src]
    ndst = [S.maybe_wrap_dim(d, n) for d in dst]
    check(len(set(nsrc)) == len(nsrc), RuntimeError,
          f"movedim: repeated dim in `source` ({S.fmt_sizes(src)})")
    check(len(set(ndst)) == len(ndst), RuntimeError,
          f"movedim: repeated dim in `destination` ({S.fmt_sizes(dst)})")
    if n == 0:
        return aten.alias.default(self)
    order = M.movedim_order(n, nsrc, ndst)
    with _step(MOVEDIM_THE_PERMUTATION, Note("shape.movedim", src=nsrc, dst=ndst,
                                                 order=order), order=order):
        pass
    return aten.permute.default(self, order)


@declare("movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::movedim",
         source=SHAPE)
def movedim(self, source: Sequence[int], destination: Sequence[int]):
    return _movedim(self, list(source), list(destination))


@declare("movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::movedim",
         source=SHAPE)
def movedim_int(self, source: int, destination: int):
    # calls native::movedim on one-element lists: no second aten::movedim
    return _movedim(self, [source], [destination])


@declare("moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::moveaxis",
         source=SHAPE)
def moveaxis(self, source: Sequence[int], destination: Sequence[int]):
    return aten.movedim.intlist(self, source, destination)


@declare("moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::moveaxis",
         source=SHAPE)
def moveaxis_int(self, source: int, destination: int):
    return aten.movedim.int(self, source, destination)


# -- swapdims / swapaxes and transpose_ -----------------------------------------------------
@declare("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::swapdims",
         source=SHAPE)
def swapdims(self, dim0: int, dim1: int):
    return aten.transpose.int(self, dim0, dim1)


@declare("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::swapaxes",
         source=SHAPE)
def swapaxes(self, axis0: int, axis1: int):
    return aten.transpose.int(self, axis0, axis1)


@declare("swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", variants="method",
         kind=COMPOSITE, native="at::native::swapdims_", source=SHAPE)
def swapdims_(self, dim0: int, dim1: int):
    return aten.transpose_.default(self, dim0, dim1)


@declare("swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", variants="method",
         kind=COMPOSITE, native="at::native::swapaxes_", source=SHAPE)
def swapaxes_(self, axis0: int, axis1: int):
    return aten.transpose_.default(self, axis0, axis1)


TRANSPOSE_GEOMETRY = step("transpose_ geometry", Layer.KERNEL, source=SHAPE)


@declare("transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", variants="method",
         native="at::native::transpose_", source=SHAPE, meta=META_PYTHON)
def transpose_(self, dim0: int, dim1: int):
    """self's own sizes and strides, two of them swapped, set with as_strided_."""
    n = self.dim()
    dim0, dim1 = S.maybe_wrap_dim(dim0, n), S.maybe_wrap_dim(dim1, n)
    if dim0 == dim1:
        return self
    sizes, strides = list(self.view.sizes), list(self.view.strides)
    sizes[dim0], sizes[dim1] = sizes[dim1], sizes[dim0]
    strides[dim0], strides[dim1] = strides[dim1], strides[dim0]
    with _step(TRANSPOSE_GEOMETRY, Note("shape.transpose_", dim0=dim0, dim1=dim1),
               sizes=sizes, strides=strides):
        pass
    return aten.as_strided_.default(self, sizes, strides, None)


# -- unfold: sliding windows as a view -------------------------------------------------------
UNFOLD_GEOMETRY = step("unfold geometry", Layer.KERNEL, source=SHAPE)


@declare("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
         variants="method", native="at::native::unfold", source=SHAPE)
def unfold(self, dimension: int, size: int, step: int):
    n = self.dim()
    d = S.maybe_wrap_dim(dimension, n)
    max_size = 1 if n == 0 else self.view.sizes[d]
    check(size <= max_size, RuntimeError,
          f"maximum size for tensor at dimension {d} is {max_size} but size is {size}")
    check(size >= 0, RuntimeError, f"size is {size} but must be >= 0")
    check(step > 0, RuntimeError, f"step is {step} but must be > 0")
    sizes, strides = M.unfold_geometry(self.view.sizes, self.view.strides, d, size, step)
    with _step(UNFOLD_GEOMETRY,
               lambda: Note("shape.unfold", dim=d, size=size, step=step,
                            windows=sizes[d] if n else 1, stride=strides[-1],
                            jump=strides[d] if n else 1),
               sizes=sizes, strides=strides):
        pass
    # self.as_strided(IntArrayRef ...) converts to SymInts first: a stride the int64
    # product wrapped to -2**63 is refused there, before as_strided sees a negative one
    S.check_symint_array(strides)
    return aten.as_strided.default(self, sizes, strides, None)
