"""The English notes of the operator families (joining and splitting, views and shape,
triangles and diagonals, ordering, indexed writes, pointwise, reductions, factories):
part of :data:`tracer.i18n.en.TEXT`, which merges this table in.  Plain data, no logic;
the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "matmul.ger_deprecated":
        "UserWarning: torch.ger is deprecated and will be removed in a future PyTorch "
        "release. Use torch.outer instead.",
    "bmm.split":
        "the matrices are too large for the plain loop and BLAS cannot take them as one batched "
        "call (a matrix neither row- nor column-major, a non-contiguous result, or integers): "
        "one matrix product per batch on select()ed matrices, {batches} of them",
    "bmm.addbmm":
        "addbmm sums the {batches} batch products into one matrix: addmm_ once per batch, "
        "beta only on the first, so the sum runs batch by batch",
    # -- einsum, tensordot (engine/ops/einsum.py, engine/ops/tensordot.py)
    "einsum.python":
        "torch/functional.py: the equation and the operands go to _VF.einsum; opt_einsum is "
        "not installed beside torch here, so no contraction path is given and Linear.cpp "
        "contracts left to right",
    "einsum.parse":
        "operands {operands}: the output dims are {output}, then the dims summed out are "
        "{summed} (the ellipsis covers {ellipsis} dims); every operand is aligned to that "
        "order",
    "einsum.align":
        "operand {operand}: a repeated label becomes a diagonal, a missing one an unsqueezed "
        "dim of size 1, and one permute puts its dims in the aligned order",
    "einsum.contract":
        "contract operands {left} and {right} ({remaining} left after them): a dim only one "
        "of them has, and no later operand, is summed first; the product goes back in front",
    "einsum.pair_mul":
        "sumproduct_pair: nothing is summed between these two, so it is one broadcasting mul",
    "einsum.pair_bmm":
        "sumproduct_pair: permute and reshape to ({batch}, {rows}, {k}) and ({batch}, {k}, "
        "{cols}), one bmm, then view and permute back: the dims summed are bmm's inner {k}",
    "tensordot.python":
        "torch/functional.py: dims becomes two lists (an int n: the last n dims of a, the "
        "first n of b) for _VF.tensordot",
    "tensordot.kernel":
        "tensordot: permute a to (kept, contracted) and b to (contracted, kept), reshape both "
        "to matrices ({rows}x{k} and {k}x{cols}), one mm, reshape to the result's shape",
    # -- elementwise math (engine/ops/math_unary.py; docs/fidelity-math.md)
    "ui.verify.within_ulps":
        "values compared within {ulps} ulp: torch runs {library}, whose last bits tidx "
        "does not replay (docs/fidelity-math.md)",
    "ui.verify.from_bounded":
        "values not compared bit for bit: they are computed from {names}, which hold values "
        "within a few ulp of torch's, and this statement's arithmetic carries the "
        "difference on",
    "statistics.all_cpu":
        "the whole tensor in double: mean {mean}, then (x - mean)^2 added one element at a "
        "time in the iterator's order (a sum per loop call, per thread), divided by "
        "n - correction; the square root for std; rounded to the tensor's dtype",
    "statistics.welford":
        "Welford's update per output, in double, over the reduced elements in order: "
        "delta = x - mean, mean += delta / n, m2 += delta * (x - mean), each step rounded; "
        "then m2 / (n - correction), its square root for std",
    "statistics.dof":
        "{op}(): degrees of freedom is <= 0. Correction should be strictly less than the "
        "reduction factor (input numel divided by output numel).",
    "cumprod.kernel":
        "walk each row along dim {dim} in order, multiplying into one {acc} accumulator and "
        "storing every running product rounded to the result's dtype",
    "cummin.kernel":
        "walk each row along dim {dim}: an element at most the minimum so far (or a NaN, "
        "which then stays) takes over, and its index is written beside it; a tie moves the "
        "index to the later element",
    "statistics.trace":
        "add the diagonal's elements one at a time (element i at i * (stride0 + stride1)) "
        "into a double (float for half, int64 for integers)",
    "statistics.nansum":
        "torch's cascade sum, with every NaN loaded as 0",
    "statistics.logsumexp":
        "max = amax(x, dims, keepdim=True) (an infinite max taken as 0), then "
        "log(sum(exp(x - max))) + max, each an operator of its own",
    "statistics.quantile":
        "sort the values (flattened, or with the dim moved last), rank each q as q * (n - 1) "
        "(a row holding NaN: the last index; nanquantile counts the non-NaN values), then "
        "gather below and above the rank and lerp between them, each an operator",
    "statistics.histc":
        "each element in [min, max] counted in its thread's row at bin (x - min) * bins / "
        "(max - min), truncated, computed in the input's dtype (the last edge goes to the "
        "last bin; NaN and elements outside are skipped); the count is of the input's dtype too",
    "cross.kernel":
        "per 3-vector along the dim: r0 = a1*b2 - a2*b1, r1 = a2*b0 - a0*b2, r2 = a0*b1 - "
        "a1*b0 (one fused multiply-add each in the AVX2 build, two roundings in DEFAULT)",
    "cross.default_dim":
        "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass "
        "the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will "
        "change to agree with that of linalg.cross in a future release.",
    "statistics.logsumexp_bound":
        "{op}: torch runs {library}, which tidx cannot replay; the rest is torch's order, so "
        "each element may differ from torch's by up to {eps} * eps * max(1, |y|), here {bound} "
        "(docs/fidelity-math.md)",
    "math.lerp":
        "|w| < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w), in float for half; as one "
        "fused multiply-add: {fused} (the AVX2/AVX512 builds fuse, DEFAULT rounds twice)",
    "math.rounding_exact":
        "round each element to an integral value (ties to even for round); exact, so the "
        "bits are torch's",
    "math.round_decimals":
        "nearbyint(x * 10^{decimals}) / 10^{decimals} in float arithmetic (10^d itself "
        "rounded): not the decimal rounding a calculator does",
    "math.frac": "x - trunc(x): exact, with the sign of x; an infinity gives NaN",
    "angle.real":
        "the angle of a real number: 0 for one >= 0 (-0.0 too), pi rounded to {dtype} for a "
        "negative one, NaN for NaN (angle_impl)",
    "pad.reflect":
        "write every output element from one input element: along each of the last {dims} "
        "dim(s), position j reads j - left pad mirrored about the edge elements (which are "
        "not repeated); the values are the input's, copied",
    "pad.replicate":
        "write every output element from one input element: along each of the last {dims} "
        "dim(s), position j reads j - left pad clamped to the edge elements; the values "
        "are the input's, copied",
    "math.float_exact":
        "{op} of each element (an integer tensor computed in the default float dtype); "
        "measured bit for bit equal to torch's",
    "math.within_ulps":
        "{op} of each element: torch runs {library}, which tidx cannot replay; tidx's value "
        "is numpy's and may differ from torch's by up to {ulps} ulp (measured: "
        "docs/fidelity-math.md)",
    "softmax.log_bound":
        "{op} along the dim: x - max - log(sum of exp(x - max)), summed in torch's order; "
        "torch runs {library}, so each element may differ from torch's by up to {eps} * eps "
        "* max(1, |y|), here {bound} (measured: docs/fidelity-math.md)",
    "ui.verify.abs_bound":
        "values compared within {bound}: the {op} step states this bound, since the library "
        "functions torch runs there are not replayed (docs/fidelity-math.md)",
    "ui.verify.blas_bound":
        "values within {bound} of torch's: MKL sums in an order tidx cannot replay, and the "
        "matmul step states this bound",
    "matmul.addmm":
        "addmm_impl_cpu_: a {m}x{k} by {k}x{n} product through one BLAS gemm call; first the "
        "result, then each operand, is cast as a column-major matrix BLAS can read in place",
    "matmul.as_is":
        "operand {operand} (strides {strides}) is already the column-major matrix BLAS reads: "
        "flag '{flag}', nothing copied",
    "matmul.transposed":
        "operand {operand} (strides {strides}) is a transposed matrix: BLAS is told so with "
        "flag '{flag}' and reads the view itself, nothing copied",
    "matmul.copied":
        "operand {operand} (strides {strides}) is neither row- nor column-major: it is cloned "
        "contiguous first, then passed with flag '{flag}'",
    "matmul.exact":
        "every product and partial sum of these {k}-term sums is an integer the format holds "
        "exactly (at most {worst}), so any summation order, MKL's included, gives these bits",
    "matmul.bound":
        "torch hands this to MKL, whose summation order tidx cannot replay: tidx sums the {k} "
        "terms k ascending in {dtype}; MKL's result may differ from it by up to 2*gamma_k*"
        "sum|a_ik*b_kj|, here at most {bound}",
    "matmul.naive":
        "baddbmm_cpu_kernel: fewer than 400 multiply-adds per matrix, so a plain i, j, k loop "
        "summing the {k} terms in order, as tidx does: the same bits",
    "matmul.dispatch":
        "_matmul_impl picks the kernel from the ranks ({left}D @ {right}D): 1x1 dot, 2x1 mv, "
        "1x2 mm on an unsqueezed row, 2x2 mm, else batch dims folded into mm/mv or expanded "
        "for bmm",
    "cummax.kernel":
        "walk each row along dim {dim}: an element at least the maximum so far (or a NaN, "
        "which then stays) takes over, and its index is written beside it; a tie moves the "
        "index to the later element",
    "pointwise.nan_to_num":
        "NaN becomes {nan}, +inf becomes {posinf}, -inf becomes {neginf}; every other "
        "element is copied",
    "pointwise.logaddexp":
        "log(exp(a) + exp(b)) without overflow: max(a, b) + log1p(exp(-|a - b|)); two equal "
        "infinities give themselves",
    "repeat.interleave_index":
        "the index each of the {total} output positions copies: element i fills "
        "cumsum[i] - repeats[i] up to cumsum[i]",
    "repeat.target":
        "self, padded with leading 1s to {padded}, repeated {repeats} times per dim: the "
        "result is {target}",
    # -- triangles and diagonals (tril/triu, tril_indices/triu_indices, diagonal, diag,
    # diag_embed, diagflat, fill_diagonal_, the *_scatter ops)
    "triangle.meta": "{op} needs a matrix: at least 2 dims; the output gets self's sizes",
    "triangle.restride":
        "contiguous, but a size-1 dim has an unusual stride: walk it through a view with the "
        "default strides",
    "triangle.batch_copy":
        "dim {dim} has stride {stride}, not {expected}: the matrices are not one after "
        "another, so the kernel works on a contiguous copy",
    "triangle.empty": "no elements: nothing to zero",
    "triangle.kernel":
        "keep element (i, j) of each matrix where {keep}, write 0 everywhere else",
    "triangle.kernel_inplace":
        "in place: write 0 where not {keep}; the kept elements are not touched",
    "triangle.indices_args": "row and col must not be negative",
    "triangle.indices_size": "{op}: {size} (row, col) pairs; the result is 2 x {size}",
    "triangle.indices_fill":
        "walk the matrix row by row and write each pair's row into row 0 and its column "
        "into row 1 (offset {offset})",
    "diagonal.geometry":
        "drop dims {dim1} and {dim2}, append one dim of {size}: one step moves a row and a "
        "column at once, stride {stride1} + {stride2} = {step}",
    "diagonal.copy": "diagonal_copy: the diagonal view, then a contiguous clone of it",
    "diag.embed": "a 1-D input: diag_embed places it on a diagonal of a new matrix",
    "diag.copy": "a 2-D input: diagonal_copy returns the diagonal as a new tensor",
    "diag_embed.sizes":
        "the last dim ({n} elements) becomes dims {dim1} and {dim2}, each {n} + {k} = "
        "{length} long; a zero tensor, its diagonal view, then copy_",
    "diagflat.flatten": "flatten the input (a view of a contiguous tensor), then diag",
    "fill_diagonal.geometry":
        "one view of {size} elements whose stride is the sum of all strides ({strides} = "
        "{step}), then fill_",
    "fill_diagonal.wrap":
        "wrap=True on a tall matrix: the diagonal starts again {rows} rows down: {size} more "
        "elements from storage offset {offset}",
    "view_scatter.clone_overlap":
        "self has elements sharing memory (an expand): a plain clone, its strides not kept",
    "view_scatter.clone_storage":
        "clone the whole storage under self ({numel} elements, as one flat view), then view "
        "the clone with self's sizes, strides and offset",
    "view_scatter.copy": "src has the view's sizes: copy_ it into the view of the clone",
    # -- joining and splitting: cat, stack, *stack, split, chunk, tensor_split -------------
    "cat.meta":
        "check the {n} inputs (no 0-dim one; same sizes except along dim), promote their "
        "dtypes, skip the legacy size-[0] ones, and allocate the output: cat always copies",
    "cat.empty": "the output has no elements: nothing to copy",
    "cat.fast_dim0":
        "all contiguous, one dtype, joined along dim 0: each input's bytes are one memcpy, "
        "back to back",
    "cat.serial":
        "all contiguous, one floating dtype, small: the serial kernel copies each input's "
        "rows into place",
    "cat.same_layout":
        "every input has the same sizes and strides: one TensorIterator over a window of "
        "length {length}, moved {length} x stride {stride} along the output per input",
    "cat.slice": "copy this input into its window of the output (offset {offset})",
    "cat.cast":
        "the input is {src}, the output {dst}: copy into a temporary of the input's dtype, "
        "then copy_ casts it into the window",
    "stack.view":
        "join along existing dim {dim} with cat, then view splits that dim in two: no "
        "unsqueeze needed",
    "stack.unsqueeze":
        "a new last dim ({dim}) cannot come from a view of cat's result: unsqueeze each "
        "input, then cat",
    "stack.atleast": "give every input at least {n} dims (0-d reshaped, 1-d unsqueezed)",
    "split.plan":
        "{n} pieces of {size} along dim {dim} (the last has {last}); each is a narrow: a "
        "view, no copy",
    "split.with_sizes":
        "pieces of sizes {sizes} along dim {dim}, each a slice of self: views, no copy",
    "split.chunk": "{n} chunks: split into pieces of ceil(size / {n}) = {size}",
    "split.chunk_empty":
        "the dim is empty: split_with_sizes keeps all {n} (empty) chunks, split would "
        "return one",
    "split.sections":
        "{n} sections: each gets {small} elements, the first {extra} one more; each is a "
        "slice (a view)",
    "split.indices":
        "cut before the indices {indices}: piece i is the slice between two cuts (a view)",
    "split.python_method":
        "torch/_tensor.py: an int (or one-element tensor) size calls _VF.split, a list "
        "calls _VF.split_with_sizes",
    "split.python_function": "torch/functional.py: torch.split is tensor.split",
    "shape.warn_once":
        "{what}: torch warns here (TORCH_WARN_ONCE: once per process, so only the first "
        "time in a Python session)",
    "shape.numpy_T": "x.T reverses every dim: permute({dims})",
    "shape.swap_last": "swap the last two dims ({dim0} and {dim1}): transpose(-2, -1)",
    "shape.movedim":
        "dims {src} go to places {dst}; the other dims keep their order in the places left: "
        "permute({order})",
    "shape.transpose_":
        "in place: dims {dim0} and {dim1} trade sizes and strides in self's own geometry "
        "(as_strided_), no new tensor",
    "shape.unfold":
        "windows of {size} along dim {dim}, one every {step}: dim {dim} now counts {windows} "
        "windows (stride {jump} = step * stride), a new last dim walks one window (stride "
        "{stride})",
    "reshaping.unflatten": "dim {dim} of size {size} is split into {sizes}, then viewed",
    "reshaping.ravel": "contiguous already: ravel is view(-1), no copy",
    "reshaping.ravel_copy": "not contiguous: ravel copies to a contiguous tensor, then view(-1)",
    "reshaping.view_dtype":
        "the same bytes read as {dtype}: elements of {old} bytes become elements of {new} "
        "bytes, the last dim and every stride rescaled; no as_strided, no copy",
    "reshaping.broadcast":
        "the shape every tensor broadcasts to, {shape}: a tensor already of that shape is "
        "returned as it is, the others are expanded (stride 0 on the broadcast dims)",
    "functional.nn":
        "torch/nn/functional.py: Python that calls torch's own function or the Tensor "
        "method (F.softmax without dim= warns and picks one), no operator of its own",
    "loss.cross_entropy_bound":
        "the loss is a mean or sum of log_softmax's values, each within its stated bound of "
        "torch's (torch runs {library}): so the loss is within {bound} of torch's "
        "(docs/fidelity-math.md)",
    "loss.reduction":
        "torch.nn.functional's reduction string as at::Reduction's number: 'none' 0, "
        "'mean' 1, 'sum' 2",
    "activation.log_sigmoid_bound":
        "min(x, 0) - log1p(exp(-|x|)) per element: torch runs {library}, which tidx cannot "
        "replay; each value is within {eps} * eps * max(1, |y|) of torch's, here at most "
        "{bound} (measured: engine/ops/log_sigmoid.py)",
    "loss.bce_bound":
        "the loss is built from log_sigmoid's values, each within its stated bound of "
        "torch's (torch runs {library}), times the weights: so the loss is within {bound} "
        "of torch's",
    "dispatch.no_kernel":
        "the dispatcher found no kernel for this backend; torch's message goes on with one "
        "line per dispatch key naming the file and line of torch's build (and the path torch "
        "is installed at) where each kernel was registered, which tidx leaves out",
    "warn.once_again":
        "TORCH_WARN_ONCE: torch showed this warning earlier in the process (this run), and "
        "its once-only flag keeps it silent now: nothing is shown",
    "activation.gelu_bound":
        "torch runs {library}, which tidx cannot replay; where 1 + erf cancels no ulp bound "
        "holds, so each element is within {eps} * eps * |x| of torch's, here at most {bound} "
        "(measured: docs/fidelity-math.md)",
    "activation.backward_bound":
        "{op}: torch runs {library}, which tidx cannot replay; the derivative's two terms cancel "
        "where it crosses zero, so no ulp bound holds: each element is within {eps} * eps * "
        "|grad| * max(1, |x|) of torch's, here at most {bound} (activation_backward_bounded.py)",
    "functional.varargs":
        "torch/functional.py: the tensors given one by one are passed on as one tuple",
    "functional.atleast":
        "torch/functional.py: one argument is passed on as it is, several as one tuple",
    "functional.broadcast_shapes":
        "plain Python over the shapes: no tensor is made and no operator runs",
    "functional.refs_broadcast_shapes":
        "right-align the shapes; a 1 takes the other length, any other mismatch is an error",
    "binding.view_property": "the property getter dispatches {op}",
    "binding.dim_order":
        "torch/_tensor.py: the dims ordered from outermost to innermost in memory, by "
        "their strides (plain Python, no operator)",
    "binding.unflatten": "torch/_tensor.py checks sizes is not empty, then calls the binding",
    "rot90.turns":
        "k = {k} is {turns} quarter turn(s) in the plane of dims {dim0}, {dim1}: one turn flips "
        "dim1 then transposes in place, two flip both dims, three flip dim0 then transpose, "
        "none is a contiguous clone",
    "repeat.interleave":
        "a new dim of size 1 after dim {dim} is expanded to {repeats} (stride 0, nothing "
        "copied yet); the contiguous clone writes the repeats out, then the two dims are "
        "flattened into one",
    "empty_permuted.strides":
        "a contiguous allocation in physical order has strides {physical}; each logical dim "
        "takes the stride of its place in {layout}: {strides}",
    # -- ordering and membership: sort, argsort, msort, topk (engine/ops/sorting.py) -------
    "sort.outputs_like_input":
        "values and indices are allocated with the input's strides {strides} (it is "
        "non-overlapping and dense)",
    "sort.outputs_dense":
        "the input overlaps or has holes: values and indices get dense strides {strides} in "
        "the same dim order",
    "sort.fill_indices":
        "indices along dim {dim} = 0..{n}-1: an arange restrided by as_strided (stride 0 on "
        "the other dims) and broadcast by copy_",
    "sort.stride0":
        "dim {dim} has stride 0: every element of a slice is the same one, already sorted",
    "sort.stable_sort":
        "std::stable_sort of every slice along dim {dim} (descending={descending}): equal elements keep their "
        "order; NaN is above every number, -0.0 equals 0.0",
    "sort.introsort":
        "std::sort (introsort) of every slice along dim {dim} (descending={descending}): not stable past 16 "
        "elements, ties end where the quicksort's swaps leave them; NaN is above every "
        "number, -0.0 equals 0.0",
    "sort.radix":
        "1-D integers sorted ascending with at least 32768 elements: fbgemm's radix sort, "
        "which is stable",
    "topk.partial_sort":
        "k * 64 <= {n}: std::partial_sort puts the first {k} (largest={largest}) at the "
        "front, in order",
    "topk.nth_element_sorted":
        "std::nth_element puts the {k}th (largest={largest}) at position {k}-1, then "
        "std::sort orders the ones before it",
    "topk.nth_element":
        "sorted=False: std::nth_element puts the {k}th (largest={largest}) at position {k}-1 "
        "and leaves the ones before it in the order its partitioning left them",
    # -- order statistics: median, nanmedian, mode (engine/ops/order_stats.py) -----------
    "order.median_all":
        "{name} of all {n} elements: std::nth_element on a clone puts the middle one, "
        "(n - 1) / 2, in place ({name}: NaNs counted out; median: any NaN gives NaN)",
    "order.median_dim":
        "{name} along dim {dim} ({n} elements a row): std::nth_element over the row's indices, "
        "ties ordered by index, so the earlier of equal values comes first",
    "order.mode":
        "mode along dim {dim} ({n} elements a row): std::sort by value (not stable), then "
        "the first longest run of equal values; its index is the run's last in the sort's order",
    "counting.bincount":
        "{n} elements counted into {nbins} bins (weighted={weighted}): one element after "
        "another, each adding 1 or its weight to its bin",
    # -- norms (engine/ops/norms.py, engine/binding/linalg.py) ---------------------------
    "norm.python_function":
        "torch.norm is Python (torch/functional.py): 'fro' and every number go to "
        "torch.linalg.vector_norm, any other string to torch.linalg.matrix_norm",
    "norm.python_method":
        "Tensor.norm is Python (torch/_tensor.py): it calls torch.norm",
    "norm.lastdim":
        "p=2 along one contiguous innermost dim: each row squared and added in {lanes} SIMD "
        "lanes (multiply, then add), the lanes added one after another, then the tail one by "
        "one (fused multiply-add: {fma}), then sqrt",
    "norm.reduce":
        "binary_kernel_reduce for p={p}: each output's elements in the iterator's order, "
        "accumulated one after another in {acc}, then projected",
    # -- samplers (engine/ops/samplers.py) ------------------------------------------------
    "random.exponential_kernel":
        "one draw per element in memory order: u from 53 bits of random64(), "
        "-1 / {lambd} * log1p(-u) in double, cast to the dtype",
    "random.multinomial":
        "per row: the running sum of the {categories} probabilities divided by the total; "
        "per sample ({n}) a draw u from 53 bits of random64() and a binary search for the "
        "first slot whose cumulative probability is not below u",
    "random.geometric_kernel":
        "one draw per element in memory order: u from 53 bits of random64(), "
        "ceil(log(u) / log1p(-{p})) in double, cast to the dtype",
    "random.cauchy_kernel":
        "one draw per element in memory order: u from 53 bits of random64(), "
        "{median} + {sigma} * tan(pi * (u - 0.5)) in double, cast to the dtype",
    "random.poisson":
        "per rate in order, sample_poisson in double: below 10 the product of uniform draws "
        "(53 bits of random64() each) until it falls to exp(-rate); from 10 Hoermann's "
        "transformed rejection, two draws a try",
    "random.log_normal_kernel":
        "one draw per element in memory order: exp of normal_distribution<double>({mean}, "
        "{std}) (Box-Muller pairs, the generator's cached value first), cast to the dtype",
    "random.random_kernel":
        "one draw per element in memory order: {draw} modulo {modulus} (the dtype's range; "
        "for a floating dtype every integer it holds exactly), cast to the dtype",
    "searchsorted.common_dtype":
        "boundaries and values differ in dtype: both are compared as {dtype}, their result "
        "type",
    "searchsorted.left":
        "side='left': binary search each value's row of {n} boundaries for the first one "
        ">= the value (NaN goes past every boundary)",
    "searchsorted.right":
        "side='right': binary search each value's row of {n} boundaries for the first one "
        "> the value",
    "isin.default":
        "few test elements: every element is compared with each of the {n} test elements "
        "(invert={invert})",
    "isin.scalar": "one test element: isin is {op}(elements, test_element)",
    "unique.bool": "bool input: count the Trues ({trues}) and Falses ({falses}); False comes first",
    "unique.sorted":
        "sort the {n} elements, then keep each one that differs (!=) from the one before: "
        "{count} unique (every NaN counts once more, -0.0 equals 0.0)",
    "unique.consecutive":
        "keep each of the {n} elements that differs (!=) from the one before it, in the "
        "original order: {count} kept",
    "function.unique":
        "torch.unique is Python (torch/functional.py): return_inverse and return_counts "
        "pick what it returns; it calls _unique2 (unique_dim when dim is given)",
    "function.unique_consecutive":
        "torch.unique_consecutive is Python (torch/functional.py): it calls the "
        "unique_consecutive operator and returns what the flags ask for",
    # -- indexed writes and index-producing operators (index_add, index_copy, ...) --
    "index_ops.set_output":
        "the structured kernel's output: a new contiguous tensor of self's shape, "
        "self is copied into it next",
    "index_add.scatter_add":
        "dim {dim} is the first or last dim and alpha is 1: the index is seen with stride 0 "
        "over every other dim, and scatter_add_ does the adding",
    "index_add.slices":
        "one add_ per index entry i: self.select({dim}, index[i]) += alpha * "
        "source.select({dim}, i), in the order of the index",
    "index_add.serial":
        "at most one dim: self[index[i]] += alpha * source[i], one entry after another",
    "index_copy.kernel":
        "each element along dim {dim} goes to offset + index[i] * {stride}; "
        "a repeated index keeps the last write",
    "index_fill.kernel":
        "every element at index[i] along dim {dim} (offset + index[i] * {stride}) "
        "gets the value; negative indices wrap",
    "masked_scatter.uint8_warning":
        "masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
        "deprecated,please use a mask with dtype torch.bool instead.",
    "masked_scatter.kernel":
        "walk self in row-major order; each element where the mask is set takes the next of "
        "the source's {count} elements",
    "put.kernel":
        "self seen as flat (row-major, {numel} elements): self.flat[index[i]] = source[i]; "
        "negative indices count from the end",
    "put.accumulate":
        "self seen as flat (row-major, {numel} elements): self.flat[index[i]] += source[i], "
        "one entry after another",
    "scatter_reduce.kernel":
        "for every position of index: self[..index[..i..]..] = {op}(itself, src[..i..]) "
        "along dim {dim}, one index entry after another",
    "scatter_reduce.expanded":
        "the index is expanded over every dim but the first: one kernel sorts it (stably) "
        "and reduces ({op}) whole rows, include_self and 'mean' handled inside",
    "scatter_reduce.exclude_self":
        "include_self=False: every element the index reaches first gets {op}'s identity "
        "(scatter_ with that value)",
    "scatter.reduce_deprecated":
        "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
        "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
        "reduction options.",
    "index_reduce.beta": "index_reduce() is in beta and the API may change at any time.",
    "index_reduce.slices":
        "one {op} per index entry i: self.select({dim}, index[i]) = {op}(itself, "
        "source.select({dim}, i)), in the order of the index",
    "index_reduce.serial":
        "at most one dim: self[index[i]] = {op}(self[index[i]], source[i]), one entry after "
        "another",
    "nonzero_static.pad":
        "nonzero found {found} rows; the first min({found}, {size}) are copied and the rest "
        "of the {size} rows are filled with {fill}",
    "count_nonzero.kernel":
        "count the {numel} elements that are not zero into one int64 (a full reduction)",
}
