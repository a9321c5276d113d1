"""The PythonArgParser signatures torch derives from an operator's schemas.

A port of what torchgen (PyTorch 2.13) does to write ``static PythonArgParser
parser({...})`` in the generated bindings: ``signature_from_schema``,
``PythonArgument.argument_str``, ``argument_type_str`` and the default formatting of
torchgen/api/python.py; ``should_generate_py_binding``, ``load_deprecated_signatures``,
``group_overloads`` and ``sort_overloads`` of
torchgen/packaged/autograd/gen_python_functions.py.  It does not import torchgen: tidx
ships without torch.  For the few names torch binds by hand (``torch.tensor``,
``Tensor.copy_``, ``Tensor.contiguous``, ``nonzero``) it returns the texts of
torch/csrc/autograd/python_{torch_functions_manual,variable_methods}.cpp.

>>> from engine.dispatch.schema import FunctionSchema as F
>>> gather = [F.parse("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) "
...                   "-> Tensor"),
...           F.parse("gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, "
...                   "Tensor(a!) out) -> Tensor(a!)")]
>>> (sig,) = python_signatures(gather, "function")
>>> sig.text
'gather(Tensor input, int64_t dim, Tensor index, *, bool sparse_grad=False, Tensor out=None)'
>>> sig.schema.full_name, sig.out_schema.full_name
('aten::gather', 'aten::gather.out')
>>> [s.text for s in python_signatures(gather[:1], "method")]
['gather(int64_t dim, Tensor index, *, bool sparse_grad=False)']
>>> zeros = [F.parse("zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
...                  "Device? device=None, bool? pin_memory=None) -> Tensor")]
>>> python_signatures(zeros, "function")[0].text
'zeros(SymIntArrayRef size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False)'
>>> add = [F.parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")]
>>> dep = [("add(Tensor self, Scalar alpha, Tensor other) -> Tensor", "add(self, other, alpha)")]
>>> for s in python_signatures(add, "method", deprecated=dep):
...     print(s.text, s.deprecated_call)
add(Scalar alpha, Tensor other)|deprecated ('self', 'other', 'alpha')
add(Tensor other, *, Scalar alpha=1) None
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Collection, Mapping, Sequence, Union

from engine.dispatch.schema import Argument, FunctionSchema, Type

# -- gen_python_functions.py: what torch does not bind, or binds by hand ----------------
_SKIP_PYTHON_BINDINGS = [
    "alias", "contiguous", "dim", "get_device", "is_contiguous", "is_cuda", "is_sparse",
    "is_sparse_csr", "numel", "size", "storage_offset", "stride", "sym_is_contiguous",
    "sym_size", "sym_stride", "sym_storage_offset", "sym_numel", ".*_backward",
    ".*_backward_(out|input|weight|bias)", ".*_forward", ".*_forward_out", ".*_jvp",
    "_unsafe_view", "tensor", "_?sparse_(coo|compressed|csr|csc|bsr|bsc)_tensor.*",
    "_range.*", "_sparse_add_out", "_sparse_div.*", "_sparse_mul.*", "_sparse_sub.*",
    "_sparse_dense_add_out", "index", "index_out", "unique_dim_consecutive", "_cumsum.*",
    "_cumprod.*", "_sum.*", "_prod.*", "_th_.*", "_thnn_.*", "range.*", "_solve.*",
    "_inverse.*", "_cholesky.*", "_triangular_solve.*", "_qr.*", "_svd.*", "slice", "item",
    "_local_scalar_dense", "to", "_to_copy", "_to_copy_out", "_reshape_copy",
    "_reshape_copy_out", "copy_sparse_to_sparse_", "copy_", "_foreach_copy", "numpy_T",
    "matrix_H", "mT", "mH", "nonzero(_(out|numpy))?", "set_data", ".*_overrideable", "data",
    "is_leaf", "output_nr", "_version", "requires_grad_", "retains_grad", "set_",
    "_fw_primal", "fake_quantize_per_tensor_affine_cachemask",
    "fake_quantize_per_channel_affine_cachemask", "_new_zeros_with_same_feature_meta",
    "_has_same_storage_numel", "_reshape_alias", "replace_", "copy", "fill.Tensor",
    "fill.Scalar", "lift.*", "normal_functional", "nbytes", "itemsize",
    "_batch_norm_with_update", "_batch_norm_with_update_out", "_batch_norm_no_update",
]
# Compiling these 89 patterns as regexes cost ~10-20 ms of every cold start: the plain
# names are a set, ``X.*`` a prefix, ``.*X`` a suffix, and only the rest are regexes.
_PLAIN = frozenset(p for p in _SKIP_PYTHON_BINDINGS if re.escape(p) == p)
_PREFIXES = tuple(p[:-2] for p in _SKIP_PYTHON_BINDINGS
                  if p.endswith(".*") and re.escape(p[:-2]) == p[:-2])
_SUFFIXES = tuple(p[2:] for p in _SKIP_PYTHON_BINDINGS
                  if p.startswith(".*") and re.escape(p[2:]) == p[2:])
_PATTERNS = tuple(re.compile(p) for p in _SKIP_PYTHON_BINDINGS
                  if p not in _PLAIN and p[:-2] not in _PREFIXES and p[2:] not in _SUFFIXES)


def skips_binding(name: str) -> bool:
    """Whether gen_python_functions skips ``name``: one of the patterns above matches it
    whole, as torchgen's ``re.match(f"^{p}$", name)`` does.

    >>> [skips_binding(n) for n in ("item", "_sum_out", "add_backward", "nonzero_numpy", "add")]
    [True, True, True, True, False]
    """
    return (name in _PLAIN or name.startswith(_PREFIXES) or name.endswith(_SUFFIXES)
            or any(p.fullmatch(name) for p in _PATTERNS))

SKIP_PYTHON_BINDINGS_SIGNATURES = frozenset({
    "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
    "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
    "sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
    "mul.Scalar(Tensor self, Scalar other) -> Tensor",
    "mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
    "div.Scalar(Tensor self, Scalar other) -> Tensor",
    "div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
})

#: Hand-written parsers of skipped names: (name, variant) -> [(text, overload it calls,
#: out= overload)], as in python_torch_functions_manual.cpp / python_variable_methods.cpp.
MANUAL_SIGNATURES: dict[tuple[str, str], list[tuple[str, str | None, str | None]]] = {
    ("tensor", "function"): [
        ("tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, "
         "bool pin_memory=False, bool requires_grad=False)", None, None)],
    ("nonzero", "function"): [
        ("nonzero(Tensor input, *, bool as_tuple=False, Tensor out=None)", "nonzero",
         "nonzero.out")],
    ("nonzero", "method"): [("nonzero()", "nonzero", None),
                            ("nonzero(*, bool as_tuple)", "nonzero", None)],
    ("copy_", "method"): [("copy_(Tensor other, bool non_blocking=False)", "copy_", None),
                          ("copy_(Tensor other, bool async=False)|deprecated", "copy_", None)],
    ("contiguous", "method"): [
        ("contiguous(*, MemoryFormat memory_format=contiguous_format)", "contiguous", None)],
}


def cpp_name(schema: FunctionSchema) -> str:
    """torchgen's ``cpp.name``: the base name, with ``_out`` for out= overloads."""
    return schema.name + ("_out" if schema.is_out else "")


def should_generate_py_binding(schema: FunctionSchema) -> bool:
    """gen_python_functions.should_generate_py_binding (the ``generated`` tag aside)."""
    name = cpp_name(schema)
    if skips_binding(name):
        return False
    return str(schema) not in SKIP_PYTHON_BINDINGS_SIGNATURES


# -- torchgen/api/python.py ----------------------------------------------------------------
def _ts(t: Type) -> str:
    """``str(type)`` as torchgen's types print: no alias annotation."""
    return str(t.without_annotation())


def argument_type_str(t: Type, *, simple_type: bool = False) -> str:
    """torchgen ``argument_type_str(t, symint=True)``: the C++-ish type PythonArgParser reads."""
    if t.optional:
        inner = Type(t.base, t.elem_optional, t.is_list, t.size)
        return f"{argument_type_str(inner, simple_type=simple_type)}?"
    if t.is_list:
        size = t.size if not simple_type else None
        elem = _ts(t.elem)
        if elem == "bool":
            if t.size is None:
                raise ValueError("bool ListType must have a size")
            return f"::std::array<bool,{t.size}>"
        if elem == "int":
            return f"IntArrayRef[{size}]" if size is not None else "IntArrayRef"
        if elem == "SymInt":
            return f"SymIntArrayRef[{size}]" if size is not None else "SymIntArrayRef"
        if elem == "Tensor":
            return f"TensorList[{size}]" if size is not None else "TensorList"
        if elem == "Scalar":
            return f"ScalarList[{size}]" if size is not None else "ScalarList"
        if elem == "Tensor?":
            if simple_type:
                return "c10::List<::std::optional<Tensor>>"
            return "const c10::List<::std::optional<Tensor>> &"
        return f"ArrayRef<{argument_type_str(t.elem, simple_type=simple_type)}>"
    if t.base == "int":
        return "int64_t"
    if t.base == "float":
        return "double"
    if t.base == "str":
        return "c10::string_view"
    if t.base in ("Tensor", "bool", "QScheme", "Scalar", "ScalarType", "Generator", "Storage",
                  "Layout", "Device", "DeviceIndex", "MemoryFormat", "Stream", "SymInt",
                  "Dimname"):
        return t.base
    raise ValueError(f"unrecognized type {t}")


_JIT_TO_CPP_DEFAULT = {"False": "false", "True": "true", "None": "::std::nullopt",
                       "Mean": "at::Reduction::Mean", "[]": "{}",
                       "contiguous_format": "c10::MemoryFormat::Contiguous", "long": "at::kLong"}


def _default_expr(d: str, t: Type) -> str:
    """torchgen ``cpp.default_expr(d, t, symint=False)``."""
    if d == "None" and _ts(t) == "Tensor?":
        return "{}"
    if not t.optional and not t.is_list and t.base == "str":
        if len(d) >= 2 and d[0] == "'" and d[-1] == "'":
            s = ""
            i = 1
            while i + 1 < len(d):
                if d[i] != "\\":
                    s += '\\"' if d[i] == '"' else d[i]
                    i += 1
                else:
                    s += "'" if d[i + 1] == "'" else d[i:i + 2]
                    i += 2
            return f'"{s}"'
    if t.optional:
        if d == "None":
            return "::std::nullopt"
        return _default_expr(d, Type(t.base, t.elem_optional, t.is_list, t.size))
    if t.is_list:
        if d.startswith("[") and d.endswith("]"):
            return "{" + d[1:-1] + "}"
        if t.size is None:
            raise ValueError(f"Expected a list default '[...]' but found: '{d}'")
    return _JIT_TO_CPP_DEFAULT.get(d, d)


def _pythonify_default(s: str) -> object:
    """torchgen/gen.py ``pythonify_default``."""
    if s == "true":
        return True
    if s == "false":
        return False
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return s


@dataclass(frozen=True)
class _PyArg:
    """torchgen's PythonArgument (and PythonOutArgument: ``outputs`` non-empty)."""

    name: str
    type: Type
    default: str | None
    outputs: tuple["_PyArg", ...] = ()

    def argument_str(self, *, method: bool) -> str:
        type_str = argument_type_str(self.type).replace("const ", "").replace(" &", "")
        name = self.name
        if name == "self" and type_str in ("Tensor", "Number") and not method:
            name = "input"
        if self.default is not None:
            default = {"nullptr": "None", "::std::nullopt": "None", "std::nullopt": "None",
                       "{}": "None"}.get(self.default, self.default)
            return f"{type_str} {name}={default}"
        return f"{type_str} {name}"


def _argument(a: Argument) -> _PyArg:
    default = None
    if a.default is not None:
        default = str(_pythonify_default(_default_expr(a.default, a.type)))
    return _PyArg(a.name, a.type.without_annotation(), default)


def _out_argument(outputs: tuple[_PyArg, ...]) -> _PyArg | None:
    if not outputs:
        return None
    if len(outputs) == 1:
        return _PyArg(outputs[0].name, outputs[0].type, "None", outputs)
    if any(not o.type.is_tensor_like for o in outputs):
        raise ValueError(f"Unsupported output type: {outputs}")
    return _PyArg("out", Type("Tensor", is_list=True, size=len(outputs)), "None", outputs)


_TOPT = (("dtype", "ScalarType"), ("layout", "Layout"), ("device", "Device"),
         ("pin_memory", "bool"))


def _split_tensor_options(kwarg_only: Sequence[Argument]
                          ) -> tuple[list[Argument], list[Argument] | None, list[Argument]]:
    """Arguments.parse's grouping: dtype, layout, device, pin_memory in a row are the
    TensorOptions; the keyword-only arguments before and after them stay apart."""
    pre: list[Argument] = []
    post: list[Argument] = []
    topts: list[Argument] | None = None
    acc = pre
    i = 0
    while i < len(kwarg_only):
        window = kwarg_only[i:i + 4]
        if len(window) == 4 and all(
                a.name == n and a.type.without_annotation() in (Type(b), Type(b, optional=True))
                for a, (n, b) in zip(window, _TOPT)):
            if topts is not None:
                raise ValueError("tensor options arguments can only appear once")
            topts = list(window)
            acc = post
            i += 4
            continue
        acc.append(kwarg_only[i])
        i += 1
    return pre, topts, post


@dataclass(frozen=True)
class _PySig:
    """torchgen's PythonSignature / PythonSignatureDeprecated."""

    name: str
    input_args: tuple[_PyArg, ...]
    input_kwargs: tuple[_PyArg, ...]
    output_args: _PyArg | None
    tensor_options_args: tuple[_PyArg, ...]
    method: bool
    deprecated: bool = False

    def arguments(self, *, skip_outputs: bool = False) -> tuple[_PyArg, ...]:
        result = list(self.input_args) + list(self.input_kwargs)
        if self.output_args is not None and not skip_outputs:
            result.append(self.output_args)
        return tuple(result + list(self.tensor_options_args))

    def signature_str(self, *, skip_outputs: bool = False) -> str:
        formals = [a.argument_str(method=self.method)
                   for a in self.arguments(skip_outputs=skip_outputs)]
        if len(formals) > len(self.input_args):
            formals.insert(len(self.input_args), "*")
        text = f"{self.name}({', '.join(formals)})"
        return text + "|deprecated" if self.deprecated else text


def signature_from_schema(func: FunctionSchema, *, method: bool,
                          category_override: str | None = None,
                          deprecated: bool = False) -> _PySig:
    """torchgen ``signature_from_schema``."""
    positional = list(func.positional)
    kwarg_only = list(func.kwarg_only)
    pre, topts, post = _split_tensor_options(kwarg_only)
    args: list[Argument] = [a for a in positional if not (method and a.name == "self")]
    args += pre + post + list(func.out)
    kw_names = {a.name for a in kwarg_only}
    input_args = tuple(_argument(a) for a in args if not a.kwarg_only)
    input_kwargs = tuple(_argument(a) for a in args if a.name in kw_names)
    outputs = tuple(_argument(a) for a in args if a.is_out)
    flat_non_out = positional + kwarg_only
    has_tensor_input_arg = any(a.type.is_tensor_like for a in flat_non_out)
    if any(a.name == "requires_grad" for a in func.arguments):
        raise ValueError("argument named requires_grad is reserved, should not explicitly "
                         "add it in the schema")
    has_tensor_return = any(r.type.is_tensor_like for r in func.returns)
    name = cpp_name(func)
    is_factory = category_override == "factory" or (has_tensor_return
                                                      and not has_tensor_input_arg)
    is_like_or_new = (category_override in ("new", "like") or name.startswith("new_")
                      or name.endswith("_like"))
    tensor_options: tuple[_PyArg, ...] = ()
    if (is_factory or is_like_or_new) and category_override != "dummy":
        tensor_options = (
            _PyArg("dtype", Type("ScalarType", optional=True), "None"),
            _PyArg("layout", Type("Layout", optional=True), "None"),
            _PyArg("device", Type("Device", optional=True), "None"),
            _PyArg("pin_memory", Type("bool", optional=True), "False"),
            _PyArg("requires_grad", Type("bool", optional=True), "False"),
        )
    return _PySig(func.name, input_args, input_kwargs, _out_argument(outputs),
                  tensor_options, method, deprecated)


# -- the result ------------------------------------------------------------------------------
@dataclass(frozen=True)
class PythonSignature:
    """One string of a PythonArgParser, and what a call that binds it dispatches to.

    ``schema`` is called when ``out`` is None (or absent); ``out_schema`` when an out=
    tensor is given.  A deprecated signature (``|deprecated``) calls ``schema`` with its
    arguments rearranged as ``deprecated_call`` names them (``1`` is the constant one).
    Manual signatures of ``torch.tensor`` have no schema.
    """

    text: str
    schema: FunctionSchema | None
    out_schema: FunctionSchema | None = None
    deprecated_call: tuple[str, ...] | None = None

    @property
    def deprecated(self) -> bool:
        return self.text.endswith("|deprecated")

    @property
    def hidden(self) -> bool:
        return self.text.endswith("|hidden") or self.deprecated


@dataclass(frozen=True)
class DeprecatedSignature:
    """An entry of tools/autograd/deprecated.yaml: ``name:`` (a schema) and ``aten:``
    (the call it makes, e.g. ``add_out(out, self, other, alpha)``)."""

    schema: FunctionSchema
    aten: str

    @staticmethod
    def parse(name: str, aten: str) -> "DeprecatedSignature":
        return DeprecatedSignature(FunctionSchema.parse(name), aten)

    @property
    def call(self) -> tuple[str, tuple[str, ...]]:
        """``split_name_params``: the aten name and the argument names of the call."""
        m = re.match(r"(\w+)\((.*)\)", self.aten)
        if m is None:
            raise ValueError(f"malformed deprecated call '{self.aten}'")
        params = tuple(p.strip() for p in m.group(2).split(",")) if m.group(2) else ()
        return m.group(1), params


DeprecatedLike = Union[DeprecatedSignature, tuple[str, str], Mapping[str, str]]


@dataclass(frozen=True)
class _Pair:
    signature: _PySig
    function: FunctionSchema
    call: tuple[str, ...] | None = None


def _as_deprecated(d: DeprecatedLike) -> DeprecatedSignature:
    if isinstance(d, DeprecatedSignature):
        return d
    if isinstance(d, tuple):
        return DeprecatedSignature.parse(*d)
    return DeprecatedSignature.parse(d["name"], d["aten"])


def _load_deprecated(pairs: Sequence[_Pair], deprecated: Sequence[DeprecatedLike], *,
                     method: bool, category_overrides: Mapping[str, str]) -> list[_Pair]:
    """gen_python_functions.load_deprecated_signatures."""
    grouped: dict[str, list[_Pair]] = defaultdict(list)
    for pair in pairs:
        grouped[pair.signature.name].append(pair)
    results: list[_Pair] = []
    for entry in map(_as_deprecated, deprecated):
        schema = entry.schema
        aten_name, call_args = entry.call
        is_out = aten_name.endswith("_out")
        if is_out:
            aten_name = aten_name.replace("_out", "")
        if aten_name not in grouped:
            continue          # another name's entry
        by_name = {a.name: a for a in schema.arguments}
        for n in call_args:
            if n not in by_name and n != "1":
                raise ValueError(f"deprecation definition: Unrecognized value {n}")

        def compatible(aten: FunctionSchema) -> bool:
            arguments = (list(aten.out) + [a for a in aten.arguments if not a.is_out]
                         if is_out else list(aten.arguments))
            for i, arg in enumerate(arguments):
                if i < len(call_args):
                    expected = Type("Scalar") if call_args[i] == "1" else by_name[call_args[i]].type
                    if expected != arg.type:
                        return False
                elif arg.default is None:
                    return False
            return (len(schema.returns) == len(aten.returns)
                    and all(str(a) == str(b) for a, b in zip(schema.returns, aten.returns)))

        # torchgen raises when no overload matches; here the schemas of the other
        # variant are not given (add.out is no method), so such an entry is not ours
        for pair in grouped[aten_name]:
            if not compatible(pair.function):
                continue
            sig = signature_from_schema(
                schema, method=method, deprecated=True,
                category_override=category_overrides.get(_overload_name(pair.function)))
            results.append(_Pair(sig, pair.function, call_args))
    return results


def _overload_name(s: FunctionSchema) -> str:
    return f"{s.name}.{s.overload}" if s.overload else s.name


def group_overloads(overloads: Sequence[_Pair]) -> list[tuple[_PySig, _Pair, _Pair | None]]:
    """gen_python_functions.group_overloads: an out= overload joins the functional
    overload whose signature, outputs skipped, is the same."""
    bases: dict[str, _Pair] = {}
    outplaces: dict[str, _Pair] = {}
    for overload in overloads:
        sig = overload.signature.signature_str(skip_outputs=True)
        table = outplaces if overload.function.is_out else bases
        if sig in table:
            raise ValueError(f"Found duplicated function definition:\n- {overload.function}.\n"
                             f"Existing definition:\n- {table[sig].function}.")
        table[sig] = overload
    for sig, out in outplaces.items():
        if sig not in bases:
            raise ValueError(f"While identifying overloads, we found an out schema "
                             f"{out.signature.signature_str()} without a corresponding "
                             f"non-out variant. We expected the non-out variant to have "
                             f"schema: \n- {sig}")
    grouped: list[tuple[_PySig, _Pair, _Pair | None]] = []
    for sig, base in bases.items():
        found = outplaces.get(sig)
        signature = base.signature
        if found is not None:
            out = found
            # the out= signature parses both; TensorOptions come from the functional one
            signature = _PySig(out.signature.name, out.signature.input_args,
                               out.signature.input_kwargs, out.signature.output_args,
                               base.signature.tensor_options_args, out.signature.method,
                               out.signature.deprecated)
        grouped.append((signature, base, found))
    return sort_overloads(grouped)


def sort_overloads(grouped: list[tuple[_PySig, _Pair, _Pair | None]]
                   ) -> list[tuple[_PySig, _Pair, _Pair | None]]:
    """gen_python_functions.sort_overloads: alphabetical, then a signature whose
    arguments are each "smaller" (Scalar before Tensor, int[] before int, ...) first."""

    def is_arg_smaller(t1: Type, t2: Type) -> bool:
        s1, s2 = _ts(t1), _ts(t2)
        return ((s1 == "Scalar" and s2 == "Tensor") or (s1 == "Scalar?" and s2 == "Tensor?")
                or (s1 == "int[]" and s2 in ("int", "int?"))
                or (s1 == "Tensor[]" and "[]" in s2)
                or (s1 == "SymInt[]" and s2 == "int[]")
                or (s1 in ("SymInt", "int") and s2 == "Tensor"))

    def is_smaller(a: _PySig, b: _PySig) -> bool:
        args1, args2 = a.arguments(skip_outputs=True), b.arguments(skip_outputs=True)
        if len(args1) != len(args2):
            return False
        equal = all(x.type == y.type for x, y in zip(args1, args2))
        smaller_or_equal = all(_ts(x.type) == _ts(y.type) or is_arg_smaller(x.type, y.type)
                               for x, y in zip(args1, args2))
        return smaller_or_equal and not equal

    grouped = sorted(grouped, key=lambda g: g[0].signature_str())
    larger_than: dict[int, set[int]] = defaultdict(set)
    for i1, g1 in enumerate(grouped):
        for i2, g2 in enumerate(grouped):
            if is_smaller(g1[0], g2[0]):
                larger_than[i1].add(i2)
    if not larger_than:
        return list(grouped)
    n = len(grouped)
    sorted_ids = [i for i in range(n) if i not in larger_than]
    for idx in range(n):
        i = sorted_ids[idx]
        for j in sorted(larger_than.keys()):
            larger = larger_than[j]
            larger.discard(i)
            if not larger:
                del larger_than[j]
                sorted_ids.append(j)
    return [grouped[x] for x in sorted_ids]


def is_noarg(signatures: Sequence[PythonSignature]) -> bool:
    """gen_python_functions.is_noarg: one overload with no parameters.  Torch binds such
    a method METH_NOARGS, with no PythonArgParser (see arg_parser.check_noarg_method);
    such a function (``torch.is_vulkan_available``) has no parser either and ignores
    whatever arguments it is given.

    >>> is_noarg([PythonSignature("neg()", None)])
    True
    >>> is_noarg([PythonSignature("neg(Tensor input)", None)])
    False
    """
    return (len(signatures) == 1 and signatures[0].out_schema is None
            and signatures[0].text.endswith("()"))


def manual_signatures(name: str, variant: str, schemas: Sequence[FunctionSchema] = ()
                      ) -> list[PythonSignature]:
    """The hand-written parser strings of a name torchgen skips (``[]`` if none),
    paired with those of ``schemas`` they call.

    >>> [s.text for s in manual_signatures("nonzero", "method")]
    ['nonzero()', 'nonzero(*, bool as_tuple)']
    """
    by_overload = {_overload_name(s): s for s in schemas}
    return [PythonSignature(text, by_overload.get(base) if base else None,
                            by_overload.get(out) if out else None)
            for text, base, out in MANUAL_SIGNATURES.get((name, variant), [])]


def python_signatures(schemas: Sequence[FunctionSchema], variant: str, *,
                      deprecated: Sequence[DeprecatedLike] = (),
                      category_overrides: Mapping[str, str] | None = None,
                      generated: Collection[str] = ()) -> list[PythonSignature]:
    """The PythonArgParser strings of one Python name, in torch's order.

    ``schemas``: every overload of one operator name (``add.Tensor``, ``add.out``, ...;
    ``add_`` is another name) that has this ``variant`` (``"function"`` for
    ``torch.add``, ``"method"`` for ``Tensor.add``).  ``deprecated``: entries of
    deprecated.yaml (``(name, aten)`` pairs or :class:`DeprecatedSignature`); those of
    other names are ignored.  ``category_overrides``: native_functions.yaml's
    ``category_override`` by ``name.overload``; ``generated``: the ``name.overload`` of
    schemas tagged ``generated`` (not ``view_copy``), which get no binding (the
    autogenerated ``zeros_like.out``...).
    """
    if variant not in ("function", "method"):
        raise ValueError(f"variant must be 'function' or 'method', not {variant!r}")
    names = {s.name for s in schemas}
    if len(names) > 1:
        raise ValueError(f"one Python name at a time, got {sorted(names)}")
    if not names:
        return []
    (name,) = names
    overrides = category_overrides or {}
    method = variant == "method"
    bound = [s for s in schemas
             if should_generate_py_binding(s) and _overload_name(s) not in generated]
    if not bound:
        return manual_signatures(name, variant, schemas)
    pairs = [_Pair(signature_from_schema(s, method=method,
                                         category_override=overrides.get(_overload_name(s))),
                   s) for s in bound]
    pairs += _load_deprecated(pairs, deprecated, method=method, category_overrides=overrides)
    result = []
    for sig, base, out in group_overloads(pairs):
        result.append(PythonSignature(sig.signature_str(), base.function,
                                      out.function if out is not None else None,
                                      base.call))
    return result


__all__ = ["PythonSignature", "DeprecatedSignature", "python_signatures", "manual_signatures",
           "is_noarg",
           "should_generate_py_binding", "signature_from_schema", "argument_type_str",
           "MANUAL_SIGNATURES"]
