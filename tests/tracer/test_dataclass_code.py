"""The compiled code of tidx's dataclasses, cached across starts (tracer/dataclass_code.py).

A process that finds the cache compiles none of the methods ``@dataclass`` writes for
tidx's classes, and the methods it gets are the very ones compiling the text gives:
same code, same annotations, same behaviour.  Counted, never timed (issue #25).
"""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Imports what a cold explain imports, then prints, for every dataclass of tidx's, each
# generated method's code (what is compared) and annotations, and how many texts this
# process compiled and found cached.
PROBE = r"""
import dataclasses, json, sys
from dataclasses import dataclass
import engine
from engine.interpreter import application
from tracer.render import show

@dataclass(frozen=True)
class Foreign:          # a class of no module of tidx's: never cached
    x: int

cache = dataclasses.exec.cache
classes = {}
for name, module in sorted(sys.modules.items()):
    if not name.startswith(("engine", "tracer", "cli")):
        continue
    for cls in vars(module).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and \
                cls.__module__ == name:
            methods = {}
            for m in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__",
                      "__delattr__"):
                fn = cls.__dict__.get(m)
                code = getattr(fn, "__code__", None)
                if code is not None and code.co_filename == "<string>":
                    methods[m] = [code.co_code.hex(), repr(code.co_consts),
                                  list(code.co_names), list(code.co_varnames),
                                  repr(fn.__annotations__)]
            classes[f"{name}.{cls.__qualname__}"] = methods
def shape(code):
    return (code.co_code, code.co_flags, code.co_names, code.co_varnames, code.co_filename,
            tuple(shape(c) if isinstance(c, type(shape.__code__)) else c
                  for c in code.co_consts))

def plain(text):
    # what dataclasses' own exec(text, globals, ns) makes of the text
    ns = {}
    builtins_exec(text, {}, ns)
    return shape(ns["__create_fn__"].__code__)

import builtins
builtins_exec = builtins.exec
same = all(plain(text) == shape(next(c for c in cache.code[text].co_consts
                                     if isinstance(c, type(shape.__code__))))
           for text in cache.used)
print(json.dumps({"classes": classes, "same_as_exec": same, "compiled": cache.compiled, "used": len(cache.used),
                  "foreign": any("Foreign" in t for t in cache.code)}))
"""


def _probe(cache: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120,
                         env={**os.environ, "TIDX_CACHE_DIR": cache})
    return json.loads(out.stdout)


def _file(folder: Path) -> Path:
    [path] = folder.glob("dataclasses-*.marshal")
    return path


def test_a_warm_start_compiles_no_dataclass_method_and_gets_the_same_ones(tmp_path):
    _probe(str(tmp_path))       # writes the operator cache (importing every ops module)
    _file(tmp_path).unlink()
    cold = _probe(str(tmp_path))
    assert cold["used"] > 30 and cold["compiled"] == cold["used"]
    warm = _probe(str(tmp_path))
    assert warm["compiled"] == 0 and warm["used"] == cold["used"]
    # the same methods, byte for byte, with the same annotations (the return annotation
    # an object, not a string: the cached code is compiled as exec compiles the text,
    # without this module's `from __future__ import annotations`)
    assert warm["classes"] == cold["classes"]
    assert len(cold["classes"]) > 30
    # and the code exec(text) itself makes: same bytecode, constants, names and flags
    assert cold["same_as_exec"] and warm["same_as_exec"]
    init = cold["classes"]["tracer.document.Event"]["__init__"]
    assert init[-1].endswith("'return': None}")
    # another library's dataclass is compiled as before, never kept
    assert not cold["foreign"] and not warm["foreign"]


def test_no_cache_folder_compiles_every_time():
    first, second = _probe(""), _probe("")
    assert first["compiled"] > 30 and second["compiled"] == first["compiled"]
    assert first["classes"] == second["classes"]


def test_a_corrupt_or_foreign_file_only_costs_the_compiling(tmp_path):
    _probe(str(tmp_path))
    _file(tmp_path).unlink()
    cold = _probe(str(tmp_path))
    path = _file(tmp_path)
    path.write_bytes(b"\x00not marshal")
    again = _probe(str(tmp_path))
    assert again["compiled"] == cold["compiled"] and again["classes"] == cold["classes"]
    # a file of another Python (its version string) is not read either
    _, _, code = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((1, "2.7.18 (another Python)", code)))
    assert _probe(str(tmp_path))["compiled"] == cold["compiled"]
