"""quantile and nanquantile: sort, then ranks, gather and lerp, each an operator of its own
(aten/src/ATen/native/Sorting.cpp quantile_checks, quantile_output_shape,
quantile_compute, quantile_impl, quantile_out_impl).

All eight overloads are CompositeImplicitAutograd.  A float ``q`` is checked to lie in
[0, 1] and made a 0-dim tensor (``at::scalar_tensor(q, self.options())``); then, for a
tensor ``q`` too: every q checked in [0, 1] on the CPU (``q.ge(0).logical_and_(q.le(1))
.all()``, read back through ``is_scalar_tensor_true``: ``at::equal`` with ``new_ones``);
the input flattened (no dim) or its dim moved last (``unsqueeze(-1).transpose(dim, -1)``,
unless it is last already) and sorted; the sorted values viewed as ``(*out_shape[1:], n)``; the ranks ``q * (n - 1)``
(a NaN in the row sends its rank to the last index, where the sorted NaN sits; for
nanquantile ``q * (count of non-NaN - 1)``, a negative rank clamped to 0); ``floor_``,
``ceil_`` or ``round_`` for the lower, higher and nearest modes; ``gather`` below; for
linear and midpoint, ``gather`` above and ``values_below.lerp_(values_above, weights)``
(weights ``ranks - ranks_below`` or ``full_like(ranks, 0.5)``); the q dim moved first.
tidx calls those same operators in that order, so the values are torch's bit for bit:
lerp is replayed exactly (docs/fidelity-math.md's lerp row).
"""

from __future__ import annotations

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare
from engine.ops.pointwise import resize_output

SORTING = "aten/src/ATen/native/Sorting.cpp"

QUANTILE_COMPUTE = step("quantile_compute", Layer.KERNEL, source=SORTING)

MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _mode(interpolation: str) -> str:
    """get_quantile_interpolation_mode."""
    check(interpolation in MODES, RuntimeError,
          "quantile() interpolation must be one of linear, lower, higher, midpoint or "
          f"nearest, but got {interpolation}")
    return interpolation


def _checks(self, q) -> None:
    """quantile_checks."""
    check(self.numel() > 0, RuntimeError, "quantile() input tensor must be non-empty")
    check(q.dim() <= 1, RuntimeError, "quantile() q must be a scalar or 1D tensor")
    check(self.dtype in (D.float32, D.float64), RuntimeError,
          "quantile() input tensor must be either float or double dtype")
    check(self.dtype is q.dtype, RuntimeError,
          "quantile() q tensor must be same dtype as the input tensor")
    check(self.device_type == q.device_type, RuntimeError,
          "quantile() q tensor must be on the same device as the input tensor")


def _output_shape(dim, self, q, keepdim: bool, wrapped: int) -> list[int]:
    """quantile_output_shape: q's size first, then the reduced input's."""
    if dim is not None and self.dim() > 0:
        shape = list(self.view.sizes)
        if keepdim:
            shape[wrapped] = 1
        else:
            del shape[wrapped]
    elif keepdim:
        shape = [1] * self.dim()
    else:
        shape = []
    if q.dim() > 0:
        shape.insert(0, q.numel())
    return shape


def _scalar_true(t) -> bool:
    """at::is_scalar_tensor_true: at::equal(t, t.new_ones(t.sizes(), t.options()))."""
    ones = aten.new_ones.default(t, list(t.view.sizes), dtype=t.dtype, device=t.device_type)
    return bool(aten.equal.default(t, ones))


def _compute(self, q, dim, mode: str, ignore_nan: bool, wrapped: int, out_shape: list[int]):
    """quantile_compute."""
    if self.device_type == "cpu":
        in_range = aten.all.default(aten.logical_and_.default(aten.ge.Scalar(q, 0),
                                                              aten.le.Scalar(q, 1)))
        check(_scalar_true(in_range), RuntimeError,
              "quantile() q values must be in the range [0, 1]")
    with span(QUANTILE_COMPUTE, note="statistics.quantile") as s:
        if dim is None:
            ordered = aten.sort.default(aten.flatten.using_ints(self))[0]
        elif wrapped == self.dim() - 1:
            ordered = aten.sort.default(self)[0]         # the dim is last already
        else:
            moved = aten.transpose.int(aten.unsqueeze.default(self, -1), wrapped, -1)
            ordered = aten.sort.default(moved)[0]
        if q.dim() == 0:
            out_shape = [q.numel(), *out_shape]      # q as a 1-d tensor from here on
        # the sorted values as (*, n): out_shape without q's size, n last
        in_shape = out_shape[1:] + [0]
        in_shape[-1] = ordered.view.sizes[-1]
        ordered = aten.view.default(ordered, in_shape)
        n = ordered.view.sizes[-1]
        # converting from int64_t to double must not overflow
        check(n <= 2 ** 24, RuntimeError, "quantile() input tensor is too large")
        if ignore_nan:
            # ranks over the non-NaN values; all NaN: rank 0, whose value is NaN
            counts = aten.sum.dim_IntList(aten.logical_not_.default(
                aten.isnan.default(ordered)), [-1], True)
            ranks = aten.mul.Tensor(q, aten.sub.Tensor(counts, 1))
            aten.masked_fill_.Scalar(ranks, aten.lt.Scalar(ranks, 0), 0)
        else:
            # a NaN in the row: the last index, where the sorted NaN is
            last = n - 1
            tl = aten.broadcast_tensors.default([aten.mul.Tensor(q, last),
                                                 aten.any.dim(aten.isnan.default(ordered),
                                                              -1, True)])
            ranks = aten.masked_fill.Scalar(tl[0], tl[1], last)
        if mode == "lower":
            aten.floor_.default(ranks)
        elif mode == "higher":
            aten.ceil_.default(ranks)
        elif mode == "nearest":
            aten.round_.default(ranks)
        ranks_below = aten.to.dtype(ranks, D.int64)
        values_below = aten.gather.default(ordered, -1, ranks_below)
        if mode in ("linear", "midpoint"):
            weights = (aten.full_like.default(ranks, 0.5) if mode == "midpoint"
                       else aten.sub.Tensor(ranks, ranks_below))
            ranks_above = aten.to.dtype(aten.ceil_.default(ranks), D.int64)
            values_above = aten.gather.default(ordered, -1, ranks_above)
            aten.lerp_.Tensor(values_below, values_above, weights)
        if q.dim() == 0:
            aten.squeeze_.dim(values_below, -1)
        else:
            # the quantiles' dim first, as the output's shape has it
            aten.squeeze_.dim(aten.transpose_.default(
                aten.unsqueeze_.default(values_below, 0), 0, -1), -1)
        s.set_result(values_below)
    return values_below


def quantile_impl(self, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool):
    mode = _mode(interpolation)
    _checks(self, q)
    wrapped = S.maybe_wrap_dim(dim if dim is not None else 0, self.dim())
    shape = _output_shape(dim, self, q, keepdim, wrapped)
    return _compute(self, q, dim, mode, ignore_nan, wrapped, shape)


def quantile_out_impl(out, self, q, dim, keepdim: bool, interpolation: str,
                      ignore_nan: bool):
    mode = _mode(interpolation)
    _checks(self, q)
    check(self.dtype is out.dtype, RuntimeError,
          "quantile() out tensor must be same dtype as the input tensor")
    check(self.device_type == out.device_type, RuntimeError,
          "quantile() out tensor must be on the same device as the input tensor")
    wrapped = S.maybe_wrap_dim(dim if dim is not None else 0, self.dim())
    shape = _output_shape(dim, self, q, keepdim, wrapped)
    resize_output(out, tuple(shape), S.contiguous_strides(shape))
    result = _compute(self, q, dim, mode, ignore_nan, wrapped, shape)
    return aten.copy_.default(out, result)


def _scalar_q(self, q: float):
    """The float overloads: q checked, then at::scalar_tensor(q, self.options())."""
    check(0 <= q <= 1, RuntimeError, f"quantile() q must be in the range [0, 1] but got {q:g}")
    return aten.scalar_tensor.default(q, dtype=self.dtype, device=self.device_type)


def _family(name: str, ignore_nan: bool) -> None:
    def with_tensor(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return quantile_impl(self, q, dim, keepdim, interpolation, ignore_nan)
    declare(f"{name}(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear') -> Tensor", variants="method, function",
            kind=COMPOSITE, native=f"at::native::{name}", source=SORTING)(with_tensor)

    def with_tensor_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
        return quantile_out_impl(out, self, q, dim, keepdim, interpolation, ignore_nan)
    declare(f"{name}.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
            native=f"at::native::{name}_out", source=SORTING)(with_tensor_out)

    def with_float(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return quantile_impl(self, _scalar_q(self, q), dim, keepdim, interpolation,
                             ignore_nan)
    declare(f"{name}.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear') -> Tensor", variants="method, function",
            kind=COMPOSITE, native=f"at::native::{name}", source=SORTING)(with_float)

    def with_float_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
        return quantile_out_impl(out, self, _scalar_q(self, q), dim, keepdim, interpolation,
                                 ignore_nan)
    declare(f"{name}.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
            native=f"at::native::{name}_out", source=SORTING)(with_float_out)


_family("quantile", False)
_family("nanquantile", True)
