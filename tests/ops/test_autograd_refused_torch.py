"""Until autograd graphs are modelled (issue #27), nothing they would change is shown
wrongly: an operator given a tensor that requires grad is refused where torch records a
grad_fn (a floating result), raises torch's error where torch's Autograd kernel raises
before recording one (an in-place write into the leaf), and runs as in torch where torch
records none
(``x > 0``, ``x.argmax()``, ``x.detach()``, reading ``x.requires_grad``, printing ``x``).
Compared with torch statement by statement."""

from __future__ import annotations

import pytest

from conftest import require_torch
from engine.core.errors import Refused
from oracle import assert_like_torch, run_tidx

LEAF = "x = torch.ones(2, 3, requires_grad=True)"

STATEMENTS = ["y = x + 1", "y = x * x", "y = x.sum()", "y = x[0]", "y = x[:, 1]",
              "y = x.view(6)", "y = x.t()", "y = x.abs()",
              "y = torch.cat([x, x])", "y = x.clone()", "y = x.clamp(0, 1)",
              "y = x.add_(1)", "x[0] = 5", "y = x > 0", "y = x.argmax()", "y = x.detach()",
              "y = x.requires_grad", "y = x.is_floating_point()", "y = x.shape",
              "y = x.eq(1)", "y = x.detach() + 1", "y = (x > 0).sum()", "y = x.tolist()",
              "y = x.nonzero()", "y = torch.zeros_like(x)", "y = x.max(0)", "y = x.new_ones(2)",
              "y = x.float()", "y = x.double()", "y = x.int()"]


def _torch_result(statement: str):
    """What torch makes of the statement: ("grad", ...) when a grad_fn was recorded on
    the result, ("error", ...) when its Autograd kernel raised before recording one (an
    in-place write on the leaf); else ("plain", ...)."""
    torch = require_torch()
    ns = {"torch": torch}
    exec(LEAF, ns)
    try:
        exec(statement, ns)
    except RuntimeError as exc:
        return ("error", str(exc))
    y = ns.get("y")
    values = y if isinstance(y, tuple) else (y,)
    # a new autograd node (x.float() of a float leaf hands back the leaf itself: none)
    grad = any(getattr(v, "grad_fn", None) is not None for v in values)
    return ("grad", y) if grad else ("plain", y)


@pytest.mark.parametrize("statement", STATEMENTS)
def test_refused_exactly_where_torch_records_autograd(statement):
    kind, _ = _torch_result(statement)
    if kind == "error":
        # torch's error, at the operator that raises it, is tidx's too
        assert_like_torch([LEAF, statement], names=("y",))
        return
    try:
        run_tidx([LEAF, statement], ["y"])
    except Refused as exc:
        assert kind == "grad", (statement, "refused, but torch records no grad_fn")
        assert "requires grad" in str(exc) and "\n" not in str(exc)
        return
    assert kind == "plain", (statement, "runs in tidx, but torch records a grad_fn")
    assert_like_torch([LEAF, statement], names=("y",))
