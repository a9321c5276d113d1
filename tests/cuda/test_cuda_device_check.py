"""The device check of torch's generated CUDA wrappers, against the torch 2.13 wheel.

No GPU here, so the oracle is what the wheel ships: torchgen (the generator that writes
RegisterCUDA.cpp) run again on the packaged native_functions.yaml gives each operator's
wrapper name and the arguments its ``check_and_update_common_device`` calls check, in
order; libtorch_cpu.so holds adaption.cpp's message text; and the same statement run on
the CPU in real torch shows that nothing but the devices is wrong with it.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

import engine  # noqa: F401  (every declaration)
from conftest import cli_run, examples, require_torch
from engine.dispatch.declarations import REGISTRY
from engine.dispatch.declarations import CHECK_CALLEE
from engine.dispatch.device_check import checked, wrapper
from engine.interpreter import session
from tracer import op_tree

pytestmark = pytest.mark.torch

#: adaption.cpp's common_device_check_failure, its fixed parts in order.
PARTS = ("Expected all tensors to be on the same device, but got ", " is on ",
         ", different from other tensors on ", " (when checking argument in method ", ")")


@lru_cache(maxsize=None)
def torchgen_cuda_wrappers() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every CUDA wrapper torchgen writes for torch 2.13: ``aten::op.overload`` -> (its name,
    the arguments it device-checks, in order), read from the generated C++ itself."""
    require_torch()
    import torchgen
    import torchgen.dest as dest
    from torchgen.dest.register_dispatch_key import Target
    from torchgen.gen import get_grouped_native_functions, parse_native_yaml
    from torchgen.model import DispatchKey
    from torchgen.selective_build.selector import SelectiveBuilder

    root = os.path.dirname(torchgen.__file__)
    parsed = parse_native_yaml(f"{root}/packaged/ATen/native/native_functions.yaml",
                               f"{root}/packaged/ATen/native/tags.yaml")
    kw = dict(selector=SelectiveBuilder.get_nop_selector(), rocm=False, symint=True,
              class_method_name=None, skip_dispatcher_op_registration=False)
    index = parsed.backend_indices[DispatchKey.CUDA]
    define = dest.RegisterDispatchKey(index, Target.ANONYMOUS_DEFINITION, **kw)
    register = dest.RegisterDispatchKey(index, Target.REGISTRATION, **kw)
    found = {}
    for group in get_grouped_native_functions(parsed.native_functions):
        code, regs = "\n".join(define(group)), "\n".join(register(group))
        for m in re.finditer(r'm\.impl\("([^"]+)",\s*TORCH_FN\((\w+)\)', regs):
            op, wrapper = m.groups()
            body = code[code.find(f" {wrapper}("):]
            body = body[:body.find("\n}")]
            checked = re.findall(r'check_and_update_common_device\(common_device, \w+, '
                                 rf'"{wrapper}", "(\w+)"\)', body)
            found[f"aten::{op}"] = (wrapper, tuple(checked))
    return found


def expected_message(wrapper: str, arg: str, device: str, common: str) -> str:
    a, b, c, d, e = PARTS
    return f"{a}{arg}{b}{device}{c}{common}{d}{wrapper}{e}"


def declared_wrappers() -> dict[str, tuple[str, tuple[str, ...]]]:
    """What the declarations say (device_check=CHECK_WRAPPER), derived as torchgen does."""
    return {name: (wrapper(d), checked(d)) for name, d in REGISTRY.items()
            if wrapper(d) is not None}


# -- the declarations say what torchgen writes -------------------------------------------
def test_every_checked_cuda_wrapper_of_an_operator_tidx_runs_is_declared():
    """device_check=CHECK_WRAPPER exactly where torchgen writes a checking wrapper, whose
    name and checked arguments follow from the schema (the facts of an operator tidx does
    not run are never read, so it declares none)."""
    theirs = {name: entry for name, entry in torchgen_cuda_wrappers().items()
              if name in REGISTRY and REGISTRY[name].modelled and entry[1]}
    assert declared_wrappers() == theirs


def test_nocheck_operators_are_not_in_the_table():
    """TensorIterator ops (device_check: NoCheck) keep compute_types' own check."""
    wrappers = torchgen_cuda_wrappers()
    for name in ("aten::add.Tensor", "aten::mul_.Tensor", "aten::where.self", "aten::eq.Tensor",
                 "aten::index.Tensor"):
        assert wrappers[name][1] == () and name not in declared_wrappers()


def test_the_message_is_in_torchs_binary():
    torch = require_torch()
    lib = pathlib.Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    if not lib.exists():
        pytest.skip("no libtorch_cpu.so to read")
    data = lib.read_bytes()
    for part in (PARTS[0], PARTS[2], PARTS[3]):
        assert part.encode() in data, part
    # the three parts sit together in adaption.cpp's string table, in this order
    start = data.index(PARTS[0].encode())
    assert start < data.index(PARTS[2].encode(), start) < data.index(PARTS[3].encode(), start)


# -- the errors a learner meets ----------------------------------------------------------
X = "x = torch.zeros(3, 4, device='cuda'); z = torch.ones(3, 4); "
LEARNER = [
    ("y = x.index_select(0, torch.tensor([0, 2]))", "aten::index_select", "index", "cpu",
     "cuda:0"),
    ("y = torch.cat([z, x])", "aten::cat", "tensors", "cuda:0", "cpu"),
    ("y = torch.cat([x, z])", "aten::cat", "tensors", "cpu", "cuda:0"),
    ("y = z.gather(1, torch.zeros(3, 2, dtype=torch.long, device='cuda'))", "aten::gather",
     "index", "cuda:0", "cpu"),
    ("y = x.masked_select(z > 0)", "aten::masked_select", "mask", "cpu", "cuda:0"),
    # composites with no check of their own run to cat's (TensorShape.cpp's stack: cat, view)
    ("y = torch.stack([x, z])", "aten::cat", "tensors", "cpu", "cuda:0"),
    ("y = torch.stack([z, x], dim=2)", "aten::cat", "tensors", "cuda:0", "cpu"),
    ("y = torch.concat([z, x])", "aten::cat", "tensors", "cuda:0", "cpu"),
]


@pytest.mark.parametrize("statement, op, arg, device, common", LEARNER)
def test_a_learners_mixed_devices_raise_the_wrappers_error(statement, op, arg, device, common):
    wrapper = torchgen_cuda_wrappers()[op][0]
    result = cli_run("explain", X + statement)
    assert result.exit_code == 1, result.output
    words = " ".join(re.sub("[│├└─]", " ", result.output).split())
    assert f"RuntimeError: {expected_message(wrapper, arg, device, common)}" in words
    assert "Traceback" not in result.output


def test_what_runs_to_the_check_has_no_check_of_its_own():
    """stack, concat: no CUDA wrapper (composites); where.self: a NoCheck one."""
    wrappers = torchgen_cuda_wrappers()
    callees = [n for n, d in REGISTRY.items() if d.device_check == CHECK_CALLEE]
    assert callees
    for name in callees:
        assert wrappers.get(name, ("", ()))[1] == ()


#: TensorIterator::compute_types (TensorIterator.cpp), where_self_out's iterator: the
#: common device is the first operand not on the CPU, the output's (out_device: cuda:0).
ITER_DEVICES = "Expected all tensors to be on the same device, but found at least two " \
    "devices, cuda:0 and cpu!"


@pytest.mark.parametrize("statement", ["y = torch.where(z > 0, x, z)",
                                       "y = torch.where(z > 0, z, x)",
                                       "y = torch.where(z > 0, x, z.long())",
                                       "y = z.where(z > 0, x)"])
def test_where_with_mixed_devices_is_the_tensoriterators_error(statement):
    torch = require_torch()
    lib = pathlib.Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    assert not lib.exists() or ITER_DEVICES.rpartition("cuda:0")[0].encode() in lib.read_bytes()
    doc = session.run(X + statement)
    error = doc["statements"][-1]["error"]
    assert (error["type"], error["message"]) == ("RuntimeError", ITER_DEVICES)
    # the result was made on the GPU (out_device), before the iterator rejected the inputs
    tree = op_tree(doc["statements"][-1]["events"])
    where = next(i for i, (_, name) in enumerate(tree) if name == "aten::where")
    assert tree[where + 1] == (tree[where][0] + 1, "aten::empty")
    assert "at::detail::empty_cuda" in json.dumps(doc["statements"][-1]["events"])


def test_where_with_a_cpu_scalar_beside_cuda_is_refused_not_guessed():
    """where_self_out moves a 0-dim CPU operand to the GPU (.to(device)): not modelled."""
    result = cli_run("explain", X + "y = torch.where(z > 0, x, torch.tensor(1.0))")
    assert result.exit_code == 2 and "not modelled yet" in result.output


def test_where_checks_shapes_before_devices():
    """compute_shape comes before compute_types: the CPU's own message, word for word."""
    torch = require_torch()
    with pytest.raises(RuntimeError) as theirs:
        torch.where(torch.ones(3, 4) > 0, torch.zeros(3, 4), torch.ones(5))
    doc = session.run(X + "y = torch.where(z > 0, x, torch.ones(5))")
    assert doc["statements"][-1]["error"]["message"] == str(theirs.value)


#: TensorAdvancedIndexing.cpp, check_indices_on_cpu_or_selfdevice (index's meta function).
INDEX_PARTS = ("indices should be either on ", " or on the same device as the indexed tensor (")


def test_a_cuda_index_into_a_cpu_tensor_is_the_index_meta_functions_error():
    torch = require_torch()
    lib = pathlib.Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    if lib.exists():
        assert all(part.encode() in lib.read_bytes() for part in INDEX_PARTS)
    doc = session.run(X + "y = z[torch.tensor([0, 1]).cuda()]")
    error = doc["statements"][-1]["error"]
    a, b = INDEX_PARTS
    assert (error["type"], error["message"]) == ("RuntimeError", f"{a}cpu{b}cpu)")
    # raised inside aten::index, in its CUDA wrapper (the highest backend bit: CUDA)
    steps = json.dumps(doc["statements"][-1]["events"])
    assert torchgen_cuda_wrappers()["aten::index.Tensor"][0] == "wrapper_CUDA_index_Tensor"
    assert "wrapper_CUDA_index_Tensor" in steps


def test_a_cpu_index_into_a_cuda_tensor_is_allowed_and_moved_to_the_device():
    """dev_tensor[cpu_tensor] is allowed (pytorch#69607): no device error; the index is
    copied to the GPU (AdvancedIndex's indice.to(self.device())) and read there."""
    result = cli_run("explain", X + "y = x[torch.tensor([0, 1])]")
    assert result.exit_code == 0, result.output
    assert "Expected all tensors" not in result.output
    assert "indice.to(self.device())" in result.output and "cudaMemcpyAsync" in result.output


def test_the_error_is_raised_inside_the_operator_torch_profiles():
    """torch.profiler records the operator before its wrapper checks: the failing aten::cat
    is in the trace, under stack, with the wrapper as its kernel."""
    doc = session.run(X + "y = torch.stack([x, z])")
    tree = op_tree(doc["statements"][-1]["events"])
    assert [name for _, name in tree][-2:] == ["aten::stack", "aten::cat"]
    assert "wrapper_CUDA_cat" in json.dumps(doc["statements"][-1]["events"])


def test_copy_between_devices_is_allowed():
    """copy_ has no wrapper check (its kernel copies across devices): z.copy_(x) runs."""
    doc = session.run("x = torch.zeros(3, 4, device='cuda'); z = torch.ones(3, 4); z.copy_(x)")
    assert doc["statements"][-1]["error"] is None


# -- property: any operator, any argument on the CPU -------------------------------------
#: A statement per operator, its checked arguments as {name} slots, and each argument's
#: tensor ({d} becomes .cuda() for a CUDA one: torch.tensor(..., device='cuda') is not
#: modelled yet).  Valid on one device: real torch runs it on the CPU.
CASES = {
    "aten::index_select": ("y = torch.index_select({self}, 0, {index})",
                           {"self": "torch.zeros(3, 4){d}", "index": "torch.tensor([0, 2]){d}"}),
    "aten::gather": ("y = torch.gather({self}, 1, {index})",
                     {"self": "torch.zeros(3, 4){d}",
                      "index": "torch.zeros(3, 2, dtype=torch.long){d}"}),
    "aten::index_add": ("y = {self}.index_add(0, {index}, {source})",
                        {"self": "torch.zeros(3, 4){d}", "index": "torch.tensor([0, 2]){d}",
                         "source": "torch.ones(2, 4){d}"}),
    "aten::index_copy": ("y = {self}.index_copy(0, {index}, {source})",
                         {"self": "torch.zeros(3, 4){d}", "index": "torch.tensor([0, 2]){d}",
                          "source": "torch.ones(2, 4){d}"}),
    "aten::scatter.src": ("y = {self}.scatter(0, {index}, {src})",
                          {"self": "torch.zeros(3, 4){d}",
                           "index": "torch.zeros(2, 4, dtype=torch.long){d}",
                           "src": "torch.ones(2, 4){d}"}),
    "aten::scatter_add": ("y = {self}.scatter_add(0, {index}, {src})",
                          {"self": "torch.zeros(3, 4){d}",
                           "index": "torch.zeros(2, 4, dtype=torch.long){d}",
                           "src": "torch.ones(2, 4){d}"}),
    "aten::take": ("y = torch.take({self}, {index})",
                   {"self": "torch.zeros(3, 4){d}", "index": "torch.tensor([0, 5]){d}"}),
    "aten::masked_select": ("y = {self}.masked_select({mask})",
                            {"self": "torch.zeros(3, 4){d}",
                             "mask": "torch.ones(3, 4, dtype=torch.bool){d}"}),
    "aten::isin.Tensor_Tensor": ("y = torch.isin({elements}, {test_elements})",
                                 {"elements": "torch.tensor([1, 2, 3]){d}",
                                  "test_elements": "torch.tensor([2]){d}"}),
    "aten::bucketize.Tensor": ("y = torch.bucketize({self}, {boundaries})",
                               {"self": "torch.tensor([1, 5]){d}",
                                "boundaries": "torch.tensor([0, 2, 4]){d}"}),
    "aten::searchsorted.Tensor": ("y = torch.searchsorted({sorted_sequence}, {self})",
                                  {"sorted_sequence": "torch.tensor([0, 2, 4]){d}",
                                   "self": "torch.tensor([1, 5]){d}"}),
    "aten::clamp.Tensor": ("y = torch.clamp({self}, {min}, {max})",
                           {"self": "torch.zeros(3, 4){d}", "min": "torch.zeros(4){d}",
                            "max": "torch.ones(4){d}"}),
    # in-place: the written self is checked first, wherever it is
    "aten::index_add_": ("t = {self}; t.index_add_(0, {index}, {source})",
                         {"self": "torch.zeros(3, 4){d}", "index": "torch.tensor([0, 2]){d}",
                          "source": "torch.ones(2, 4){d}"}),
    "aten::scatter_add_": ("t = {self}; t.scatter_add_(0, {index}, {src})",
                           {"self": "torch.zeros(3, 4){d}",
                            "index": "torch.zeros(2, 4, dtype=torch.long){d}",
                            "src": "torch.ones(2, 4){d}"}),
    "aten::equal": ("y = torch.equal({self}, {other})",
                    {"self": "torch.zeros(3){d}", "other": "torch.zeros(3){d}"}),
}


@st.composite
def placements(draw):
    op = draw(st.sampled_from(sorted(CASES)))
    args = list(CASES[op][1])
    on_cpu = draw(st.lists(st.booleans(), min_size=len(args), max_size=len(args))
                  .filter(lambda xs: any(xs) and not all(xs)))
    return op, dict(zip(args, on_cpu))


def _statement(op: str, on_cpu: dict[str, bool]) -> str:
    template, tensors = CASES[op]
    return template.format(**{a: t.format(d="" if on_cpu.get(a, True) else ".cuda()")
                              for a, t in tensors.items()})


@given(placements())
@settings(max_examples=examples(60), deadline=None)
def test_any_argument_on_the_cpu_fails_at_the_first_one_off_the_common_device(placement):
    op, on_cpu = placement
    wrapper, checked = torchgen_cuda_wrappers()[op]
    assert set(CASES[op][1]) == set(checked), "the case names exactly the checked arguments"
    # the statement is valid on one device: real torch runs it on the CPU
    torch = require_torch()
    from oracle import run_torch
    assert run_torch(torch, _statement(op, {}).split("; "), []).error is None
    devices = ["cpu" if on_cpu[a] else "cuda:0" for a in checked]
    common = devices[0]
    culprit = next(i for i, d in enumerate(devices) if d != common)
    doc = session.run(_statement(op, on_cpu))
    error = doc["statements"][-1]["error"]
    assert error is not None, _statement(op, on_cpu)
    assert (error["type"], error["message"]) == (
        "RuntimeError", expected_message(wrapper, checked[culprit], devices[culprit], common))


# -- the errors explained in the learner's terms (tracer/i18n/en_cudacheck.py) -----------
EXPLAINED = {
    "y = x.index_select(0, torch.tensor([0]))":
        "Argument index is on cpu, the tensors checked before it on cuda:0",
    "y = torch.cat([z, x])": "A tensor in tensors is on cuda:0, the ones before it on cpu",
    "y = x + z": "An operand is on cpu while the others are on cuda:0",
    "y = torch.where(z > 0, x, z)": "An operand is on cpu while the others are on cuda:0",
    "y = z[torch.tensor([0, 1]).cuda()]":
        "The index tensor is on another device than z, which is on cpu",
}


@pytest.mark.parametrize("statement", sorted(EXPLAINED))
def test_every_mixed_device_error_is_explained_in_both_languages(statement):
    from tracer import i18n
    from tracer.i18n import en_cudacheck, zh_cudacheck

    result = cli_run("explain", X + statement, "--width", "300")
    assert result.exit_code == 1, result.output
    assert f"→ {EXPLAINED[statement]}" in result.output
    message = session.run(X + statement)["statements"][-1]["error"]["message"]
    for lang, table in (("en", en_cudacheck.ERRORS), ("zh", zh_cudacheck.ERRORS)):
        assert any(re.search(entry[0], message) for entry in table)
        assert i18n.explain_error(message, lang)  # the plain entry, without the trace
    result = cli_run("explain", X + statement, "--width", "300", "--lang", "zh")
    assert "→ " in result.output and "Traceback" not in result.output
