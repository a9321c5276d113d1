"""``t.untyped_storage()`` prints as torch prints it (torch/storage.py
``_StorageBase.__repr__``: a byte per line, then ``[torch.storage.UntypedStorage(device=cpu)
of size N]``), not as ``<engine.binding.tensor.UntypedStorage object at 0x...>`` (issue #28).
"""

from __future__ import annotations

import contextlib
import io

import pytest
import torch

from engine.interpreter import session

pytestmark = pytest.mark.torch

PROGRAMS = [
    "t = torch.tensor([1, 2, 3]); print(t.untyped_storage())",
    "t = torch.tensor([1.5, -2.0]); print(t[1:].untyped_storage())",
    "t = torch.zeros(0); print(t.untyped_storage())",
    "t = torch.tensor([True, False]); print(t.untyped_storage())",
    "t = torch.zeros(3, device='meta'); print(t.untyped_storage())",
]


def _torch_prints(program: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(program, {"torch": torch})
    return [out.getvalue().removesuffix("\n")]


@pytest.mark.parametrize("program", PROGRAMS)
def test_a_storage_prints_as_torch_prints_it(program):
    doc = session.run(program, seed=0)
    assert doc["statements"][-1]["printed"] == _torch_prints(program)


def test_a_storage_as_a_result_is_shown_by_torchs_repr():
    doc = session.run("t = torch.tensor([7], dtype=torch.int16); t.untyped_storage()",
                      seed=0)
    shown = doc["statements"][-1]["result"]
    storage = torch.tensor([7], dtype=torch.int16).untyped_storage()
    assert shown["repr"] == repr(storage)
