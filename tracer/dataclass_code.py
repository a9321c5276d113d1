"""The code :mod:`dataclasses` writes for tidx's classes, compiled once, not at every start.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``
(and a frozen class's ``__setattr__``/``__delattr__``) as Python source text and
compiles it with ``exec`` while the module is imported.  A cold ``tidx explain``
makes some forty dataclasses, and compiling their hundreds of functions was about a
tenth of its start-up (issue #25).  :func:`install` gives :mod:`dataclasses` an
``exec`` that looks the compiled code of a text up first, and compiles it only when it
is not there, exactly as ``exec`` would (``compile(text, "<string>", "exec")``, then
``exec`` of that code with the same globals and locals): the classes and their methods
are the ones ``@dataclass`` makes, for every text, whether it was cached or not.

Only the texts of tidx's own classes are kept (a module of ``engine``, ``tracer`` or
``cli``: the globals ``dataclasses`` compiles a class's methods in are its module's);
any other library's dataclasses are compiled as before.  The code is kept like Python's
own ``.pyc`` files, with ``marshal``, in one file per Python version in tidx's cache
folder (:mod:`tracer.cache_folder`); a missing, unreadable or foreign file only costs
the compiling, and new code is added to it when the process ends (written whole, or not
at all).  The file is code tidx runs, as a ``.pyc`` is: it sits beside the operator
cache in the user's own folder, which only that user (who can run any code) can write.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

from tracer import cache_folder

#: bump when the file's layout changes
_FORMAT = 1
#: tidx's own modules: only their classes' texts are kept
_OURS = ("engine.", "tracer.", "cli")
#: more texts than this in the file (old versions of edited classes piling up): the
#: next write keeps only those this process used
_MAX_TEXTS = 3000


class _Cache:
    """The texts compiled so far (from the file and in this process), and which of them
    this process used."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.code: dict[str, CodeType] = _read(path) if path else {}
        self.used: set[str] = set()
        #: texts compiled in this process (none when the file had them all)
        self.compiled = 0

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """``exec`` as :mod:`dataclasses` calls it: a text with globals and locals."""
        module = globals.get("__name__", "") if isinstance(globals, dict) else ""
        if not (isinstance(source, str) and isinstance(module, str)
                and module.startswith(_OURS)):
            return builtins.exec(source, globals, locals)
        code = self.code.get(source)
        if code is None:
            # exec(text) compiles with the calling code's __future__ flags: those of
            # dataclasses.py (none); compile() here would take this module's
            # (annotations), so it inherits none
            code = self.code[source] = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.used.add(source)
        return builtins.exec(code, globals, locals)

    def write(self) -> None:
        if not (self.compiled and self.path):
            return
        keep = self.code if len(self.code) <= _MAX_TEXTS else \
            {text: code for text, code in self.code.items() if text in self.used}
        try:
            blob = marshal.dumps((_FORMAT, sys.version, keep))
        except ValueError:
            return
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(blob)
            os.replace(tmp, self.path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _read(path: str) -> dict[str, CodeType]:
    try:
        # loads of the whole file: marshal.load(f) reads the file through f.readinto
        # object by object, which took ~100 million instructions for the two caches
        with open(path, "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 3 and data[0] == _FORMAT
            and data[1] == sys.version and isinstance(data[2], dict)):
        return {}
    return {text: code for text, code in data[2].items()
            if isinstance(text, str) and isinstance(code, CodeType)}


def _path() -> str | None:
    folder = cache_folder.folder()
    if folder is None:
        return None
    tag = sys.implementation.cache_tag or "python"      # cpython-311, as .pyc files say
    return os.path.join(folder, f"dataclasses-{tag}.marshal")


def install() -> None:
    """Give :mod:`dataclasses` the caching ``exec`` (once per process)."""
    if isinstance(getattr(dataclasses, "exec", None), _Installed):
        return
    cache = _Cache(_path())
    dataclasses.exec = _Installed(cache)     # type: ignore[attr-defined]
    atexit.register(cache.write)


class _Installed:
    """The ``exec`` :mod:`dataclasses` finds in its module globals (a builtin's name a
    module global shadows), bound to one cache."""

    __slots__ = ("cache",)

    def __init__(self, cache: _Cache) -> None:
        self.cache = cache

    def __call__(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        return self.cache.exec(source, globals, locals)
