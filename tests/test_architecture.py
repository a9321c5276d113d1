"""The layout holds: imports point one way, no cycles, small files, no run state in globals.

The import graph is read from every import statement of engine/ and tracer/, those
inside functions included.  The layers, from the top: interpreter -> pypto -> binding ->
autograd -> indexing, ops -> dispatch, memory, rng -> core; the tracer imports nothing of the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "tracer")

#: Each wing, with the wings it may import (besides itself and the tracer).
ALLOWED: dict[str, set[str]] = {
    "engine.core": set(),
    "engine.dispatch": {"engine.core"},
    "engine.memory": {"engine.core"},
    "engine.rng": {"engine.core"},
    "engine.ops": {"engine.core", "engine.dispatch", "engine.memory", "engine.rng"},
    "engine.indexing": {"engine.core", "engine.dispatch"},
    "engine.autograd": {"engine.core", "engine.dispatch", "engine.memory", "engine.rng",
                        "engine.ops"},
    "engine.binding": {"engine.core", "engine.dispatch", "engine.memory", "engine.rng",
                       "engine.ops", "engine.indexing", "engine.autograd"},
    "engine.pypto": {"engine.core", "engine.binding"},
    "engine.interpreter": {"engine.core", "engine.dispatch", "engine.memory", "engine.rng",
                           "engine.ops", "engine.indexing", "engine.binding", "engine.pypto",
                           "engine.autograd"},
    "engine": {"engine.core", "engine.binding", "engine.rng", "engine.ops"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of ours that ``name`` imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from pkg import module`` depends on that module; ``from pkg import name``
            # on the package itself
            subs = [f"{mod}.{a.name}" for a in node.names]
            targets = [t for t in subs if t in known]
            if len(targets) < len(subs):
                targets.append(mod)
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


def _wing(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "engine" and len(parts) > 1 and \
        f"engine.{parts[1]}" in ALLOWED else parts[0]


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (depth-first), or None.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    ['a', 'b', 'c', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle():
    cycle = find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_imports_point_down_the_layers():
    wrong = []
    for name, targets in _graph().items():
        if name.startswith("tracer"):
            wrong += [f"{name} -> {t}" for t in targets if t.startswith("engine")]
            continue
        wing = _wing(name)
        for t in targets:
            other = _wing(t)
            if other in (wing, "tracer") or other in ALLOWED[wing]:
                continue
            if name == wing:  # a package's __init__ may expose its own modules
                continue
            wrong.append(f"{name} -> {t}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_engine_root_is_small_and_files_are_short():
    root_files = [p.name for p in (ROOT / "engine").iterdir() if p.is_file()]
    assert len(root_files) <= 8, root_files
    # (the front ends too: cli.py and tidx.py are adapters over the application layer)
    tops = [ROOT / f"{top}.py" for top in TOP]
    long = {str(p.relative_to(ROOT)): n for p in [*_modules().values(), *tops]
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700}
    assert not long, long


#: The top-level modules beside the packages: the command line and the notebook magic
#: (tidx.py). They may import everything; nothing in the packages imports them.
TOP = ("cli", "tidx")


def test_nothing_in_the_packages_imports_the_top_level_modules():
    wrong = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
            else:
                continue
            wrong += [f"{name} -> {t}" for t in targets if t.split(".")[0] in TOP]
    assert not wrong, wrong
    assert all((ROOT / f"{top}.py").is_file() for top in TOP)


def test_the_front_ends_share_the_application_layer_not_each_other():
    """The notebook magic reaches nothing of the command line: both are adapters over
    the application layer (engine.interpreter.application, tracer.options,
    tracer.click_options, tracer.render.show)."""
    tree = ast.parse((ROOT / "tidx.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {f"{n.module}.{a.name}" for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "cli" not in {name.split(".")[0] for name in imported}
    assert {"engine.interpreter.application", "tracer.render.show"} <= imported
