"""The pointwise math nodes' backward formulas (abs, clamp, pow, the trigonometric and
logarithmic functions, rounding, the in-place samplers and comparisons)
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations
