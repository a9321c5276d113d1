"""Grad mode: ``torch.no_grad()``, ``torch.enable_grad()``, ``torch.set_grad_enabled(mode)``
and ``torch.is_grad_enabled()`` (torch/autograd/grad_mode.py over
``torch._C._set_grad_enabled``, i.e. c10's thread-local ``GradMode::set_enabled``).

With grad mode off the Autograd key records nothing: an operator on a tensor that
requires grad gives a result that does not (``y = x * 2`` under no_grad), an in-place
write into a leaf that requires grad is allowed (the optimiser's ``w -= lr * w.grad``),
and a view made there remembers it (writing into it later with grad mode on is an
error).  The interpreter's ``with`` statement enters and leaves these objects
(engine/interpreter/control.py); ``inference_mode`` also makes the tensors made inside
inference tensors (``torch.is_inference_mode_enabled()``, ``t.is_inference()``).

The modes are the run's (``RunContext.grad_enabled``, ``.inference_mode``), never globals.
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding.arg_parser import PythonArgParser
from engine.core.context import current
from engine.core.errors import Refused, torch_error

GRAD_MODE_PY = "torch/autograd/grad_mode.py"
SET_GRAD_ENABLED = step("torch._C._set_grad_enabled", Layer.BINDING,
                        source="torch/csrc/autograd/init.cpp", note="grad_mode.set")
IS_GRAD_ENABLED = step("torch.is_grad_enabled", Layer.PYTHON,
                       source="torch/csrc/autograd/init.cpp", note="grad_mode.read")


#: The Python methods that set the mode, each a step of its own
_SETTERS = {name: step(name, Layer.PYTHON, source=GRAD_MODE_PY)
            for name in ("no_grad.__enter__", "enable_grad.__enter__",
                         "set_grad_enabled.__init__")}


def _set(mode: bool, python: str) -> None:
    """``python`` (the Python method that asks) -> torch._C._set_grad_enabled(mode)."""
    with span(_SETTERS[python]):
        with span(SET_GRAD_ENABLED, note=Note("grad_mode.set", enabled=str(mode).lower())):
            current().grad_enabled = mode


class _GradModeGuard:
    """A context manager of torch.autograd.grad_mode: the mode it sets on entry, the mode
    it puts back on exit."""

    mode = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            # no_grad(f) is its use as a decorator (torch's _DecoratorContextManager)
            raise Refused(f"torch.{type(self).__name__} takes no arguments in tidx (as a "
                          "decorator it wraps a function, which tidx does not model)")
        self.prev = True
        self.run = current()

    def __enter__(self) -> None:
        self.run = current()
        self.prev = self.run.grad_enabled
        _set(self.mode, f"{type(self).__name__}.__enter__")

    def __exit__(self, *exc: Any) -> None:
        # between statements (no run is current there, so the one entered is kept): the
        # trace's statements have no place for it, and the mode it restores shows in
        # what the next statement records
        self.run.grad_enabled = self.prev

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.{type(self).__name__} object>"


class no_grad(_GradModeGuard):  # noqa: N801 - torch's name
    mode = False


class enable_grad(_GradModeGuard):  # noqa: N801 - torch's name
    mode = True


class set_grad_enabled(_GradModeGuard):  # noqa: N801 - torch's name
    """Sets the mode when made (a plain call is enough); as a context manager it puts the
    mode it found back on exit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs and set(kwargs) != {"mode"} or len(args) + len(kwargs) > 1:
            raise Refused("torch.set_grad_enabled takes one argument, mode")
        if not args and not kwargs:
            raise torch_error(TypeError, "set_grad_enabled.__init__() missing 1 required "
                                         "positional argument: 'mode'")
        mode = args[0] if args else kwargs["mode"]
        if not isinstance(mode, bool):
            raise torch_error(TypeError, "set_grad_enabled(): argument 'enabled' (position "
                                         f"1) must be bool, not {type(mode).__name__}")
        self.run = current()
        self.prev = self.run.grad_enabled
        self.mode = mode
        _set(mode, "set_grad_enabled.__init__")

    def __enter__(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


INFERENCE_MODE = step("torch._C._InferenceMode", Layer.BINDING,
                      source="c10/core/InferenceMode.h", note="grad_mode.inference")
_INFERENCE_ENTER = step("inference_mode.__enter__", Layer.PYTHON, source=GRAD_MODE_PY)


class inference_mode(_GradModeGuard):  # noqa: N801 - torch's name
    """torch.inference_mode(mode=True): on entry c10::InferenceMode(mode) sets grad mode
    to ``not mode``, excludes the autograd keys (and stops including ADInplaceOrView), so
    the tensors made inside are inference tensors (no version counter, no autograd keys:
    engine/dispatch/keys.reached); on exit both modes come back."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs and set(kwargs) != {"mode"} or len(args) + len(kwargs) > 1:
            if len(args) + len(kwargs) > 1 and not kwargs:
                raise torch_error(TypeError, "inference_mode.__new__() takes from 1 to 2 "
                                             f"positional arguments but {len(args) + 1} "
                                             "were given")
            raise Refused("torch.inference_mode takes one argument, mode")
        mode = args[0] if args else kwargs.get("mode", True)
        if not isinstance(mode, bool):
            # torch takes anything else as the function it decorates
            raise Refused("torch.inference_mode with a non-bool argument wraps it as a "
                          "function (a decorator), which tidx does not model")
        self.mode = mode
        self.run = current()
        self.prev = True
        self.prev_inference = False

    def __enter__(self) -> None:
        self.run = current()
        self.prev, self.prev_inference = self.run.grad_enabled, self.run.inference_mode
        with span(_INFERENCE_ENTER):
            with span(INFERENCE_MODE,
                      note=Note("grad_mode.inference", enabled=str(self.mode).lower())):
                self.run.grad_enabled = not self.mode
                self.run.inference_mode = self.mode

    def __exit__(self, *exc: Any) -> None:
        self.run.grad_enabled, self.run.inference_mode = self.prev, self.prev_inference


def is_inference_mode_enabled(*args: Any, **kwargs: Any) -> bool:
    """torch.is_inference_mode_enabled (a METH_NOARGS C function):
    InferenceMode::is_enabled()."""
    if kwargs:
        raise torch_error(TypeError, "torch.is_inference_mode_enabled() takes no keyword "
                                     "arguments")
    if args:
        raise torch_error(TypeError, "torch.is_inference_mode_enabled() takes no arguments "
                                     f"({len(args)} given)")
    with span(IS_INFERENCE_MODE_ENABLED) as s:
        result = current().inference_mode
        s.set_result(result)
        return result


_IS_INFERENCE = PythonArgParser(["is_inference(Tensor input)"])


def is_inference(*args: Any, **kwargs: Any) -> bool:
    """torch.is_inference(input) (manual_cpp_binding: TensorImpl::is_inference, no
    operator)."""
    impl = _IS_INFERENCE.parse(None, args, kwargs)["input"]._impl
    with span(IS_INFERENCE) as s:
        s.set_result(impl.is_inference)
        return bool(impl.is_inference)


IS_INFERENCE = step("torch.is_inference", Layer.PYTHON,
                    source="torch/csrc/autograd/generated/python_torch_functions_0.cpp",
                    note="grad_mode.is_inference")
IS_INFERENCE_MODE_ENABLED = step("torch.is_inference_mode_enabled", Layer.PYTHON,
                                 source="torch/csrc/autograd/init.cpp",
                                 note="grad_mode.read_inference")


def is_grad_enabled(*args: Any, **kwargs: Any) -> bool:
    """torch.is_grad_enabled (a METH_NOARGS C function): GradMode::is_enabled()."""
    if kwargs:
        raise torch_error(TypeError, "torch.is_grad_enabled() takes no keyword arguments")
    if args:
        raise torch_error(TypeError, f"torch.is_grad_enabled() takes no arguments ({len(args)} "
                                     "given)")
    with span(IS_GRAD_ENABLED) as s:
        result = current().grad_enabled
        s.set_result(result)
        return result


def is_context_manager(value: Any) -> bool:
    """Can a ``with`` statement enter ``value``?  These objects, or real torch's own
    (``--verify`` runs the same statements over torch)."""
    return isinstance(value, _GradModeGuard) or \
        type(value).__module__ == "torch.autograd.grad_mode"


#: The module's names in the torch namespace.
FUNCTIONS = {"no_grad": no_grad, "enable_grad": enable_grad,
             "set_grad_enabled": set_grad_enabled, "inference_mode": inference_mode,
             "is_grad_enabled": is_grad_enabled,
             "is_inference_mode_enabled": is_inference_mode_enabled,
             "is_inference": is_inference}
