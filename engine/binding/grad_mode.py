"""Grad mode: ``torch.no_grad()``, ``torch.enable_grad()``, ``torch.set_grad_enabled(mode)``
and ``torch.is_grad_enabled()`` (torch/autograd/grad_mode.py over
``torch._C._set_grad_enabled``, i.e. c10's thread-local ``GradMode::set_enabled``).

With grad mode off the Autograd key records nothing: an operator on a tensor that
requires grad gives a result that does not (``y = x * 2`` under no_grad), an in-place
write into a leaf that requires grad is allowed (the optimiser's ``w -= lr * w.grad``),
and a view made there remembers it (writing into it later with grad mode on is an
error).  The interpreter's ``with`` statement enters and leaves these objects
(engine/interpreter/control.py); ``inference_mode`` makes inference tensors, which tidx
does not model, and is refused.

The mode is the run's (``RunContext.grad_enabled``), never a global.
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

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


class inference_mode(_GradModeGuard):  # noqa: N801 - torch's name
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise Refused("torch.inference_mode makes inference tensors, which tidx does not "
                      "model yet; torch.no_grad() is its autograd half")


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
             "is_grad_enabled": is_grad_enabled}
