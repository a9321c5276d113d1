"""The softmax, loss, padding, embedding and double-backward nodes' backward formulas
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations
