"""``--lang zh``: every language is a table of the same ids; every note the engine
records and every heading reads in each of them, C++ names survive, PyTorch's errors
stay verbatim with a Chinese explanation under them."""

from __future__ import annotations

import io
import json
import re
import string

import pytest
from rich.console import Console

from conftest import cli_run, golden
from engine.interpreter import lessons
from engine.interpreter import session
from engine.core.errors import Refused
from tracer import i18n, walk
from tracer.i18n import en_cuda
from tracer.events import LAYERS
from tracer.render import compare as render_compare
from tracer.render import markdown as render_markdown
from tracer.render import step as render_step
from tracer.document import Default, Document, Event, Statement, walk as typed_walk
from tracer.steps import Layer
from tracer.render import tree as render_tree

# a run must not depend on which test drew random numbers before it

#: The seeds' statements (the brief of the --lang issue).
SEED_STATEMENTS = [
    "t[1, 2] = 3", "t[rows, cols] = 10", "torch.randn(3, 4)", "y = t[1:, ::2]",
    "y = a[index_2, 1]", "t[t > 4] = 0",
    "y = torch.gather(t, 1, torch.tensor([[0], [1], [2]]))",
    "torch.zeros(2, 3, device='meta')",
    "torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)",
    "y = t.index_select(0, indices)", "y = t.index_select(1, indices)", "y = torch.ones(40000).sum()",
    "y = torch.randint(0, 2**12, (1,), dtype=torch.float16)",
    "y = torch.zeros(3).expand(2, 3); y.masked_fill_(torch.tensor([True, False, True]), 1.)", "y = t[[0, 1]]", "y = t[None, ..., 0]",
    "t[0:2] = torch.tensor([7, 8, 9])", "y = torch.arange(5)",
    "torch.manual_seed(0); y = torch.rand(20)", "y = t.masked_select(t > 4)",
    "t[5]", "t[1, 2, 3]", "torch.empty(2**62, 2**62)",
]

#: More statements, so every note the engine can write is reached at least once.
MORE_STATEMENTS = [
    "a = torch.ones(2, 3); b = torch.cross(a, a); c = torch.cross(a, a)",
    "a = torch.ones(2, 2).half(); y = torch.mm(a, a, out_dtype=torch.float32)",
    "import torch.nn.functional as F; x = torch.tensor([1., -2.]); "
    "y = F.binary_cross_entropy_with_logits(x, torch.ones(2))",
    "x = torch.tensor([1., -2.], requires_grad=True); y = torch.nn.functional.gelu(x).sum(); "
    "y.backward()",
    "import torch.nn.functional as F; x = torch.ones(2, 3); y = F.pad(x, (1, 1), mode='reflect'); "
    "z = F.pad(x, (1, 1), mode='replicate')",
    "y = torch.tensor([1., -2.]).angle()",
    "import numpy as np; a = np.arange(6); y = torch.from_numpy(a); z = y.numpy(); "
    "w = torch.as_tensor(a)",
    "y = torch.is_grad_enabled(); torch.set_grad_enabled(False); torch.set_grad_enabled(True)",
    "with torch.inference_mode():\n    y = torch.is_inference_mode_enabled()\n"
    "z = torch.is_inference(torch.ones(1))",
    "x = torch.ones(2, requires_grad=True); y = (x * 2).sum()",
    "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); t = torch.tensor([1, 0]); "
    "y = torch.nn.functional.cross_entropy(x, t); y.backward(); z = torch.softmax(x, 1)"
    ".sum(); z.backward()",
    "w = torch.ones(3, 2, requires_grad=True); y = torch.nn.functional.embedding("
    "torch.tensor([0, 2]), w).sum(); y.backward()",
    # the backward pass: steal, copy (broadcast view), add in place, a second gradient
    # into one input buffer, sum_to a broadcast input, a dtype cast, retain_grad
    "x = torch.ones(2, requires_grad=True); z = x * x; z.retain_grad(); y = z.sum(); "
    "y.backward(); y = (x + torch.ones(3, 2)).sum(); y.backward(); "
    "y = (x * 2); y.backward(torch.ones(2, dtype=torch.float64)); x.backward(torch.ones(2)); "
    "a = torch.ones(2, requires_grad=True); a.sum().backward(); "
    "b = torch.ones(2, requires_grad=True); b.backward(torch.ones(2))",
    # create_graph twice (the second .grad is a sum in the graph), torch.autograd.grad
    "v = torch.tensor([2.], requires_grad=True); y = v ** 3; y.backward(create_graph=True); "
    "y.backward(create_graph=True); g = torch.autograd.grad((v * v).sum(), v); "
    "h = v.register_hook(lambda g: g * 2); (v * 3).sum().backward()",
    "a = torch.ones(2, 3); y = torch.einsum('ij,ij,jk->ik', a, a, a.T); "
    "y = torch.tensordot(a, a, 2); "
    "y = torch.addbmm(a, torch.ones(2, 2, 4), torch.ones(2, 4, 3)); "
    "y = torch.bmm(torch.ones(2, 20, 40)[:, :, ::2], torch.ones(2, 20, 20)); "
    "y = torch.ger(torch.ones(2), torch.ones(3))",
    "y = torch.tensor([1 + 2j]); z = y.imag; w = torch.view_as_complex(torch.view_as_real(y)); "
    "v = y.to(torch.float32); c = y.conj(); d = y.conj_physical()",
    "a = torch.tensor([[1., 2.]]); y = a.median(); y = a.median(1); y = a.mode(1)",
    "a = torch.tensor([1, 2, 2]); y = a.bincount()",
    "a = torch.tensor([[3., 4.]]); y = a.norm(); y = torch.norm(a, dim=0); "
    "y = torch.linalg.vector_norm(a, 1)",
    "torch.manual_seed(0); a = torch.empty(3).exponential_(); "
    "y = torch.multinomial(torch.ones(2, 4), 3, replacement=True); "
    "a = torch.empty(2).geometric_(0.5).cauchy_().random_()",
    "torch.manual_seed(0); y = torch.poisson(torch.tensor([2., 12.])); "
    "a = torch.empty(2).log_normal_(); y = torch.multinomial(torch.ones(3), 2)",
    "a = torch.tensor([1.25, -2.5]); y = a.ceil(); y = a.frac(); y = a.round(decimals=1); "
    "y = a.rsqrt(); y = a.exp()",
    "import torch.nn.functional as F; a = torch.tensor([[1.25, -2.5]]); y = F.gelu(a); y = F.silu(a)",
    "import torch.nn.functional as F; a = torch.tensor([[1.25, -2.5]]); y = F.cross_entropy(a, torch.tensor([1]))",
    "import torch.nn.functional as F; a = torch.tensor([[1.25, -2.5]]); y = F.relu(a)",
    "a = torch.tensor([[1.25, -2.5]]); y = a.softmax(1); y = a.log_softmax(0)",
    "a = torch.tensor([[1.25, -2.5]]); y = a.std(); y = a.var(0); y = a.std(1, correction=3)",
    "a = torch.tensor([[1.25, -2.5]]); y = a.cumprod(1); y = a.cummin(1)",
    "a = torch.tensor([[1.25, -2.5], [3., 4.]]); y = a.trace(); y = a.nansum(); y = a.diff()",
    "a = torch.tensor([[1.25, -2.5], [3., 4.]]); y = a.logsumexp(1); y = a[:0].logsumexp(0)",
    "a = torch.tensor([[1.25, -2.5], [3., 4.]]); y = a.quantile(0.5); y = a.nanquantile(0.25, 1)",
    "a = torch.tensor([[1.25, -2.5], [3., 4.]]); y = a.histc(3)",
    "a = torch.tensor([[1.25, -2.5, 3.]]); y = torch.cross(a, a); y = torch.linalg.cross(a, a)",
    "a = torch.tensor([1.25, -2.5]); y = a.lerp(a * 2, 0.25); y = a.hypot(a); y = a.atan2(a)",
    # the matmul family: each BLAS operand cast, exact and bounded float sums, small bmm
    "a = torch.randn(2, 3); y = a @ torch.ones(3, 8)[:, ::2]; z = torch.bmm(a[None], "
    "a.T[None]); w = a.T @ a; u = torch.ones(2, 3) @ torch.ones(3, 2)",
    "t = torch.tensor([[1., 3., 3.], [2., 0., 5.]]); y = torch.cummax(t, 1)",
    "t = torch.tensor([float('nan'), float('inf'), 1.]); y = t.nan_to_num(posinf=9.)",
    "a = torch.tensor([0., -float('inf')]); y = torch.logaddexp(a, torch.tensor(-500.))",
    # torch.normal with a tensor std: the checks, the kernel called directly
    "y = torch.normal(1., torch.ones(3))", "y = torch.bernoulli(torch.full((3,), 0.5))",
    # the legacy constructors: sizes, data, a tensor aliased, nothing, a refused form
    "x = torch.Tensor(2, 3); y = torch.FloatTensor([1, 2]); z = torch.Tensor(x); "
    "w = torch.LongTensor(); torch.Tensor(x, device='cpu')",
    # the simulated CUDA device (issue 16): factories, a cached block, a 0-byte tensor
    "x = torch.randn(3, 4, device='cuda'); y = torch.rand(5, device='cuda'); "
    "z = torch.zeros(2, device='cuda'); w = torch.ones(0, device='cuda')",
    # setitem on it: a host-to-device copy, a fill from the CPU scalar
    "x = torch.zeros(3, 4, device='cuda'); x[1, 2] = 3; x[1:] = 4; y = x.cpu().cuda()",
    # the simulated CUDA runtime: tensors dying back into the cache, torch.cuda
    "x = torch.zeros(3, device='cuda'); x = torch.zeros(3, device='cuda'); "
    "torch.zeros(2, device='cuda'); y = torch.zeros(2, device='cuda').cpu(); "
    "torch.cuda.is_available(); torch.cuda.device_count(); torch.cuda.current_device(); "
    "torch.cuda.get_device_name(); torch.cuda.memory_allocated(); "
    "torch.cuda.memory_reserved(); torch.cuda.max_memory_allocated(); "
    "torch.cuda.max_memory_reserved(); x = None; torch.cuda.empty_cache(); "
    "torch.cuda.synchronize(); torch.cuda.manual_seed(1); torch.cuda.manual_seed_all(2); "
    "torch.cuda.initial_seed(); torch.device('cuda', 0)",
    # advanced indexing on it: the index tensors moved to the device, gpu_index_kernel
    "x = torch.zeros(3, 4, device='cuda'); x[rows, cols] = 10; y = x[rows, cols]",
    # Copy.cu's temporaries both ways, a copy back, GPU to GPU by memcpy and by kernel
    "a = torch.zeros(2, 3, device='cuda'); b = a.double(); c = a.clone(); "
    "d = a[:, ::2].cpu(); e = torch.ones(2, 3).to('cuda', dtype=torch.float16); "
    "a[:, 1] = torch.arange(2.); a.copy_(a.view(2, 3))",
    # the random kernels in float64 (double2 draws) and float16 (float4, rounded to half)
    "a = torch.randn(3, device='cuda', dtype=torch.float64); "
    "b = torch.rand(3, device='cuda', dtype=torch.float64); "
    "c = torch.randn(3, device='cuda', dtype=torch.float16); "
    "d = torch.rand(3, device='cuda', dtype=torch.float16)",
    "p = t[1].data_ptr()", "p = t.untyped_storage().data_ptr()", "n = t.untyped_storage().nbytes()",
    "s = t.storage()",
    "y = t.real", "a, b, c = t", "y = t.float()", "y = t.roll(1, 0)", "y = t.repeat(2, 1)", "y = t.repeat_interleave(torch.tensor([1, 2, 0]), dim=0)", "y = torch.where(t > 4, t, 0)",
    # pointwise family
    "t.eq_(2.5)", "y = torch.floor_divide(t, 2)", "y = t.div(2, rounding_mode='trunc')",
    "y = t.remainder(-4)", "y = t.fmod(2)", "y = x.pow(0)", "y = t.pow(2)",
    "y = torch.logical_not(t, out=torch.zeros(2, dtype=torch.bool))",
    "y = t.t().contiguous()", "y = t.unsqueeze(0)", "y = t.expand(2, 3, 3)", "y = t.view(9)",
    "y = t.t().reshape(9)", "y = t.t().reshape(3, 3)", "y = t[:, 0:1].reshape(3)",
    "y = torch.full((2,), 7.5)", "y = torch.eye(2, 3)", "y = torch.randint(0, 10, (4,))",
    "y = torch.randperm(5)", "y = torch.ones(2)",
    # normal_fill's first element, then a fresh Box-Muller pair and its cached second number
    "y = torch.randn(20); z = torch.randn(1); w = torch.randn(1)", "y = torch.empty_like(t[:, ::2])",
    "y = torch.zeros_like(t)", "y = torch.ones_like(t)", "y = torch.full_like(t, 3)",
    "y = torch.rand_like(x)", "y = torch.randn_like(x)", "y = torch.randint_like(t, 5)",
    "y = torch.empty_strided((2, 3), (1, 2))", "y = torch.where(t > 4)",
    "y = torch.nonzero(t > 4)", "y = t.scatter(1, torch.tensor([[0], [1], [2]]), 0)",
    "y = t.scatter_add(1, torch.tensor([[0], [1], [2]]), torch.tensor([[1], [1], [1]]))",
    "y = t.take(torch.tensor([0, 4]))", "y = t.masked_fill(t > 4, torch.tensor(0))",
    "y = t.narrow(0, 1, 2)", "y = t.flatten()", "y = t.permute(1, 0)",
    "y = t.unsqueeze(0).squeeze()", "y = t.sum()", "y = t * 2.5", "y = -t",
    "y = t.to(torch.float32)", "y = t.to(torch.int64)", "y = t.flip(1)", "y = t.flip([])",
    "y = t.clone(memory_format=torch.channels_last)", "t.zero_()", "y = t[...]",
    "y = t[:]", "y = t[True]", "y = t[False]", "y = t[0, True]", "y = a[[0, 1], :, [1, 0]]",
    "t.index_put_((rows, cols), torch.tensor([10, 10]), accumulate=True)",
    "y = x.normal_()", "y = x.uniform_()", "y = t.random_(0, 5)",
    "y = torch.randn(3, 4, device='meta')", "y = torch.ones(3, device='meta')",
    "y = torch.full((2,), 1, device='meta')", "y = torch.tensor([1, 2], device='meta')",
    "y = torch.empty(2, device='meta').random_(5)", "y = torch.randn(2, requires_grad=True)",
    "y = t.t().masked_select(t > 4)", "t[t > 4] = torch.tensor(0)",
    "t[rows, cols] = torch.tensor(1.5)", "t[rows, cols] = torch.tensor([1, 2, 3])",
    "t[0, 5] = 1", "torch.empty(-1)", "y = t.view(4)", "y = t.t().view(9)", "y = t + x",
    "y = t.expand(2, 2)", "y = t[[[0, 1], [1, 2]]]", "t[0] = torch.tensor(5)",
    "y = torch.empty(2, device='meta').zero_()", "y = torch.zeros(0)",
    "y = torch.zeros(40000)", "y = t[:, ::2].zero_()",
    # triangles and diagonals
    "y = t.tril()", "y = t.triu_(1)", "y = a.transpose(0, 1).tril()",
    "y = a.reshape(1, 3, 2, 2).transpose(0, 1).tril_()",
    "y = torch.zeros(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)).tril()",
    "y = torch.zeros(0, 3).tril()", "y = torch.tril_indices(3, 3)",
    "y = torch.triu_indices(3, 4, 1)", "y = t.diagonal(1)", "y = torch.diag(t)",
    "y = torch.diag(t[0])", "y = torch.diagflat(t[0])",
    "y = torch.diag_embed(t)", "y = torch.zeros(5, 3).fill_diagonal_(1, wrap=True)",
    "y = torch.select_scatter(t, t[0], 0, 1)",
    "y = torch.select_scatter(t[:1].expand(3, 3), t[0], 0, 0)",
    # reductions
    "y = t.to(torch.float32).sum(1)", "y = t.sum(0)", "y = t.amax(1)", "y = t.max()", "y = t.argmax(1)",
    "y = (t > 4).any(1)", "y = x.mean(1)", "y = x.max(1)", "y = x.cumsum(1)", "y = x.prod(1)", "y = torch.equal(t, t)",
    "y = torch.equal(t, t.clone())",
    # values that are not tensors, with the binding steps that produce them
    "y = t.tolist()", "y = len(t)", "y = t.stride()", "y = t[0, 0].item()",
    "y = bool(t[0, 0])", "y = t[-2**63:]",
    # joining and splitting
    "y = torch.cat([t, t])", "y = torch.cat([torch.zeros(0, 2), torch.zeros(0, 2)])",
    "y = torch.cat([x, x], 1)", "y = torch.cat([t, t], 1)", "y = torch.cat([t, x[:3, :3]], 1)",
    "y = torch.stack([t, t])", "y = torch.stack([t, t], 2)", "y = torch.hstack([t, t])",
    "y = torch.split(t, 2)", "y = t.split([1, 2])", "y = t.chunk(2)",
    "y = torch.zeros(0).chunk(2)", "y = t.tensor_split(2)", "y = t.tensor_split([1])",
    "y = torch.atleast_2d(t, t)",
    # views and shape
    "y = t.T", "y = a.T", "y = torch.tensor(3).mT", "y = t.mH", "y = torch.movedim(a, 0, 2)",
    "y = a.swapdims_(0, 1)", "y = a.unfold(1, 1, 1)", "y = a.unflatten(1, (1, 2))",
    "y = t.ravel()", "y = t.t().ravel()", "y = t.view(torch.int32)",
    "y = torch.broadcast_tensors(t, rows[:1])", "y = torch.atleast_3d(rows, t)",
    "y = torch.broadcast_shapes((2, 1), (3,))", "y = torch.rot90(t)",
    "y = torch.repeat_interleave(t, 2, dim=0)", "y = torch.empty_permuted((2, 3), (1, 0))",
    "y = a.mT.dim_order()",
    # factories and the default dtype
    "y = torch.linspace(0, 1, 5)", "y = torch.logspace(0, 2, 3)", "y = torch.range(0, 3)",
    "y = torch.asarray(t)", "y = torch.asarray([1, 2])", "y = t.new_tensor([1, 2])",
    "y = t.new_tensor(t)", "y = t.new_zeros(2)", "y = t.new_ones(2)",
    "y = t.new_full((2,), 3)", "y = t.new_empty(2)", "y = t.new_empty_strided((2,), (1,))",
    "y = torch.get_default_dtype()", "torch.set_default_dtype(torch.float64)",
    "y = torch.zeros(2).resize_(2, 2, 2, 2, memory_format=torch.channels_last)",
    # more tiles than the trace lists one by one
    ("import pypto\nx = pypto.tensor([40, 4], pypto.DT_FP32)\n"
     "i = pypto.tensor([2], pypto.DT_INT32)\npypto.set_vec_tile_shapes(1, 1)\n"
     "y = pypto.index_select(x, 1, i)"),
    # ordering and membership (engine/ops/sorting.py)
    "y = t.sort()", "y = t.expand(2, 3, 3).sort(0)", "y = t.sort(stable=True)",
    "y = torch.arange(40000).sort()", "y = torch.arange(70).topk(1)", "y = t.topk(2)",
    "y = t.topk(2, sorted=False)", "y = torch.searchsorted(t[0], t.to(torch.float32))",
    "y = torch.bucketize(t, t[0], right=True)", "y = torch.isin(t, t[0])", "y = torch.isin(t, 3)",
    "y = torch.unique(t)", "y = torch.unique(t > 4, return_counts=True)",
    "y = torch.unique_consecutive(t)",
    # indexed writes and index-producing operators
    "y = t.index_add(0, rows, t[:2])", "y = t.index_add(1, rows, t[:, :2], alpha=2)",
    "y = t[0].index_add(0, rows, t[1, :2])", "y = t.index_copy(0, rows, t[:2])",
    "y = t.index_fill(1, rows, 5)", "y = torch.count_nonzero(t)",
    "y = t.masked_scatter(t > 4, t * 10)", "y = t.masked_scatter((t > 4).to(torch.uint8), t)",
    "y = t.put(rows, torch.tensor([7, 8]))", "y = t.put(rows, torch.tensor([7, 8]), accumulate=True)",
    "y = t.scatter_reduce(1, idx_0, t, 'amax', include_self=False)",
    "y = torch.ones(3, 16).scatter_reduce(0, rows[:, None].expand(2, 16), torch.ones(2, 16), 'sum')",
    "y = t.scatter(1, idx_0, t, reduce='multiply')",
    "y = torch.nonzero_static(t > 4, size=6)", "y = x.index_reduce(0, rows, x[:2], 'amax')", "y = x[0].index_reduce(0, rows, x[1, :2], 'prod')",
]

#: The errors the brief names, as tidx (and PyTorch) print them.
COMMON_ERRORS = {
    "t[5]": "索引越界",
    "t[1, 2, 3]": "索引过多",
    "torch.empty(2**62, 2**62)": "存储大小计算溢出",
    "torch.empty(-1)": "负数维度",
    "t[rows, cols] = torch.tensor([1, 2, 3])": "形状不匹配",
    "t[rows, cols] = torch.tensor(1.5)": "dtype 不匹配",
}

#: A C++/PyTorch name: ``a::b``, ``snake_case``, ``camelCase``, ``CamelCase``.
IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+|[A-Za-z]\w*_\w*|_\w+"
                        r"|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*")


#: A float sum under each CPU capability: which build its stub runs says a different note
#: on each (the DEFAULT build, an AVX2 one with FMA, an AVX512 CPU falling back to AVX2)
CAPABILITY_STATEMENT = "y = torch.ones(40).sum()"


def _docs(statements: list[str]) -> list[dict]:
    return [session.run(text, seed=0) for text in statements] + \
        [session.run(lesson.text, seed=0) for lesson in lessons.available()] + \
        [session.run(CAPABILITY_STATEMENT, cpu_capability=c) for c in
         ("default", "avx2", "avx512")]


def _events(docs: list[dict]) -> list[Event]:
    """The steps with a note, typed (what i18n.note reads)."""
    return [ev for doc in docs for st in Document.from_json(doc).statements
            for _, ev in typed_walk(st.events) if ev.note]


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    """The seeds' statements, more statements reaching every step, and every lesson, as
    JSON documents read back (what a saved trace gives a renderer)."""
    # bernoulli_(float) is refused on an Intel CPU (see _machine_notes)
    machine = [] if _machine_notes() else ["y = torch.zeros(3).bernoulli_(0.5)"]
    return json.loads(json.dumps(_docs(SEED_STATEMENTS + MORE_STATEMENTS + machine)))


@pytest.fixture(scope="module")
def corpus_events(corpus) -> list[Event]:
    return _events(corpus)


#: Notes of engines built and tested before any statement runs them: the simulated CUDA
#: device's caching allocator and Philox generator (issue 16), of which the CUDA factories
#: (the statements in MORE_STATEMENTS) reach only some: the large pool and the rounding
#: options wait for later slices.  tests/memory/test_cuda_allocator.py and
#: tests/rng/test_philox.py reach each of them and check it reads in every language; the first
#: statement that reaches one makes the test below fail until the exemption is removed.
NOT_YET_REACHED = {id for id in en_cuda.TEXT if id.startswith("cuda.")} - {
    "cuda.malloc", "cuda.round_size", "cuda.get_pool.small", "cuda.get_free_block.none",
    "cuda.get_free_block.found", "cuda.alloc_size.small", "cuda.cudaMalloc", "cuda.split",
    "cuda.allocate_zero", "cuda.no_split.small", "cuda.free", "cuda.free_block",
    "cuda.try_merge_blocks", "cuda.emptyCache", "cuda.cudaFree",
    "cuda.philox.set_current_seed", "cuda.philox.policy", "cuda.philox.state",
    "cuda.philox.normal4", "cuda.philox.uniform4"} - {
    id for id in en_cuda.TEXT if id.startswith("cuda.device.")}

def _machine_notes() -> set[str]:
    """Notes of kernels torch chooses by the CPU: bernoulli_(float) draws with MKL's
    generator on an Intel CPU, which tidx refuses there, and its own loop elsewhere."""
    from engine.core import capability as C

    machine = C.machine()
    return {"random.bernoulli_scalar_kernel"} if machine.x86 and \
        machine.vendor in ("intel", "") else set()


#: Ids every language says the same way: torch's own warning, a C++ class name, "dtype",
#: "seed 001".
SAME_IN_EVERY_LANGUAGE = {"binding.wrapTuple.sequenceWarning", "binding.clip_val.warning",
                          "random.precision_warning", "overlap.expanded_warning",
                          "ui.layer.indexing",
                          "ui.verify.dtype", "origin.seed"}


# -- (a) completeness ------------------------------------------------------------------
def test_every_language_has_the_same_ids_and_fields():
    english = i18n.tables()["en"]
    for lang, table in i18n.tables().items():
        assert list(table) == list(english), lang
        for id, template in table.items():
            assert _fields(template) == _fields(english[id]), (lang, id)


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_chinese_says_every_id_in_chinese():
    en, zh = i18n.tables()["en"], i18n.tables()["zh"]
    same = {id for id in en if en[id] == zh[id]}
    assert same == SAME_IN_EVERY_LANGUAGE
    assert all(re.search(r"[\u4e00-\u9fff]", zh[id]) for id in en if id not in same)


def test_every_recorded_note_has_an_id_and_renders_in_every_language(corpus_events):
    """Every template formats with the parameters its call sites pass: each note the
    seeds' statements and the lessons record renders in every language, no KeyError."""
    notes = {id for id in i18n.tables()["en"] if not id.startswith(("ui.", "origin."))}
    # every note is reached, but those of engines no statement runs yet (and once a
    # statement reaches one of those, this fails until it leaves NOT_YET_REACHED)
    assert {ev.note_id for ev in corpus_events} == notes - NOT_YET_REACHED - _machine_notes()
    for ev in corpus_events:
        assert ev.note_id is not None, ev.note
        args = ev.note_args or {}
        assert ev.note == i18n.text(ev.note_id, "en", **args), ev.note_id
        for lang in i18n.LANGS:
            assert i18n.text(ev.note_id, lang, **args) == i18n.note(ev, lang)


def test_the_seed_statements_notes_are_in_chinese():
    events = _events(_docs(SEED_STATEMENTS))
    assert len(events) > 300
    for ev in events:
        if ev.note_id not in SAME_IN_EVERY_LANGUAGE:
            assert i18n.note(ev, "zh") != ev.note, ev.note_id


def test_notes_with_parameters_read_in_chinese():
    assert i18n.text("select.geometry", "zh", dim=0, index=1, stride=3, moved=3) == \
        "去掉第 0 维;偏移移动 1 x 步长 3 = 3 个元素"
    assert i18n.text("indexing.handleDim.tensor", "zh", position=1) == \
        "第 1 个索引是张量:记录下来,留给高级索引"
    assert "48 字节" in i18n.text("memory.posix_memalign", "zh", nbytes=48, alignment=64)
    assert i18n.text("slice.geometry", "en", dim=0, start=1, end=3, length=2, step=1) == \
        "dim 0: start clamped to 1, end to 3; size ceil(2/1), stride x1"


def test_headings_have_chinese():
    assert i18n.both("ui.layers", "zh") == "层 (layers)"
    assert i18n.both("ui.layers", "en") == "layers"
    assert i18n.layer("python", "zh") == "Python 层"  # the English is already in it
    assert i18n.layer("indexing", "zh") == "TensorIndexing"
    assert i18n.pair("ui.step.position", "zh", number=3, total=35) == ("第 3/35 步", "step 3/35")
    assert i18n.text("ui.storage.title", "zh", storage="s$1", size=9, dtype="i64",
                     nbytes=72) == "存储 s$1: 9 个 i64 元素 (72 字节)"


def test_layer_titles_are_the_events_layers():
    assert [i18n.text(f"ui.layer.{layer}") for layer in LAYERS] == list(LAYERS.values())


def test_unknown_ids_and_old_traces_fall_back_to_english_and_never_raise():
    assert i18n.text("no.such.id", "zh") == "no.such.id"
    assert i18n.text("ui.layers", "fr") == "layers"
    # a format-2 trace saved before note ids
    old = Event.from_json({"name": "x", "layer": "kernel", "note": "a note recorded before ids"})
    assert i18n.note(old, "zh") == "a note recorded before ids"
    stale = Event("x", Layer.KERNEL, note="drop dim 0", note_id="select.geometry",
                  note_args={"dim": 0})
    assert i18n.note(stale, "zh") == "drop dim 0"  # parameters of another version
    assert i18n.note(Event("x", Layer.KERNEL), "zh") is None
    assert i18n.origin(Default("x", "seed 001", None, None, ""), "zh") == "seed 001"
    assert i18n.explain_error("a brand new error", "zh") is None


def test_chinese_is_chosen_by_id_never_by_the_english_text():
    ev = Event("applySelect", Layer.INDEXING, note="some English the table never wrote",
               note_id="indexing.applySelect", note_args={})
    assert i18n.note(ev, "zh") == "整数索引会去掉该维:先检查边界,再 select"
    assert i18n.note(ev, "en") == ev.note


# -- (b) C++ names -----------------------------------------------------------------------
def test_cpp_identifiers_survive_translation(corpus_events):
    lost = {(tok, ev.note_id) for ev in corpus_events for tok in IDENTIFIER.findall(ev.note or "")
            if tok not in (i18n.note(ev, "zh") or "")}
    assert not lost, lost


def test_the_identifier_pattern_finds_the_names_learners_look_up():
    text = ("applySelect TensorIndex aten::select DispatchKeySet THPVariable_setitem "
            "c10::List index_put_ the dim")
    assert IDENTIFIER.findall(text) == ["applySelect", "TensorIndex", "aten::select",
                                        "DispatchKeySet", "THPVariable_setitem",
                                        "c10::List", "index_put_"]


def _console(width: int) -> Console:
    """A console that records plain text and prints nothing."""
    return Console(width=width, no_color=True, color_system=None, record=True,
                   file=io.StringIO(), highlight=False)


def _tree(doc: dict, lang: str, width: int = 160) -> str:
    console = _console(width)
    console.print(render_tree.render(Document.from_json(doc), links=False, lang=lang))
    return console.export_text()


def test_step_names_sources_and_values_are_not_translated():
    doc = session.run("t[rows, cols] = 10")
    text = _tree(doc, "zh")
    for _, ev in walk(doc["statements"][0]["events"]):
        assert ev["name"] in text
        assert not ev.get("source") or ev["source"] in text
    for name in ("aten::index_put_", "DispatchKeySet", "TensorIndex(Tensor [2] torch.int64)",
                 "recordTensorIndex  dim=0  dim_after=1", "elements [1, 7]"):
        assert name in text, name


# -- errors -------------------------------------------------------------------------------
@pytest.mark.parametrize("statement,headline", COMMON_ERRORS.items())
def test_pytorch_errors_stay_verbatim_with_a_chinese_explanation(statement, headline):
    doc = session.run(statement)
    err = doc["statements"][-1]["error"]
    assert err is not None
    context = i18n.error_context(Statement.from_json(doc["statements"][-1]))
    why = i18n.explain_error(err["message"], "zh", context)
    assert why and why.startswith(headline), why
    assert i18n.explain_error(err["message"], "zh").startswith(headline)  # without a trace
    text = _tree(doc, "zh", width=400)
    line = f"{err['type']}: {err['message']}"
    assert f"raised {line}" in text and f"\n{line}\n→ {why}\n" in text
    # English explains it too (tests/tracer/test_error_explanations.py), in English only
    english = i18n.explain_error(err["message"], "en", context)
    assert english and not re.search(r"[\u4e00-\u9fff]", english)
    assert f"\n{line}\n→ {english}\n" in _tree(doc, "en", width=400)


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_the_memory_limit_refusal_is_explained():
    with pytest.raises(Refused) as exc:
        session.run("torch.empty(2**20, 2**20)")
    assert i18n.explain_error(str(exc.value), "zh").startswith("超出内存上限")
    res = _cli("explain", "torch.empty(2**20, 2**20)", "--lang", "zh")
    assert res.exit_code == 2
    assert "refusing to allocate 4.0 TiB" in res.output and "超出内存上限" in res.output


# -- (c) golden -------------------------------------------------------------------------
def test_explain_basic_assignment_zh_golden():
    res = _cli("explain", "t[1, 2] = 3", "--lang", "zh", "--width", "160", "--full")
    assert res.exit_code == 0, res.output
    golden("basic_assignment_zh.txt", res.output)


# -- (d) the command line ---------------------------------------------------------------
_cli = cli_run


@pytest.mark.parametrize("args", [
    ("explain", "t[rows, cols] = 10"),
    ("explain", "t[rows, cols] = 10", "--format", "markdown"),
    ("lesson", "seed_001_indexing"),
    ("step", "t[1, 2] = 3"),
    ("compare", "y = t[1:3]", "y = t[[1, 2]]"),
])
def test_lang_zh_works_for_every_command(args):
    res = _cli(*args, "--lang", "zh", "--width", "200")
    assert res.exit_code == 0, res.output
    assert re.search(r"[\u4e00-\u9fff]", res.output), res.output[:500]
    english = _cli(*args, "--width", "200")
    assert english.exit_code == 0 and not re.search(r"[\u4e00-\u9fff]", english.output)


def test_explain_zh_keeps_the_english_note_beside_the_chinese():
    out = _cli("explain", "t[rows, cols] = 10", "--lang", "zh", "--width", "250",
               "--full").output
    chinese = "张量索引此刻不动张量本身"
    english = "a tensor index does not touch the tensor now"
    assert out.index(chinese) < out.index(english)
    assert "层 (layers):" in out and "用到的默认名称 (default names used):" in out


def test_pytorch_error_exit_line_is_explained_in_chinese():
    res = _cli("explain", "t[5]", "--lang", "zh")
    assert res.exit_code == 1
    assert "raised IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        res.output
    assert "索引越界:张量 t 的第 0 维大小是 3,合法的索引是 -3 到 2,而这里是 5。" in res.output


def test_export_markdown_zh(tmp_path):
    out = tmp_path / "t.md"
    res = _cli("export", "t[1, 2] = 3", "-o", str(out), "--lang", "zh")
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert "*Python 索引被转换为对应的 C++ TensorIndex* (the Python index converted to its " \
           "C++ TensorIndex)" in page


@pytest.mark.parametrize("command", [
    ("explain", "t[1, 2] = 3"), ("export", "t[1, 2] = 3", "-o", "x.md"),
    ("lesson", "seed_001_indexing"), ("step", "t[1, 2] = 3"), ("compare", "t[1]", "t[2]"),
])
def test_an_unknown_language_is_a_usage_error(command):
    res = _cli(*command, "--lang", "fr")
    assert res.exit_code == 2
    assert "'fr' is not one of 'en', 'zh'" in res.output


def test_renderers_take_lang_and_default_to_english():
    typed = session.run_document("t[1, 2] = 3")
    flat = render_step.steps(typed)
    console = _console(120)
    console.print(render_step.render(flat, 0, lang="zh"))
    n = len(flat)
    assert console.export_text().startswith(f"第 1/{n} 步  step 1/{n}  >>> t[1, 2] = 3")
    assert render_markdown.render(typed) == render_markdown.render(typed, lang="en")
    console.print(render_compare.render(typed, typed, lang="zh"))
    assert "两者走的步骤完全相同。" in console.export_text()
