"""``torch.nn.functional`` (torch/nn/functional.py): the Python functions a tutorial
calls as ``F.relu(x)``, each the Python torch runs over its generated bindings.

They run no operator of their own: ``F.relu`` calls ``torch.relu`` (or ``torch.relu_``
with ``inplace=True``), ``F.sigmoid``/``F.tanh`` the Tensor method, ``F.softmax`` and
``F.log_softmax`` the Tensor method with ``dim`` -- and without one, ``_get_softmax_dim``
warns (UserWarning: "Implicit dimension choice for softmax has been deprecated ...") and
picks dim 0 for a 0-, 1- or 3-dim input, else dim 1 -- so torch.profiler records the
operators of those calls and nothing for the Python function itself.  Python binds their
arguments, so a wrong call is Python's TypeError.  The functions of the module tidx does
not run yet (one_hot, embedding, pad, dropout, the losses ...) are not attributes of it:
naming one is refused in one line.
https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/functional.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding import operators as O
from engine.binding.functional import broadcast_shapes
from engine.binding.tensor_new import warn
from engine.core.errors import Refused, torch_error

NN_FUNCTIONAL = "torch/nn/functional.py"

#: torch/nn/functional.py's functions (``torch.nn.functional.<function>``)
NN_FUNCTION = step("torch.nn.functional.<function>", Layer.PYTHON, source=NN_FUNCTIONAL)


def _python(name: str, args: tuple) -> Any:
    return span(NN_FUNCTION, called=f"torch.nn.functional.{name}", note="functional.nn",
                args=lambda: [O.shown_argument(a) for a in args])


def relu(input: Any, inplace: bool = False) -> Any:
    """``torch.relu_(input) if inplace else torch.relu(input)``."""
    with _python("relu", (input,)) as py:
        result = O.function("relu_" if inplace else "relu")(input)
        py.set_result(result)
        return result


def _method(name: str) -> Callable[..., Any]:
    def fn(input: Any) -> Any:
        with _python(name, (input,)) as py:
            result = getattr(input, name)()
            py.set_result(result)
            return result
    fn.__name__ = fn.__qualname__ = name
    return fn


#: ``F.sigmoid(input)`` is ``input.sigmoid()``; ``F.tanh`` likewise
sigmoid, tanh = _method("sigmoid"), _method("tanh")


def _get_softmax_dim(name: str, ndim: int) -> int:
    """The deprecated implicit dim: a UserWarning, then 0 for 0, 1 or 3 dims, else 1."""
    warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
         "include dim=X as an argument.", NN_FUNCTIONAL)
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_like(name: str) -> Callable[..., Any]:
    def fn(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
        with _python(name, (input,)) as py:
            if dim is None:
                dim = _get_softmax_dim(name, input.dim())
            method = getattr(input, name)
            result = method(dim) if dtype is None else method(dim, dtype=dtype)
            py.set_result(result)
            return result
    fn.__name__ = fn.__qualname__ = name
    return fn


softmax, log_softmax = _softmax_like("softmax"), _softmax_like("log_softmax")


def embedding(input: Any, weight: Any, padding_idx: Any = None, max_norm: Any = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Any:
    """``padding_idx`` checked against ``weight.size(0)`` (Python's AssertionError) and
    made non-negative, then ``torch.embedding(weight, input, padding_idx, ...)``."""
    with _python("embedding", (input, weight)) as py:
        if padding_idx is not None:
            rows = weight.size(0)
            if (padding_idx > 0 and not padding_idx < rows) or \
                    (padding_idx < 0 and not padding_idx >= -rows):
                raise torch_error(AssertionError, "Padding_idx must be within num_embeddings")
            padding_idx = padding_idx + rows if padding_idx < 0 else padding_idx
        else:
            padding_idx = -1
        if max_norm is not None:
            raise Refused("F.embedding with max_norm= (which renormalises weight's rows in "
                          "place first) is not modelled yet")
        result = O.function("embedding")(weight, input, padding_idx, scale_grad_by_freq,
                                         sparse)
        py.set_result(result)
        return result


def dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """p checked in Python (a ValueError), then ``_VF.dropout_`` or ``_VF.dropout``."""
    with _python("dropout", (input,)) as py:
        if p < 0.0 or p > 1.0:
            raise torch_error(ValueError, "dropout probability has to be between 0 and 1, "
                                          f"but got {p}")
        name = "dropout_" if inplace else "dropout"
        result = O.function(name, f"torch._VF.{name}")(input, p, training)
        py.set_result(result)
        return result


REDUCTION = step("torch.nn._reduction.get_enum", Layer.PYTHON,
                 source="torch/nn/_reduction.py", note="loss.reduction")


def _reduction(reduction: Any) -> int:
    """_Reduction.get_enum: 'none' 0, 'mean' 1, 'sum' 2 ('elementwise_mean' warns and is
    'mean'); anything else a ValueError."""
    with span(REDUCTION, reduction=reduction) as s:
        if reduction == "elementwise_mean":
            warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                 "instead.", "torch/nn/_reduction.py")
            reduction = "mean"
        codes = {"none": 0, "mean": 1, "sum": 2}
        if reduction not in codes:
            raise torch_error(ValueError, f"{reduction} is not a valid value for reduction")
        s.set_result(codes[reduction])
        return codes[reduction]


def _no_legacy(name: str, size_average: Any, reduce: Any) -> None:
    if size_average is not None or reduce is not None:
        raise Refused(f"F.{name}'s deprecated size_average= and reduce= are not modelled; "
                      "use reduction=")


def nll_loss(input: Any, target: Any, weight: Any = None, size_average: Any = None,
             ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> Any:
    """``torch._C._nn.nll_loss_nd(input, target, weight, get_enum(reduction),
    ignore_index)``."""
    with _python("nll_loss", (input, target)) as py:
        _no_legacy("nll_loss", size_average, reduce)
        result = O.function("nll_loss_nd", "torch._C._nn.nll_loss_nd")(
            input, target, weight, _reduction(reduction), ignore_index)
        py.set_result(result)
        return result


def cross_entropy(input: Any, target: Any, weight: Any = None, size_average: Any = None,
                  ignore_index: int = -100, reduce: Any = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Any:
    """``torch._C._nn.cross_entropy_loss(input, target, weight, get_enum(reduction),
    ignore_index, label_smoothing)``."""
    with _python("cross_entropy", (input, target)) as py:
        _no_legacy("cross_entropy", size_average, reduce)
        result = O.function("cross_entropy_loss", "torch._C._nn.cross_entropy_loss")(
            input, target, weight, _reduction(reduction), ignore_index, label_smoothing)
        py.set_result(result)
        return result


def mse_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None,
             reduction: str = "mean", weight: Any = None) -> Any:
    """A UserWarning when the sizes differ, ``torch.broadcast_tensors(input, target)``,
    then ``torch._C._nn.mse_loss(..., get_enum(reduction))``."""
    with _python("mse_loss", (input, target)) as py:
        if target.size() != input.size():
            warn(f"Using a target size ({target.size()}) that is different to the input size "
                 f"({input.size()}). This will likely lead to incorrect results due to "
                 "broadcasting. Please ensure they have the same size.", NN_FUNCTIONAL)
        _no_legacy("mse_loss", size_average, reduce)
        if weight is not None:
            raise Refused("F.mse_loss with weight= is not modelled yet")
        expanded = O.function("broadcast_tensors")((input, target))
        result = O.function("mse_loss", "torch._C._nn.mse_loss")(
            expanded[0], expanded[1], _reduction(reduction))
        py.set_result(result)
        return result


def binary_cross_entropy(input: Any, target: Any, weight: Any = None, size_average: Any = None,
                         reduce: Any = None, reduction: str = "mean") -> Any:
    """The reduction's number, the sizes' ValueError, the weight expanded to
    ``torch.broadcast_shapes(target.size(), weight.size())``, then
    ``torch._C._nn.binary_cross_entropy(input, target, weight, enum)``."""
    with _python("binary_cross_entropy", (input, target)) as py:
        _no_legacy("binary_cross_entropy", size_average, reduce)
        enum = _reduction(reduction)
        if target.size() != input.size():
            raise torch_error(ValueError, f"Using a target size ({target.size()}) that is "
                              f"different to the input size ({input.size()}) is deprecated. "
                              "Please ensure they have the same size.")
        if weight is not None:
            shape = broadcast_shapes(target.size(), weight.size())
            weight = weight.expand(shape)
        result = O.function("binary_cross_entropy", "torch._C._nn.binary_cross_entropy")(
            input, target, weight, enum)
        py.set_result(result)
        return result


def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None,
                                     size_average: Any = None, reduce: Any = None,
                                     reduction: str = "mean", pos_weight: Any = None) -> Any:
    """The reduction's number, the sizes' ValueError, then
    ``torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, enum)``."""
    with _python("binary_cross_entropy_with_logits", (input, target)) as py:
        _no_legacy("binary_cross_entropy_with_logits", size_average, reduce)
        enum = _reduction(reduction)
        if target.size() != input.size():
            raise torch_error(ValueError, f"Target size ({target.size()}) must be the same "
                              f"as input size ({input.size()})")
        result = O.function("binary_cross_entropy_with_logits")(
            input, target, weight, pos_weight, enum)
        py.set_result(result)
        return result


def silu(input: Any, inplace: bool = False) -> Any:
    """``torch._C._nn.silu_(input) if inplace else torch._C._nn.silu(input)``."""
    with _python("silu", (input,)) as py:
        name = "silu_" if inplace else "silu"
        result = O.function(name, f"torch._C._nn.{name}")(input)
        py.set_result(result)
        return result


def functions() -> dict[str, Callable[..., Any]]:
    """The module's functions tidx runs, by name: those written in Python above, and the
    generated ``torch._C._nn`` bindings torch.nn.functional names directly (one_hot)."""
    return {"relu": relu, "sigmoid": sigmoid, "tanh": tanh, "softmax": softmax,
            "log_softmax": log_softmax, "embedding": embedding,
            "one_hot": O.function("one_hot", "torch.nn.functional.one_hot"),
            "pad": O.function("pad", "torch.nn.functional.pad"),
            "nll_loss": nll_loss, "cross_entropy": cross_entropy, "dropout": dropout,
            "mse_loss": mse_loss, "silu": silu,
            "binary_cross_entropy": binary_cross_entropy,
            "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
            "logsigmoid": O.function("log_sigmoid", "torch.nn.functional.logsigmoid"),
            "gelu": O.function("gelu", "torch.nn.functional.gelu")}
