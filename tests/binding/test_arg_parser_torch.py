"""engine.binding.arg_parser against torch 2.13's own PythonArgParser.

For every Python name tidx uses, in both variants, a parser is built from the strings
tidx derives (engine.binding.python_signatures) and given the same arguments as the
real C++ binding (``torch._C._VariableFunctions.<name>``, ``torch._C.TensorBase.<name>``):
when torch's parser raises, tidx raises the same TypeError, word for word; when torch's
call gets past its parser, tidx binds, and binds the signature whose aten overload torch
dispatched to, with the values torch passed it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st

from conftest import examples, require_torch
from engine.binding.arg_parser import FunctionSignature, PythonArgParser, check_noarg_method
from engine.binding.invalid_arguments import format_invalid_args, unordered_map_order
from engine.core.errors import tp_name
from engine.dispatch.declarations import COMPOSITE, REGISTRY
from engine.binding.python_signatures import is_noarg
from parser_oracle import (FITTING, NAMES, POOL_LABELS, EngineTorch, Pool, call_torch,
                           has_variant, is_parser_error, normalise, our_parser, our_signatures)

TALLY: Counter = Counter()


@pytest.fixture(scope="module")
def pools():
    torch = require_torch()
    return torch, Pool(torch), Pool(EngineTorch())


def _schema_value(schema, arg_name: str, captured: tuple) -> tuple[bool, Any]:
    """The value torch passed the aten overload for one schema argument, if it did."""
    _, args, kwargs = captured
    positional = [a.name for a in schema.arguments if not a.kwarg_only]
    if arg_name in positional:
        i = positional.index(arg_name)
        return (True, args[i]) if i < len(args) else (False, None)
    return (arg_name in kwargs, kwargs.get(arg_name))


def _canon(value: Any, pool: Pool) -> Any:
    """A comparable form: pool tensors by label, numbers and lists as they are."""
    if type(value).__name__ == "dtype":
        return ("dtype", str(value))
    if any(value is t for t in (int, float, bool)):      # PythonArgs::scalartype's
        return ("dtype", {int: "torch.int64", float: "torch.float64", bool: "torch.bool"}[value])
    if isinstance(value, (list, tuple)):
        items = [_canon(v, pool) for v in value]
        return None if any(i is None for i in items) else ("seq", tuple(items))
    if id(value) in pool.label_of_id and not isinstance(value, (int, float, str)):
        return ("label", pool.label_of_id[id(value)])
    if isinstance(value, bool) or type(value) in (int, float, str):
        return ("value", value)
    return None


def check_call(pools, name: str, variant: str, arg_labels: list[str],
               kwarg_labels: dict[str, str], overloads: bool = True) -> str:
    """One call on both sides; returns how it ended (for the tallies).  ``overloads``:
    also compare the aten overload torch called first with the one tidx bound (right
    for tidx's names; a composite overload may call a sibling first, std.dim calls
    std.correction)."""
    torch, tpool, epool = pools
    targs = tuple(tpool[l] for l in arg_labels)
    tkwargs = {k: tpool[l] for k, l in kwarg_labels.items()}
    eargs = tuple(epool[l] for l in arg_labels)
    ekwargs = {k: epool[l] for k, l in kwarg_labels.items()}
    exc, first = call_torch(torch, name, variant, tpool["tf"], targs, tkwargs)
    if "out" in kwarg_labels:
        tpool.refresh()
    where = f"{name} ({variant}) args={arg_labels} kwargs={kwarg_labels}"
    parser = our_parser(name, variant)
    if variant == "function" and is_noarg(our_signatures(name, variant)):
        return "bound"                       # no parser: torch ignores the arguments
    if variant == "method" and is_noarg(our_signatures(name, variant)):
        if exc is not None and str(exc).startswith(f"TensorBase.{name}() takes no"):
            with pytest.raises(TypeError) as info:
                check_noarg_method(name, eargs, ekwargs)
            assert str(info.value) == str(exc), where
            return "same TypeError"
        check_noarg_method(name, eargs, ekwargs)
    if is_parser_error(name, exc):
        with pytest.raises(TypeError) as info:
            parser.parse(None, eargs, ekwargs).unpack()
        assert str(info.value) == normalise(str(exc)), where
        return "same TypeError"
    try:
        parsed = parser.parse(None, eargs, ekwargs)
    except TypeError as ours:
        pytest.fail(f"{where}: torch bound (then {type(exc).__name__}: {exc}), tidx raised "
                    f"TypeError: {ours}")
    except RuntimeError as ours:     # torch's type_name() has no name for Stream
        assert (type(ours), str(ours)) == (type(exc), str(exc)), where
        return "same error"
    try:
        parsed.unpack()
    except (TypeError, RuntimeError, ValueError, OverflowError) as ours:  # reading an int
        assert exc is not None, f"{where}: torch ran, tidx raised {ours!r}"
        if not isinstance(ours, TypeError) and type(exc) is type(ours):
            assert str(ours) == str(exc), where
            return "same error"
        # torch's binding checked its TensorOptions or out= before reading the list
        assert first is None, f"{where}: torch called {first[0]}, tidx raised {ours!r}"
        return "bound"
    if first is None or not overloads:
        return "bound"
    sig = our_signatures(name, variant)[parsed.index]
    schema = sig.out_schema if "out" in parsed.given and sig.out_schema else sig.schema
    op = first[0]
    if schema is None or op.split(".")[0] != schema.op_name:
        return "bound"                 # torch decomposed first (composite) or lifted a value
    if op != schema.full_name and REGISTRY[schema.full_name].kind == COMPOSITE:
        # a CompositeImplicitAutograd overload decomposed into a sibling first
        # (repeat_interleave.self_Tensor calls repeat_interleave.Tensor)
        return "bound"
    assert op == schema.full_name, f"{where}: torch called {op}, tidx bound {sig.text}"
    for p in parsed.signature.params:
        if p.name not in parsed.given:
            continue
        arg_name = "self" if (p.name == "input" and variant == "function") else p.name
        found, theirs = _schema_value(schema, arg_name, first)
        ours_c, theirs_c = _canon(parsed[p.name], epool), _canon(theirs, tpool)
        # a Scalar given a tensor reaches aten as a number, a number given to a Tensor
        # as a wrapped tensor: values of the same kind on both sides are compared
        if found and ours_c is not None and theirs_c is not None and ours_c[0] == theirs_c[0]:
            assert ours_c == theirs_c, f"{where}: {p.name}: {ours_c} != {theirs_c}"
            TALLY["values compared"] += 1
    return "same overload"


# -- explicit cases --------------------------------------------------------------------------
#: (name, variant, args, kwargs), by pool label; the brief's examples first.
CASES = [
    ("gather", "function", ["tf", "0", "[[0]]"], {}),
    ("gather", "method", ["0", "[[0]]"], {}),
    ("masked_fill", "method", ["[True]", "1"], {}),
    ("view", "method", ["object()"], {}),
    ("sum", "method", ["object()"], {}),
    ("sum", "method", ["1.5", "2", "1", "0"], {}),
    ("sum", "method", [], {"dtype": "1"}),
    ("sum", "method", [], {"axis": "1", "keepdims": "True"}),
    ("sum", "method", [], {"axis": "1", "foo": "2"}),
    ("sum", "function", [], {"x": "tf", "a": "tf"}),
    ("sum", "function", [], {"a": "tf", "dim": "[0]"}),
    ("sum", "method", ["(0, 1)"], {"keepdim": "1"}),
    ("sum", "method", ["0"], {}),
    ("permute", "method", ["[1.5]"], {}),
    ("permute", "method", ["1", "0"], {}),
    ("permute", "method", ["1.5", "0"], {}),
    ("view", "method", ["[1.5]"], {}),
    ("view", "method", ["tf0"], {}),
    ("view", "method", ["tl0"], {}),
    ("view", "method", ["tl1", "-1"], {}),
    ("view", "method", ["Size"], {}),
    ("view", "method", ["float32"], {}),
    ("view", "method", ["(2, 'a')"], {}),
    ("view", "method", ["2", "'a'"], {}),
    ("add", "method", ["1", "2", "1"], {}),
    ("add", "method", ["2", "tf"], {}),
    ("add", "method", ["tf"], {"alpha": "tf"}),
    ("add", "method", ["'a'"], {"alpha": "2"}),
    ("add", "function", ["tf", "1"], {"out": "tf"}),
    ("masked_fill", "method", [], {"mask": "1", "value": "'a'"}),
    ("masked_fill", "method", ["tb"], {"value": "'a'"}),
    ("masked_fill", "method", ["tb", "tf0"], {}),
    ("masked_fill", "method", ["tb", "True"], {}),
    ("randn", "function", [], {"foo": "1", "bar": "2", "baz": "1", "qux": "2", "dtype": "1"}),
    ("randn", "function", ["2", "1.5"], {}),
    ("zeros", "function", ["huge"], {}),
    ("zeros", "function", ["(1, huge)"], {}),
    ("zeros", "function", ["2", "1.5"], {}),
    ("zeros", "function", ["1.5", "2"], {}),
    ("zeros", "function", ["Size"], {"dtype": "float"}),
    ("zeros", "function", ["float32"], {}),
    ("zeros", "function", ["2"], {"layout": "1"}),
    ("zeros", "function", ["2"], {"device": "1.5"}),
    ("zeros", "function", ["2"], {"generator": "None"}),
    ("empty_strided", "function", ["(2, 'a')", "(2, 'a')"], {}),
    ("as_strided", "method", ["(1, 1.5)", "(1, 1.5)"], {}),
    ("as_strided", "method", ["[3, 3]", "(1, 2)", "'a'"], {}),
    ("cat", "function", ["[tf, 1]"], {}),
    ("cat", "function", ["[tf, 1]", "'a'", "'a'"], {}),
    ("stack", "function", ["1"], {}),
    ("index_put_", "method", ["[None, tl2]", "tf0"], {}),
    ("index_put", "function", ["tf", "[None]", "tf0"], {}),
    ("copy_", "method", [], {}),
    ("copy_", "method", ["1", "2", "1"], {}),
    ("copy_", "method", ["tf"], {"async": "True"}),
    ("nonzero", "method", ["1"], {}),
    ("nonzero", "method", [], {"foo": "1"}),
    ("nonzero", "method", [], {"as_tuple": "1"}),
    ("nonzero", "function", ["tf", "1"], {}),
    ("contiguous", "method", ["1"], {}),
    ("contiguous", "method", [], {"memory_format": "float32"}),
    ("tensor", "function", ["1", "2"], {}),
    ("tensor", "function", [], {}),
    ("tensor", "function", ["1"], {"names": "None"}),
    ("tensor", "function", ["1"], {"dtype": "'a'"}),
    ("tensor", "function", ["1"], {"requires_grad": "None"}),
    ("split", "method", ["'a'"], {}),
    ("split", "function", ["tf", "[1]", "0", "1"], {}),
    ("narrow", "method", ["0", "1.5", "1"], {}),
    ("narrow", "method", ["0", "tf0", "1"], {}),
    ("uniform_", "method", ["1+2j"], {}),
    ("normal_", "method", ["True", "tf0"], {}),
    ("random_", "method", ["1", "None"], {}),
    ("random_", "method", [], {"to": "2"}),
    ("select", "method", ["0", "tl1"], {}),
    ("select", "method", ["tl1", "0"], {}),
    ("select", "method", ["0", "huge"], {}),
    ("unsqueeze", "method", ["True"], {}),
    ("expand", "method", ["3", "3"], {"implicit": "1"}),
    ("flatten", "method", [], {"start_dim": "'a'"}),
    ("where", "function", ["tb"], {}),
    ("where", "function", ["tb", "1", "tf"], {}),
    ("where", "function", ["tb", "'a'", "tf"], {}),
    ("where", "method", ["tb", "1.5"], {}),
    ("div", "method", ["2"], {"rounding_mode": "None"}),
    ("div", "method", ["2"], {"rounding_mode": "1"}),
    ("scatter", "method", ["0", "tl", "1.5"], {"reduce": "'sum'"}),
    ("scatter_add", "function", ["tf", "0", "tl", "1"], {}),
    ("eq", "function", ["tf", "'a'"], {}),
    ("bitwise_and", "function", ["1", "tl"], {}),
    ("bitwise_not", "method", ["1"], {}),
    ("chunk", "method", ["2"], {"dim": "1.5"}),
    ("randint", "function", ["2"], {"size": "(1, 2)"}),
    ("randint", "function", ["1", "2", "3"], {}),
    ("randint", "function", [], {"high": "1", "low": "2"}),
    ("randint_like", "function", ["tf", "tl0"], {}),
    ("randint_like", "function", ["tf", "1.5"], {}),
    ("arange", "function", ["1", "2", "1", "2"], {}),
    ("arange", "function", [], {"end": "2", "step": "1"}),
    ("eye", "function", ["2"], {"m": "1.5"}),
    ("full", "function", ["[3, 3]", "'a'"], {}),
    ("empty", "function", ["2"], {"memory_format": "channels_last"}),
    ("empty_like", "function", ["tf"], {"memory_format": "'a'"}),
    ("flip", "method", ["np.int64", "0"], {}),
    ("flip", "method", ["np.float32"], {}),
    ("take", "method", ["[0]"], {}),
    ("t", "method", ["1"], {}),
    ("zero_", "method", [], {"foo": "1"}),
    ("clone", "function", ["tf"], {"memory_format": "None"}),
    ("reshape", "method", ["'a'"], {}),
    ("squeeze", "method", ["(0, 1)"], {}),
    ("squeeze", "method", ["slice"], {}),
    ("transpose", "function", ["tf", "0"], {}),
    ("fill_", "method", ["opaque"], {}),
    ("mul", "method", ["b'x'"], {}),
    ("index_select", "method", ["0"], {"index": "[0]"}),
    ("masked_select", "function", ["tf"], {"mask": "tb", "input": "tf"}),
    ("lt", "method", [], {"other": "1", "x2": "2"}),
]


@pytest.mark.torch
def test_explicit_calls_like_torch(pools) -> None:
    torch = pools[0]
    outcomes = Counter()
    for name, variant, args, kwargs in CASES:
        if has_variant(torch, name, variant):
            outcomes[check_call(pools, name, variant, args, kwargs)] += 1
    assert outcomes["same TypeError"] >= 80 and outcomes["same overload"] >= 20, outcomes


def _typed_call(rng: random.Random, name: str, variant: str
                ) -> tuple[list[str], dict[str, str]]:
    """Arguments that fit one signature (then, one time in four, one of them spoilt)."""
    sig = rng.choice(our_parser(name, variant).signatures)
    args: list[str] = []
    kwargs: dict[str, str] = {}
    for p in sig.params:
        fits = FITTING.get(p.type_.name)
        if p.optional and (fits is None or rng.random() < 0.5):
            continue
        value = rng.choice(fits or POOL_LABELS)
        if p.keyword_only or kwargs or (args and rng.random() < 0.25):
            kwargs[p.name] = value
        else:
            args.append(value)
    if rng.random() < 0.25 and (args or kwargs):
        spoilt = rng.choice(POOL_LABELS)
        if args and (not kwargs or rng.random() < 0.5):
            args[rng.randrange(len(args))] = spoilt
        else:
            kwargs[rng.choice(sorted(kwargs))] = spoilt
    return args, kwargs


def _keyword_names(name: str, variant: str) -> list[str]:
    names = {p.name for s in our_parser(name, variant).signatures for p in s.params}
    return sorted(names | {"foo", "out", "input", "self", "axis", "x", "x2"})


def _call(rng: random.Random, name: str, variant: str) -> tuple[list[str], dict[str, str]]:
    """Half fitting a signature, half any labels in any places."""
    if rng.random() < 0.5:
        return _typed_call(rng, name, variant)
    args = [rng.choice(POOL_LABELS) for _ in range(rng.randrange(5))]
    names = _keyword_names(name, variant)
    kwargs = {rng.choice(names): rng.choice(POOL_LABELS) for _ in range(rng.randrange(3))}
    return args, kwargs


VARIANTS = [(n, v) for n in NAMES for v in ("function", "method")]


@pytest.mark.torch
@pytest.mark.slow
def test_drawn_calls_like_torch(pools) -> None:
    """Hypothesis draws argument lists from the pool (some fitting a signature, some
    not) for every name and variant: 25 calls each, 2875 in all."""
    torch = pools[0]
    variants = [(n, v) for n, v in VARIANTS if has_variant(torch, n, v)]
    outcomes = Counter()
    TALLY.clear()

    @settings(max_examples=examples(25), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(rng=st.randoms(use_true_random=False))
    def run(rng: random.Random, name: str, variant: str) -> None:
        args, kwargs = _call(rng, name, variant)
        note(f"{name} ({variant}) {args} {kwargs}")
        outcomes[check_call(pools, name, variant, args, kwargs)] += 1

    for name, variant in variants:
        run(name=name, variant=variant)
    assert len(variants) >= 105
    # not vacuous: many calls, a good share of them refused and of them bound (the draws
    # are random outside CI, so the shares, not exact counts)
    total = sum(outcomes.values())
    assert total >= 2500, outcomes
    assert outcomes["same TypeError"] > 0.35 * total, outcomes
    assert outcomes["same overload"] > 0.25 * total, outcomes
    assert TALLY["values compared"] > 900, TALLY


@pytest.mark.torch
@pytest.mark.slow
def test_every_public_torch_name_like_torch(pools) -> None:
    """Beyond tidx's names: 4 drawn calls for each public function and method of torch's
    generated bindings (about 1050, for the parser's other types: ScalarList, float
    lists, str, Stream...): the same TypeError, or both bind."""
    from parser_oracle import torchgen_groups

    torch = pools[0]
    skip = ("cuda", "cudnn", "mkldnn", "miopen", "quantize", "fbgemm")
    unsafe = {"empty", "empty_like", "empty_strided", "from_file", "set_", "resize_",
              "resize_as_", "as_strided", "as_strided_", "as_strided_scatter"}
    outcomes = Counter()
    for variant in ("function", "method"):
        for name in sorted(torchgen_groups(variant)):
            if (name.startswith("_") or name in unsafe or any(k in name for k in skip)
                    or not has_variant(torch, name, variant)):
                continue
            rng = random.Random(f"{name} {variant}")
            for _ in range(4):
                args, kwargs = _call(rng, name, variant)
                outcomes[check_call(pools, name, variant, args, kwargs, overloads=False)] += 1
    assert outcomes["same TypeError"] > 2200 and outcomes["bound"] > 1500, outcomes


# -- the invalid-combination message's keyword order --------------------------------------------
@pytest.mark.torch
@settings(max_examples=examples(150), deadline=None)
@example([f"k{i}" for i in range(35)])
@given(st.lists(st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12).filter(
    lambda s: s not in ("size", "generator", "out", "dtype", "layout", "device", "pin_memory",
                        "requires_grad")), min_size=1, max_size=40, unique=True))
def test_keyword_order_follows_libstdcxx_unordered_map(keys: list[str]) -> None:
    """format_invalid_args lists keywords as a std::unordered_map iterates them: tidx
    replays libstdc++'s hashtable (murmur hash, prime buckets, rehashes at 14 and 30)."""
    torch = require_torch()
    kwargs = dict.fromkeys(keys, 1)
    with pytest.raises(TypeError) as theirs:
        torch.randn(**kwargs)
    with pytest.raises(TypeError) as ours:
        our_parser("randn", "function").parse(None, (), kwargs)
    assert str(ours.value) == str(theirs.value)


# -- units ------------------------------------------------------------------------------------
def test_signature_parts() -> None:
    sig = FunctionSignature("sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, "
                            "ScalarType? dtype=None, Tensor out=None)")
    assert (sig.name, sig.min_args, sig.max_args, sig.max_pos_args) == ("sum", 2, 5, 3)
    assert sig.toString() == ("(Tensor input, tuple of ints dim, bool keepdim = False, *, "
                              "torch.dtype dtype = None, Tensor out = None)")
    dim = sig.params[1]
    assert (dim.size, dim.allow_none, dim.optional, dim.keyword_only) == (1, True, False, False)
    assert sig.params[2].default is False and sig.params[3].keyword_only
    hidden = FunctionSignature("copy_(Tensor other, bool async=False)|deprecated")
    assert hidden.hidden and hidden.deprecated


def test_single_int_for_a_sized_int_list() -> None:
    p = PythonArgParser(["sum(IntArrayRef[1]? dim, bool keepdim=False)"])
    assert p.parse(None, (2,), {})["dim"] == (2,)
    assert p.parse(None, ([0, True],), {})["dim"] == (0, 1)       # bools unpack to 0/1
    parsed = p.parse(None, (None,), {})
    assert parsed["dim"] is None and parsed.is_none("dim") and parsed["keepdim"] is False


def test_deprecated_signature_binds_last_and_warns() -> None:
    p = PythonArgParser(["add(Scalar alpha, Tensor other)|deprecated",
                         "add(Tensor other, *, Scalar alpha=1)"])
    assert [s.index for s in p.signatures] == [1, 0]
    r = p.parse(None, (2, 3), {})
    assert r.index == 0 and r.warning == (
        "This overload of add is deprecated:\n\tadd(Number alpha, Tensor other)\n"
        "Consider using one of the following signatures instead:\n"
        "\tadd(Tensor other, *, Number alpha = 1)")


def test_type_names_are_torchs() -> None:
    e = EngineTorch()
    assert [tp_name(v) for v in (e.zeros(1), e.int64, e.device("cpu"), e.Size([1]),
                                 e.channels_last, 1, None, [], float)] == [
        "Tensor", "torch.dtype", "torch.device", "torch.Size", "torch.memory_format", "int",
        "NoneType", "list", "type"]


def test_invalid_args_formats() -> None:
    msg = format_invalid_args((1,), {"b": 2.5}, "f()", ["(int a, float b)", "(Tensor a)"])
    assert msg == ("f() received an invalid combination of arguments - got (int, b=float), "
                   "but expected one of:\n * (int a, float b)\n"
                   "      didn't match because some of the arguments have invalid types: "
                   "(int, b=float)\n * (Tensor a)\n")
    assert format_invalid_args((), {"c": 1}, "f()", ["(int a)"]) == (
        "f() received an invalid combination of arguments - got unrecognized keyword "
        "arguments: c")
    assert "\33[31;1mstr\33[0m" in format_invalid_args(("x",), {}, "f()", ["(int a)"],
                                                       tty=True)


def test_unordered_map_order_rehashes() -> None:
    keys = [f"k{i}" for i in range(30)]
    order = unordered_map_order(keys)
    assert sorted(order) == sorted(keys) and order != keys[::-1]
