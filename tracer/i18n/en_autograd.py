"""English notes of autograd (issue #27): grad mode (engine/binding/grad_mode.py) and the
nodes VariableType records (engine/dispatch/autograd_key.py).  Part of
:data:`tracer.i18n.en.TEXT`, which merges this table in.  Plain data, no logic; the
same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "grad_mode.set":
        "GradMode::set_enabled({enabled}): while grad mode is off the Autograd key records "
        "no graph (results of tensors that require grad do not), and in-place writes into "
        "leaves are allowed",
    "autograd.node":
        "VariableType records {node} as the result's grad_fn: one edge per input it takes "
        "gradients for ({edges}), followed by the backward pass",
    "grad_mode.read": "GradMode::is_enabled(): this run's grad mode",
}
