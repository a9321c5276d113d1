"""The English table of :mod:`tracer.i18n`: every note and label id, in English.

Plain data, no logic.  English is the language of the trace itself: the recorder
formats a step's note from this table when it records it (the ``note`` field of the
JSON document), and the other languages' tables hold the same ids.

* :data:`TEXT` — id -> template, formatted with ``str.format`` and the named
  parameters the call site passes (``Note("select.geometry", dim=0, ...)``).  Note ids
  are named after the step (``indexing.applySelect``, ``memory.posix_memalign``);
  ``origin.*`` say where a default name comes from; ``ui.*`` are the renderers'
  headings and labels.  Templates use plain ``{name}`` fields only (no conversions or
  format specs): a parameter is stored as a JSON value and must format the same after
  a round trip.
* :data:`ERRORS` — explanations of PyTorch's error messages in plain words
  (:mod:`tracer.i18n.en_errors`): the message is English already, but says what went
  wrong in torch's terms, not in the statement's.
"""

from __future__ import annotations

from tracer.i18n.en_cuda import TEXT as CUDA_TEXT
from tracer.i18n.en_cudart import TEXT as CUDART_TEXT
from tracer.i18n.en_cudaindex import TEXT as CUDAINDEX_TEXT
from tracer.i18n.en_cudacheck import ERRORS as CUDACHECK_ERRORS
from tracer.i18n.en_cudacheck import TEXT as CUDACHECK_TEXT
from tracer.i18n.en_cudacopy import TEXT as CUDACOPY_TEXT
from tracer.i18n.en_errors import ERRORS as EN_ERRORS
from tracer.i18n.en_errors import NO_SUBJECT as EN_NO_SUBJECT
from tracer.i18n.en_errors import SUBJECT as EN_SUBJECT
from tracer.i18n.en_gif import TEXT as GIF_TEXT
from tracer.i18n.en_lecture import TEXT as LECTURE_TEXT
from tracer.i18n.en_autograd import TEXT as AUTOGRAD_TEXT
from tracer.i18n.en_numpy import TEXT as NUMPY_TEXT
from tracer.i18n.en_operators import TEXT as OPERATOR_TEXT
from tracer.i18n.en_picture import TEXT as PICTURE_TEXT
from tracer.i18n.en_rng import TEXT as RNG_TEXT
from tracer.i18n.en_stepper import TEXT as STEPPER_TEXT
from tracer.i18n.en_exports import TEXT as EXPORT_TEXT

TEXT: dict[str, str] = {
    # -- factories and the default dtype: linspace, logspace, range, new_*, asarray ------
    "factory.linspace":
        "linspace = empty(steps) + linspace_out: steps evenly spaced values from start to "
        "end, both included",
    "factory.logspace":
        "logspace = empty(steps) + logspace_out: base ** (the values linspace would give)",
    "factory.range":
        "torch.range (deprecated): like arange but the end is included; empty + range_out",
    "factory.asarray":
        "asarray shares a tensor's memory unless a copy is asked for or a dtype/device "
        "change needs one; other data is copied into a new tensor",
    "factory.new_tensor":
        "new_tensor: torch.tensor with self's dtype and device as the defaults",
    "factory.new_empty": "new_empty = empty with self's dtype and device unless given",
    "factory.new_empty_strided":
        "new_empty_strided = empty_strided with self's dtype and device unless given",
    "factory.new_zeros": "new_zeros = new_empty + zero_",
    "factory.new_ones": "new_ones = new_empty + fill_(1)",
    "factory.new_full": "new_full = new_empty + fill_(value): self's dtype, not the value's",
    "factory.new_options":
        "self.options().merge_in(options): dtype {dtype}, device {device} (what is not "
        "given comes from self)",
    "linspace.factory":
        "{op}: check steps >= 0, then allocate the result: {steps} elements of {dtype}",
    "linspace.kernel":
        "step = (end - start) / (steps - 1) in {step_type}; the first {halfway} of {steps} "
        "values are start + step * i, the rest end - step * (steps - 1 - i), so both ends "
        "are exact",
    "logspace.kernel":
        "x = start + step * i (first half) or end - step * (steps - 1 - i) (second half), "
        "in double; each of the {steps} values is pow({base}, x) cast to the dtype",
    "range.size":
        "size = (end - start) / step + 1 in the accumulate type, truncated: the end is "
        "included",
    "range.kernel": "value i = start + i * step, in the accumulate type",
    "random.normal.check_tensor_std":
        "CHECK_NORMAL_TENSOR_STD: std.min().ge(0).item() -- every std must be >= 0, read "
        "back to the CPU as a bool",
    "random.normal.kernel_direct":
        "the normal kernel, called directly (no aten::normal_ of its own): N(0, {std}) "
        "drawn into the output, then shifted (add_ mean) and, for a tensor std, scaled "
        "first (mul_ std)",
    "random.bernoulli_kernel":
        "one uniform number per element, serially in the loop's order: u from {draw} "
        "({bits} bits), and the element is u < p (1 with probability p), stored in the "
        "output's dtype",
    "random.bernoulli_scalar_kernel":
        "a float p on this CPU (not an Intel one, where MKL's generator runs): one "
        "random64() per element, serially in memory order; the element is u < p, u from "
        "its 53 low bits",
    "binding.user_warning": "Python warning (UserWarning): {message}",
    "binding.asarray.tensor":
        "a tensor: aliased as it is, or converted/cloned when copy=True or a dtype/device "
        "differs",
    "binding.legacy.pynew":
        "torch.Tensor(...) calls the class: THPVariable_pynew, the legacy constructor with "
        "the default dtype (a tensor argument keeps its own)",
    "binding.legacy.type_new":
        "{type}(...) is a legacy tensor type: its constructor makes {dtype} CPU tensors",
    "binding.legacy.empty": "no arguments: an empty tensor, empty({{0}})",
    "binding.legacy.alias":
        "a tensor argument: alias() -- a new tensor on the same storage, nothing copied",
    "binding.legacy.sizes":
        "integers (or a torch.Size) are sizes: empty(sizes), memory left uninitialised "
        "(whatever the allocator's bytes held), unlike torch.zeros",
    "binding.legacy.data":
        "a list or tuple is data: copied as torch.tensor copies it, but into the type's "
        "dtype (no type inference: [1, 2] becomes float)",
    "binding.legacy.refused": "the arguments match no form torch accepts",
    "binding.asarray.data":
        "not a tensor: copied into a new tensor (dtype inferred unless given); copy=False "
        "is an error",
    "default_dtype.get": "the default dtype of this run (torch.get_default_dtype())",
    "default_dtype.set":
        "set the default dtype to {dtype}: Python floats and float factories use it from "
        "now on",
    "default_dtype.check": "only a floating-point dtype may be the default",
    "detach.alias": "a new tensor on the same storage, with no autograd history",
    "resize.restride":
        "resize_(memory_format={memory_format}): after the resize, the strides of that "
        "format",
    # -- end of factories --------------------------------------------------------------
    # -- python / binding: t[...] and t[...] = v ---------------------------------------
    "python.getitem":
        "t[...] on a tensor calls the C++ mapping slot THPVariable_getitem",
    "python.setitem":
        "t[...] = v on a tensor calls the C++ mapping slot THPVariable_setitem",
    "binding.THPVariable_getitem":
        "simple indices take a fast path; the rest go through applySlicing",
    "binding.THPVariable_setitem":
        "wrap the value, then write through a view (copy_to) or through index_put_ when "
        "tensors index",
    "binding.valueToTensor":
        "the right-hand side becomes a tensor; a Python number takes self's dtype "
        "(scalarToTensor -> scalar_tensor_static), then lift_fresh",
    "binding.valueToTensor.tensor": "already a tensor: used as it is",
    "binding.wrapTuple": "the index becomes a tuple: one entry per indexed position",
    # torch's own UserWarning, quoted: every language shows it as torch prints it
    "binding.wrapTuple.sequenceWarning":
        "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
        "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this "
        "will be interpreted as tensor index, x[torch.tensor(seq)], which will result "
        "either in an error or a different result",
    # torch's own UserWarning, quoted: every language shows it as torch prints it
    "binding.clip_val.warning":
        "Truncating the start/stop/step of slice. This is likely because of saved old "
        "models when the start/stop/step were larger.",
    "binding.count_specified_dimensions":
        "count the dims the indices consume: None, ... and bools consume none, a bool/byte "
        "mask consumes its ndim",
    "binding.sequenceToVariable":
        "a list inside an index becomes a tensor (int64 unless it holds bools)",
    "binding.applySlicing":
        "walk the indices left to right, each through handleDimInMultiDimIndexing; dim "
        "counts the dims of self consumed so far",
    "binding.TensorIndex": "the Python index converted to its C++ TensorIndex",
    "binding.THPVariable_Wrap":
        "the C++ tensor gets its Python object (the TensorImpl is shared, not copied)",
    # -- python / binding: torch.* functions -------------------------------------------
    "binding.PythonArgParser":
        "PythonArgParser matches the arguments against the signatures, builds "
        "TensorOptions (dtype, layout strided, device, pin_memory) and calls the aten "
        "operator",
    "binding.data_ptr":
        "the storage's data pointer plus storage_offset() x element_size(): a view's "
        "data_ptr() is its base's moved by its offset in bytes. tidx's addresses are "
        "simulated (the same in every run); torch shows the process's real ones",
    "binding.storage.data_ptr":
        "the address of the storage's first byte, shared by every view of it "
        "(simulated by tidx, the same in every run; torch shows the real one)",
    "binding.storage.nbytes":
        "the byte count the StorageImpl holds (no aten operator runs)",
    "binding.storage.typed":
        "Python: the tensor's whole storage, from byte 0, read as elements of its dtype "
        "(a TypedStorage: the tensor's offset and strides play no part)",
    "binding.storage.deprecated":
        "torch warns once per process that TypedStorage will go: untyped_storage() is "
        "the storage as torch keeps it, bytes without a dtype",
    "binding.storage.untyped":
        "the StorageImpl the tensor holds, handed to Python as an UntypedStorage (no "
        "copy, no aten operator)",
    "binding.getter.op":
        "a Python attribute whose C++ getter calls an aten operator",
    "complex.view_as_real":
        "each complex element is two floats, real then imaginary: sizes gain a last dim of "
        "2, every stride and the offset double, the new dim steps 1 float; same storage",
    "complex.view_as_complex":
        "pairs of floats read as one complex element: the last dim of 2 (stride 1) goes, "
        "the other strides and the offset halve; same storage",
    "complex.set_conj":
        "the alias gets the conjugate bit: its elements read as the conjugates of the "
        "stored ones; nothing is copied",
    "complex.conj_kernel": "each imaginary part negated into the output (only sign bits change)",
    "real.self":
        "not a complex tensor: real is the tensor itself (no view is made)",
    "binding.to_type":
        "t.float(), t.long() and their kin: dispatch_to calls self.to({dtype}) -- the tensor "
        "itself when it already is {dtype}, otherwise a converted copy",
    "roll.pieces":
        "roll along dim {dim}: the last {size} - {start} elements come first (narrow from "
        "{start}), then the first {start} (narrow from 0); cat joins them into a new tensor",
    "where.kernel":
        "where_kernel: each output element is self's where the condition is True, other's "
        "where it is False (all three broadcast; the result is {dtype})",
    "binding.readsTensorImpl":
        "no aten operator runs: the binding reads {reads} straight off the TensorImpl",
    "python.iter":
        "iterating a tensor (a, b = t; for row in t) is Python code in torch/_tensor.py: "
        "a 0-d tensor has nothing to iterate, otherwise iter(t.unbind(0)), one view per row",
    "python.len":
        "len(t) is Python code in torch/_tensor.py: a 0-d tensor has no length, otherwise shape[0]",
    "binding.tensor_to_list":
        "tensor_to_list: resolve_conj and resolve_neg first (they return self unless a conjugate or negative bit is set), then the elements become nested Python lists",
    "binding.recursive_to_list":
        "walk the sizes and strides, turning each element into a Python number",
    "binding.item":
        "dispatch item() and hand the Scalar to Python as a number",
    "binding.bool_scalar":
        "bool(t) calls is_nonzero: exactly one element, compared with zero",
    "binding.make_variable":
        "requires_grad=True: the tensor becomes an autograd leaf; later operations on it "
        "would go through AutogradCPU and record a graph",
    "binding.internal_new_from_data":
        "infer sizes and dtype from the nested lists, allocate with empty, store the Python "
        "values, then to() and lift_fresh",
    "binding.internal_new_from_data.meta":
        "device='meta': only the empty meta tensor is made; the values are dropped (a meta "
        "tensor has no memory)",
    "binding.recursive_store":
        "copy each Python number into the new storage, in row-major order",
    "factory.randn":
        "randn = empty + normal_(0, 1): standard normal numbers from the CPU generator",
    "factory.rand": "rand = empty + uniform_(0, 1)",
    "factory.zeros": "zeros = empty + zero_",
    "factory.ones": "ones = empty + fill_(1)",
    "factory.empty": "uninitialised memory: whatever bytes the allocator returned",
    "factory.full":
        "full = empty + fill_(value); an int value gives int64, a bool gives bool",
    "factory.empty_strided": "memory sized for the given strides, uninitialised",
    "factory.randint": "randint = empty + random_(low, high)",
    "factory.randperm": "randperm = empty + a Fisher-Yates shuffle of 0..n-1",
    "factory.arange":
        "arange = empty + arange_out: size ceil((end - start) / step), value i = start + "
        "i * step",
    "factory.eye": "eye = empty + resize_ + zero_ + ones on the diagonal",
    "factory.empty_like":
        "a new uninitialised tensor shaped like the input (strides preserved when it is "
        "dense)",
    "factory.zeros_like": "empty_like + zero_",
    "factory.ones_like": "empty_like + fill_(1)",
    "factory.full_like": "empty_like + fill_(value)",
    "factory.rand_like": "empty_like + uniform_(0, 1)",
    "factory.randn_like": "empty_like + normal_(0, 1)",
    "factory.randint_like": "empty_like + random_(low, high)",
    "factory.tensor":
        "torch.tensor copies Python data into a new tensor, then detach_ gives it no "
        "autograd history",
    "function.where":
        "torch.where(condition) = nonzero(condition) split into one index tensor per dim",
    "function.manual_seed": "reseed the default CPU generator",
    "function.from_numpy": "the tensor shares the array's memory: no copy",
    "rng.manual_seed":
        "mt19937 state re-initialised from the low 32 bits of the seed; cached normals "
        "cleared",
    "scalar.scalar_tensor_static":
        "empty_cpu({{}}) + scalar_fill, called directly: no dispatcher, no aten operator",
    "scalar.wrapped_number":
        "a Python number beside a tensor becomes a 0-dim tensor marked as a wrapped "
        "number: it takes part in type promotion only by its kind (bool, integer, float)",
    "scalar.scalar_fill": "store the one value",
    # -- TensorIndexing ------------------------------------------------------------------
    "indexing.singleIndex": "one simple index: handled directly, without applySlicing",
    "indexing.applySlice": "a slice keeps the dim: slice() makes a strided view",
    "indexing.applySlice.whole":
        "start 0, stop past the end, step 1: the slice is the whole dim, so self is "
        "returned and no operator runs",
    "indexing.applySelect": "an integer removes the dim: check bounds, then select",
    "indexing.boolToIndexingTensor":
        "True indexes the new size-1 dim once (tensor([0])); False indexes it zero times "
        "(an empty index)",
    "indexing.recordTensorIndex":
        "a tensor index does not touch the tensor now: it is stored in outIndices for the "
        "advanced-indexing operator later",
    "indexing.handleDim.integer": "index #{position} is an integer: select, the dim disappears",
    "indexing.handleDim.slice": "index #{position} is a slice: a strided view, the dim stays",
    "indexing.handleDim.ellipsis":
        "index #{position} is an ellipsis: skip the dims no other index names",
    "indexing.handleDim.none": "index #{position} is None: unsqueeze a new dim of size 1",
    "indexing.handleDim.boolean":
        "index #{position} is a bool: unsqueeze, then index the new dim with a tensor",
    "indexing.handleDim.tensor": "index #{position} is a tensor: recorded for advanced indexing",
    "indexing.slicePrefix1sSize":
        "leading size-1 dims of the value are dropped before index_put_",
    "indexing.copy_to": "no tensor indices: the sliced view is written directly",
    "indexing.expand_inplace":
        "broadcast the value to the destination's shape (stride-0 dims)",
    "indexing.dispatch_index":
        "trailing undefined slots are dropped, then Tensor::index runs",
    "indexing.dispatch_index_put_":
        "trailing undefined slots are dropped, then Tensor::index_put_ runs",
    "indexing.typeConvertIndices":
        "std::vector<Tensor> -> c10::List<std::optional<Tensor>>: undefined slots become "
        "nullopt",
    # -- memory ----------------------------------------------------------------------------
    "memory.empty_generic.cpu":
        "empty_cpu -> empty_generic: the one code path every factory shares to get memory",
    "memory.empty_generic.meta":
        "empty_meta: the one code path every factory shares to get memory",
    "memory.check_size_nonnegative": "every size must be >= 0",
    "memory.computeStorageNbytesContiguous":
        "numel x itemsize, in unsigned 64-bit arithmetic with overflow checks",
    "memory.MetaAllocator":
        "meta tensors get a storage of the right size but no memory: data_ptr is null",
    "memory.posix_memalign":
        "posix_memalign: {nbytes} bytes, aligned to {alignment} bytes so SIMD loads never "
        "straddle a cache line",
    "memory.StorageImpl": "the storage owns the bytes; every view of them shares it",
    "memory.TensorImpl":
        "the tensor: a dtype and a DispatchKeySet over the storage; sizes start as [0]",
    "memory.generic_set_sizes_contiguous":
        "stride[i] = product of sizes[i+1:]: row-major, the last dim moves fastest",
    "memory.channels_last": "channels_last keeps the NCHW sizes but orders memory as NHWC",
    "memory.empty_strided_generic":
        "storage sized for the highest element the strides can reach",
    # -- kernels: views --------------------------------------------------------------------
    "as_strided.setStrided":
        "a new TensorImpl that shares the storage: only sizes, strides and offset are new, "
        "not one byte is copied",
    "select.geometry":
        "drop dim {dim}; the offset moves {index} x stride {stride} = {moved} elements",
    "slice.geometry":
        "dim {dim}: start clamped to {start}, end to {end}; size ceil({length}/{step}), "
        "stride x{step}",
    "unsqueeze.geometry":
        "insert a dim of size 1 at {dim} (stride {stride}: it is never stepped over)",
    "expand.geometry":
        "broadcast dims get stride 0: one element read many times, nothing copied",
    "view.computeStride": "the new shape can reuse the memory as it is laid out",
    "reshape.view": "self is contiguous: reshape is simply a view",
    "reshape.alias":
        "not contiguous, but computeStride finds strides for the new shape: an alias, still "
        "no copy",
    "reshape.copy":
        "no strides can express the new shape over this memory: copy to a contiguous tensor "
        "first",
    "transpose.geometry": "swap dims {dim0} and {dim1}: their sizes and strides trade places",
    "squeeze.geometry": "drop dims of size 1: they never move the offset",
    "flip.copy": "no flipped dim has more than one element: a plain copy",
    "flip.kernel":
        "read self from element {start} (the far end of dims {dims}) with those dims' "
        "strides negated: out[i] = self[size - 1 - i]",
    # -- kernels: copies and fills ---------------------------------------------------------
    "copy.TensorIterator": "src is broadcast to dst's shape; dst is never resized",
    "copy.same_dtype": "same dtype: a plain element copy",
    "copy.cast": "cast {src} -> {dst} while copying",
    "copy.complex_to_real":
        "UserWarning: Casting complex values to real discards the imaginary part",
    "fill.tensor":
        "a 0-dim tensor value on the same device: fill is a broadcasting copy_ of that one "
        "element",
    "fill.scalar_fill": "one element: write {value} directly, no TensorIterator",
    "fill.fill_kernel": "write {value} into every element",
    "zero.meta": "a meta tensor has no memory: nothing to zero",
    "zero.memset":
        "dense and fewer than GRAIN_SIZE elements: one memset of the bytes, no "
        "TensorIterator",
    "zero.no_elements": "no elements: data_ptr() is null, so no memset",
    "zero.parallel": "{numel} elements >= GRAIN_SIZE ({grain_size}): a parallel fill",
    "zero.not_dense": "not one dense block (strided or overlapping): memset cannot do it",
    "contiguous.clone":
        "the tensor is not laid out in this memory format, so it is cloned into a new tensor "
        "that is",
    "lift_fresh.identity":
        "marks a freshly made tensor for functionalization; on plain CPU it returns its "
        "input unchanged",
    "detach_.history": "cut the tensor from any autograd history",
    "to.same": "dtype and device already match: returns self, nothing copied",
    # -- kernels: factories ----------------------------------------------------------------
    "factory.meta_no_fill":
        "the Meta kernel stops after empty: {fill} would write memory a meta tensor does "
        "not have",
    "empty_like.dense": "the input is dense: the new tensor copies its strides exactly",
    "empty_like.gaps":
        "the input has gaps: infer_dense_strides keeps its dim order in memory but packs it "
        "densely",
    "resize.resize_impl_cpu_":
        "same number of elements: only sizes and strides change; more: the storage grows",
    "arange.size": "size = ceil((end - start) / step), computed in double",
    "arange.kernel":
        "value i = start + i * step in the accumulate type (double for float), a vector of "
        "elements at a time",
    "eye.diagonal": "write 1 at every stride(0) + stride(1) step: the diagonal",
    # -- kernels: random -------------------------------------------------------------------
    "random.precision_warning":
        "{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
        "{dtype} can support discrete uniform distribution only within this range. This "
        "warning will become an error in version 1.7 release, please fix the code in advance",
    "random.generator":
        "the default CPU generator: one mt19937 stream shared by every random op; each op "
        "continues where the last one stopped",
    "random.meta": "a meta tensor has no memory: nothing to fill, no random numbers drawn",
    "random.normal_kernel":
        "numel >= 16 and contiguous: normal_fill (Box-Muller on blocks of 16); otherwise one "
        "Box-Muller pair per two elements, serially",
    "random.uniform_kernel":
        "one raw draw per element (24 bits for float32, 53 for float64) scaled to [from, to)",
    "random.random_from_to_kernel":
        "value = low + draw % (high - low); ranges of 2**28 or more take 64-bit draws",
    "random.randn": "randn allocates with empty, then fills in place with N(0, 1)",
    "random.randperm":
        "Fisher-Yates: for i in 0..n-2 swap r[i] with r[i + random() % (n - i)]",
    # -- kernels: advanced indexing --------------------------------------------------------
    "index.expandTensors":
        "a bool mask becomes one long index per mask dim: the columns of nonzero(mask)",
    "index.make_info":
        "prepare advanced indexing: masks -> long indices, broadcast them, and restride self "
        "so one kernel can walk everything",
    "index.checkIndexTensorTypes": "index tensors must be long, int, byte or bool",
    "index.expand_outplace": "broadcast all index tensors to one shape",
    "index.transposeToFront":
        "the indexed dims are not adjacent: permute them to the front, so the result's "
        "indexed dims come first (as in numpy)",
    "index.restride_src":
        "replace the indexed dims of self by the index shape with stride 0: the kernel adds "
        "index * stride itself",
    "index.reshape_indexer":
        "pad the index with size-1 dims so it broadcasts against the restrided self",
    "index.set_output":
        "the structured kernel allocates its output itself (empty_cpu / empty_strided_cpu, "
        "no dispatcher call): advanced indexing always copies. TensorIterator lays the "
        "output out in the inputs' memory order",
    "index.cpu_index_kernel":
        "for every output element: offset = base + sum(index_j * stride_j); read that "
        "element",
    "index_put.canDispatchToMaskedFill":
        "one bool mask and a one-element value: masked_fill_ does the job faster",
    "index_put.make_index_put_iterator":
        "the value must broadcast to the indexing result and have self's dtype",
    "index_put.write":
        "for every element: offset = base + sum(index_j * stride_j); write the value there",
    "index_put.accumulate":
        "for every element: offset = base + sum(index_j * stride_j); add the value there",
    "masked_fill.kernel":
        "TensorIterator broadcasts the mask over self (no expand operator); write the value "
        "wherever the mask is True",
    "nonzero.kernel":
        "count the non-zeros, then write their coordinates; the result is column-major "
        "(strides [1, n]) so each column is one index",
    # -- kernels: gather, scatter, take, reductions ----------------------------------------
    "index_select.rows":
        "one slice per index: self.select(dim, 0) and result.select(dim, 0) give the slices' "
        "shape; each copy starts index[i] * stride(dim) further into self",
    "index_select.dim1":
        "dim 1 into a contiguous result: self made contiguous, then blocks copied with memcpy "
        "for every outer index",
    "index_select.kernel": "result's slice i along dim = self's slice index[i]",
    "gather.kernel":
        "out[i][j] = self[i][index[i][j]] (for dim 1): fancy indexing with arange everywhere "
        "but dim",
    "scatter.kernel": "self[i][index[i][j]] = src[i][j] (for dim 1)",
    "scatter_add.kernel": "self[i][index[i][j]] += src[i][j] (for dim 1)",
    "take.kernel":
        "self seen as one flat row-major vector: out[k] = flat(self)[index[k]]",
    "overlap.check":
        "before it writes, the kernel checks that no two elements of the written tensor share "
        "a location and that it does not overlap what it reads (MemoryOverlap.cpp)",
    "overlap.check_inputs":
        "before it writes, the kernel checks that the tensor it writes does not overlap the "
        "tensors it reads (MemoryOverlap.cpp)",
    "overlap.expanded_warning":
        "Use of {op} on expanded tensors is deprecated. Please clone() the tensor before "
        "performing this operation. This also applies to advanced indexing e.g. {tail}",
    "sum.make_reduction":
        "the result is viewed with a size-1, stride-0 dim put back for every reduced dim of "
        "the input; TensorIterator broadcasts it over the input, so every element of a "
        "reduced group lands on the same result element",
    "sum.two_pass":
        "{threads} threads each add their share into a row of a buffer that starts as a copy "
        "of the identity (0); the rows are then added into the result",
    # reductions (engine/ops/reduce.py, engine/ops/sum_kernel.py)
    "sum.integer":
        "integers add up in any order to the same bits (wrapping as the dtype does), so "
        "each result element is its group's sum",
    "sum.cascade":
        "cascade sum in {dtype}, {lanes} SIMD lanes: the iterator's 2-D blocks are summed in "
        "partial sums of 16 or more elements at up to four levels (so only numbers of "
        "similar size meet), and each block's sums are added into the result; this order "
        "fixes the last bits",
    # DispatchStub (engine/core/dispatch_stub.py): which build of a vectorised kernel ran
    "stub.build":
        "{stub} runs its {capability} build: {bytes}-byte vectors, {lanes} {dtype} values "
        "each, and a * b + c rounded twice (no fused multiply-add); the vector width fixes "
        "how the loop splits the work, so other builds can differ in the last bits",
    "stub.avx2_only":
        "{stub} runs its {capability} build, which AVX512 CPUs run too (torch 2.13 ships no "
        "AVX512 build of it): {bytes}-byte vectors, {lanes} {dtype} values each, and "
        "a * b + c fused into one rounding (FMA); the vector width fixes how the loop "
        "splits the work, so the DEFAULT build can differ in the last bits",
    "amax.kernel":
        "keep the largest (amax) or smallest (amin) value of each reduced group; a NaN wins",
    "max_all.kernel":
        "the largest (max) or smallest (min) element of the whole tensor; fill_ writes it "
        "into the 0-dim result",
    "argmax.kernel":
        "the index of the first largest (argmax) or smallest (argmin) element of each group; "
        "the first NaN wins",
    "max_dim.kernel":
        "walk each row along the dim, keeping the first largest (max) or smallest (min) "
        "value and its index; the first NaN stops the walk",
    "cumsum.kernel":
        "walk each row along dim {dim} in order, adding into one {acc} accumulator and "
        "storing every running sum rounded to the result's dtype",
    "prod.kernel":
        "multiply each group into the result (which starts at 1) in binary_kernel_reduce_vec's "
        "order: four vector accumulators along a contiguous row, one lane per column "
        "across contiguous columns, else one element at a time; in {dtype}",
    "equal.alias":
        "both are the same elements of the same memory: equal, unless a float among them "
        "is NaN",
    "equal.kernel":
        "compare element by element in the common dtype; a NaN equals nothing",
    "mean.div":
        "divide each sum by the number of elements it added up, in place (the count is a "
        "wrapped number, cast to the result's dtype first)",
    "allany.kernel":
        "each result element says whether all (all) or any (any) element of its group is "
        "non-zero",
    "masked_select.prefix_sum":
        "not contiguous: a prefix sum of the mask gives each selected element its output "
        "slot, so the kernel can run in any order",
    "masked_select.kernel":
        "walk self in logical order; every element whose mask is True goes to the next "
        "output slot",
    # -- kernels: pointwise ----------------------------------------------------------------
    "pointwise.TensorIterator":
        "broadcast to {shape}; common dtype {dtype}: inputs of another dtype are copied to "
        "it first",
    "pointwise.binary_kernel": "one vectorised loop over the broadcast elements",
    "pointwise.unary_kernel": "one vectorised loop",
    "pointwise.temporary_output":
        "self is {out} but the loop computes in {dtype}: it writes a temporary of {dtype}, "
        "copied back into self at the end",
    "pointwise.div_trunc":
        "division rounded toward zero, trunc(a / b); an integer divisor of 0 raises "
        "ZeroDivisionError",
    "pointwise.div_floor":
        "floor division as c10::div_floor_floating: (a - fmod(a, b)) / b, one less when "
        "the signs differ, then floor; an integer divisor of 0 raises ZeroDivisionError",
    "pointwise.remainder":
        "remainder: fmod(a, b), plus b where the remainder and b have opposite signs "
        "(Python's %, the sign of the divisor)",
    "pointwise.fmod": "fmod: the remainder of trunc division, the sign of the dividend",
    "pointwise.pow_shortcut":
        "exponent {exponent}: no pow is computed, the output is filled with ones (0) or "
        "is a copy of the base (1)",
    "pointwise.resize_warning":
        "UserWarning: the out= tensor holds elements but has shape {old}, not {new}: it is "
        "resized (deprecated: torch will resize only an empty out= tensor)",
    "pointwise.pow_kernel":
        "pow by {exponent}: integers by square-and-multiply (wrapping as C does), floats "
        "by the exact special case of that exponent (sqrt, 1/sqrt, 1/x, x*x, x*x*x)",
    # -- seed 003 (pypto) ------------------------------------------------------------------
    "pypto.index_select":
        "seed 003 (pypto.index_select): slices of input along dim, picked by index, "
        "computed tile by tile in the Unified Buffer",
    "pypto.constraint_checks":
        "seed 003 (pypto.index_select): 参数说明 and 约束说明, one child per constraint",
    "pypto.tiling":
        "seed 003 (pypto.index_select): the TileShape cuts the result; dim {dim} of input "
        "is not cut (constraint 3), it is only the source of the index",
    "pypto.tile":
        "result[offsets : offsets + extents] = input gathered along dim at the listed index "
        "entries",
    "pypto.more_tiles": "tiles {first} to {last} are not listed one by one",
    "pypto.gather": "np.take(input, index, axis=dim): the tiles above, all at once",
    # seed 003's constraints, in English; the Chinese table holds the seed's own words
    "pypto.check.input_dtype":
        "the input's dtype is one of DT_FP32, DT_FP16, DT_BF16, DT_INT16, DT_INT8, DT_INT32",
    "pypto.check.input_rank": "the input's shape has 2 to 4 dims",
    "pypto.check.input_not_empty": "the input is not an empty tensor",
    "pypto.check.input_shape_size":
        "the input's shape size is at most 2147483647 (INT32_MAX)",
    "pypto.check.dim_range":
        "dim is an int with -input.dim <= dim < input.dim; a negative dim means dim + "
        "input.dim",
    "pypto.check.index_dtype": "index is of an integer type (DT_INT32 or DT_INT64)",
    "pypto.check.index_rank": "the index's shape has 1 or 2 dims",
    "pypto.check.index_not_empty": "the index is not an empty tensor",
    "pypto.check.index_shape_size":
        "the index's shape size is at most 2147483647 (INT32_MAX)",
    "pypto.check.input_viewshape":
        "the dim axis of input.shape cannot be cut by its viewshape: viewshape[dim] >= "
        "input.shape[dim]",
    "pypto.check.tile_shape_set":
        "the TileShape is set with set_vec_tile_shapes before this operation is called",
    "pypto.check.tile_shape_rank":
        "the TileShape has as many dims as the result, which it cuts",
    "pypto.check.ub_size":
        "a tile fits in the Unified Buffer: b1·t1·d1·sizeof(output) < UBSize",
    "pypto.check.index_values":
        "every index value is a valid index: it does not exceed input.shape[dim]",

    # -- where a default name comes from ---------------------------------------------------
    "origin.seed": "seed {seed}",
    "origin.seed_004_randn": "seed 004 (a 3x2x2 tensor; the seed fills it with randn)",

    # -- the renderers' headings and labels ------------------------------------------------
    "ui.default_names_used": "default names used",
    "ui.default_name": "Default name",
    "ui.layers": "layers",
    "ui.outside_statement": "(steps recorded outside a statement)",
    "ui.raises": "raises",
    "ui.random_seed": "random seed {seed} (torch.manual_seed({seed}) reproduces it)",
    "ui.page.random_seed":
        "Random seed {seed}: `torch.manual_seed({seed})` reproduces the numbers in PyTorch.",
    "ui.page.made_by": "Made by tidx {version} — steps mirror PyTorch {tag}.",
    # layer titles (tracer.events.LAYERS)
    "ui.layer.python": "Python",
    "ui.layer.binding": "C++ binding",
    "ui.layer.indexing": "TensorIndexing",
    "ui.layer.dispatcher": "Dispatcher",
    "ui.layer.kernel": "Kernel",
    "ui.layer.memory": "Memory",
    "ui.layer.rng": "RNG",
    # tidx step
    "ui.step.position": "step {number}/{total}",
    "ui.step.none": "(no steps recorded for this statement)",
    "ui.step.keys": "n/space/enter: next   p/b: back   g + number + enter: go to step   q: quit",
    # the storage picture
    "ui.storage.title": "storage {storage}: {size} x {dtype} ({nbytes} bytes)",
    "ui.storage.offset": "offset",
    "ui.storage.more": "... {count} more elements",
    "ui.storage.geometry": "sizes ({sizes}) strides ({strides}) offset {offset}",
    # tidx compare
    "ui.compare.view_or_copy": "view or copy",
    "ui.compare.value": "value",
    "ui.compare.bytes_allocated": "bytes allocated",
    "ui.compare.steps": "steps",
    "ui.compare.aten_operators": "aten operators",
    "ui.compare.none": "(none)",
    "ui.compare.raises": "raises {error}",
    "ui.compare.no_tensor": "no tensor produced",
    "ui.compare.the_result": "the result",
    "ui.compare.view_of": "{name}: view of {others}",
    "ui.compare.others_more": "{names} and {count} more",
    "ui.compare.in_place": "{name}: written in place (same storage)",
    "ui.compare.copy": "{name}: a copy (new storage)",
    "ui.compare.same_steps": "The two take exactly the same steps.",
    "ui.compare.paths_part": "The paths part after {count} shared steps:",
    # --verify
    "ui.verify.title": "tidx against PyTorch {version}, both with the {capability} CPU capability",
    "ui.verify.simulated": "--verify: {why}; nothing was compared.",
    "ui.cpu.chosen": "kernels built for the {capability} CPU capability ({source})",
    "ui.cpu.simulated":
        "kernels built for the {capability} CPU capability ({source}), simulated: this CPU "
        "runs at most {cpu}",
    "ui.verify.statement": "statement",
    "ui.verify.values": "values",
    "ui.verify.shape": "shape",
    "ui.verify.strides": "strides",
    "ui.verify.offset": "offset",
    "ui.verify.dtype": "dtype",
    "ui.verify.error": "error",
    "ui.verify.aten_ops": "aten ops",
    "ui.verify.match": "match",
    "ui.verify.differ": "DIFFER",
    "ui.verify.not_compared": "{count} statement(s) not compared with PyTorch (see above).",
    "ui.verify.agree": "tidx and PyTorch agree on every check.",
    "ui.verify.disagree":
        "tidx and PyTorch disagree: the trace above is not what PyTorch does (a bug in tidx).",
}
#: the operator families added for breadth (issue 14): one table, two files
TEXT.update(OPERATOR_TEXT)
TEXT.update(NUMPY_TEXT)
TEXT.update(AUTOGRAD_TEXT)
TEXT.update(LECTURE_TEXT)
#: the simulated CUDA device (issue 16): its own table, two files
TEXT.update(CUDA_TEXT)
TEXT.update(CUDART_TEXT)
TEXT.update(CUDAINDEX_TEXT)
#: --verify of CUDA statements, compared on the CPU (issue 16)
TEXT.update(CUDACHECK_TEXT)
#: Copy.cu's full copy path on the simulated CUDA device (issue 16)
TEXT.update(CUDACOPY_TEXT)
#: the storage picture and the step timeline (issue 15): one table, two files
TEXT.update(PICTURE_TEXT)
#: random numbers to the element, bytes allocated, compare (issue 15)
TEXT.update(RNG_TEXT)
#: the HTML stepper's labels (issue 15): one table, two files
TEXT.update(STEPPER_TEXT)
#: the GIF animation's labels (issue 15)
TEXT.update(GIF_TEXT)
#: the exported images and the export command (issue 15)
TEXT.update(EXPORT_TEXT)

#: PyTorch's error messages, explained in the learner's terms (tracer/i18n/en_errors.py)
ERRORS: list[tuple] = EN_ERRORS + CUDACHECK_ERRORS  # + mixed devices
SUBJECT, NO_SUBJECT = EN_SUBJECT, EN_NO_SUBJECT
