"""The committed type stubs are what engine/binding/stubs.py writes from the declarations.

A new operator (or Tensor method, or torch.* function) that forgets to regenerate the
stubs fails here, with the command that fixes it; the stubs are what mypy and an editor
read for ``aten.<name>.<overload>``, Tensor's installed methods and ``engine.*``.
"""

from __future__ import annotations

import pytest

from engine.binding import stubs
from engine.dispatch.declarations import REGISTRY


@pytest.mark.parametrize("path", sorted(stubs.STUBS))
def test_the_committed_stub_is_up_to_date(path):
    committed = (stubs.ROOT / path).read_text(encoding="utf-8")
    assert committed == stubs.STUBS[path](), \
        f"{path} is stale: run `{stubs.COMMAND}` and commit the result"


def test_each_overload_has_its_kernels_signature():
    text = stubs.aten_stub()
    # positional, keyword-only and defaulted parameters, and the kernel it names
    assert "    def __call__(_op, self: Any, dim: int, index: int) -> Any: ..." in text
    assert '"""aten::select.int: kernel engine.ops.views.select."""' in text
    # one overload class per declaration, one packet per name
    assert text.count("(OpOverload):") == len(REGISTRY)
    assert "    from_: _O__aten__random___from_" in text


def test_the_stubs_name_the_generated_methods_and_functions():
    import engine
    from engine.binding.tensor import Tensor

    methods = stubs.tensor_methods_stub()
    for name in ("gather", "index_put_", "shape", "tolist", "__getitem__"):
        assert hasattr(Tensor, name) and f"def {name}(self" in methods
    functions = stubs.engine_stub()
    for name in ("zeros", "gather", "arange", "where"):
        assert hasattr(engine, name) and f"def {name}(*args" in functions
