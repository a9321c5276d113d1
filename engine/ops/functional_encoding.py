"""one_hot and embedding: the two ways torch.nn.functional turns class indices into rows
(aten/src/ATen/native/Onehot.cpp, Embedding.cpp).

``one_hot`` is a scatter: it checks the index dtype (int64 only), reads the classes'
range with ``aminmax`` and two ``item()`` calls (the smallest must be >= 0; without
``num_classes`` the largest + 1 is the count, with it the largest must be below it),
then ``at::zeros(shape + [num_classes])`` and ``scatter_(-1, self.unsqueeze(-1), 1)``:
a 1 written at each index along the new last dim.  An empty input skips the checks:
``at::empty`` of the shape, or an error when the count cannot be inferred.

``embedding`` is ``index_select``: ``weight.index_select(0, indices)`` for a 1-dim index,
else over ``indices.reshape(-1)`` and ``view``-ed back to ``indices.shape + [dim]``: the
rows are copied, never viewed.  ``padding_idx`` changes only the backward pass.
"""

from __future__ import annotations

from engine.core import dtypes as D
from engine.core.errors import check, torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare

ONEHOT = "aten/src/ATen/native/Onehot.cpp"
EMBEDDING = "aten/src/ATen/native/Embedding.cpp"


@declare("one_hot(Tensor self, int num_classes=-1) -> Tensor", kind=COMPOSITE,
         native="at::native::one_hot", source=ONEHOT, python_module="nn")
def one_hot(self, num_classes: int = -1):
    check(self.dtype is D.int64, RuntimeError,
          "one_hot is only applicable to index tensor of type LongTensor.")
    shape = list(self.view.sizes)
    if self.numel() == 0:
        check(num_classes > 0, RuntimeError,
              "Can not infer total number of classes from empty tensor.")
        return aten.empty.memory_format(shape + [num_classes], dtype=self.dtype,
                                        device=self.device_type)
    low, high = aten.aminmax.default(self)
    check(aten.item.default(low) >= 0, RuntimeError, "Class values must be non-negative.")
    top = aten.item.default(high)
    if num_classes == -1:
        num_classes = top + 1
    else:
        check(num_classes > top, RuntimeError,
              "Class values must be smaller than num_classes.")
    ret = aten.zeros.default(shape + [num_classes], dtype=self.dtype,
                             device=self.device_type)
    return aten.scatter_.value(ret, -1, aten.unsqueeze.default(self, -1), 1)


@declare("embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, "
         "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
         native="at::native::embedding_symint", source=EMBEDDING, meta=META_PYTHON)
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    check(weight.dim() == 2, RuntimeError, "'weight' must be 2-D")
    if indices.dtype not in (D.int64, D.int32):
        # checkScalarTypes (TensorUtils.cpp)
        raise torch_error(RuntimeError,
                          "Expected tensor for argument #1 'indices' to have one of the "
                          "following scalar types: Long, Int; but got "
                          f"{D.legacy_type_name(indices.dtype, indices.device_type)} instead "
                          "(while checking arguments for embedding)")
    if indices.dim() == 1:
        return aten.index_select.default(weight, 0, indices)
    size = list(indices.view.sizes) + list(weight.view.sizes[1:])
    flat = aten.reshape.default(indices, (-1,))
    return aten.view.default(aten.index_select.default(weight, 0, flat), size)
