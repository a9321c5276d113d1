"""The start-up cache of the operators' declarations (engine/dispatch/operator_cache.py).

A cold run reads the declarations from a cache file and imports a kernel's module when
the kernel first runs; these tests prove that it declares exactly what importing every
module declares, in the same order, that statements come out the same, and that a
missing, corrupt or unwritable cache only costs time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
import engine
from engine.dispatch.declarations import REGISTRY, DEPRECATED, PROVISIONAL
from engine.interpreter import session
at_start = sorted(m for m in sys.modules if m.startswith("engine.ops."))
import dataclasses
# every field the declaration has (meta=, device_check= ...), as the cache must carry it
registry = [[getattr(d, f.name) for f in dataclasses.fields(d) if f.name != "kernel"]
            + [d.modelled] for d in REGISTRY.values()]
docs = [session.run(text, seed=0) for text in sys.argv[1:]]
print(json.dumps({"at_start": at_start, "provisional": len(PROVISIONAL),
                  "registry": registry, "deprecated": [list(x) for x in DEPRECATED],
                  "docs": docs}, default=str))
"""

STATEMENTS = ["t[rows, cols] = 10", "x = torch.randn(3, 4)", "y = t[1:, ::2]; y.sum()",
              "torch.arange(6).reshape(2, 3).T.contiguous()", "t.gather(1, torch.tensor([[0], [1], [2]]))",
              "torch.add(t, 1, 2, 3)"]


def _probe(cache: str, *texts: str) -> dict:
    env = {**os.environ, "TIDX_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", PROBE, *texts], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _without_versions(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("tidx",)}


def test_a_warm_cache_declares_what_importing_everything_declares(tmp_path):
    cold = _probe(str(tmp_path), *STATEMENTS)
    files = list(tmp_path.glob("operators-*"))
    assert len(files) == 1
    warm = _probe(str(tmp_path), *STATEMENTS)
    # the cold run imported every ops module; the warm one only what start-up needs
    assert len(cold["at_start"]) > 40 and cold["provisional"] == 0
    assert len(warm["at_start"]) < 5 and warm["provisional"] > 300
    assert warm["registry"] == cold["registry"]      # same schemas, in the same order
    # the fields every declaration carries: the AT_DISPATCHes and the Python step's note too
    assert any("arange_cpu" in str(row) for row in warm["registry"])
    assert any("factory.randn" in row for row in warm["registry"])
    assert warm["deprecated"] == cold["deprecated"]
    assert [_without_versions(d) for d in warm["docs"]] == \
        [_without_versions(d) for d in cold["docs"]]


def test_no_cache_dir_means_no_file_and_the_same_answers(tmp_path):
    off = _probe("", *STATEMENTS[:2])
    assert off["provisional"] == 0 and len(off["at_start"]) > 40
    on = _probe(str(tmp_path), *STATEMENTS[:2])
    assert off["registry"] == on["registry"]


def test_a_corrupt_or_unwritable_cache_only_costs_time(tmp_path):
    cold = _probe(str(tmp_path), STATEMENTS[0])
    [cache] = tmp_path.glob("operators-*")
    cache.write_bytes(b"\x00not marshal at all")
    again = _probe(str(tmp_path), STATEMENTS[0])
    assert again["provisional"] == 0 and again["registry"] == cold["registry"]
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    stuck = _probe(str(blocked), STATEMENTS[0])       # a folder that cannot be made
    assert stuck["registry"] == cold["registry"]
    assert stuck["docs"][0]["statements"] == cold["docs"][0]["statements"]


OWNERS = r"""
import glob, json, marshal, os, sys
import engine.ops
from engine.dispatch.declarations import REGISTRY
[path] = glob.glob(os.path.join(os.environ["TIDX_CACHE_DIR"], "operators-*.marshal"))
_, _, names, rows, _ = marshal.load(open(path, "rb"))
engine.ops.import_all()
owners = {}
for row in rows:
    values = dict(zip(names, row[:-2]))
    full = f"{values['namespace']}::{values['name']}" + (
        f".{values['overload']}" if values["overload"] else "")
    kernel = REGISTRY[full].kernel
    owners[full] = [row[-2], getattr(kernel, "__module__", None)]
print(json.dumps(owners))
"""


def test_a_kernel_is_imported_from_the_module_that_declares_it(tmp_path):
    # the cache names, for each operator, the module to import at its first call: the
    # one whose code declared it, not the first whose import happened to (select is
    # declared in views; gather's import imports views, and once made select's first
    # call import gather and split too)
    env = {**os.environ, "TIDX_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "import engine"], cwd=ROOT, env=env, check=True)
    out = subprocess.run([sys.executable, "-c", OWNERS], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    owners = json.loads(out.stdout)
    assert owners["aten::select.int"][0] == "engine.ops.views"
    assert owners["aten::copy_"][0] == "engine.ops.copy"
    # every kernel written in an ops module is imported from that module; an alias's
    # kernel (engine.dispatch.aliases) from the module that declares the alias
    for full, (cached, defined_in) in owners.items():
        if defined_in is not None and defined_in.startswith("engine.ops."):
            assert cached == defined_in, full
        elif defined_in is not None:
            assert defined_in == "engine.dispatch.aliases" and \
                cached.startswith("engine.ops."), full


PARSES = r"""
import sys
import engine
from engine.dispatch import declarations as D
from engine.dispatch.schema import FunctionSchema
parsed = []
real = FunctionSchema.parse
FunctionSchema.parse = staticmethod(lambda text: parsed.append(text) or real(text))
before = len(D.PROVISIONAL)
import engine.ops.views
print(before - len(D.PROVISIONAL), len(parsed))
"""


def test_a_module_a_first_call_imports_takes_its_kinds_from_the_cache(tmp_path):
    # a cached declaration's kind is the one kind_of read off the same schema text: the
    # module's own declarations replace the cached ones without parsing them again
    env = {**os.environ, "TIDX_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "import engine"], cwd=ROOT, env=env, check=True)
    out = subprocess.run([sys.executable, "-c", PARSES], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    replaced, parsed = map(int, out.stdout.split())
    assert replaced > 10 and parsed == 0
