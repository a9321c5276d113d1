"""The Python bindings of the declared operators, generated as torch's are.

PyTorch generates ``torch.gather`` and ``Tensor.gather`` (python_torch_functions.cpp,
python_variable_methods.cpp) from native_functions.yaml with
tools/autograd/gen_python_functions.py: one PythonArgParser per Python name over the
signatures of all its overloads, and a ``switch`` on the signature that matched, which
unpacks the arguments and calls the overload's ``at::`` function.  This module does the
same from tidx's declarations (:mod:`engine.dispatch.declarations`): for a Python name
and a variant it builds the parser (signatures derived by
:mod:`engine.binding.python_signatures`) and the binding that parses, unpacks,
dispatches the matched overload and wraps the result.

>>> import engine
>>> gather = function("gather")
>>> gather(engine.tensor([[1, 2], [3, 4]]), 1, engine.tensor([[1], [0]]))
tensor([[2],
        [3]])
>>> gather(engine.tensor([1]), 0, [[0]])
Traceback (most recent call last):
...
TypeError: gather(): argument 'index' (position 3) must be Tensor, not list
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, Lecture, named_after, step

from engine import ops  # noqa: F401 - each ops module declares its operators on import
from engine.binding import options as P
from engine.binding.arg_parser import (ParsedArgs, PythonArgParser, check_noarg_method,
                                       unpack_long)
from engine.binding.python_signatures import (skips_binding, PythonSignature, is_noarg,
                                               python_signatures)
from engine.binding.return_types import structseq_for
from engine.binding.tensor import THPVariable_Wrap, Tensor, unpack, unwrap_args, wrap_result
from engine.core import dtypes as D
from engine.core.device import SUPPORTED, device as Device
from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.declarations import DEPRECATED, REGISTRY, overloads, python_note
from engine.dispatch.aten import handle
from engine.dispatch.schema import Argument, FunctionSchema
from engine.ops.scalar import TENSOR_SLOW, wrapped_scalar_tensor

FUNCTIONS = "torch/csrc/autograd/generated/python_torch_functions.cpp"
METHODS = "torch/csrc/autograd/generated/python_variable_methods.cpp"

PARSER_NOTE = "binding.PythonArgParser"

#: PythonArgs::scalartype: a Python type given as a dtype stands for one.
PYTHON_DTYPES = {bool: D.bool, int: D.int64, float: D.float64}


def shown_argument(value: Any) -> Any:
    """A Python argument as the trace shows it: as the user wrote it, a tuple a tuple,
    a dtype, device or memory format the object itself (each renders as Python prints
    it: torch.float32, device(type='cpu'), torch.channels_last)."""
    if type(value) is list:
        return [shown_argument(v) for v in value]
    if type(value) is tuple:
        return tuple(shown_argument(v) for v in value)
    return value


def _default(text: str | None) -> Any:
    """A schema default as the Python value a kernel takes (``contiguous_format`` stays
    a memory format's name, ``long`` is a dtype).

    >>> _default("False"), _default("1"), _default("0.5"), _default("[]"), _default("long")
    (False, 1, 0.5, [], torch.int64)
    >>> _default("[0,1]")
    [0, 1]
    """
    if text is None or text == "None":
        return None
    if text in ("True", "False"):
        return text == "True"
    if text in ("contiguous_format", "channels_last", "preserve_format"):
        return text
    if text.startswith("[") and text.endswith("]"):
        # an int list default, e.g. rot90's dims=[0,1]
        return [int(v) for v in text[1:-1].split(",") if v.strip()]
    if text in ("long", "int", "float", "double", "bool"):
        return D.from_name(text)
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]       # a str default: pad's mode="constant", gelu's 'none'
    if text == "Mean":
        # ``int reduction=Mean`` is ``at::Reduction::Mean`` in the Python signature, which
        # python_arg_parser.cpp's set_default_str reads with atol: 0, 'none'.  So
        # torch.binary_cross_entropy_with_logits(x, t) returns the elements, not the mean
        return 0
    try:
        return int(text)
    except ValueError:
        return float(text)


def _aten_value(arg: Argument, value: Any) -> Any:
    """A parsed Python value as the kernel takes it: tensors unpacked (also inside lists),
    memory formats by name, devices by type, Python types given as dtypes as dtypes."""
    if isinstance(value, P.memory_format):
        return value.name
    if arg.name == "device":
        return device_type_of(value)
    # (a one-element tensor given for an int, float or Scalar was already turned into a
    # number by ParsedArgs, through its aten::item, as PythonArgs does)
    if arg.type.base == "ScalarType" and isinstance(value, type):
        if value not in PYTHON_DTYPES:
            raise Refused(f"dtype={value.__name__} (a complex dtype) is not modelled by tidx")
        return PYTHON_DTYPES[value]
    return unwrap_args(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float, complex)) and \
        (not isinstance(value, int) or -(2**63) <= value < 2**63)


def tensor_slow(value: Any) -> Any:
    """PythonArgs::tensor_slow: a Python number bound to a Tensor parameter becomes a
    0-dim wrapped-number tensor in the binding, before the operator is called."""
    return wrapped_scalar_tensor(value, TENSOR_SLOW)


def device_type_of(value: Any) -> str | None:
    if value is None:
        return None
    if type(value) is int:
        # PythonArgs::device: an index means the current accelerator's device
        # (on tidx's simulated machine the accelerator is the simulated GPU, cuda:0; a
        # CPU build of torch says "Cannot access accelerator device when none is
        # available.")
        if unpack_long(value) < 0:
            raise torch_error(RuntimeError, "Device index must not be negative")
        value = f"cuda:{value}"
    parsed = Device(value)
    dev = parsed.type
    if dev == "cuda" and parsed.index not in (None, 0):
        raise Refused(f"the simulated CUDA machine has one GPU, cuda:0 (got device='{value}'; "
                      f"on a one-GPU machine torch raises 'CUDA error: invalid device "
                      f"ordinal')")
    if dev not in SUPPORTED:
        raise Refused(f"tidx runs the cpu, meta and simulated cuda devices only (got device='{value}')")
    return dev


def _note(name: str, declared: str | None, kwargs: dict) -> str | None:
    """The Python step's note (the declarations' ``python_note``); randn on the
    simulated GPU draws from its CUDA generator, not the CPU's."""
    dev = kwargs.get("device")
    on_cuda = (isinstance(dev, str) and dev.startswith("cuda")) or \
        getattr(dev, "type", None) == "cuda"
    if on_cuda and name == "randn":
        return "cuda.device.randn"
    return declared


#: a generated binding's two steps: its Python entry (``torch.add``, ``Tensor.add``, or
#: the name torch/_VF.py shows) and the generated C++ function, ``THPVariable_add``, a
#: function of torch::autograd gdb stops in
PYTHON_ENTRY = step("torch.<function> / Tensor.<method>", Layer.PYTHON)
GENERATED_BINDING = step("THPVariable_<function>", Layer.BINDING, note=PARSER_NOTE,
                         libtorch=named_after("torch::autograd::{name}"))


class OperatorBinding:
    """The generated binding of one Python name in one variant (``torch.gather`` or
    ``Tensor.gather``).  Its signatures and parser are built at its first call: start-up
    pays nothing for the hundred names a statement does not use."""

    def __init__(self, name: str, variant: str, shown: str | None = None) -> None:
        self.name, self.variant = name, variant
        #: the Python name the call is shown as, when it is not torch.<name> (torch's
        #: Python functions call the same binding as ``torch._VF.<name>``)
        self.shown = shown

    @functools.cached_property
    def signatures(self) -> list[PythonSignature]:
        decls = overloads(self.name, self.variant)
        schemas = [FunctionSchema.parse(d.schema) for d in decls]
        overrides = {f"{d.name}.{d.overload}" if d.overload else d.name: d.category_override
                     for d in decls if d.category_override}
        return python_signatures(schemas, self.variant, deprecated=DEPRECATED,
                                 category_overrides=overrides)

    @functools.cached_property
    def python_note(self) -> str | None:
        return python_note(self.name)

    @functools.cached_property
    def noarg(self) -> bool:
        return is_noarg(self.signatures)

    @functools.cached_property
    def parser(self) -> PythonArgParser:
        return PythonArgParser([s.text for s in self.signatures])

    def __call__(self, self_: Tensor | None, args: tuple, kwargs: dict) -> Any:
        where = self.shown or (f"torch.{self.name}" if self_ is None else
                               f"Tensor.{self.name}")
        with span(PYTHON_ENTRY, called=where, source="torch/_VF.py" if self.shown else
                  "torch/__init__.py" if self_ is None else "torch/_tensor.py",
                  note=_note(self.name, self.python_note, kwargs),
                  args=lambda: [shown_argument(a) for a in args],
                  kwargs=lambda: {k: shown_argument(v) for k, v in kwargs.items()}) as py:
            with span(GENERATED_BINDING, called=f"THPVariable_{self.name}",
                      source=FUNCTIONS if self_ is None else METHODS) as b:
                if self_ is not None and self.noarg:
                    # METH_NOARGS (no PythonArgParser): CPython refuses any argument
                    check_noarg_method(self.name, args, kwargs)
                parsed = self.parser.parse(self_, args, kwargs)
                schema, result = self._dispatch(self.signatures[parsed.index], self_, parsed)
                if parsed.values.get("requires_grad"):
                    make_variable(result)
                b.set_result(result)
            result = (THPVariable_Wrap(result) if isinstance(result, TensorImpl)
                      else structseq_for(schema.name, [r.name for r in schema.returns],
                                         schema.is_out, wrap_result(result)))
            py.set_result(result)
            return result

    def _dispatch(self, signature: PythonSignature, self_: Tensor | None,
                  parsed: ParsedArgs) -> tuple[FunctionSchema, Any]:
        """The ``case`` of the generated switch: unpack the arguments, call the overload;
        the schema called and its result."""
        given = parsed.given
        # the generated code builds the TensorOptions first, then reads the int lists
        device = device_type_of(parsed.values.get("device")) if "device" in given else None
        values = parsed.unpack()
        schema = signature.schema if "out" not in given else signature.out_schema
        assert schema is not None       # out= binds only a signature that has an out schema
        decl = REGISTRY[schema.full_name]
        if not decl.modelled:
            raise Refused(f"{self.name}(): {decl.reason} ({decl.schema})")
        if values.get("layout") is not None:
            raise Refused(f"{self.name}(): layout= is not modelled by tidx (only strided)")
        if values.get("pin_memory"):
            raise Refused(f"{self.name}(): pin_memory=True is not modelled by tidx")
        # the Python parameter each aten argument takes its value from
        if signature.deprecated_call is not None:
            # deprecated.yaml: the aten call names the Python arguments in its own order
            source = dict(zip((a.name for a in schema.arguments if not a.is_out),
                              signature.deprecated_call))
        else:
            source = {a.name: a.name for a in schema.arguments}
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        outs = [a for a in schema.arguments if a.is_out]
        if outs:
            # the generated out= case: check_out_type_matches (below), then the out
            # tensor passed as the _out overload's out argument -- or, for several returns,
            # ``auto out = _r.tensorlist_n<2>(N)`` and out[0], out[1] ... in the schema's order
            given_out = values.get("out")
            several = given_out if len(outs) > 1 else [given_out]
            if len(outs) > 1 and isinstance(several, (list, tuple)) and \
                    len(several) != len(outs):
                # PythonArgs::tensorlist_n (python_arg_parser.h)
                raise torch_error(TypeError, f"expected tuple of {len(outs)} elements but got "
                                             f"{len(several)}")
            if not (isinstance(several, (list, tuple)) and
                    all(isinstance(t, Tensor) for t in several)):
                raise Refused(f"{self.name}(): this out= is not modelled yet")
            # a factory's TensorOptions: check_out_type_matches (utils/out_types.cpp); a
            # reduction's dtype= is the operator's own argument, passed on
            functional = signature.schema if signature.schema is not None else schema
            if any(a.name == "device" for a in functional.arguments):
                if values.get("device") is not None:
                    raise Refused(f"{self.name}(): out= together with device= is not "
                                  f"modelled yet")
                dtype = values.get("dtype")
                if dtype is not None and unpack(several[0]).dtype is not dtype:
                    raise torch_error(RuntimeError, f"dtype {D.cpp_name(dtype)} does not "
                                      f"match dtype of out parameter "
                                      f"({D.cpp_name(unpack(several[0]).dtype)})")
            for arg, tensor in zip(outs, several):
                keywords[arg.name] = unpack(tensor)
        for arg in schema.arguments:
            if arg.is_out:
                continue                        # passed above
            if arg.name in ("layout", "pin_memory"):
                continue
            pyname = source.get(arg.name, arg.name)
            if pyname == "self" and self_ is not None:
                value: Any = unpack(self_)
            else:
                # torchgen names a Tensor self "input"; a Scalar self keeps its name
                # (remainder(Scalar self, Tensor other), bucketize.Scalar)
                pyname = "input" if pyname == "self" and "self" not in values else pyname
                if pyname == "device":
                    value = device
                elif pyname in given:
                    value = _aten_value(arg, values[pyname])
                    if arg.type.base == "Tensor" and not arg.type.is_list and \
                            _is_number(value):
                        # should_allow_numbers_as_tensors let it bind here (an int past
                        # int64 stays a number: the operator's checks give torch's error)
                        value = tensor_slow(value)
                elif pyname.isdigit():          # a constant in a deprecated call
                    value = int(pyname)
                else:                           # not given: the schema's own default
                    value = _aten_value(arg, _default(arg.default))
            if arg.kwarg_only:
                keywords[arg.name] = value
            else:
                positional.append(value)
        return schema, handle(decl)(*positional, **keywords)


AUTOGRAD_MAKE_VARIABLE = step("autograd::make_variable", Layer.BINDING,
                              source="torch/csrc/autograd/generated/variable_factories.h",
                              note="binding.make_variable", lecture=Lecture.HIDDEN)


def make_variable(result: TensorImpl) -> None:
    """requires_grad=True: torch::autograd::make_variable makes the tensor a leaf."""
    with span(AUTOGRAD_MAKE_VARIABLE):
        if not (result.dtype.is_floating_point or result.dtype.is_complex):
            raise torch_error(RuntimeError, "Only Tensors of floating point and complex dtype "
                                            "can require gradients")
        result.requires_grad = True


def function(name: str, shown: str | None = None) -> Callable[..., Any]:
    """``torch.<name>``, generated from the declarations of its function variant (shown
    as ``shown`` when torch's own Python calls it by another name, ``torch._VF.split``)."""
    binding = OperatorBinding(name, "function", shown)

    def fn(*args: Any, **kwargs: Any) -> Any:
        return binding(None, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    return fn


def method(name: str) -> Callable[..., Any]:
    """``Tensor.<name>``, generated from the declarations of its method variant."""
    binding = OperatorBinding(name, "method")

    def meth(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return binding(self, args, kwargs)

    meth.__name__ = meth.__qualname__ = name
    return meth


def generated_names(variant: str, module: str | None = None) -> list[str]:
    """Every public Python name of ``variant`` that torch generates a binding for in
    ``torch`` (or in ``torch.<module>``), from the declarations, sorted.  The names torch
    binds by hand although they are declared (``contiguous``, ``copy_``, ``nonzero``,
    ``item``, ``to`` ...: gen_python_functions' skip list) are written in
    :mod:`engine.binding.methods` and :mod:`engine.binding.functions`."""
    names = {d.name for d in REGISTRY.values() if d.namespace == "aten"
             and variant in d.variants and not d.name.startswith("_")
             and d.python_module == module}
    return sorted(n for n in names if not skips_binding(n))
