"""The meta device where torch 2.13 runs Python meta functions.

``import torch`` registers Python Meta kernels (torch/_meta_registrations.py) over most
C++ structured meta functions; called on a meta tensor from Python they run prims and
other operators tidx does not model, so tidx refuses them there.  The table of those
operators (each declaration's ``meta=``) is re-derived from the installed torch; the statements tidx still runs on
the meta device record the operators torch.profiler records.
"""

from __future__ import annotations

import pytest

from conftest import require_torch
from engine.core.errors import Refused
from engine.dispatch.declarations import REGISTRY
from engine.dispatch.declarations import META_PYTHON, META_PYTHON_ALONE
from engine.interpreter import session
from oracle import assert_like_torch, compare

pytestmark = pytest.mark.torch


def test_the_declarations_meta_is_torch_s_own():
    """Every operator tidx runs says meta=META_PYTHON(_ALONE) exactly where torch's active
    Meta kernel is a Python registration (the facts of an operator tidx does not run are
    never read, so it declares none)."""
    torch = require_torch()
    found = set()
    for name, decl in REGISTRY.items():
        if not decl.modelled:
            continue
        try:
            dump = torch._C._dispatch_dump(name)
        except RuntimeError:
            continue
        if any(line.startswith("Meta:") and "_meta_registrations.py" in line
               for line in dump.splitlines()):
            found.add(name)
    declared = {n for n, d in REGISTRY.items() if d.meta is not None}
    assert found == declared
    assert {d.meta for d in REGISTRY.values()} <= {None, META_PYTHON, META_PYTHON_ALONE}


@pytest.mark.parametrize("statements", [
    ["y = torch.zeros(2, 3, device='meta')"], ["y = torch.randn(2, 3, device='meta')"],
    ["y = torch.full((2,), 3., device='meta')"], ["y = torch.arange(5, device='meta')"],
    ["y = torch.empty(2, device='meta')"], ["y = torch.rand(2, device='meta')"],
    ["z = torch.ones(3, 4, device='meta')", "y = z[1:]"],
    ["z = torch.ones(3, 4, device='meta')", "y = z.t().contiguous()"],
    ["z = torch.ones(3, 4, device='meta')", "y = z.view(-1)"],
    ["z = torch.ones(3, device='meta')", "y = z.fill_(2)"],
    ["z = torch.ones(3, device='meta')", "y = z.zero_()"],
    ["z = torch.ones(2, device='meta')", "y = z.new_empty(3)"],
])
def test_what_runs_on_the_meta_device_records_torch_s_operators(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements, op", [
    (["z = torch.ones(3, 4, device='meta')", "y = z + z"], "aten::add"),
    (["z = torch.ones(3, 4, device='meta')", "y = z.sum(0)"], "aten::sum"),
    (["z = torch.ones(3, device='meta')", "y = z.normal_()"], "aten::normal_"),
    (["z = torch.ones(3, 4, device='meta')", "y = torch.zeros_like(z)"], "aten::zeros_like"),
    (["z = torch.ones(3, 4, device='meta')", "y = z[torch.tensor([0, 1])]"], "aten::index"),
])
def test_python_meta_functions_are_refused_where_torch_runs_other_operators(statements, op):
    """torch.profiler shows operators below ``op`` that tidx's C++ path does not have
    (prims::add, new_empty ...): refused, never drawn as the C++ path."""
    torch = require_torch()
    theirs = compare(torch, statements[:1], ["y"])[1]   # noqa: F841 - torch runs the setup
    with pytest.raises(Refused, match=f"{op} on the meta device runs a Python meta"):
        session.run("; ".join(statements))


def test_a_meta_tensor_beside_a_cpu_tensor_is_refused():
    """cpu_t[meta_index] runs torch's Python meta function, which returns uninitialised
    CPU memory rather than raising: refused."""
    with pytest.raises(Refused, match="meta tensor beside a CPU tensor"):
        session.run("z = torch.ones(3, 4); y = z[torch.tensor([0, 1], device='meta')]")
