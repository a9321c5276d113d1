"""PyTorch's error messages explained in plain English, in terms of the learner's statement.

Plain data, no logic (:mod:`tracer.i18n.explain` fills the templates).  The message
itself is shown as torch printed it; these lines say what it means for the statement:
which index, which size, which dimension, and what would be valid.

* :data:`ERRORS` — ``(regex, template)`` or ``(regex, template, when)``, searched in
  order.  Named groups give the template its fields; ``{subject}``, ``{indexed}``,
  ``{call}`` and ``{arg_<name>}`` come from the trace, ``{size_last}`` and the like are
  derived from the groups (see :mod:`tracer.i18n.explain`).  Where an entry needs the
  trace, a plainer one for the same message follows it.
* :data:`SUBJECT`, :data:`NO_SUBJECT` — a tensor the statement names, and one it does
  not.
"""

from __future__ import annotations

SUBJECT = "{expr}"
NO_SUBJECT = "the tensor"

INDEX_RX = r"index (?P<index>-?\d+) is out of bounds for dimension (?P<dim>\d+) with size "
SIZES_RX = r"\[[^\]]*\]"
EXPANDED_RX = (r"The expanded size of the tensor \((?P<new>-?\d+)\) must match the existing "
               r"size \((?P<old>\d+)\) at non-singleton dimension (?P<dim>\d+)\.  Target "
               r"sizes: (?P<want>" + SIZES_RX + r")\.  Tensor sizes: (?P<have>" + SIZES_RX + r")")

ERRORS: list[tuple] = [
    # -- an index past the end ---------------------------------------------------------------
    (INDEX_RX + r"0\b",
     "{Subject} has size 0 in dimension {dim}: there is no element there, so no index is "
     "valid, and {index} is not."),
    # getitem, setitem, index_put_, index_fill_: a negative index counts from the end
    (r"^" + INDEX_RX + r"(?P<size>\d+)",
     "{Subject} has size {size} in dimension {dim}, so an index there must be between "
     "{size_neg} and {size_last}; {index} is not.", {"type": "IndexError"}),
    # gather, scatter_, index_add_, index_copy_: no negative index
    (INDEX_RX + r"(?P<size>\d+)",
     "{Subject} has size {size} in dimension {dim}, so the index tensor given to {call} "
     "must hold values from 0 to {size_last} (no negative index here); it holds {index}.",
     {"type": "RuntimeError"}),
    (r"index_copy_\(\): " + INDEX_RX + r"(?P<size>\d+)",
     "{Subject} has size {size} in dimension {dim}, so index_copy_'s index must hold values "
     "from 0 to {size_last} (no negative index here); it holds {index}."),
    (INDEX_RX + r"(?P<size>\d+)",
     "dimension {dim} has size {size}: an index there must be from 0 to {size_last} (or "
     "from {size_neg} to -1 where negative indices count from the end); {index} is not."),
    (r"index is out of bounds for dimension with size 0",
     "{Subject} has size 0 in the dimension being indexed: there is no element there, so "
     "no index is valid."),
    (r"select\(\): index (?P<index>-?\d+) out of range for tensor of size "
     r"(?P<shape>" + SIZES_RX + r") at dimension (?P<shape_at>\d+)",
     "{Subject} has shape {shape}: dimension {shape_at} has size {shape_size}, so select's "
     "index must be between {shape_size_neg} and {shape_size_last}; {index} is not."),
    (r"index out of range in self",
     "the index tensor {arg_index} given to {call} has a value that is not a position in "
     "dimension {arg_dim} of {subject}: each must be from 0 to that dimension's size - 1 "
     "(no negative index here)."),
    (r"index out of range in self",
     "an index is not a position in the dimension being indexed: each must be from 0 to "
     "that dimension's size - 1 (no negative index here)."),
    (r"out of range: tried to access index (?P<index>-?\d+) on a tensor of "
     r"(?P<numel>\d+) elements",
     "take counts the {numel} elements of {subject} as one flat list, so its indices must "
     "be between {numel_neg} and {numel_last}; {index} is not."),
    # -- more indices than dimensions ----------------------------------------------------------
    (r"too many indices for tensor of dimension (?P<ndim>\d+)",
     "{Subject} has {ndim} dimension(s), but {indexed} indexes {arg_specified_dims}: each "
     "integer, slice or index tensor takes one dimension (a boolean mask as many as it "
     "has; None and ... take none)."),
    (r"too many indices for tensor of dimension (?P<ndim>\d+)",
     "{Subject} has {ndim} dimension(s), but the index takes more: each integer, slice or "
     "index tensor takes one dimension (a boolean mask as many as it has; None and ... "
     "take none)."),
    (r"invalid index of a 0-dim tensor",
     "{Subject} is a 0-dim tensor (one number): it has no dimension left to index; "
     "use .item() to get the number."),
    (r"only integers, slices \(`:`\), ellipsis \(`...`\), None and long or byte Variables "
     r"are valid indices \(got (?P<got>\w+)\)",
     "an index must be an integer, a slice, ..., None, or a tensor of integers or "
     "booleans; a {got} is none of these (use int(...) for a number)."),
    (r"step must be greater than zero",
     "a slice of a tensor cannot step backwards (a view's strides are never negative in "
     "PyTorch): reverse with .flip(dim), which copies."),
    (r"Boolean value of Tensor with more than one value is ambiguous",
     "if, and, or, not and bool() need one True or False, and {subject} holds several: "
     "say which you mean with .any() or .all() (or compare one element)."),
    (r"expected sequence of length (?P<want>\d+) at dim (?P<dim>\d+) \(got (?P<got>\d+)\)",
     "a tensor is a rectangle: every list at depth {dim} must have the same length, and "
     "one has {got} where the first has {want}."),
    (r"normal expects std >= 0\.0, but found std (?P<std>\S+)",
     "a standard deviation is never negative; {std} is."),
    # -- shapes that do not fit -------------------------------------------------------------
    (r"shape mismatch: value tensor of shape (?P<value>" + SIZES_RX + r") cannot be "
     r"broadcast to indexing result of shape (?P<result>" + SIZES_RX + r")",
     "{indexed} selects elements of shape {result}, and the value written there has "
     "shape {value}, which does not broadcast to {result}: give a value of shape "
     "{result}, or one that broadcasts to it (a single number always does)."),
    (r"shape mismatch: value tensor of shape (?P<value>" + SIZES_RX + r") cannot be "
     r"broadcast to indexing result of shape (?P<result>" + SIZES_RX + r")",
     "the indexed elements form a tensor of shape {result}, and the value written there "
     "has shape {value}, which does not broadcast to {result}: give a value of shape "
     "{result}, or one that broadcasts to it (a single number always does)."),
    (r"shape mismatch: indexing tensors could not be broadcast together with shapes "
     r"(?P<shapes>.+)",
     "the index tensors are used together, element by element, so their shapes must "
     "broadcast to one shape; {shapes} do not (compared from the last dimension, sizes "
     "must be equal or 1)."),
    (r"The shape of the mask (?P<mask>" + SIZES_RX + r") at index (?P<mask_at>\d+) does not "
     r"match the shape of the indexed tensor (?P<tensor>" + SIZES_RX + r") at index "
     r"(?P<tensor_at>\d+)",
     "a boolean mask covers as many dimensions as it has and must have their sizes: "
     "dimension {mask_at} of the mask has size {mask_size}, but it lines up with "
     "dimension {tensor_at} of {subject} (shape {tensor}), which has size {tensor_size}."),
    (r"The size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) "
     r"at non-singleton dimension (?P<dim>\d+)",
     "broadcasting lines the two shapes up from their last dimension; in dimension {dim} "
     "(of the result) one has size {a} and the other {b}: sizes must be equal, or one of "
     "them 1."),
    # the sizes line up from the last dimension: ``dim`` counts in the target sizes
    (EXPANDED_RX,
     "expand only stretches dimensions of size 1: {subject} has sizes {have}, and the size "
     "that lines up with dimension {dim} of {want} is {old}, so it must stay {old} there "
     "(or be -1), not become {new}.", {"call": r"Tensor\.expand"}),
    (EXPANDED_RX,
     "the value written, of sizes {have}, must broadcast to {indexed}, of sizes {want}: "
     "lined up from the last dimension, its size {old} meets {new} in dimension {dim}, and "
     "only a size of 1 stretches.", {"call": r"Tensor\.__setitem__"}),
    (EXPANDED_RX,
     "a tensor of sizes {have} cannot be expanded to {want}: lined up from the last "
     "dimension, its size {old} meets {new} in dimension {dim}, and only a size of 1 "
     "stretches."),
    (EXPANDED_RX.split(r"\.  Target")[0],
     "expand only stretches dimensions of size 1: the existing size {old} lines up with "
     "dimension {dim} of the new sizes, so it must stay {old} there, not become {new}."),
    (r"the number of sizes provided \((?P<given>\d+)\) must be greater or equal to the "
     r"number of dimensions in the tensor \((?P<ndim>\d+)\)",
     "expand needs a size for every dimension of {subject} ({ndim}) and may add new ones "
     "in front; {given} size(s) is too few."),
    (r"output with shape (?P<out>" + SIZES_RX + r") doesn't match the broadcast shape "
     r"(?P<shape>" + SIZES_RX + r")",
     "an in-place operation writes its result into {subject}, whose shape {out} cannot "
     "change; the operands broadcast to {shape}."),
    (r"view size is not compatible with input tensor's size and stride",
     "view never copies: the new shape must be reachable with strides over the same "
     "memory, and the elements of {subject} are not laid out in that order (after a "
     "transpose, a step slice or an expand, say). Use .reshape(...), which copies when it must, or "
     ".contiguous().view(...)."),
    (r"shape '(?P<shape>" + SIZES_RX + r")' is invalid for input of size (?P<numel>\d+)",
     "the shape {shape} holds {shape_numel} elements but {subject} has {numel}: the sizes "
     "must multiply to {numel} (one of them may be -1, to be worked out)."),
    (r"shape '(?P<shape>" + SIZES_RX + r")' is invalid for input of size (?P<numel>\d+)",
     "{subject} has {numel} elements, and the sizes of {shape} other than the -1 hold "
     "{shape_known}: {numel} is not a multiple of {shape_known}, so no size can stand for "
     "the -1."),
    (r"only one dimension can be inferred",
     "-1 in a shape means 'whatever size is left over', so it can appear only once."),
    (r"unflatten: Provided sizes (?P<sizes>" + SIZES_RX + r") don't multiply up to the size "
     r"of dim (?P<dim>\d+) \((?P<size>\d+)\)",
     "unflatten splits dimension {dim} (size {size}) into sizes {sizes}, which must "
     "multiply to {size}."),
    (r"Index tensor must have the same number of dimensions as input tensor",
     "gather and scatter take an index with as many dimensions as {subject} (add the "
     "missing ones with unsqueeze)."),
    # -- a dim that does not exist ---------------------------------------------------------
    (r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
     r"but got (?P<got>-?\d+)\)",
     "{call} takes a dim between {lo} and {hi} here (a negative dim counts from the end: "
     "-1 is the last); {got} is not."),
    (r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
     r"but got (?P<got>-?\d+)\)",
     "a dim here must be between {lo} and {hi} (a negative dim counts from the end: -1 is "
     "the last); {got} is not."),
    (r"start \((?P<start>\d+)\) \+ length \((?P<length>\d+)\) exceeds dimension size "
     r"\((?P<size>\d+)\)",
     "narrow takes {length} element(s) from position {start}, but the dimension has size "
     "{size} (positions 0 to {size_last})."),
    (r"Number of dimensions of repeat dims can not be smaller than number of dimensions of "
     r"tensor",
     "repeat needs a count for every dimension of {subject} (more add dimensions in "
     "front)."),
    (r"number of dimensions in the tensor input does not match the length of the desired "
     r"ordering of dimensions i\.e\. input\.dim\(\) = (?P<ndim>\d+) is not equal to "
     r"len\(dims\) = (?P<given>\d+)",
     "permute needs each of the {ndim} dimensions of {subject} exactly once; {given} were "
     "given."),
    (r"permute\(\): duplicate dims are not allowed",
     "permute needs each dimension of {subject} exactly once; one was given twice."),
    # -- joining tensors -------------------------------------------------------------------
    (r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size "
     r"(?P<want>\d+) but got size (?P<got>\d+) for tensor number (?P<n>\d+) in the list",
     "cat joins the tensors along dimension {dim}, so every other dimension must have the "
     "same size in all of them: tensor number {n} of the list has size {got} where the "
     "first has {want}."),
    (r"Tensors must have same number of dimensions: got (?P<a>\d+) and (?P<b>\d+)",
     "cat joins tensors with the same number of dimensions; here {a} and {b} (add or "
     "remove dimensions first: unsqueeze, reshape)."),
    (r"stack expects each tensor to be equal size, but got (?P<a>" + SIZES_RX + r") at entry "
     r"(?P<i>\d+) and (?P<b>" + SIZES_RX + r") at entry (?P<j>\d+)",
     "stack puts the tensors side by side along a new dimension, so they must all have "
     "the same shape: entry {i} has shape {a}, entry {j} has {b}."),
    # -- dtypes ---------------------------------------------------------------------------
    (r"tensors used as indices must be long, int, byte or bool tensors",
     "an index tensor must hold integers (int64, int32) or booleans (bool, uint8), not "
     "floating-point numbers: convert it with .long()."),
    (r"index_select\(\): Expected dtype int32 or int64 for index",
     "index_select's index must hold integers (int64 or int32): convert it with .long()."),
    (r"result type (?P<res>\w+) can't be cast to the desired output type (?P<out>\w+)",
     "the result is computed as {res_torch}, but it must be written into a {out_torch} "
     "tensor (in place, or out=), and PyTorch does not cast {res_torch} down to "
     "{out_torch} silently: write the result to a new tensor (y = t + ..., not t += ...) "
     "or convert the tensor first (t = t.float())."),
    (r"Index put requires the source and destination dtypes match, got (?P<dst>\w+) for "
     r"the destination and (?P<src>\w+) for the source",
     "index_put_ writes the value into a {dst_torch} tensor and needs a value of that "
     "dtype, but it is {src_torch}: convert it first, value.to({dst_torch})."),
    (r"value cannot be converted to type (?P<ctype>\w+) without overflow",
     "the number written does not fit in {ctype}, the tensor's element type: it is too "
     "large, or it is nan or inf, which no integer type can hold."),
    (r"masked_fill_? only supports boolean masks",
     "a mask must be a bool tensor: build it with a comparison (t > 0) or convert it "
     "with .bool()."),
    (r"(?P<op>\w+)\(\): could not infer output dtype\. Input dtype must be either a "
     r"floating point or complex dtype\. Got: (?P<dtype>\w+)",
     "{op} is computed only in a floating-point (or complex) dtype, and the input is "
     "{dtype_torch}: convert it first (.float()) or pass dtype=torch.float32."),
    # -- one number out of a tensor -----------------------------------------------------
    (r"a Tensor with (?P<numel>\d+) elements cannot be converted to Scalar",
     ".item() returns one Python number, so the tensor must have exactly one element; "
     "this one has {numel}: index one element first, or use .tolist()."),
    (r"only one element tensors can be converted to Python scalars",
     "int(), float() and bool() of a tensor need exactly one element: index one element "
     "first, or use .tolist()."),
    (r"cannot convert float NaN to integer",
     "nan (not a number) has no integer value: int() of nan fails in Python too."),
    # -- autograd (issue #27) -----------------------------------------------------------
    (r"modified by an inplace operation: \[torch\.\w+ (?P<shape>" + SIZES_RX + r")\], which "
     r"is output (?P<nr>\d+) of (?P<node>\w+), is at version (?P<now>\d+); expected version "
     r"(?P<saved>\d+)",
     "a node of the graph saved a tensor of shape {shape} at version {saved} for its "
     "backward formula, and an in-place write since took it to version {now}: the values "
     "the formula needs are gone. The graph picture names the node, the tensor and the "
     "statement that changed it; write out of place (y = y + 1) or into a clone."),
    (r"^a leaf Variable that requires grad is being used in an in-place operation",
     "a leaf that requires grad is where its .grad is measured: autograd will not let it "
     "change in place. Write into it under torch.no_grad() (as an optimiser's update "
     "does), or into a copy."),
    (r"^a view of a leaf Variable that requires grad is being used in an in-place operation",
     "this is a view of a leaf that requires grad: writing into it would change the leaf "
     "in place. Write under torch.no_grad(), or into a clone."),
    (r"Trying to backward through the graph a second time",
     "the first backward() freed what the graph's nodes saved (to give the memory back): "
     "pass retain_graph=True to the backward() before this one to walk the graph again."),
    (r"grad can be implicitly created only for scalar outputs",
     "backward() without a gradient starts from 1.0, which only a one-element output "
     "has: reduce first (y.sum().backward()) or pass backward(gradient) of the output's "
     "shape."),
    (r"element 0 of tensors does not require grad and does not have a grad_fn",
     "the tensor backward() starts from has no history: nothing it was computed from "
     "requires grad (or it was computed under torch.no_grad()). Make the leaves with "
     "requires_grad=True first."),
    (r"'NoneType' object has no attribute '(?P<attr>\w+)'",
     "the value before .{attr} is None: a tensor's .grad, for one, is None until a "
     "backward pass has reached it (and a non-leaf's stays None unless it called "
     "retain_grad()); check for None first."),
    (r"Inference tensors cannot be saved for backward",
     "this tensor was made inside torch.inference_mode(), so it can never join a graph: "
     "use a clone of it (made outside the block), or torch.no_grad() instead."),
    (r"Inplace update to inference tensor outside InferenceMode",
     "this tensor was made inside torch.inference_mode() and has no version counter, so "
     "it may only be written in place inside such a block (the write has already "
     "happened: the check comes after it). Write into a clone instead."),
    (r"(?:A view was created|is a view of a view which was created) in "
     r"(?P<mode>no_grad|inference) mode and",
     "the view was made while autograd was off ({mode} mode), and it or its base is "
     "written in place with autograd on: autograd cannot tell whether to track the write. "
     "Make the view and the write both inside the block or both outside it."),
    (r"is a view and (?:is being|its base or another view of its base has been) modified "
     r"inplace\. This view is the output of a function that returns multiple views",
     "unbind, split and chunk return several views at once, whose histories autograd "
     "cannot rebase one by one when one of them (or their base) is written in place: "
     "write into a clone of the view, or use an out-of-place operation."),
    # -- creating tensors ---------------------------------------------------------------
    (r"Trying to create tensor with negative dimension (?P<size>-\d+)",
     "a size of {size} is not possible: every size of a tensor must be 0 or more."),
    (r"Storage size calculation overflowed with sizes=(?P<shape>" + SIZES_RX + r")",
     "a tensor of sizes {shape} has more bytes than a 64-bit number can count: it "
     "cannot be allocated."),
    (r"upper bound and lower bound inconsistent with step sign",
     "arange counts from start towards end by step, so step must be positive when end > "
     "start and negative when end < start."),
]
