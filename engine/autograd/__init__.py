"""The backward pass (issue #27): torch's autograd engine walking the graph VariableType
recorded (engine/dispatch/autograd_graph.py), each node's formula running tidx's own
operators, and AccumulateGrad filling the leaves' ``.grad``.

* :mod:`engine.autograd.engine` -- Engine::execute: the graph task, the dependencies,
  the ready queue, the input buffers, validate_outputs;
* :mod:`engine.autograd.formulas` -- the nodes' formulas (derivatives.yaml and
  FunctionsManual.cpp) as calls of tidx's operators;
* :mod:`engine.autograd.accumulate_grad` -- AccumulateGrad: the gradient a leaf keeps.

Its layer is above the operators (it calls them through the dispatcher) and below the
Python binding (``Tensor.backward``).
"""
