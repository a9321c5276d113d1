"""The matrix products' and reductions' backward formulas (bmm, addmm, max/min, amax,
cumsum, cumprod, prod, std/var, norms)
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations
