"""Grammar-based fuzzing (issue #13): generated programs, every output mode, real torch.

Hypothesis builds programs of 1-4 statements from tidx's whole statement surface
(tests/program_grammar.py) and each program is checked three ways:

1. In process, through the Session ``tidx explain`` uses: an exception that is not
   PyTorch's (nor a refusal) is a bug in tidx.
2. Through the command line (``cli_run``), in every mode: ``explain`` in each
   ``--format``, with ``--ops``, ``--no-values``, ``--lang zh`` and ``--verify``; ``step``;
   ``export`` to every suffix.  Never a traceback; the exit code is 0, 1 or 2 (3 is
   tidx's own bug) and the same in every mode, and the same as the in-process run;
   exit 1 names PyTorch's error class and message; exit 2 says the in-process
   refusal; an export leaves exactly its file when the run was shown (exits 0 and 1),
   complete and of its format, and no file at all otherwise.
3. With torch installed, the same statements run in real PyTorch with the same seed,
   as plain Python over the defaults' own sources (tests/oracle.py's scope; ``exec`` of
   the test's own generated text, as the oracle does, so that Python and not tidx's
   evaluator says what ``t.shape + (1,)`` is).  After every statement the value it gave,
   the names it bound and what it printed must agree (tensors: dtype, shape, strides,
   offset, device, requires_grad, values and repr; Python values: type and value), and
   at the end every name the program used; an error must be the same class and message
   at the same statement.  tidx's refusals (exit 2: syntax
   outside the allow-list, the memory limit) are not compared.  Programs that read
   uninitialised memory (``empty``, ``resize_``) or addresses (``data_ptr``) compare
   every value's type, dtype and shape and every error's class, not the values.

KNOWN_OPEN lists what currently fails, each with its smallest reproduction; a
generated program that fails exactly so is let through (and counted with
``hypothesis.event``), and ``test_known_open_still_fails`` fails as soon as one is
fixed, so the list shrinks with main.

``TIDX_LONG=1 python -m pytest tests/interpreter/test_fuzz_programs.py`` runs ten times as many
programs.  ``python tests/interpreter/test_fuzz_programs.py hunt --programs 5000`` is the long local
hunt: programs drawn at random in worker processes under a time limit (a program that
does not finish is a finding, "hang"; ``--hazards`` also draws views of 10**12 elements),
every distinct failure kept in a JSON file with the shortest program that showed it and
how often it was seen; ``python tests/interpreter/test_fuzz_programs.py minimise FILE`` then drops
every statement a failure does not need.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the hunt runs this file directly

import oracle  # noqa: E402
from parser_oracle import normalise  # noqa: E402
from conftest import cli_run, examples, require_dot, require_torch  # noqa: E402
from engine.core.errors import Refused  # noqa: E402
from engine.interpreter import statements as E  # noqa: E402
from engine.interpreter.evaluator import Namespace  # noqa: E402
from engine.interpreter.defaults import DEFAULTS  # noqa: E402
from engine.interpreter.session import Session  # noqa: E402
from program_grammar import DEFAULT_TENSORS, Program, programs  # noqa: E402

SEED = 0
MAX_BYTES = "64MiB"
LIMIT = 64 * 2**20
COMMON = ("--seed", str(SEED), "--max-bytes", MAX_BYTES)

#: ``explain`` and ``step``: (label, arguments before the statements).
TEXT_MODES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tree", ("explain", "--format", "tree")),
    ("tree --full", ("explain", "--full")),
    ("json", ("explain", "--format", "json")),
    ("mermaid", ("explain", "--format", "mermaid")),
    ("dot", ("explain", "--format", "dot")),
    ("markdown", ("explain", "--format", "markdown")),
    ("tree --ops", ("explain", "--ops")),
    ("tree --no-values", ("explain", "--no-values")),
    ("tree --lang zh", ("explain", "--lang", "zh")),
    ("tree --verify", ("explain", "--verify")),
    ("step", ("step",)),
)
EXPORTS = ("svg", "json", "html", "md", "mmd", "dot")
IMAGES = ("png", "pdf")  # need Graphviz's dot; png costs about 0.4 s a program

TRACEBACK = "Traceback (most recent call last)"


class Finding(AssertionError):
    """One failed check: which, at which statement (or the program), what was seen,
    in which modes."""

    def __init__(self, check: str, where: str, detail: str, modes: tuple[str, ...] = ()):
        self.check, self.where, self.detail, self.modes = check, where, detail, modes
        shown = f" [modes: {', '.join(modes)}]" if modes else ""
        super().__init__(f"{check} at {where!r}{shown}: {detail}")


# -- known open findings --------------------------------------------------------------------
@dataclass(frozen=True)
class Known:
    """A failure main has not fixed yet: the smallest program that shows it, the check
    that fails, and what the failing statement and the detail look like."""

    id: str
    repro: str
    check: str
    where: str            # a regular expression the failing statement (or program) matches
    detail: str = ""      # and one the finding's detail matches
    why: str = ""

    def matches(self, finding: Finding) -> bool:
        return (finding.check == self.check and re.search(self.where, finding.where) is not None
                and re.search(self.detail, finding.detail) is not None)


#: Each entry is a failure seen on this branch's engine, narrowed to the program text
#: that causes it.  Remove an entry when test_known_open_still_fails says it is fixed.
KNOWN_OPEN: tuple[Known, ...] = ()


def known(finding: Finding) -> Known | None:
    return next((k for k in KNOWN_OPEN if k.matches(finding)), None)


# -- running a program in tidx, in process --------------------------------------------------
@dataclass
class Run:
    """What running a program gave: how it ended and what each statement left."""

    kind: str                        # "ok", "error" (PyTorch's), "refused" or "internal"
    sources: list[str]
    at: int | None = None            # the statement that raised or was refused
    error: tuple[str, str] | None = None
    refused: str | None = None
    internal: str | None = None      # the exception that is tidx's bug
    steps: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    doc: dict[str, Any] | None = None


def uninitialised(program: Program) -> bool:
    """Whether values may come from memory nobody wrote (or are addresses)."""
    return any(word in program.text for word in ("empty", "resize_", "data_ptr"))


def run_tidx(program: Program) -> Run:
    """Run through the Session ``tidx explain`` uses.  An exception that is neither
    PyTorch's (recorded in the document) nor a refusal is tidx's bug (kind "internal")."""
    try:
        statements = E.parse(program.text)
    except Refused as exc:
        return Run("refused", [], at=0, refused=str(exc))
    session = Session(seed=SEED, max_bytes=LIMIT)
    run = Run("ok", [st.source for st in statements])
    for i, st in enumerate(statements):
        try:
            entry = session.run_statement(st)
        except Refused as exc:
            run.kind, run.at, run.refused = "refused", i, str(exc)
            return run
        except RecursionError:          # the CLI refuses it: "statement nested too deeply"
            run.kind, run.at, run.refused = "refused", i, "statement nested too deeply"
            return run
        except Exception as exc:  # noqa: BLE001 - not PyTorch's, not a refusal: tidx's bug
            run.kind, run.at, run.internal = "internal", i, f"{type(exc).__name__}: {exc}"
            return run
        if entry.error is not None:
            run.kind, run.at = "error", i
            run.error = (entry.error.type, entry.error.message)
            break
        run.steps.append(snapshot(st, session.evaluator.names))
    run.final = dict(session.evaluator.names)
    run.doc = session.document()
    return run


def snapshot(st: E.Statement, names: dict[str, Any]) -> dict[str, Any]:
    """What a statement left, taken right after it: its value, the names it bound and
    what it printed."""
    out: dict[str, Any] = {name: names[name] for name in st.assigned if name in names}
    if not st.assigned:
        out["(value)"] = st.value
    return {k: normal(v) for k, v in out.items()} | {"(printed)": list(st.printed)}


# -- running it in real torch ---------------------------------------------------------------
def run_torch(torch, program: Program) -> Run:
    """Run the same statements in real PyTorch as plain Python, as tests/oracle.py does
    (``exec`` of the tests' own generated text, over the defaults' own sources): Python
    itself, not tidx's evaluator, decides what ``t.shape + (1,)`` or ``len(t)`` is."""
    import ast

    ns = oracle.torch_scope(torch)
    printed: list[str] = []
    ns["print"] = lambda *args: printed.append(" ".join(str(a) for a in args))
    torch.manual_seed(SEED)
    statements = E.parse(program.text)
    run = Run("ok", [st.source for st in statements])
    for i, st in enumerate(statements):
        node, value, assigned = st.node, None, []
        printed.clear()
        try:
            if isinstance(node, ast.Expr):
                code = compile(ast.Expression(node.value), "<fuzz>", "eval")
                value = eval(code, ns)  # noqa: S307 - the test's own generated program
            else:
                exec(compile(ast.Module([node], []), "<fuzz>", "exec"), ns)  # noqa: S102
                assigned = _assigned(node)
        except Exception as exc:  # noqa: BLE001 - torch's error is the result
            run.kind, run.at, run.error = "error", i, (type(exc).__name__,
                                                       normalise(str(exc)))
            break
        names = {k: ns[k] for k in assigned if k in ns}
        if not assigned:
            names["(value)"] = value
        run.steps.append({k: normal(v) for k, v in names.items()} | {"(printed)": list(printed)})
    run.final = ns
    return run


def _assigned(node) -> list[str]:
    """The names a statement binds or writes into, as tidx's Statement.assigned lists them:
    ``a, *b = ...`` binds a and b, ``t[i] = ...`` and ``t += ...`` write into t."""
    import ast
    if isinstance(node, ast.AugAssign):
        return [_root(node.target)]

    def names(target) -> list[str]:
        if isinstance(target, ast.Starred):
            return names(target.value)
        if isinstance(target, (ast.Tuple, ast.List)):
            return [n for e in target.elts for n in names(e)]
        return [_root(target)]
    return [n for t in node.targets for n in names(t)]


def _root(target) -> str:
    import ast
    while isinstance(target, (ast.Subscript, ast.Attribute)):
        target = target.value
    return target.id if isinstance(target, ast.Name) else "?"


def names_to_compare(ours: Run) -> list[str]:
    """The names compared at the end: those the statements that ran read or bound, and
    that tidx made (it makes a default only when a statement reaches it)."""
    import ast
    last = ours.at if ours.at is not None else len(ours.sources) - 1
    text = "\n".join(ours.sources[:last + 1])
    used = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    return sorted(k for k in used if k in ours.final)


# -- describing values the same way for both ----------------------------------------------------
def _is_tensor(v: Any) -> bool:
    return type(v).__name__ == "Tensor" and hasattr(v, "storage_offset")


def normal(v: Any) -> Any:
    """A value as plain data, the same for a tidx and a torch value (taken at once, so a
    later write through a view does not change what an earlier statement gave)."""
    if _is_tensor(v):
        # no values of a meta tensor, nor of one too big to list (a failed resize_ keeps
        # its sizes: torch's tolist runs out of memory and its repr fails)
        rows = math.prod(v.shape[:list(v.shape).index(0)]) if 0 in v.shape else 0
        whole = str(v.device) != "meta" and v.numel() <= 10**6 and rows <= 10**6
        return {"tensor": True, "dtype": str(v.dtype), "shape": list(v.shape),
                "stride": list(v.stride()), "offset": v.storage_offset(),
                "device": str(v.device), "requires_grad": bool(v.requires_grad),
                "values": _floats(v.tolist()) if whole else None,
                "repr": repr(v) if whole else None}
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", repr(v))
    if isinstance(v, str) or v is None:
        return v
    kind = type(v).__name__
    if kind == "Size":
        return ("Size", list(v), repr(v))
    if isinstance(v, (list, tuple)):
        return (kind, [normal(x) for x in v])
    if kind in ("dtype", "device"):
        return (kind, str(v), repr(v))
    if kind == "UntypedStorage":
        return ("storage", v.nbytes())
    if isinstance(v, Namespace):
        return ("module",)
    if callable(v):
        return ("callable", getattr(v, "__name__", "?"))
    return ("other", kind)


def _floats(v: Any) -> Any:
    if isinstance(v, list):
        return [_floats(x) for x in v]
    return repr(v) if isinstance(v, float) else v


def blind(v: Any) -> Any:
    """``normal(v)`` without what uninitialised memory decides: values, and the numbers
    read from them."""
    if isinstance(v, dict):
        return {k: x for k, x in v.items() if k not in ("values", "repr")}
    if isinstance(v, tuple) and v and v[0] in ("int", "float", "bool"):
        return (v[0],)
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], list):
        return (v[0], [blind(x) for x in v[1]])
    return v


# -- comparing tidx with torch -----------------------------------------------------------------
def compare_with_torch(program: Program, ours: Run, theirs: Run) -> None:
    def see(step: dict[str, Any]) -> dict[str, Any]:
        if not uninitialised(program):
            return step
        return {k: len(v) if k == "(printed)" else blind(v) for k, v in step.items()}

    for i, (mine, real) in enumerate(zip(ours.steps, theirs.steps)):
        if see(mine) != see(real):
            raise Finding("torch-value", ours.sources[i], _difference(see(mine), see(real)))
    if (ours.kind, ours.at) != (theirs.kind, theirs.at):
        i = min(x for x in (ours.at, theirs.at, len(ours.sources) - 1) if x is not None)
        raise Finding("torch-error", ours.sources[i],
                      f"tidx {_ending(ours)} / torch {_ending(theirs)}")
    if ours.kind == "error":
        same = ours.error == theirs.error if not uninitialised(program) else \
            ours.error[0] == theirs.error[0]
        if not same:
            raise Finding("torch-error", ours.sources[ours.at],
                          f"tidx {_ending(ours)} / torch {_ending(theirs)}")
    keys = names_to_compare(ours)
    mine = see({k: normal(ours.final[k]) for k in keys})
    real = see({k: normal(theirs.final.get(k)) for k in keys})
    if mine != real:
        raise Finding("torch-value", program.text, "at the end: " + _difference(mine, real))


def _ending(run: Run) -> str:
    at = f"statement {run.at + 1} " if run.at is not None else ""
    if run.kind == "error":
        return f"{at}raised {run.error[0]}: {run.error[1]}"
    if run.kind == "refused":
        return f"{at}refused: {run.refused}"
    return "ran"


def _difference(mine: Any, real: Any) -> str:
    """The first place two descriptions part, said briefly."""
    if isinstance(mine, dict) and isinstance(real, dict):
        for key in list(dict.fromkeys([*mine, *real])):
            if mine.get(key) != real.get(key):
                return f"{key}: {_difference(mine.get(key), real.get(key))}"
    if isinstance(mine, tuple) and isinstance(real, tuple) and mine[:1] == real[:1] and \
            len(mine) == len(real) == 2 and isinstance(mine[1], list):
        for k, (a, b) in enumerate(zip(mine[1], real[1])):
            if a != b:
                return f"[{k}] {_difference(a, b)}"
    return f"tidx {_brief(mine)} / torch {_brief(real)}"


def _brief(v: Any) -> str:
    text = repr(v)
    return text if len(text) < 300 else text[:300] + "..."


# -- every output mode ----------------------------------------------------------------------------
EXIT = {"ok": 0, "error": 1, "refused": 2, "internal": 3}
#: Which failure is reported when a program shows several, most telling first.
PRECEDENCE = ("traceback", "internal", "mode", "message", "export")


def _content_ok(suffix: str, data: bytes, run: Run) -> bool:
    if suffix == "json":
        doc = json.loads(data)
        return len(doc["statements"]) == len(run.doc["statements"])
    marks = {"svg": b"<svg", "html": b"</html>", "mmd": b"sequenceDiagram", "dot": b"digraph",
             "png": b"\x89PNG", "pdf": b"%PDF"}
    if suffix in ("png", "pdf"):
        return data.startswith(marks[suffix])
    return marks.get(suffix, b"") in data and bool(data.strip())


def check_modes(program: Program, run: Run, *, images: bool = False) -> None:
    """Run the program in every mode; raise the first kind of failure seen, with every
    mode that shows it."""
    expected = EXIT[run.kind]
    seen: list[tuple[str, str, str]] = []   # (check, mode, detail)
    with tempfile.TemporaryDirectory() as tmp:
        modes = [(label, args) for label, args in TEXT_MODES]
        for suffix in EXPORTS + (IMAGES if images else ()):
            modes.append((f"export .{suffix}", ("export", "-o", str(Path(tmp) / f"out.{suffix}"))))
        no_dot = shutil.which("dot") is None
        for label, args in modes:
            res = cli_run(*args, *COMMON, "--", program.text)
            text = res.output
            if no_dot and label.removeprefix("export .") in IMAGES and run.kind != "refused":
                # without Graphviz's dot, PNG and PDF are refused in one line (the
                # README's promise), whatever the program does, and write nothing (a
                # program tidx refuses is refused as in every mode, below)
                said = res.stderr.strip().splitlines()
                if res.exit_code != 2 or len(said) != 1 or "needs Graphviz" not in said[0] \
                        or Path(args[2]).exists():
                    seen.append(("mode", label, f"without dot: exit {res.exit_code}, "
                                 f"{said[-1:]}"))
                continue
            if TRACEBACK in text or (res.exception is not None
                                     and not isinstance(res.exception, SystemExit)):
                seen.append(("traceback", label, f"{type(res.exception).__name__}: "
                             f"{res.exception}" if res.exception else text[-300:]))
                continue
            if res.exit_code == 3:
                seen.append(("internal", label, res.stderr.strip().splitlines()[-1]))
                continue
            if res.exit_code not in (0, 1, 2):
                seen.append(("mode", label, f"exit {res.exit_code}"))
                continue
            if res.exit_code != expected:
                last = res.stderr.strip().splitlines()[-1:] or [""]
                seen.append(("mode", label, f"exit {res.exit_code} (in process: "
                             f"{_ending(run)}): {last[0]}"))
                continue
            if run.kind == "error":
                said = f" raised {run.error[0]}: {run.error[1]}"
                if said not in res.stderr:
                    seen.append(("message", label, f"stderr lacks {said!r}: {res.stderr[-300:]!r}"))
            if run.kind == "refused" and run.refused not in res.stderr:
                seen.append(("message", label, f"stderr lacks {run.refused!r}: "
                             f"{res.stderr[-300:]!r}"))
            if label == "json" and run.kind != "refused":
                doc = json.loads(res.stdout)
                got = [(s["source"], s["error"]) for s in doc["statements"]]
                want = [(s["source"], s["error"]) for s in run.doc["statements"]]
                if got != want:
                    seen.append(("mode", label, f"json statements {got} / in process {want}"))
            if args[0] == "export":
                problem = _export_problem(Path(args[2]), run, expected)
                if problem:
                    seen.append(("export", label, problem))
    if run.kind == "internal":
        seen.append(("internal", "in process", run.internal))
    if seen:
        check = min((c for c, _, _ in seen), key=PRECEDENCE.index)
        modes_hit = tuple(m for c, m, _ in seen if c == check)
        detail = next(d for c, _, d in seen if c == check)
        if run.kind == "internal" and check == "internal":
            detail = run.internal            # the exception itself, not the one-line report
        where = run.sources[run.at] if run.at is not None and run.sources and (
            check != "internal" or run.kind == "internal") else program.text
        raise Finding(check, where, detail, modes_hit)


def _export_problem(path: Path, run: Run, code: int) -> str | None:
    """The files an export should have written are there, whole, and no others: one
    file, or for an SVG/PNG of several slide pages one per page, numbered from 1
    (export.paths)."""
    from tracer.render import export

    fmt = export.format_for(str(path))
    count = 1
    if fmt in ("svg", "png") and code != 2 and not path.exists():
        count = len(list(path.parent.glob(f"{path.stem}-*{path.suffix}"))) or 1
    elif fmt not in export.IMAGES and run.doc is not None and code != 2:
        count = len(run.doc["statements"])
    wanted = [Path(p) for p in export.paths(str(path), fmt, count)]
    others = [p.name for p in path.parent.iterdir() if p not in wanted]
    if others:
        for p in path.parent.iterdir():     # one mode's leftovers must not fail the next
            p.unlink()
        return f"left other files: {others}"
    if code == 2:
        there = [p.name for p in wanted if p.exists()]
        for p in wanted:
            p.unlink(missing_ok=True)
        return f"left {', '.join(there)} after refusing" if there else None
    missing = [p.name for p in wanted if not p.exists()]
    if missing:
        return f"wrote no {', '.join(missing)}"
    for p in wanted:
        data = p.read_bytes()
        p.unlink()
        if not _content_ok(p.suffix[1:], data, run):
            return f"{p.name} is not a complete {p.suffix} file ({len(data)} bytes)"
    return None


# -- one program, every check ---------------------------------------------------------------------
def _torch_or_none():
    try:
        import torch
    except ImportError:
        return None
    return torch


def check_program(program: Program, *, torch=None, images: bool = False) -> None:
    """Every check of the module docstring, in order; raises the first Finding."""
    run = run_tidx(program)
    check_modes(program, run, images=images)
    if torch is not None and run.kind in ("ok", "error") and "pypto" not in program.text:
        compare_with_torch(program, run, run_torch(torch, program))


def first_finding(program: Program, **kw) -> Finding | None:
    try:
        check_program(program, **kw)
    except Finding as finding:
        return finding
    return None


def _tolerate(finding: Finding) -> None:
    """Let a known open failure through, explicitly; raise anything else."""
    entry = known(finding)
    if entry is None:
        raise finding
    event(f"known open: {entry.id}")


# -- the tests ------------------------------------------------------------------------------------
def test_the_grammar_knows_the_defaults():
    """program_grammar draws arguments in range from the defaults' shapes: they must be
    the engine's."""
    from engine.interpreter.evaluator import Evaluator
    ev = Evaluator()
    for d in DEFAULTS:
        value = ev.lookup(d.name)
        assert (tuple(value.shape), str(value.dtype)) == (
            DEFAULT_TENSORS[d.name][0], f"torch.{DEFAULT_TENSORS[d.name][1]}"), d.name


@pytest.mark.torch
@pytest.mark.slow      # 40 whole programs, each in every output mode: ~10 s
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.filter_too_much])
@given(program=programs())
def test_programs_agree_in_every_mode_and_with_torch(program):
    torch = require_torch()
    finding = first_finding(program, torch=torch)
    if finding is not None:
        _tolerate(finding)


@pytest.mark.slow
@pytest.mark.dot
@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program=programs(max_statements=2))
def test_programs_draw_as_png_and_pdf(program):
    require_dot()
    finding = first_finding(program, images=True)
    if finding is not None:
        _tolerate(finding)


@pytest.mark.torch
@pytest.mark.parametrize("entry", KNOWN_OPEN or [pytest.param(None, id="none open")],
                         ids=lambda k: k.id if k else "none")
def test_known_open_still_fails(entry):
    """Each KNOWN_OPEN reproduction still fails as recorded; when main fixes one, this
    fails: delete the entry (and the fuzz test checks that program again)."""
    torch = require_torch()
    if entry is None:
        # nothing is known to fail: then the fuzz test tolerates nothing either
        with pytest.raises(Finding):
            _tolerate(Finding("a finding", "kind", "statement"))
        return
    finding = first_finding(Program(tuple(entry.repro.split("\n"))), torch=torch)
    assert finding is not None, f"{entry.id} is fixed: remove it from KNOWN_OPEN"
    assert entry.matches(finding), f"{entry.id} fails differently now: {finding}"


# -- the long local hunt --------------------------------------------------------------------------
def finding_key(finding: Finding) -> str:
    """What makes two findings the same failure: the check, the operations of the
    statement, and the detail with its numbers and names blurred."""
    detail = finding.detail
    detail = re.sub(r"^[\w()]+: ", "", detail) if finding.check == "torch-value" else detail
    detail = re.sub(r"statement \d+ ", "", detail)
    detail = re.sub(r"0x[0-9a-f]+|-?\d+(\.\d+)?(e[+-]?\d+)?", "N", detail)
    detail = re.sub(r"'[^']*'", "'…'", detail)
    if finding.check == "torch-value":
        detail = detail.split(":")[0]           # which field parts: values, dtype, shape ...
    else:
        detail = detail[:200]
    return f"{finding.check} | {operations(finding.where)} | {detail}"


def operations(source: str) -> str:
    """The operations a statement performs, in order: ``t[...]``, ``.view``, ``torch.zeros``."""
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "?"
    ops: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            ops.append("[]=")
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            ops.append("[]")
        elif isinstance(node, ast.Call):
            f = node.func
            ops.append(f"torch.{f.attr}" if isinstance(f, ast.Attribute) and isinstance(
                f.value, ast.Name) and f.value.id == "torch" else
                f".{f.attr}" if isinstance(f, ast.Attribute) else getattr(f, "id", "call"))
        elif isinstance(node, ast.BinOp):
            ops.append(type(node.op).__name__)
        elif isinstance(node, ast.Attribute) and not any(
                isinstance(p, ast.Call) and p.func is node for p in ast.walk(tree)):
            ops.append(f"@{node.attr}")
    return " ".join(dict.fromkeys(ops))


def _hunt_worker(conn, seed: int, hazards: bool, images_every: int) -> None:
    import warnings

    from hypothesis import Phase, given as given_, seed as seed_, settings as settings_

    warnings.simplefilter("ignore")
    torch = _torch_or_none()
    count = [0]

    @seed_(seed)
    @settings_(max_examples=10**9, database=None, deadline=None, derandomize=False,
               phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given_(programs(hazards=hazards))
    def loop(program):
        count[0] += 1
        conn.send(("start", program.text))
        t0 = time.monotonic()
        images = images_every > 0 and count[0] % images_every == 0
        try:
            f = first_finding(program, torch=torch, images=images)
        except Exception as exc:  # noqa: BLE001 - the harness's own failure is a finding too
            f = Finding("harness", program.text, f"{type(exc).__name__}: {exc}")
        found = None if f is None else (f.check, f.where, f.detail, list(f.modes))
        conn.send(("done", program.text, found, time.monotonic() - t0))

    loop()


def hunt(target: int, workers: int, timeout: float, out: Path, hazards: bool,
         images_every: int) -> dict[str, Any]:
    """Run ``target`` programs in ``workers`` processes; a program that takes longer
    than ``timeout`` seconds is a finding ("hang") and its worker is replaced."""
    import multiprocessing as mp
    import random
    from multiprocessing.connection import wait

    ctx = mp.get_context("spawn")
    findings: dict[str, dict[str, Any]] = {}
    done = 0
    slowest: list[tuple[float, str]] = []
    pool: dict[Any, dict[str, Any]] = {}

    def start() -> None:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_hunt_worker, args=(child, random.randrange(2**32),
                                                      hazards, images_every), daemon=True)
        proc.start()
        pool[parent] = {"proc": proc, "text": None, "since": time.monotonic()}

    def record(check: str, where: str, detail: str, modes: list[str], text: str) -> None:
        key = finding_key(Finding(check, where, detail))
        entry = findings.setdefault(key, {"check": check, "count": 0, "modes": [],
                                          "program": text, "where": where,
                                          "detail": detail})
        entry["count"] += 1
        entry["modes"] = sorted(set(entry["modes"]) | set(modes))
        if len(text) < len(entry["program"]):
            entry.update(program=text, where=where, detail=detail)

    def save() -> None:
        out.write_text(json.dumps({"programs": done, "findings": findings,
                                   "slowest": sorted(slowest)[-20:]}, indent=1))

    for _ in range(workers):
        start()
    began = time.monotonic()
    while done < target:
        for conn in wait(list(pool), timeout=1.0):
            state = pool[conn]
            try:
                msg = conn.recv()
            except EOFError:        # the worker died (e.g. killed by the OOM killer)
                record("crash", state["text"] or "?", "worker died", [], state["text"] or "?")
                state["proc"].join()
                del pool[conn]
                start()
                continue
            if msg[0] == "start":
                state["text"], state["since"] = msg[1], time.monotonic()
                continue
            _, text, found, elapsed = msg
            done += 1
            state["text"] = None
            slowest.append((round(elapsed, 2), text))
            slowest = sorted(slowest)[-20:]
            if found is not None:
                record(*found, text)
            if done % 100 == 0:
                save()
                rate = done / (time.monotonic() - began)
                print(f"{done} programs, {len(findings)} distinct findings, {rate:.1f}/s",
                      flush=True)
        now = time.monotonic()
        for conn, state in list(pool.items()):
            if state["text"] is not None and now - state["since"] > timeout:
                record("hang", state["text"], f"no answer after {timeout:.0f} s", [],
                       state["text"])
                done += 1
                state["proc"].kill()
                state["proc"].join()
                del pool[conn]
                start()
    for state in pool.values():
        state["proc"].kill()
    save()
    return findings


def minimise(text: str, key: str, torch) -> str:
    """The program without every statement it does not need to fail the same way."""
    statements = text.split("\n")
    changed = True
    while changed and len(statements) > 1:
        changed = False
        for k in range(len(statements)):
            trial = statements[:k] + statements[k + 1:]
            try:
                f = first_finding(Program(tuple(trial)), torch=torch)
            except Exception:  # noqa: BLE001 - a trial that breaks the harness is no smaller
                f = None
            if f is not None and finding_key(f) == key:
                statements, changed = trial, True
                break
    return "\n".join(statements)


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="The long fuzz hunt of issue #13.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hunt")
    h.add_argument("--programs", type=int, default=5000)
    h.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    h.add_argument("--timeout", type=float, default=60.0)
    h.add_argument("--out", type=Path, default=Path("fuzz-findings.json"))
    h.add_argument("--hazards", action="store_true",
                   help="huge view sizes too (expand, as_strided): hangs become findings")
    h.add_argument("--images-every", type=int, default=10,
                   help="export png and pdf for every Nth program (0: never)")
    m = sub.add_parser("minimise")
    m.add_argument("findings", type=Path)
    args = parser.parse_args(argv)
    if args.cmd == "hunt":
        found = hunt(args.programs, args.workers, args.timeout, args.out, args.hazards,
                     args.images_every)
        print(f"{len(found)} distinct findings; details in {args.out}")
        return
    torch = _torch_or_none()
    data = json.loads(args.findings.read_text())
    for key, entry in sorted(data["findings"].items()):
        if entry["check"] in ("hang", "crash", "harness"):
            entry["minimal"] = entry["program"]
        else:
            entry["minimal"] = minimise(entry["program"], key, torch)
        print(f"{entry['count']:5} {key}\n      {entry['minimal']!r}", flush=True)
    args.findings.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
