"""The backward formulas of the joining, splitting and index-producing operators
(derivatives.yaml and FunctionsManual.cpp): registered with
:func:`engine.autograd.formulas.formula` as the other formulas are."""

from __future__ import annotations
