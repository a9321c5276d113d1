"""torch's aliases: another name for an operator, one call of it.

native_functions.yaml declares an alias such as ``multiply.Tensor(Tensor self, Tensor
other) -> Tensor`` with no dispatch entry, so it is CompositeImplicitAutograd, and its C++
(aten/src/ATen/native/BinaryOps.cpp ``Tensor multiply(const Tensor& self, const Tensor&
other) { return at::mul(self, other); }``) calls the operator it names, same overload,
same arguments: torch.profiler records ``aten::multiply`` with ``aten::mul`` under it.

:func:`alias` declares one such overload beside its target (the target's family module),
with the schema copied from native_functions.yaml.  Its kernel is the call; where the
target overload is declared but not modelled (an out= tidx refuses), the alias is
refused with the target's reason, so Python's argument parsing still sees every
signature torch binds.
"""

from __future__ import annotations

from typing import Any

from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, OUT, REGISTRY, declare, not_modelled


def alias(schema: str, *, of: str, source: str, variants: str = "function") -> None:
    """Declare ``schema`` as an alias of the operator ``of`` (``"mul"``): the alias's
    overload ``multiply_.Scalar`` calls ``mul_.Scalar``, ``greater.Tensor_out`` calls
    ``gt.Tensor_out``.  The target is declared first (above, in the same module)."""
    name, _, overload = schema.split("(", 1)[0].partition(".")
    target = of + "_" if name.endswith("_") else of
    full = f"aten::{target}.{overload}" if overload else f"aten::{target}"
    decl = REGISTRY.get(full)
    if decl is None or not decl.modelled:
        # an out= tidx refuses, or an overload Python never reaches (torch.multiply(t, 2)
        # binds multiply.Tensor: a number is allowed as a Tensor there)
        reason = decl.reason if decl is not None and decl.reason else \
            f"{full} is not modelled by tidx"
        not_modelled(schema, variants=variants, kind=COMPOSITE, reason=reason)
        return
    native = f"at::native::{name}_out" if decl.kind == OUT else f"at::native::{name}"
    handle = getattr(getattr(aten, target), overload or "default")

    def kernel(*args: Any, **kwargs: Any) -> Any:
        return handle(*args, **kwargs)

    kernel.__name__ = kernel.__qualname__ = name
    declare(schema, native=native, source=source, kind=COMPOSITE, variants=variants)(kernel)
