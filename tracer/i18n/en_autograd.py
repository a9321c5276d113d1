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
    "grad_mode.inference":
        "c10::InferenceMode({enabled}): grad mode off, the autograd keys excluded; tensors made inside are inference tensors (no version counter, no autograd keys: they can never join a graph)",
    "grad_mode.read_inference":
        "InferenceMode::is_enabled(): is this run inside torch.inference_mode()?",
    "grad_mode.is_inference":
        "TensorImpl::is_inference(): made in inference mode (or a view of a tensor that was): its key set has no Autograd and no ADInplaceOrView key",
    "softmax.backward":
        "softmax's gradient: (g - sum(g * y)) * y along the dim, the sum in torch's order (its vectorised accumulator and lane folding): exactly rounded, so torch's bits for the same softmax output (which carries the forward's stated bound)",
    "softmax.backward_bound":
        "log_softmax's gradient: g - exp(y) * sum(g) along the dim, the sum in torch's order; torch runs {library} for exp, so an element may differ from torch's by up to {eps} * eps * max(1, |g|)",
    "nll.backward":
        "nll_loss's gradient: zeros, then at each row's target class -weight * grad (divided by the total weight for a mean); an ignored target's row stays 0",
    "embedding.backward":
        "embedding's gradient: zeros of the weight's rows, then each index's gradient row added into the row it picked, in order (an index picked twice adds up); padding_idx's stays 0",
    "grad_mode.read": "GradMode::is_enabled(): this run's grad mode",
    "autograd.tensor_backward":
        "Tensor.backward (torch/_tensor.py) hands the tensor and its gradient to "
        "torch.autograd.backward",
    "autograd.make_grads":
        "_make_grads: a scalar output without a gradient gets torch.ones_like(output); a "
        "given gradient must have the output's shape; then the C++ engine runs "
        "(retain_graph defaults to create_graph)",
    "autograd.run_backward":
        "THPEngine_run_backward: each root's gradient edge (its grad_fn, or a leaf's "
        "AccumulateGrad) goes to Engine::execute",
    "autograd.execute":
        "Engine::execute: a GraphTask for this call; the backward pass runs on this "
        "thread with grad mode set to create_graph (off: the formulas record no graph)",
    "autograd.dependencies":
        "compute_dependencies: how many edges lead into each node reachable from the "
        "root; a node runs once all of them have delivered their gradient",
    "autograd.evaluate":
        "the ready queue gives the node with the highest sequence number (the one made "
        "last; AccumulateGrad first of all); its gradients are validated and passed along"
        " its edges",
    "autograd.apply":
        "the node's backward formula (derivatives.yaml), computed with ordinary "
        "operators: one gradient per input that needs one",
    "autograd.accumulate_grad":
        "AccumulateGrad: the leaf keeps the gradient in .grad",
    "autograd.buffer_accumulate":
        "a second gradient for the same input: InputBuffer::accumulate adds them, in "
        "place into the first when nothing else holds it, else into a new tensor",
    "autograd.sum_to":
        "the input was broadcast in the forward pass: at::sum_to adds the gradient up "
        "over the broadcast dimensions",
    "autograd.cast":
        "the gradient is cast to the input's dtype",
    "autograd.retain_grad":
        "retain_grad()'s hook: before the node runs, a contiguous copy of the gradient "
        "flowing into this non-leaf tensor becomes its .grad (added to the one it had)",
    "autograd.steal":
        "first gradient, nothing else holds it, strided as the leaf: .grad takes it as it"
        " is (a detach, no copy)",
    "autograd.copy_held":
        "first gradient, but something else still holds it (the caller's gradient, "
        "another input buffer): .grad gets a copy laid out as the leaf",
    "autograd.copy_layout":
        "first gradient, but not strided as the leaf (a broadcast or transposed view): "
        ".grad gets a copy laid out as the leaf (new_empty_strided + copy_)",
    "autograd.add_inplace":
        ".grad already holds a gradient: the new one is added into it in place (gradients"
        " accumulate over backward calls until zeroed)",
    "ui.graph.title":
        "autograd graph (what backward() will walk, from each tensor's grad_fn):",
    "ui.graph.more":
        "... and {n} more nodes",
    "ui.graph.again":
        "(drawn above)",
    "ui.graph.saved":
        "saved {name}={tensor} at version {version}",
    "ui.graph.freed":
        "(freed by backward)",
    "ui.graph.changed_by":
        "now at version {version}, changed by `{statement}`: backward will refuse",
    "ui.graph.changed":
        "now at version {version}: backward will refuse",
    "autograd.add":
        ".grad already holds a gradient: with create_graph=True the sum is recorded in "
        "the graph, a new tensor",
    "autograd.create_graph_warning":
        "UserWarning: backward(create_graph=True) makes a reference cycle between the "
        "parameter and its gradient (the gradient's graph holds the parameter); torch "
        "recommends autograd.grad",
    "autograd.grad":
        "torch.autograd.grad: the same engine, told which inputs to stop at: only the "
        "nodes on a path to them run, and their gradients are returned, not added to "
        ".grad",
    "autograd.register_hook":
        "register_hook: the function is kept on the tensor's node (a leaf's: its "
        "AccumulateGrad) and called with the gradient flowing in, before the node runs",
    "autograd.tensor_hook":
        "a register_hook'ed function called with the gradient; a tensor it returns "
        "replaces the gradient",
}
