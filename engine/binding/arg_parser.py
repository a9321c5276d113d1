"""PythonArgParser: how torch's Python bindings bind arguments, and the TypeErrors they raise.

A port of torch/csrc/utils/python_arg_parser.cpp (``FunctionParameter``,
``FunctionSignature::parse``, ``PythonArgParser::raw_parse``/``print_error``,
``PythonArgs::intlist``/``symintlist``) and torch/csrc/utils/invalid_arguments.cpp
(``format_invalid_args``, in :mod:`engine.binding.invalid_arguments`) of PyTorch 2.13.  A parser is built from the C++-format
strings torchgen writes (see :mod:`engine.binding.python_signatures`):

>>> p = PythonArgParser(["gather(Tensor input, int64_t dim, Tensor index, *, "
...                      "bool sparse_grad=False, Tensor out=None)"])
>>> p.parse(None, (0, 1, [[0]]), {})
Traceback (most recent call last):
...
TypeError: gather(): argument 'input' (position 1) must be Tensor, not int
>>> v = PythonArgParser(["view(ScalarType dtype)", "view(SymIntArrayRef size)"])
>>> r = v.parse(None, (2, 3), {})
>>> r.index, r["size"]
(1, (2, 3))
>>> v.parse(None, (object(),), {})
Traceback (most recent call last):
...
TypeError: view() received an invalid combination of arguments - got (object), but expected one of:
 * (torch.dtype dtype)
      didn't match because some of the arguments have invalid types: (!object!)
 * (tuple of ints size)
      didn't match because some of the arguments have invalid types: (!object!)
<BLANKLINE>

It never imports torch: engine objects stand for torch's (an engine Tensor is a
``Tensor``, an engine dtype a ``torch.dtype``...), and are printed with torch's type names.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, NoReturn, Sequence


from engine.core import dtypes as D
from engine.core.errors import Refused, torch_error, tp_name
from engine.binding.function_parameter import (NUMBERS_AS_TENSORS, FunctionParameter, P,
                                               ParameterType, TYPE_NAMES, check_long,
                                               is_int_or_symint_list, is_tensor)
from engine.binding.tensor import unpack
from engine.dispatch.aten import aten






class FunctionSignature:
    """One signature string: ``name(params)`` with ``|hidden`` or ``|deprecated``."""

    def __init__(self, fmt: str, index: int = 0) -> None:
        self.text = fmt
        self.index = index
        open_paren = fmt.find("(")
        if open_paren == -1:
            raise ValueError(f"missing opening parenthesis: {fmt}")
        self.name = fmt[:open_paren]
        numbers_as_tensors = self.name in NUMBERS_AS_TENSORS
        self.params: list[FunctionParameter] = []
        last = open_paren + 1
        keyword_only = False
        while True:
            offset = fmt.find(", ", last)
            nxt = offset + 2
            done = offset == -1
            if done:
                offset = fmt.find(")", last)
                nxt = offset + 1
                if offset == last:        # fn()
                    last = nxt
                    break
            if offset == -1:
                raise ValueError(f"missing closing parenthesis: {fmt}")
            if offset == last:
                raise ValueError(f"malformed signature: {fmt}")
            piece = fmt[last:offset]
            last = nxt
            if piece == "*":
                keyword_only = True
            else:
                param = FunctionParameter(piece, keyword_only)
                param.allow_numbers_as_tensors = numbers_as_tensors
                self.params.append(param)
            if done:
                break
        suffix = fmt[last:]
        self.deprecated = suffix == "|deprecated"
        self.hidden = self.deprecated or suffix == "|hidden"
        self.max_args = len(self.params)
        self.min_args = sum(not p.optional for p in self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)

    def __repr__(self) -> str:
        return f"<FunctionSignature {self.name}{self.toString()}>"

    def toString(self) -> str:  # noqa: N802 - torch's name
        """FunctionSignature::toString: ``(Tensor other, *, Number alpha = 1)``."""
        parts = []
        keyword_already = False
        for p in self.params:
            text = ""
            if p.keyword_only and not keyword_already:
                text = "*, "
                keyword_already = True
            text += f"{p.type_name()} {p.name}"
            if p.optional:
                text += f" = {p.default_value}"
            parts.append(text)
        return "(" + ", ".join(parts) + ")"

    __str__ = toString

    # -- errors ----------------------------------------------------------------------------
    def _extra_args(self, nargs: int) -> NoReturn:
        if self.min_args != self.max_pos_args:
            raise torch_error(TypeError, f"{self.name}() takes from {self.min_args} to "
                                         f"{self.max_pos_args} positional arguments but "
                                         f"{nargs} were given")
        s = "" if self.max_pos_args == 1 else "s"
        were = "was" if nargs == 1 else "were"
        raise torch_error(TypeError, f"{self.name}() takes {self.max_pos_args} positional "
                                     f"argument{s} but {nargs} {were} given")

    def _missing_args(self, idx: int) -> NoReturn:
        names = [f'"{p.name}"' for p in self.params[idx:] if not p.optional]
        s = "s" if len(names) == 1 else ""          # (sic)
        raise torch_error(TypeError, f"{self.name}() missing {len(names)} required positional "
                                     f"argument{s}: {', '.join(names)}")

    def _extra_kwargs(self, kwargs: dict, num_pos_args: int) -> NoReturn:
        names = [p.name for p in self.params]
        for key in kwargs:
            if not isinstance(key, str):
                raise torch_error(TypeError, "keywords must be strings")
            if key not in names:
                raise torch_error(TypeError, f"{self.name}() got an unexpected keyword "
                                             f"argument '{key}'")
            if names.index(key) < num_pos_args:
                raise torch_error(TypeError, f"{self.name}() got multiple values for "
                                             f"argument '{key}'")
        raise torch_error(TypeError, "invalid keyword arguments")

    # -- FunctionSignature::parse ------------------------------------------------------
    def parse(self, self_: Any, args: tuple, kwargs: dict | None,
              raise_exception: bool) -> list[Any] | None:
        """The bound objects, one per parameter (``_ABSENT`` where none was given, or
        None given to a parameter that allows it), or None when the call does not bind
        (``raise_exception``: raise this signature's TypeError instead).

        ``self_`` (the tensor of a method call) only matters to ``__torch_function__``
        in torch; it is accepted and ignored here."""
        kwargs = kwargs or None          # Python passes no dict when there are no keywords
        nargs = len(args)
        remaining = len(kwargs) if kwargs else 0
        arg_pos = 0
        # a single positional int list takes varargs: expand(5, 3) is expand((5, 3))
        allow_varargs = (self.max_pos_args == 1
                         and self.params[0].type_ in (P.INT_LIST, P.SYM_INT_LIST)
                         and is_int_or_symint_list(args, self.params[0].size)[0])
        if nargs > self.max_pos_args and not allow_varargs:
            if raise_exception:
                self._extra_args(nargs)
            return None
        dst: list[Any] = []
        for i, param in enumerate(self.params):
            obj: Any = _ABSENT
            is_kwd = False
            if arg_pos < nargs:
                if param.keyword_only:
                    if raise_exception:
                        self._extra_args(nargs)
                    return None
                obj = args[arg_pos]
            elif kwargs is not None:
                obj = kwargs.get(param.name, _ABSENT)
                for numpy_name in param.numpy_python_names:
                    if obj is not _ABSENT:
                        break
                    obj = kwargs.get(numpy_name, _ABSENT)
                is_kwd = True
            failed_idx = -1
            varargs_eligible = allow_varargs and arg_pos == 0 and not is_kwd
            if (obj is _ABSENT and param.optional) or (obj is None and param.allow_none):
                dst.append(_ABSENT)
            elif obj is _ABSENT:
                if raise_exception:
                    self._missing_args(i)
                return None
            else:
                ok, failed_idx = param.check(obj, i)
                if ok:
                    dst.append(obj)
                else:
                    if varargs_eligible:
                        ok, failed_idx = is_int_or_symint_list(args, param.size)
                        if ok:           # permute(1, 2, 3) -> permute((1, 2, 3))
                            dst.append(tuple(args))
                            arg_pos = nargs
                            continue
                    if not raise_exception:
                        return None
                    self._type_error(param, obj, is_kwd, arg_pos, failed_idx, args)
            if not is_kwd:
                arg_pos += 1
            elif obj is not _ABSENT:
                remaining -= 1
        if remaining > 0:
            if raise_exception:
                self._extra_kwargs(kwargs or {}, nargs)
            return None
        return dst

    def _type_error(self, param: FunctionParameter, obj: Any, is_kwd: bool, arg_pos: int,
                    failed_idx: int, args: tuple) -> NoReturn:
        n, t = param.name, param.type_name()
        if is_kwd:
            raise torch_error(TypeError, f"{self.name}(): argument '{n}' must be {t}, not "
                                         f"{tp_name(obj)}")
        if failed_idx != -1:
            seq = obj if isinstance(obj, (tuple, list)) else args
            raise torch_error(TypeError, f"{self.name}(): argument '{n}' (position "
                                         f"{arg_pos + 1}) must be {t}, but found element of "
                                         f"type {tp_name(seq[failed_idx])} at pos {failed_idx}")
        raise torch_error(TypeError, f"{self.name}(): argument '{n}' (position {arg_pos + 1}) "
                                     f"must be {t}, not {tp_name(obj)}")


class _Absent:
    """An argument not given (a null ``PyObject*`` in ``dst``)."""

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT = _Absent()


@dataclass
class ParsedArgs:
    """What PythonArgParser::parse returns: which signature bound, and the values.

    ``index``: the signature's position in the list the parser was built from;
    ``values``: every parameter by name -- the object given, else the signature's
    default (None for ``=None``, and for a parameter given None); ``given``: the names
    of the parameters given something other than None; ``warning``: torch's
    deprecation warning when a ``|deprecated`` signature bound (TORCH_WARN_ONCE).

    ``parsed[name]`` is the value as the binding reads it: an int list unpacked to a
    tuple of ints as ``PythonArgs::intlist`` does, raising its "failed to unpack"
    error then -- when the generated code reads it, after its TensorOptions and out=
    checks.  :meth:`unpack` reads every int list in the order a dispatch call's
    arguments are evaluated (last to first)."""

    index: int
    signature: FunctionSignature
    values: dict[str, Any]
    given: frozenset[str]
    warning: str | None = None

    def __post_init__(self) -> None:
        self._unpacked: dict[str, Any] = {}   # int lists, and numbers read off tensors

    def __getitem__(self, name: str) -> Any:
        if name in self._unpacked:
            return self._unpacked[name]
        value = self.values[name]
        if name in self.given:
            param = next(p for p in self.signature.params if p.name == name)
            if param.type_ in (P.INT_LIST, P.SYM_INT_LIST):
                value = self._unpacked[name] = _unpack_intlist(self.signature, param, value)
            elif param.type_ in (P.INT64, P.SYM_INT) and type(value) is int:
                unpack_long(value)      # PythonArgs::toInt64 / toSymInt
            elif is_tensor(value) and param.type_ in (P.INT64, P.SYM_INT, P.DOUBLE, P.SCALAR):
                # a one-element tensor where a number goes: toInt64's THPUtils_unpackLong
                # calls Tensor.__index__, toDouble's PyFloat_AsDouble Tensor.__float__,
                # scalar_slow the C++ item() (no Python method) -- each an aten::item the
                # profiler records
                value = self._unpacked[name] = (
                    value.__index__() if param.type_ in (P.INT64, P.SYM_INT) else
                    float(value) if param.type_ is P.DOUBLE else
                    aten.item.default(unpack(value)))
            elif param.type_ is P.SCALAR and type(value) is int and \
                    not -(2 ** 63) <= value < 2 ** 64:
                # scalar_slow: past int64 a Python int is tried as uint64 (CPython's words)
                raise torch_error(OverflowError, "can't convert negative int to unsigned"
                                  if value < 0 else "int too big to convert")
        return value

    def unpack(self) -> dict[str, Any]:
        """Every value as the binding reads it (int lists last to first, as GCC
        evaluates the dispatch call's arguments)."""
        for p in reversed(self.signature.params):
            self[p.name]
        return {p.name: self[p.name] for p in self.signature.params}

    def is_none(self, name: str) -> bool:
        """PythonArgs::isNone: not given, or given None."""
        return name not in self.given


class PythonArgParser:
    """All the signatures of one Python name (``torch.add`` or ``Tensor.add``)."""

    def __init__(self, signatures: Sequence[str]) -> None:
        sigs = [FunctionSignature(fmt, i) for i, fmt in enumerate(signatures)]
        self.max_args = max((s.max_args for s in sigs), default=0)
        self.function_name = sigs[0].name if sigs else ""
        # check deprecated signatures last (std::stable_partition)
        self.signatures = [s for s in sigs if not s.deprecated] + [s for s in sigs
                                                                     if s.deprecated]

    def __repr__(self) -> str:
        return f"<PythonArgParser {[s.text for s in self.signatures]}>"

    def get_signatures(self) -> list[str]:
        return [s.toString() for s in self.signatures if not s.hidden]

    def parse(self, self_: Any, args: tuple, kwargs: dict | None) -> ParsedArgs:
        """PythonArgParser::parse: the signature that binds, and the objects bound."""
        sig, dst = self.raw_parse(self_, tuple(args), kwargs or {})
        values: dict[str, Any] = {}
        given = set()
        for p, obj in zip(sig.params, dst):
            if obj is _ABSENT:
                values[p.name] = p.default
            else:
                values[p.name] = obj
                given.add(p.name)
        return ParsedArgs(sig.index, sig, values, frozenset(given),
                          self._deprecation_warning(sig))

    def raw_parse(self, self_: Any, args: tuple, kwargs: dict
                  ) -> tuple[FunctionSignature, list[Any]]:
        if len(self.signatures) == 1:
            sig = self.signatures[0]
            dst = sig.parse(self_, args, kwargs, True)
            assert dst is not None      # raise_exception: a call it does not bind raised
            return sig, dst
        for sig in self.signatures:
            dst = sig.parse(self_, args, kwargs, False)
            if dst is not None:
                return sig, dst
        self.print_error(self_, args, kwargs)

    def print_error(self, self_: Any, args: tuple, kwargs: dict) -> NoReturn:
        """The one plausible signature (right number of arguments, not hidden) raises
        its own error; otherwise "received an invalid combination of arguments"."""
        num_args = len(args) + len(kwargs or {})
        plausible = [s for s in self.signatures
                     if s.min_args <= num_args <= s.max_args and not s.hidden]
        if len(plausible) == 1:
            plausible[0].parse(self_, args, kwargs, True)
        # (imported here: only a call that matches no signature needs it, issue #25)
        from engine.binding.invalid_arguments import format_invalid_args

        raise torch_error(TypeError, format_invalid_args(args, kwargs or {},
                                                         self.function_name + "()",
                                                         self.get_signatures()))

    def _deprecation_warning(self, sig: FunctionSignature) -> str | None:
        if not sig.deprecated:
            return None
        msg = f"This overload of {sig.name} is deprecated:\n\t{sig.name}{sig.toString()}"
        others = self.get_signatures()
        if others:
            msg += "\nConsider using one of the following signatures instead:"
            msg += "".join(f"\n\t{sig.name}{s}" for s in others)
        return msg


def check_noarg_method(name: str, args: tuple, kwargs: dict | None) -> None:
    """A method torch binds METH_NOARGS (one overload with no parameters: ``t.neg()``,
    see python_signatures.is_noarg) has no parser: CPython refuses any argument.

    >>> check_noarg_method("neg", (1,), {})
    Traceback (most recent call last):
    ...
    TypeError: TensorBase.neg() takes no arguments (1 given)
    """
    if kwargs:
        raise torch_error(TypeError, f"TensorBase.{name}() takes no keyword arguments")
    if args:
        raise torch_error(TypeError, f"TensorBase.{name}() takes no arguments "
                                     f"({len(args)} given)")


def unpack_long(value: int) -> int:
    """THPUtils_unpackLong (torch/csrc/utils/python_numbers.h): a Python int must fit in
    int64, else ValueError."""
    if not -(2 ** 63) <= value < 2 ** 63:
        raise torch_error(ValueError, "Overflow when unpacking long long")
    return int(value)


def _unpack_intlist(sig: FunctionSignature, p: FunctionParameter, arg: Any) -> tuple[int, ...]:
    """PythonArgs::intlist / symintlist: a single int (for ``IntArrayRef[N]``) repeats
    N times; each element unpacks with THPUtils_unpackIndex; a failure names its
    position (from 1)."""
    size1 = p.size
    if size1 > 0 and check_long(arg):
        return (unpack_long(int(arg)),) * size1     # unpacked outside the try: as is
    if size1 > 0 and is_tensor(arg):
        return (int(arg.item()),) * size1
    values = []
    for idx, obj in enumerate(arg):
        if type(obj) is int:
            values.append(_unpack_long(sig, p, obj, idx))
        elif is_tensor(obj):
            if obj.numel() != 1 or not D.is_integral(obj.dtype, include_bool=True):
                _intlist_error(sig, p, obj, idx)
            if p.type_ is P.SYM_INT_LIST and obj.dtype is D.bool:
                # symintlist: TORCH_CHECK(scalar.isIntegral(/*includeBool=*/false))
                raise torch_error(RuntimeError, _ISINTEGRAL_FAILED)
            values.append(int(obj.item()))
        else:
            try:
                index = obj if check_long(obj) else operator.index(obj)
            except Exception:  # noqa: BLE001 - PyNumber_Index failed
                _intlist_error(sig, p, obj, idx)
            values.append(_unpack_long(sig, p, int(index), idx))
    if p.type_ is P.SYM_INT_LIST and any(v < SYMBOLIC_BELOW for v in values):
        # c10::SymInt keeps ints below -2**62 as heap-allocated nodes (SymInt.h
        # check_range); the generated wrapper's C10_AS_INTARRAYREF_SLOW then fails with a
        # message naming torch's build tree and line, which tidx cannot know
        raise Refused(f"{sig.name}(): a size below -2**62 is a symbolic integer in torch "
                      "(c10::SymInt), not modelled by tidx")
    return tuple(values)


#: c10::SymInt::MAX_UNREPRESENTABLE_INT + 1: ints below it are not stored inline
SYMBOLIC_BELOW = -(2 ** 62)


_ISINTEGRAL_FAILED = ("Expected scalar.isIntegral( false) to be true, but got false.  (Could "
                      "this error message be improved?  If so, please report an enhancement "
                      "request to PyTorch.)")


def _unpack_long(sig: FunctionSignature, p: FunctionParameter, value: int, idx: int) -> int:
    """THPUtils_unpackLong: an int64, or torch's overflow error."""
    value = int(value)
    if -(2 ** 63) <= value < 2 ** 63:
        return value
    # torch appends a C++ backtrace to this message; tidx cannot
    _intlist_error(sig, p, value, idx, "Overflow when unpacking long long")


def _intlist_error(sig: FunctionSignature, p: FunctionParameter, obj: Any, idx: int,
                   error: str | None = None) -> NoReturn:
    error = error or f"type must be {p.type_name()},but got {tp_name(obj)}"
    raise torch_error(TypeError, f"{sig.name}(): argument '{p.name}' failed to unpack the "
                                 f"object at pos {idx + 1} with error \"{error}\"")


__all__ = ["PythonArgParser", "FunctionSignature", "FunctionParameter", "ParsedArgs",
           "check_noarg_method", "ParameterType", "TYPE_NAMES",
           "tp_name"]
