"""The operators' declarations at start-up without importing every kernel module.

Importing all of ``engine.ops`` (some 90 modules with what they import) was a third of a
cold ``tidx explain``.  The Python binding needs every declaration's schema from the
start (``torch.X``, ``Tensor.X``, PyTorch's TypeErrors list every overload), but a
statement runs only a few kernels.  So the first run imports every ops module, as it
always did, and writes what they declared (every field but the kernel, and which module
to import for it) to a cache file; later runs read the file and import a kernel's module
the first time the kernel is called (:class:`LazyKernel`).  The module's own declaration
then replaces the cached one (``declarations.PROVISIONAL``).

The file is named after a checksum of every engine source file's path, size and mtime,
of Python's version and of tidx's, and holds that whole list, which must equal today's
for the file to be read: any edit makes a new one; it holds data only
(``marshal`` of strings, tuples and None, never pickle), is written whole or not at all
(a temporary file renamed over), and any failure to read or write it falls back to
importing every module.  Its folder is tidx's cache folder (:mod:`tracer.cache_folder`:
``TIDX_CACHE_DIR``, empty for no cache; else ``$XDG_CACHE_HOME/tidx`` or
``~/.cache/tidx``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import importlib
import marshal
import os
import sys
import zlib
from typing import Any, Callable, Iterator

from tracer import cache_folder
from tracer.version import __version__

from engine.dispatch import declarations as D
from engine.dispatch.at_dispatch import AtDispatch

_FORMAT = 2     # 2: the declarations carry their AT_DISPATCHes


class LazyKernel:
    """A kernel whose module is not imported yet: the first call imports it (its
    declaration replaces the cached one) and calls the real kernel."""

    __slots__ = ("module", "full_name", "_fn")

    def __init__(self, module: str, full_name: str) -> None:
        self.module, self.full_name = module, full_name
        self._fn: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn
        if fn is None:
            importlib.import_module(self.module)
            fn = D.REGISTRY[self.full_name].kernel
            assert fn is not None and not isinstance(fn, LazyKernel), self.full_name
            self._fn = fn
        return fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kernel of {self.full_name} in {self.module}, not imported yet>"


def load(package: str, folder: str) -> None:
    """Declare every operator of ``package`` (``engine.ops``): from the cache when it
    matches the sources, else by importing every module (and writing the cache)."""
    where = _cache_path()
    path, key = where if where else ("", "")
    # thousands of small tuples and declarations: without the collector's passes over
    # the whole heap (numpy's included) reading them takes 1 ms instead of 10-20
    collecting = gc.isenabled()
    gc.disable()
    try:
        entries = _read(path, key) if path else None
        try:
            if entries is not None and _install(entries):
                return
        except (TypeError, ValueError, KeyError):
            pass    # a file of the right key but not of this shape: import everything
            # (_install changes the registry only once every row has been read)
    finally:
        if collecting:
            gc.enable()
    owner: dict[str, str | None] = {name: None for name in D.REGISTRY}
    with _owners(package, owner):
        for module in _modules(package, folder):
            importlib.import_module(module)
    if path:
        _write(path, key, owner)


@contextlib.contextmanager
def _owners(package: str, owner: dict[str, str | None]) -> Iterator[None]:
    """Record, for each operator declared meanwhile, the module whose own code declared
    it: the innermost module of ``package`` being executed.  A module's import runs its
    imports first, so what they declare is theirs; the rest, its own, once its code has
    run.  (Naming the module whose import was asked for, as before, sent a first call of
    ``select`` through ``engine.ops.gather``, which imports the views module it is
    declared in, and a ``copy_`` through all of advanced indexing.)"""
    from importlib.machinery import PathFinder

    def claim(module: str) -> None:
        for full_name in D.REGISTRY:
            owner.setdefault(full_name, module)

    class Finder:
        """Finds the package's modules as the path finder does; their loader claims
        what the module declared once its code has run."""

        @staticmethod
        def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
            if not name.startswith(f"{package}."):
                return None             # any other module: the usual finders
            spec = PathFinder.find_spec(name, path, target)
            if spec is not None and spec.loader:
                run = spec.loader.exec_module

                def exec_module(module: Any) -> None:
                    run(module)
                    claim(name)

                spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder)
    try:
        yield
    finally:
        sys.meta_path.remove(Finder)


def import_all(package: str, folder: str) -> None:
    """Import every module of ``package`` (what a tool that reads every kernel needs)."""
    for module in _modules(package, folder):
        importlib.import_module(module)


def _modules(package: str, folder: str) -> list[str]:
    """The package's modules in name order, as ``pkgutil.iter_modules`` lists them
    (pkgutil itself imports ``inspect``, ~12 ms of a cold start)."""
    return [f"{package}.{name}" for name in sorted(
        e.name[:-3] for e in os.scandir(folder)
        if e.name.endswith(".py") and e.name != "__init__.py")]


def _cache_path() -> tuple[str, str] | None:
    folder = cache_folder.folder()
    if folder is None:
        return None
    key = _key()
    return os.path.join(folder, f"operators-{zlib.crc32(key.encode()):08x}.marshal"), key


def _key() -> str:
    """Every engine source file (path, size, mtime), Python's and tidx's versions: the
    cache holds this text and is read only when it equals today's, so a stale cache is
    never read (``hashlib`` is not used: importing it cost ~5 ms of every start)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [f"{_FORMAT} {__version__} {sys.version}"]
    stack = [root]
    while stack:
        for e in sorted(os.scandir(stack.pop()), key=lambda e: e.name):
            if e.is_dir(follow_symlinks=False) and e.name != "__pycache__":
                stack.append(e.path)
            elif e.name.endswith((".py", ".wat")):
                st = e.stat()
                parts.append(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\n".join(parts)


def _fields() -> list[str]:
    return [f.name for f in dataclasses.fields(D.Declaration) if f.name != "kernel"]


def _to_row(name: str, value: Any) -> Any:
    """A field as marshal writes it: the AT_DISPATCHes as (name, macros) pairs."""
    if name == "at_dispatch":
        return tuple((d.name, d.macros) for d in value)
    return value


def _from_row(name: str, value: Any) -> Any:
    if name == "at_dispatch":
        return tuple(AtDispatch(n, tuple(macros)) for n, macros in value)
    return value


def _read(path: str, key: str) -> Any:
    try:
        # loads of the whole file: marshal.load(f) reads the file through f.readinto
        # object by object, which took ~100 million instructions for the two caches
        with open(path, "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == 5 and data[0] == _FORMAT
            and data[1] == key and data[2] == tuple(_fields())):
        return None
    return data[0], data[2], data[3], data[4]


def _install(data: Any) -> bool:
    """Put the cached declarations in the registry (those of modules imported already
    stay as they are), in the order a full import declares them."""
    _, names, rows, deprecated = data
    registry, fresh = D.REGISTRY, {}
    # A frozen dataclass's __init__ stores each field through object.__setattr__: 600
    # declarations took 1.5 ms of every start.  The cache holds every field (_read
    # checks the names), so each declaration's __dict__ is filled at once instead: the
    # same object __init__ makes (Declaration has no __post_init__; with __slots__,
    # vars() raises TypeError and load() imports every module instead).
    assert not hasattr(D.Declaration, "__post_init__")
    make = object.__new__
    # only at_dispatch needs converting: a call per field (850 rows of 40 fields) took
    # 5 ms of every start
    converted = names.index("at_dispatch")
    for row in rows:
        values = dict(zip(names, row[:-2]))
        values["at_dispatch"] = _from_row("at_dispatch", row[converted])
        module, modelled = row[-2], row[-1]
        # Declaration.full_name, without making a declaration only to ask it
        overload = values["overload"]
        full_name = f"{values['namespace']}::{values['name']}{'.' if overload else ''}{overload}"
        if full_name in registry:
            continue
        if module is None:          # declared by a module imported before the cache
            return False            # was written, but not now: the cache cannot say
        values["kernel"] = LazyKernel(module, full_name) if modelled else None
        fresh[full_name] = decl = make(D.Declaration)
        vars(decl).update(values)
    registry.update(fresh)
    D.PROVISIONAL.update(fresh)
    for entry in deprecated:
        if tuple(entry) not in D.DEPRECATED:
            D.DEPRECATED.append(tuple(entry))
    return True


def _write(path: str, key: str, owner: dict[str, str | None]) -> None:
    names = _fields()
    rows = tuple((*(_to_row(n, getattr(d, n)) for n in names), owner[key], d.kernel is not None)
                 for key, d in D.REGISTRY.items())
    try:
        blob = marshal.dumps((_FORMAT, key, tuple(names), rows, tuple(D.DEPRECATED)))
    except ValueError:          # a field marshal cannot write: no cache, nothing lost
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
        _prune(os.path.dirname(path), keep=8)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _prune(folder: str, keep: int) -> None:
    """Keep the ``keep`` newest cache files (each checkout and each edit makes one)."""
    files = [e for e in os.scandir(folder)
             if e.name.startswith("operators-") and e.name.endswith(".marshal")]
    files.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for e in files[keep:]:
        os.unlink(e.path)
