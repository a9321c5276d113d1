"""Every out= overload torch binds in Python, for the operators tidx runs (issue #26: "out=
for every declared operator that has an out overload in torch").

torch's own generator decides which out= overloads Python can reach: gen_python_functions.py
groups each functional overload with its out= one (``group_overloads``), and skips the
``autogen:`` out= overloads native_functions.yaml adds for functionalization (no Python
binding).  This test asks torchgen, shipped in the torch 2.13 wheel, for those groups in
``torch.*`` and ``torch.linalg.*`` and fails on any whose functional form tidx runs while
its out= form is missing or refused.  Private names (``torch._softmax_backward_data``) are
not bound by tidx, so their out= forms are out of a lesson's reach too.

``torch.nn.functional``'s functions take no out=: the out= overloads of nn's operators
(``mse_loss.out``, ``reflection_pad1d.out`` ...) are bound only in ``torch._C._nn``, which
tidx does not expose (checked below), so they are out of reach for a lesson.
"""

from __future__ import annotations

import pytest

from conftest import require_torch
from engine.binding.operators import generated_names
from engine.dispatch.declarations import REGISTRY
from parser_oracle import load_yaml

pytestmark = pytest.mark.torch

#: out= overloads tidx still refuses, each with the reason a user reads (none: issue #26's
#: out= item is done; a new operator whose out= form waits would be listed here)
STILL_REFUSED: dict[str, str] = {}


def _bound_out_groups() -> list[tuple[str | None, str, str, str]]:
    """(python module, Python name, functional overload, out= overload) for each group
    torch binds in torch.* and torch.linalg.*."""
    from torchgen.packaged.autograd import gen_python_functions as G

    y = load_yaml()
    bound = [f for f in y.native_functions if G.should_generate_py_binding(f)]
    pairs = G.load_signatures(bound, y.deprecated_path, method=False)
    groups = []
    for module, pred in ((None, G.is_py_torch_function), ("linalg", G.is_py_linalg_function)):
        for name, overloads in G.group_filter_overloads(pairs, pred).items():
            for g in G.group_overloads(overloads, symint=True):
                if g.outplace is not None:
                    groups.append((module, str(name), f"aten::{g.base.func.name}",
                                   f"aten::{g.outplace.func.name}"))
    return groups


def test_every_out_overload_torch_binds_is_run_by_tidx() -> None:
    require_torch()
    groups = _bound_out_groups()
    assert len(groups) > 300            # torchgen answered (torch 2.13 binds ~600)
    runs = {(d.python_module, d.name) for d in REGISTRY.values() if d.modelled}
    public = {(m, n) for m in (None, "linalg") for n in generated_names("function", m)}
    missing, checked = [], 0
    for module, name, functional, out in groups:
        if (module, name) not in public or (module, name) not in runs:
            continue                    # a name tidx does not bind, or runs no overload of
        checked += 1
        declared = REGISTRY.get(out)
        if declared is not None and declared.modelled:
            assert out not in STILL_REFUSED, f"{out} runs now: drop it from STILL_REFUSED"
            continue
        if out not in STILL_REFUSED:
            missing.append(f"torch.{module + '.' + name.removeprefix('linalg_') if module else name}: {out} "
                           + ("is not declared" if declared is None else
                              f"is refused ({declared.reason})"))
    assert not missing, "\n".join(missing)
    assert checked > 150                # the sweep saw tidx's operators


def test_still_refused_is_every_public_out_overload_tidx_refuses() -> None:
    """STILL_REFUSED lists exactly the out= overloads torch binds in torch.* or
    torch.linalg.* that tidx declares and refuses, each with the reason the declaration
    gives (a refused out= overload outside that list fails here)."""
    require_torch()
    outs = {out for *_, out in _bound_out_groups()}
    refused = {d.full_name: d.reason for d in REGISTRY.values()
               if d.full_name in outs and not d.modelled}
    assert refused == STILL_REFUSED
    # the sweep would see one: nn's own out= overloads stay declared and refused, unbound
    assert not REGISTRY["aten::log_sigmoid.out"].modelled
    assert "aten::log_sigmoid.out" not in outs


def test_nn_out_overloads_are_out_of_a_lessons_reach() -> None:
    """F.mse_loss takes no out=, in torch as in tidx, and torch._C._nn (where nn's out=
    overloads are bound) is refused in one line."""
    torch = require_torch()
    from engine.core.errors import Refused
    from oracle import run_tidx, run_torch

    program = ["import torch.nn.functional as F", "x = torch.zeros(2)",
               "y = F.mse_loss(x, x, out=x)"]
    ours, theirs = run_tidx(program, []), run_torch(torch, program, [])
    assert theirs.error is not None and "unexpected keyword argument 'out'" in theirs.error[1]
    assert ours.error == theirs.error
    with pytest.raises(Refused, match="_nn"):
        run_tidx(["x = torch.zeros(2)", "y = torch._C._nn.mse_loss(x, x)"], [])
