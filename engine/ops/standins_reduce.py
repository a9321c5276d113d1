"""Stand-ins: operators the reductions call that belong to other families' modules.

``any``/``all`` of a one-element tensor call ``view_as`` (ReduceOps.cpp allany_impl).
The views family declares its own; when both branches meet, the REGISTRY refuses the
second declaration ("declared twice") -- delete the stand-in then, nothing else changes.
"""

from __future__ import annotations

from engine.dispatch.declarations import COMPOSITE, declare
from engine.dispatch.dispatcher import call


@declare("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", variants="method",
         kind=COMPOSITE, native="at::native::view_as",
         source="aten/src/ATen/native/TensorShape.cpp")
def view_as(self, other):
    """``self.view(other.sizes())``."""
    return call("aten::view", self, other.view.sizes)
