"""``--format gdb``: a gdb command file that stops in libtorch at the steps tidx drew.

Run under gdb, the same program in real PyTorch prints ``tidx step N: NAME`` at every
step the binary takes, where N is the step's number in ``tidx step``, the HTML stepper
and the GIF (tracer/numbering.py: the lecture's steps, or with ``--full`` every step;
a step the lecture folds prints ``tidx step N, folded: NAME``, N the step whose line
holds it): the trace proven against the binary.  Which steps are
functions gdb can stop in comes from each event's ``libtorch`` field (tracer/symbols.py);
the others are listed as comments saying why not.

How the file works, and why:

* every breakpoint starts disabled but the first: the statement's own Python binding
  (``THPVariable_randn``, ``THPVariable_setitem``), whose commands enable the rest, so
  the thousands of calls ``import torch`` and the default tensors make are not counted;
* ``set breakpoint pending on``: libtorch is not loaded when gdb reads the file;
* a call from one library into another passes a PLT stub that gdb also names after the
  function (``at::native::randn@plt``); those locations are disabled when arming, else
  every such call would stop twice;
* a function several steps call (``aten::select`` twice for ``t[1, 2]``) gets one
  breakpoint per step, each with a condition on the statement running and on a
  counter of that function's calls in it, so its first call prints the first step
  and its second the second (:func:`_breakpoints`);
* arguments are read from the x86-64 registers at the function's entry (a release
  build has no debug information to name them), only for the functions whose
  registers were checked against the wheel, and only on x86-64.

Nothing of the user's text reaches a gdb command: statements appear only in comment
lines (each source line on its own, its control characters written as escapes by
:func:`comment`, so no newline or carriage return ends the comment early) and in the
shell-quoted command of the header, and step names are reduced to plain characters
before they go into a ``printf``.
"""

from __future__ import annotations

import re
import shlex
from tracer import numbering, symbols
from tracer.document import Document, Libtorch, walk
from tracer.render.visible import visible

#: Arguments worth seeing, per gdb location: (label, how to print, registers).  A
#: function returning a Tensor by value takes the address of its result in %rdi, so
#: its arguments start at %rsi; an ``IntArrayRef`` is two registers (data, length).
ARGS: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "at::native::randn": (("size", "array", ("$rsi", "$rdx")),),
    "at::native::empty_cpu": (("size", "array", ("$rsi", "$rdx")),),
    "at::detail::empty_generic": (("size", "array", ("$rsi", "$rdx")),),
    "at::detail::check_size_nonnegative": (("size", "array", ("$rdi", "$rsi")),),
    "at::detail::computeStorageNbytesContiguous": (
        ("sizes", "array", ("$rdi", "$rsi")), ("itemsize", "long", ("$rdx",))),
    # DataPtr allocate(size_t nbytes) const: result in %rdi, this in %rsi
    "c10::DefaultCPUAllocator::allocate": (("nbytes", "long", ("$rdx",)),),
    "at::native::normal_": (("mean", "double", ("$xmm0.v2_double[0]",)),
                            ("std", "double", ("$xmm1.v2_double[0]",))),
    "at::native::select_symint": (("dim", "long", ("$rdx",)),),
}

#: The function that seeds the CPU generator (torch.manual_seed's step).
SET_SEED = "at::CPUGeneratorImpl::set_current_seed"

#: An array longer than this is a misread register, not a tensor's sizes.
MAX_DIMS = 16

_PLAIN = re.compile(r"[^A-Za-z0-9_:.,<>()\[\] =+*&~-]")
_LOCATION = re.compile(r"^[A-Za-z0-9_:<>() ,*&~]+$")

_SKIP_PLT = """\
python
import re as _re

def tidx_skip_plt():
    # disable the PLT-stub locations ('...@plt'): the function itself comes next
    listing = gdb.execute("info breakpoints", to_string=True)
    for line in listing.splitlines():
        found = _re.match(r"^(\\d+\\.\\d+)\\s.*@plt>", line)
        if found:
            gdb.execute("disable " + found.group(1))
end
"""

_WHY = {
    symbols.PYTHON: "Python code (pdb, not gdb)",
    symbols.INLINED: "inlined: {function} is compiled into {into}",
    symbols.PART: "part of {into}, not a call of its own",
    symbols.UNMAPPED: "not matched to a function of libtorch 2.13 by tidx",
}


def plain(text: str) -> str:
    """A step name safe inside a gdb ``printf`` string and a comment.

    >>> plain('aten::select'), plain('a "b" %s\\\\n')
    ('aten::select', 'a ?b? ?s?n')
    """
    return _PLAIN.sub("?", text)[:120]


def program(doc: Document) -> list[str]:
    """The traced statements as a program real PyTorch runs: ``import torch``, the
    seed, the default names the statements use, then the statements; a statement
    that raised is kept inside ``try`` so the run reaches its end."""
    lines = ["import torch"]
    seed = doc.run.seed if doc.run is not None else None
    if seed is not None and not _seeds_first(doc):
        lines.append(f"torch.manual_seed({int(seed)})")
    for st in doc.statements:
        defaults = st.session.defaults if st.session is not None else {}
        for name, made in defaults.items():
            lines.append(f"{name} = {made.source}")
    for st in doc.statements:
        # (split at newlines only, as Python and gdb read lines: a form feed or U+2028
        # inside a string literal stays in its line, written as an escape)
        source = (st.source or "").split("\n")
        if st.error is not None:
            lines.append("try:")
            lines += ["    " + line for line in source]
            lines += ["except Exception as error:", "    print(repr(error))"]
        else:
            lines += source
    return lines


def _seeds_first(doc: Document) -> bool:
    """Whether the statements seed the generator before they draw from it (then the
    program needs no seed of its own, whose call would be counted as theirs)."""
    for st in doc.statements:
        for _depth, ev in walk(st.events):
            if ev.layer == "rng":
                # by the function it runs, not the step's name
                return ev.libtorch.function == SET_SEED
    return False


def one_line(doc: Document) -> str | None:
    """The program as one ``python -c`` argument, when ``;`` can join its lines: no
    statement spans lines or needs a ``try``, nothing unprintable."""
    if any("\n" in (st.source or "") or st.error is not None for st in doc.statements):
        return None
    lines = program(doc)
    return "; ".join(lines) if all(line.isprintable() for line in lines) else None


def command(doc: Document, gdb_file: str = "tidx.gdb", *, batch: bool = False,
            python: str = "python") -> str | None:
    """The shell command that runs the program under gdb with ``gdb_file``, or None
    when the program does not fit on one line (then it is in the header to save)."""
    code = one_line(doc)
    if code is None:
        return None
    return (f"gdb {'-batch ' if batch else ''}-x {shlex.quote(gdb_file)} --args "
            f"{shlex.quote(python)} -c {shlex.quote(code)}")


def comment(text: str) -> str:
    r"""One line of text as it may stand after a ``#``: nothing that ends the line or
    acts on a terminal, each such character written as its Python escape (the same
    character again inside a string literal, so a program listed in comments still
    reads as the program); tabs stay (a Python line's indent).

    >>> print(comment("x = 1\nshell touch /tmp/pwned\r \u202e"))
    x = 1\nshell touch /tmp/pwned\r \u202e
    """
    return "\t".join(visible(part, newlines=False) for part in text.split("\t"))


def _location(info: Libtorch) -> str | None:
    loc = info.function
    return loc if info.breakable and loc and _LOCATION.match(loc) else None


def _args_commands(location: str) -> list[str]:
    out = []
    for label, how, regs in ARGS.get(location, ()):
        if how == "array":
            data, length = regs
            out += [f'    printf "    {label} = "',
                    f"    if {length} > 0 && {length} <= {MAX_DIMS}",
                    f"      output *(long *){data}@{length}",
                    "    else",
                    '      printf "{}"',
                    "    end",
                    '    printf "\\n"']
        elif how == "double":
            out.append(f'    printf "    {label} = %g\\n", {regs[0]}')
        else:
            out.append(f'    printf "    {label} = %ld\\n", (long) {regs[0]}')
    if not out:
        return []
    # only where the registers are x86-64's: elsewhere $rdi is void
    return ["  if !$_isvoid($rdi)", *out, "  end"]


def _labels(doc: Document, lecture: bool) -> list[tuple[str, int]]:
    """For every recorded step in call order: how the file names it, as the views of
    the same numbering do (tracer/numbering.py), and its statement (1-based).
    ``lecture``: a step the lecture shows is ``step N``, N as in ``tidx step``; one it
    folds is ``step N, folded`` into the line of step N.  Otherwise ``step N`` as in
    ``tidx step --full``.  Every recorded step keeps its breakpoint either way: the
    calls of a function are counted across all of them."""
    out: list[tuple[str, int]] = []
    for i, places in enumerate(numbering.owners(doc, full=not lecture), 1):
        out += [(f"step {n}" if shown else f"step {n}, folded", i) for n, shown in places]
    return out


def render(doc: Document, *, lecture: bool = False) -> str:
    """The gdb command file for the trace document ``doc``; ``lecture``: its steps
    numbered as the lecture numbers them (the default of every command), else as
    ``--full`` does."""
    breaks: list[tuple[str, str, str, int]] = []   # (step label, name, location, statement)
    skipped: list[tuple[str, str, str]] = []       # (step label, name, why)
    labels = iter(_labels(doc, lecture))
    for st in doc.statements:
        for _depth, ev in walk(st.events):
            label, statement = next(labels)
            info = ev.libtorch
            loc = _location(info)
            if loc:
                breaks.append((label, ev.name, loc, statement))
            else:
                skipped.append((label, ev.name,
                                _WHY.get(info.why or "", _WHY[symbols.UNMAPPED])
                                .format(function=info.function, into=info.into)))
    total = sum(1 for st in doc.statements for _ in walk(st.events))
    lines = _header(doc, total, breaks, lecture)
    lines += ["", "# Steps gdb cannot stop in (libtorch 2.13's release build):"]
    lines += [f"#   {label}: {plain(name)} -- {plain(why)}" for label, name, why in skipped]
    if not breaks:
        lines += ["", "# No step of this trace is a function of libtorch: nothing to break on.",
                  "run"]
        return "\n".join(lines) + "\n"
    lines += ["", _SKIP_PLT.rstrip(), ""]
    lines += _breakpoints(breaks)
    lines += ["", "run"]
    return "\n".join(lines) + "\n"


def _header(doc: Document, total: int, breaks: list[tuple[str, str, str, int]],
            lecture: bool) -> list[str]:
    code = program(doc)
    run = command(doc)
    lines = ["# tidx: gdb breakpoints on the C++ steps of this trace, in libtorch 2.13",
             "#"]
    lines += [f"#   >>> {comment(line)}" for st in doc.statements
              for line in (st.source or "").split("\n")]
    numbered = len(numbering.steps(doc, full=not lecture))
    counted = (f"the lecture's {numbered} and the {total - numbered} folded on their lines"
               if lecture else "every step, as 'tidx step --full' numbers them")
    lines += ["#",
              f"# {len(breaks)} of the trace's {total} step{'s' * (total != 1)} "
              f"({counted}) are functions gdb can stop in.",
              "# Each prints 'tidx step N: NAME' when the binary takes it, N as in "
              + ("'tidx step' (the lecture's steps, as the HTML stepper and the GIF number them);"
                 if lecture else "'tidx step --full' (every step);")]
    if lecture:
        lines += ["# a step the lecture folds prints 'tidx step N, folded: NAME', N the step "
                  "whose line holds it."]
    lines += ["#", "# Run it (saved as tidx.gdb) with the same program in real PyTorch 2.13:"]
    if run is not None:
        lines += [f"#   {run}",
                  f"#   {command(doc, batch=True)}    (no prompt)"]
    else:
        lines += ["#   gdb -x tidx.gdb --args python program.py",
                  "# where program.py holds these lines (without the '# | '):"]
        lines += [f"# | {comment(line)}" for line in code]
    lines += ["# 'python' must be the interpreter itself, not a shell script wrapping it",
              "# (with pyenv: $(pyenv which python))."]
    if any(st.session is not None and st.session.printed for st in doc.statements):
        lines += ["# print() formats a tensor by indexing it, calls the trace does not show:",
                  "# they print as 'another call', or as a later statement's steps."]
    lines += ["",
              "set pagination off",
              "set confirm off",
              "set auto-load off",
              "set debuginfod enabled off",
              "set breakpoint pending on",
              "set print thread-events off",
              "set print inferior-events off"]
    return lines


def _breakpoints(breaks: list[tuple[str, str, str, int]]) -> list[str]:
    """One breakpoint per step, told apart by two counters, so that a call is
    labelled with the step it is:

    * ``$tidx_statement``, the statement running: the first breakpoint of statement
      i (its entry from Python, ``THPVariable_setitem``) fires while the statement
      before it runs, and sets it to i; the others fire only while it is i;
    * per function and statement, its calls: the breakpoint of the k-th step on a
      function fires on its k-th call, and the last one also on any later call, which
      it reports as a call the trace does not show (an overload calling another, a
      step that makes several calls, a step tidx leaves out).

    Only the first statement's entry starts enabled: it arms the rest."""
    uses: dict[tuple[str, int], list[int]] = {}
    for i, (_n, _name, loc, st) in enumerate(breaks):
        uses.setdefault((loc, st), []).append(i)
    counter = {key: f"$tidx_calls_{j}" for j, key in enumerate(uses, 1)}
    entries = {st: i for i, (_n, _name, _loc, st) in reversed(list(enumerate(breaks)))}
    arming = min(entries.values())
    ordered = sorted(entries)
    previous = dict(zip(ordered, [0] + ordered[:-1]))
    lines = ["# the calls of each function in each statement (its k-th call is its k-th step),",
             "# the statement running, and whether the breakpoints are armed"]
    lines += [f"set {var} = 0" for var in counter.values()]
    lines += ["set $tidx_statement = 0", "set $tidx_armed = 0"]
    for i in [arming] + [i for i in range(len(breaks)) if i != arming]:
        label, name, loc, st = breaks[i]
        var, same = counter[(loc, st)], uses[(loc, st)]
        k, last = same.index(i), same.index(i) == len(same) - 1
        entry = entries[st] == i
        if entry:
            # only after the statement before it: an untraced call in between (print's
            # repr indexes the tensor) must not start a later statement early
            condition = f"$tidx_statement == {previous[st]}"
            what = (" -- the entry from Python: arms the other breakpoints" if i == arming
                    else f" -- statement {st}'s entry from Python")
        else:
            condition = f"$tidx_statement == {st} && {var} {'>=' if last else '=='} {k}"
            what = ""
        step = f'printf "tidx {label}: {plain(name)} ({plain(loc)})\\n"'
        # the condition with the location: gdb keeps it for a pending breakpoint
        lines += ["", f"# {label}: {plain(name)}{what}", f"break {loc} if {condition}",
                  "commands", "  silent", f"  set {var} = {var} + 1"]
        if entry:
            lines.append(f"  set $tidx_statement = {st}")
        if i == arming:
            lines += ["  if $tidx_armed == 0",
                      "    set $tidx_armed = 1",
                      "    enable $tidx_first-$tidx_last",
                      "    python tidx_skip_plt()",
                      "  end"]
        if last and not entry:
            lines += [f"  if {var} > {len(same)}",
                      f'    printf "tidx: another call of {plain(loc)} (call %d; the trace '
                      f'shows {len(same)})\\n", {var}',
                      "  else", "    " + step, "  end"]
        else:
            lines.append("  " + step)
        lines += _args_commands(loc)
        lines += ["  continue", "end",
                  "set $tidx_first = $bpnum" if i == arming else "disable $bpnum"]
    lines.append("set $tidx_last = $bpnum")
    return lines
