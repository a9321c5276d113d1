"""One declaration per operator, as PyTorch's native_functions.yaml declares it.

An operator is declared once, beside its kernel::

    @declare("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
             variants="method, function", kind=FUNCTIONAL,
             native="at::native::gather_out (structured)", source=ADV)
    def gather(self, dim, index, sparse_grad=False):
        ...

The schema string is native_functions.yaml's ``func:`` entry, character for character,
and ``variants`` its ``variants:`` (tests compare both with the yaml of torch 2.13).
From the declarations come the dispatch (:mod:`engine.dispatch.dispatcher` looks the
kernel up by the schema's full name, ``aten::gather`` or ``aten::add.Tensor``), and the
Python binding (:mod:`engine.binding`): the ``torch.*`` function, the Tensor method,
the argument parsing with PyTorch's TypeErrors, and the interpreter's allow-list.

An overload that torch binds in Python but tidx does not model is declared with
:func:`not_modelled`: the parser still knows its signature (so PyTorch's "expected one
of" messages list it), and a call that matches it is refused in one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.dispatch.at_dispatch import AtDispatch
from engine.dispatch.schema import FunctionSchema

#: What a declaration says an operator is; it decides the kernels a call passes
#: (see engine.dispatch.keys).
VIEW, INPLACE, OUT, FUNCTIONAL, FACTORY, COMPOSITE = (
    "view", "inplace", "out", "functional", "factory", "composite")
#: A kernel registered for the Autograd key itself that does the whole job and calls no
#: kernel below it (VariableTypeManual.cpp's detach_: it only clears autograd metadata).
AUTOGRAD = "autograd"
KINDS = (VIEW, INPLACE, OUT, FUNCTIONAL, FACTORY, COMPOSITE, AUTOGRAD)
VARIANTS = ("function", "method")

#: ``meta=``: ``import torch`` registers a Python function for the operator's Meta key
#: (torch/_meta_registrations.py, often a torch._refs decomposition into prims) over the
#: C++ one tidx follows; on a meta tensor torch runs other operators (tidx refuses there).
#: ALONE: the Python function runs no other operator (it checks and returns), so the
#: trace is the C++ one's.  tests/ops/test_meta_python.py reads both from the wheel.
META_PYTHON, META_PYTHON_ALONE = "python", "python alone"
#: ``device_check=``: WRAPPER: torch's generated CUDA wrapper checks its tensor arguments'
#: devices before the kernel (torchgen's gen_device_check: the operator has a CUDA kernel
#: and no ``device_check: NoCheck``; engine.dispatch.device_check derives the arguments
#: and the wrapper's name from the schema).  CALLEE: no check of its own (a composite, or
#: NoCheck); with mixed devices the kernel runs to the check of an operator it calls.
CHECK_WRAPPER, CHECK_CALLEE = "wrapper", "callee"

_NAME = re.compile(r"(?P<ns>\w+::)?(?P<name>[A-Za-z0-9_]+)(?:\.(?P<overload>\w+))?\(")


@dataclass(frozen=True)
class Declaration:
    """One operator overload: its schema, how Python sees it, and its kernel."""

    schema: str                  # native_functions.yaml's func:, verbatim
    namespace: str               # "aten" (or "prims" for the Meta decompositions)
    name: str                    # "gather", "add", "__and__"
    overload: str                # "" or "Tensor", "Scalar", "int" ...
    variants: tuple[str, ...]    # ("method", "function") in the yaml's order
    kind: str                    # VIEW, INPLACE, OUT, FUNCTIONAL, FACTORY or COMPOSITE
    native: str | None           # the C++ kernel it mirrors, e.g. "at::native::select_symint"
    source: str | None           # the PyTorch file that defines it
    kernel: Callable[..., Any] | None  # None: torch has it, tidx does not model it
    native_meta: str | None = None     # the Meta kernel's C++ name, when it has its own
    reason: str | None = None          # why it is not modelled
    category_override: str | None = None  # the yaml's category_override ("factory")
    meta: str | None = None            # META_PYTHON / META_PYTHON_ALONE: torch's Meta kernel
    device_check: str | None = None    # CHECK_WRAPPER / CHECK_CALLEE: the CUDA device check
    #: the AT_DISPATCHes its CPU kernel switches on the dtype with (engine.dispatch.at_dispatch)
    at_dispatch: tuple[AtDispatch, ...] = ()
    #: the note id of the Python step of a call of its Python name (``torch.randn``'s
    #: "factory.randn"), for the names worth a sentence of their own
    python_note: str | None = None
    #: its kernel is written for complex tensors too (torch's takes them); a complex
    #: argument to any other is refused in one line (engine.dispatch.dispatcher), unless
    #: its AT_DISPATCH leaves complex out and so raises torch's own error
    takes_complex: bool = False
    #: the Conjugate key falls through (ConjugateFallback.cpp's list: copy_, clone, the
    #: views ...): its kernel reads the conjugate bit itself; any other operator is given
    #: its conjugated inputs resolved (cloned) first, as torch's fallback does
    conj_fallthrough: bool = False
    #: below the Conjugate fallback torch.profiler records the operator a second time
    #: (measured: sum and mean of the whole tensor, whose CompositeExplicitAutograd
    #: kernels call their dim overloads)
    conj_records_again: bool = False
    #: the yaml's ``python_module`` ("nn": bound as ``torch._C._nn.<name>``, which
    #: torch.nn.functional calls, not as ``torch.<name>``)
    python_module: str | None = None
    #: a CompositeImplicitAutograd form torch.profiler records as the one operator it
    #: calls (``var.dim``'s ``unbiased`` as ``var.correction``'s correction): autograd
    #: records that overload's node for it (its kernel runs the other's directly)
    autograd_as: str | None = None

    @property
    def structured(self) -> bool:
        """A structured kernel (the yaml's ``structured: True`` or ``structured_delegate``):
        its ``native`` says so, as every trace shows it (``at::native::gather_out
        (structured)``)."""
        return self.native is not None and "(structured" in self.native

    @property
    def full_name(self) -> str:
        """``aten::add.Tensor``: the key the dispatcher looks the kernel up by."""
        base = f"{self.namespace}::{self.name}"
        return f"{base}.{self.overload}" if self.overload else base

    @property
    def op_name(self) -> str:
        """``aten::add``: what torch.profiler records (no overload)."""
        return f"{self.namespace}::{self.name}"

    @property
    def modelled(self) -> bool:
        return self.kernel is not None


#: Every declaration, by full name.  Filled once, as the ops modules are imported; never
#: changed by a run.
REGISTRY: dict[str, Declaration] = {}


def _split(schema: str) -> tuple[str, str, str]:
    """Namespace, name and overload of a schema string.

    >>> _split("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    ('aten', 'add', 'Tensor')
    >>> _split("prims::normal(SymInt[] shape) -> Tensor")
    ('prims', 'normal', '')
    """
    m = _NAME.match(schema)
    if m is None:
        raise ValueError(f"not an operator schema: {schema!r}")
    return (m["ns"] or "aten::")[:-2], m["name"], m["overload"] or ""


def _variants(text: str) -> tuple[str, ...]:
    found = tuple(v.strip() for v in text.split(","))
    assert all(v in VARIANTS for v in found) and found, f"bad variants {text!r}"
    return found


#: Declarations read from the start-up cache (engine.dispatch.operator_cache) whose
#: module has not been imported yet; the module's own declaration replaces each.
PROVISIONAL: set[str] = set()


def _provisional_kind(namespace: str, name: str, overload: str, schema: str) -> str | None:
    """The kind the start-up cache holds for this very schema, which kind_of computed
    from the same text when the cache was written: a module a first call imports does
    not parse its schemas again (1.5 ms of a cold ``t[1, 2] = 3``, issue #25)."""
    full_name = f"{namespace}::{name}.{overload}" if overload else f"{namespace}::{name}"
    if full_name not in PROVISIONAL:
        return None
    cached = REGISTRY[full_name]
    return cached.kind if cached.schema == schema else None


def kind_of(schema: str) -> str:
    """The kind a schema's own text says, as torchgen reads SchemaKind off the alias
    annotations: ``inplace`` (``name_(Tensor(a!) self ...)``), ``out`` (a kwarg-only
    ``Tensor(a!) out``), ``view`` (a return aliasing an input that is not written), a
    ``factory`` (no Tensor among the arguments), else ``functional``.  What the schema
    cannot say is given to :func:`declare` as ``kind=``: COMPOSITE (a
    CompositeImplicitAutograd kernel: the yaml's dispatch table, not its schema),
    AUTOGRAD, and the operators torch itself registers against their schema
    (``lift_fresh`` returns ``Tensor(a)`` but makes no view; ``_unsafe_view`` is a view
    whose schema says ``Tensor``).

    >>> kind_of("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)")
    'view'
    >>> kind_of("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    'out'
    >>> kind_of("zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
    ...         "Device? device=None, bool? pin_memory=None) -> Tensor")
    'factory'
    """
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    kind = parsed.kind
    if kind == "inplace":
        return INPLACE
    if kind == "out":
        return OUT
    if parsed.is_view:
        return VIEW
    if not any(a.type.base == "Tensor" for a in parsed.arguments):
        return FACTORY
    return FUNCTIONAL


def _add(decl: Declaration) -> Declaration:
    assert decl.kind in KINDS, decl.kind
    if decl.full_name in PROVISIONAL:
        PROVISIONAL.discard(decl.full_name)
    else:
        assert decl.full_name not in REGISTRY, f"{decl.full_name} declared twice"
    REGISTRY[decl.full_name] = decl
    return decl


def declare(schema: str, *, native: str, source: str, kind: str | None = None,
            variants: str = "function", native_meta: str | None = None,
            category_override: str | None = None, meta: str | None = None,
            device_check: str | None = None,
            at_dispatch: AtDispatch | tuple[AtDispatch, ...] = (),
            python_note: str | None = None, takes_complex: bool = False,
            conj_fallthrough: bool = False, python_module: str | None = None,
            conj_records_again: bool = False, autograd_as: str | None = None
            ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare an operator and register the function below as its kernel.

    tidx's CPU and Meta kernels share one function (the shape logic is the same and the
    data work is skipped on meta tensors); a COMPOSITE kernel serves every backend, as
    CompositeImplicitAutograd does.  ``category_override`` is the yaml's (``factory``
    gives a Tensor overload such as ``linspace.Tensor_Tensor`` the TensorOptions
    parameters in Python).  ``kind``: only where the schema does not say it
    (:func:`kind_of`).  ``meta`` and ``device_check``: see META_PYTHON and CHECK_WRAPPER.
    ``at_dispatch``: the ``AT_DISPATCH`` macro(s) the CPU kernel switches on the dtype
    with, as the kernel's C++ writes them; the kernel checks it where the C++ switches
    (:func:`engine.dispatch.at_dispatch.dispatched`).  ``python_note``: the note of the
    Python step (``torch.randn``) when the call of the Python name deserves one; given on
    one of the name's overloads (or several that agree: :func:`python_note`).
    ``takes_complex``: the kernel runs on complex64/complex128 tensors as torch's does;
    ``conj_fallthrough``: it reads the conjugate bit itself (views fall through anyway);
    ``conj_records_again``: below the fallback the operator is recorded once more.
    ``python_module``: the yaml's (``nn``: a ``torch._C._nn`` function, no ``torch.*``).
    ``autograd_as``: see :attr:`Declaration.autograd_as`.
    """
    dispatches = (at_dispatch,) if isinstance(at_dispatch, AtDispatch) else tuple(at_dispatch)
    namespace, name, overload = _split(schema)
    if kind is None:
        kind = _provisional_kind(namespace, name, overload, schema) or kind_of(schema)
    assert meta in (None, META_PYTHON, META_PYTHON_ALONE), meta
    assert device_check in (None, CHECK_WRAPPER, CHECK_CALLEE), device_check

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        _add(Declaration(schema, namespace, name, overload, _variants(variants), kind,
                         native, source, fn, native_meta,
                         category_override=category_override, meta=meta,
                         device_check=device_check, at_dispatch=dispatches,
                         python_note=python_note, takes_complex=takes_complex,
                         conj_fallthrough=conj_fallthrough,
                         conj_records_again=conj_records_again,
                         python_module=python_module, autograd_as=autograd_as))
        return fn

    return deco


def _delegate_schemas(out_schema: str, overload: str | None = None) -> tuple[str, str]:
    """The functional and in-place schemas torchgen's NativeFunctionsGroup pairs with a
    structured out= schema: the ``out`` argument dropped (and the overload's ``out``, unless
    ``overload`` names the delegates' own: ``add.out``'s are ``add.Tensor``, ``add_.Tensor``),
    returning ``Tensor``; the in-place one named ``name_`` with ``Tensor(a!) self``.

    >>> for s in _delegate_schemas("clamp.Tensor_out(Tensor self, Tensor? min=None, *, "
    ...                             "Tensor(a!) out) -> Tensor(a!)"):
    ...     print(s)
    clamp.Tensor(Tensor self, Tensor? min=None) -> Tensor
    clamp_.Tensor(Tensor(a!) self, Tensor? min=None) -> Tensor(a!)
    >>> _delegate_schemas("div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, "
    ...                   "Tensor(a!) out) -> Tensor(a!)", overload="Tensor_mode")[1]
    'div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)'
    """
    head, _, rest = out_schema.partition("(")
    name, _, own = head.partition(".")
    overload = overload if overload is not None else \
        own[:-len("out")].rstrip("_") if own.endswith("out") else own
    args = rest.rpartition(") -> ")[0].replace(", Tensor(a!) out", "")
    args = args[:-3] if args.endswith(", *") else args
    dot = f".{overload}" if overload else ""
    inplace_args = args.replace("Tensor self", "Tensor(a!) self", 1)
    return (f"{name}{dot}({args}) -> Tensor", f"{name}_{dot}({inplace_args}) -> Tensor(a!)")


#: structured()'s default out_meta: the out= overload's Meta kernel is the delegates'
SAME_META = "as the delegates'"


def structured(out_schema: str, *, native: str, out_native: str, source: str,
               inplace: bool = True, variants: str = "function, method",
               inplace_variants: str = "method", meta: str | None = None,
               device_check: str | None = None, out_device_check: str | None = None,
               at_dispatch: AtDispatch | tuple[AtDispatch, ...] = (),
               overload: str | None = None, takes_complex: bool = False,
               python_module: str | None = None, out_meta: str | None = SAME_META
               ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A structured operator group, as torchgen generates it from ``structured: True`` on
    the out= overload and ``structured_delegate`` on the others: one kernel
    (``impl(form, *args, out=..., **kwargs)``: its meta step and its loop, writing into
    ``out``) declares the out= overload and the functional and in-place ones.

    torchgen's wrappers for the three forms differ only in the output the meta function
    is given (set_output: a new tensor, ``self``, or the out= tensor resized), so each
    form is one aten operator in torch.profiler, never an out= call nested in the
    functional one: the generated kernels call ``impl`` directly, with ``form`` (FUNCTIONAL,
    INPLACE or OUT) and ``out`` None, ``self`` or the given tensor.  ``native`` is the
    functional form's (the in-place one's is the same with ``name_``); ``inplace=False``
    for a group torch declares without one (logaddexp).  ``device_check`` is the
    delegates', ``out_device_check`` the out= overload's: the yaml says it per function
    (``clamp.Tensor`` checks, ``clamp.Tensor_out`` is ``NoCheck``, a TensorIterator).
    ``at_dispatch`` is the one kernel's, so every form's.  ``overload``: the delegates'
    overload name, where it is not the out= one's without ``out`` (``add.out`` delegates
    ``add.Tensor``).  ``python_module``: the yaml's, the same for every form (nn: gelu).
    ``out_meta``: the out= overload's Meta kernel where it is not the delegates' (torch's
    _meta_registrations.py registers ``scatter.src`` and ``scatter_.src`` but not
    ``scatter.src_out``).
    """
    functional_schema, inplace_schema = _delegate_schemas(out_schema, overload)
    name = _split(out_schema)[1]

    def deco(impl: Callable[..., Any]) -> Callable[..., Any]:

        def functional(*args: Any, **kwargs: Any) -> Any:
            return impl(FUNCTIONAL, *args, out=None, **kwargs)

        def in_place(self: Any, *args: Any, **kwargs: Any) -> Any:
            return impl(INPLACE, self, *args, out=self, **kwargs)

        def out_form(*args: Any, out: Any, **kwargs: Any) -> Any:
            return impl(OUT, *args, out=out, **kwargs)

        # the stubs (engine.binding.stubs) name impl and write its signature without the
        # form (and without the out= the functional and in-place forms do not take)
        for fn, takes_out in ((functional, False), (in_place, False), (out_form, True)):
            fn.__module__, fn.__qualname__ = impl.__module__, impl.__qualname__
            setattr(fn, "structured_impl", (impl, takes_out))
        declare(functional_schema, native=native, source=source, variants=variants, meta=meta,
                device_check=device_check, at_dispatch=at_dispatch,
                takes_complex=takes_complex, python_module=python_module)(functional)
        if inplace:
            # at::native::clamp (structured) -> at::native::clamp_ (structured)
            declare(inplace_schema, native=re.sub(rf"::{name}(?= |$)", f"::{name}_", native,
                                                  count=1),
                    source=source, variants=inplace_variants, meta=meta,
                    device_check=device_check, at_dispatch=at_dispatch,
                    takes_complex=takes_complex, python_module=python_module)(in_place)
        declare(out_schema, native=out_native, source=source,
                meta=meta if out_meta == SAME_META else out_meta,
                device_check=out_device_check, at_dispatch=at_dispatch,
                takes_complex=takes_complex, python_module=python_module)(out_form)
        return impl

    return deco


def not_modelled(*schemas: str, variants: str = "function", kind: str = FUNCTIONAL,
                 reason: str, python_module: str | None = None) -> None:
    """Declare overloads torch binds in Python that tidx does not run (yet): their
    signatures take part in argument parsing and in PyTorch's error messages, and a call
    that binds one is refused with ``reason``."""
    for schema in schemas:
        namespace, name, overload = _split(schema)
        _add(Declaration(schema, namespace, name, overload, _variants(variants), kind, None,
                         None, None, reason=reason, python_module=python_module))


#: deprecated.yaml's Python signatures: (the signature, the aten call it stands for).
DEPRECATED: list[tuple[str, str]] = []


def deprecated(signature: str, aten: str) -> None:
    """A Python signature torch still accepts with a deprecation warning
    (tools/autograd/deprecated.yaml), e.g. ``add(Tensor self, Scalar alpha, Tensor
    other)`` calling ``add(self, other, alpha)``."""
    if (signature, aten) not in DEPRECATED:    # the start-up cache may have it already
        DEPRECATED.append((signature, aten))


#: Why an out= overload is declared but refused.
OUT_NOT_MODELLED = "out= (writing the result into a given tensor) is not modelled yet"


def lookup(full_name: str) -> Declaration:
    """The declaration of ``aten::name.overload`` (an internal error if tidx has none)."""
    return REGISTRY[full_name]


def python_note(name: str) -> str | None:
    """The note of the Python step of a call of ``name`` (``torch.name`` or
    ``Tensor.name``): the one its declarations give, or None."""
    return next((d.python_note for d in REGISTRY.values()
                 if d.python_note is not None and d.namespace == "aten" and d.name == name),
                None)


def overloads(name: str, variant: str) -> list[Declaration]:
    """Every declaration of the Python name ``name`` with the given variant, in the
    order they were declared."""
    return [d for d in REGISTRY.values()
            if d.namespace == "aten" and d.name == name and variant in d.variants]
