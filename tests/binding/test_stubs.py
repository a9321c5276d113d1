"""The type stubs engine/binding/stubs.py writes from the declarations: generated, not
committed (tests/test_mypy.py writes them before mypy reads them), so a new operator
touches no stub; these tests hold what the generator says.
"""

from __future__ import annotations

import subprocess

import pytest

from engine.binding import stubs
from engine.dispatch.declarations import REGISTRY


@pytest.mark.parametrize("path", sorted(stubs.STUBS))
def test_a_stub_is_generated_not_committed(path):
    """git ignores the stub and tracks no copy of it (a committed one would go stale with
    the next operator)."""
    ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=stubs.ROOT)
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", path], cwd=stubs.ROOT,
                             capture_output=True)
    assert ignored.returncode == 0 and tracked.returncode != 0
    compile(stubs.STUBS[path](), path, "exec")      # and what it writes is Python


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
