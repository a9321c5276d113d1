"""tidx's command line: options -> run -> render.  No engine logic, no drawing code.

Exit codes: 0 done; 1 a statement raised a PyTorch error (the trace up to the
failing step is still shown); 2 usage errors and input tidx refuses; 3 a bug in
tidx itself.  Every error is one line, never a traceback.
"""

from __future__ import annotations

import math
import os
import signal
import sys
from typing import NoReturn

import click

#: What ``explain --format`` prints; ``export`` writes these and the images too.
FORMATS = ("tree", "json", "mermaid", "dot", "markdown", "gdb")
LANGS = ("en", "zh")  # tracer.i18n.LANGS, without importing the tracer to build the CLI
EXPORT_FORMATS = ("svg", "png", "pdf", "dot", "mermaid", "markdown", "json", "html", "gdb",
                  "gif")
DIAGRAMS = ("sequence", "calls")
#: --cpu-capability's values: ATEN_CPU_CAPABILITY's (engine.core.capability.ENV_VALUES)
CAPABILITIES = ("default", "avx2", "avx512")


#: How to report a bug in tidx itself (the one line an internal error prints).
REPORT = "a bug in tidx, please report it with the command that caused it"


class OneLine(click.ClickException):
    """An error tidx ends with: one line on stderr, ``tidx: <message>``."""

    def show(self, file=None) -> None:
        from tracer.render.visible import visible

        # the message may quote the user's text: one line, its control characters shown
        click.echo(f"tidx: {visible(self.format_message(), newlines=False)}", file=file,
                   err=True)


class TidxBug(OneLine):
    exit_code = 3


class Refused(OneLine):
    """Something tidx cannot do as asked (input it refuses, an unwritable file, a missing
    renderer): exit 2."""

    exit_code = 2


def _one_line(exc: click.ClickException) -> OneLine:
    """click's own errors in tidx's one-line form: the usage block click prints above a
    UsageError becomes a pointer to the command's help."""
    message = exc.format_message()
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        message += f" (see '{exc.ctx.command_path} -h')"
    out = OneLine(message)
    out.exit_code = exc.exit_code
    return out


def _closed_pipe(ctx: click.Context) -> NoReturn:
    """The reader stopped reading (tidx ... | head): nothing more to say, and nothing more
    to flush; end as a process killed by SIGPIPE ends (the README's 141)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):     # no file descriptor (captured output)
        pass
    ctx.exit(128 + signal.SIGPIPE)


def _console(width: int | None = None, **options):
    """A rich Console on stdout.  rich ends the process with exit 1 on a closed pipe
    (Console.on_broken_pipe); here the BrokenPipeError reaches the group's guard, which
    ends it as SIGPIPE would.  User text is shown as data: its control characters as
    their escapes (tracer.render.console)."""
    from tracer.render.console import console as safe_console

    console = safe_console(width=width, no_color="NO_COLOR" in os.environ or None,
                           **options)

    def broken_pipe() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    # rich calls this hook on EPIPE; replaced per console (rich says: override it)
    console.on_broken_pipe = broken_pipe  # type: ignore[method-assign]
    return console


class GuardedGroup(click.Group):
    """The command group, with one guard around every command, renderers and exports
    included: every error is one line (``tidx: ...``) with its exit code; a closed pipe
    ends as SIGPIPE does; anything unexpected is tidx's fault, said in one line (exit 3),
    never a traceback."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # the group's own options (--version, --help, an unknown one)
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            _closed_pipe(ctx)
        except (OneLine, click.exceptions.Exit, click.Abort):
            raise
        except click.ClickException as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx: click.Context):
        # a terminal or pipe that cannot encode a character (PYTHONIOENCODING=ascii, a
        # C locale's ASCII) shows '?' for it, as a degraded output, not a failure
        for stream in (sys.stdout, sys.stderr):
            if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="replace")
        try:
            return super().invoke(ctx)
        except (OneLine, click.exceptions.Exit):
            raise
        except (KeyboardInterrupt, click.Abort):
            # Ctrl-C: the user stopping tidx, neither a PyTorch error (1, click's
            # "Aborted!") nor a bug; end as a process SIGINT stops ends (130)
            click.echo("tidx: interrupted", err=True)
            ctx.exit(128 + signal.SIGINT)
        except click.ClickException as exc:
            raise _one_line(exc) from None
        except BrokenPipeError:
            _closed_pipe(ctx)
        except RecursionError:
            raise Refused("statement nested too deeply") from None
        except Exception as exc:  # noqa: BLE001 - a bug in tidx: one line, distinct code
            raise TidxBug(f"internal error ({REPORT}): {type(exc).__name__}: {exc}") from None


def _parse_bytes(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """``--max-bytes 2GiB`` / ``512MiB`` / ``1000000``."""
    if value is None:
        return None
    text = value.strip().lower().replace(" ", "")
    scale = 1
    for suffix, mult in (("gib", 2**30), ("mib", 2**20), ("kib", 2**10), ("gb", 10**9),
                         ("mb", 10**6), ("kb", 10**3), ("b", 1)):
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)], mult
            break
    try:
        number = float(text)
    except ValueError:
        raise click.BadParameter(f"expected a size like 1GiB or 500000000, got {value!r}")
    if not math.isfinite(number) or number * scale >= 2**63:
        raise click.BadParameter(f"expected a finite size below 8 EiB, got {value!r}")
    if number * scale < 1:
        raise click.BadParameter(f"must be at least one byte, got {value!r}")
    return int(number * scale)


#: torch.manual_seed's range: an int64 or a uint64 (a negative seed is taken modulo 2**64).
SEEDS = (-2**63, 2**64 - 1)


def _parse_seed(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--seed``: what torch.manual_seed accepts; anything wider torch refuses (its
    ValueError), so tidx refuses it too rather than seed with something else."""
    if value is not None and not SEEDS[0] <= value <= SEEDS[1]:
        raise click.BadParameter(f"{value} is not a seed torch.manual_seed takes (-2**63 to "
                                 "2**64 - 1; torch: ValueError: Overflow when unpacking long "
                                 "long)")
    return value


def seed_option(text: str):
    """``--seed``, checked as torch.manual_seed checks it."""
    return click.option("--seed", type=int, default=None, callback=_parse_seed, help=text)


#: Narrower than this, the tree's columns (layer, step, values) cannot be laid out: a
#: --width below it is refused rather than printing nothing (0) or a column of letters.
MIN_WIDTH = 20
WIDTH = click.IntRange(min=MIN_WIDTH)


def width_option(text: str):
    """``--width``: at least MIN_WIDTH columns."""
    return click.option("--width", type=WIDTH, default=None,
                        help=f"{text} (at least {MIN_WIDTH} columns; default: the terminal's).")


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tidx", prog_name="tidx")
def main() -> None:
    """See what PyTorch does inside: run a statement on tidx's engine, which follows
    PyTorch's C++ path, and draw every step."""


def capability_option(fn):
    """``--cpu-capability``: which build of torch's vectorised kernels to replay."""
    return click.option("--cpu-capability", type=click.Choice(CAPABILITIES), default=None,
                        help="The CPU capability whose kernel builds to replay, as "
                             "ATEN_CPU_CAPABILITY picks them in torch (default: "
                             "ATEN_CPU_CAPABILITY if set, else the best this CPU runs). "
                             "One this CPU lacks is simulated.")(fn)


def statement_options(fn):
    """STATEMENTS or -f FILE, and how to run them: shared by every command that runs."""
    fn = capability_option(fn)
    fn = click.option("--max-bytes", callback=_parse_bytes, default=None,
                      help="Memory limit checked before any allocation (default 1GiB).")(fn)
    fn = seed_option("Seed the random generator (as torch.manual_seed). Default: random, "
                     "like torch.")(fn)
    fn = click.option("-f", "--file", "source_file", type=click.File("r", encoding="utf-8"),
                      help="Read statements from a file ('-' for stdin); `import torch` lines "
                           "and comments are fine, so the same file runs under real "
                           "PyTorch.")(fn)
    return click.argument("statements", required=False)(fn)


def lang_option(fn):
    """``--lang``: the language of notes, headings and error explanations."""
    return click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
                        help="Language of the notes, headings and error explanations; "
                             "zh shows Chinese beside the English (C++ names stay as "
                             "they are).")(fn)


def view_options(fn):
    """What to show: the filters every format honours, which diagram, which language."""
    fn = lang_option(fn)
    fn = click.option("--diagram", type=click.Choice(DIAGRAMS), default="sequence",
                      show_default=True,
                      help="For dot/mermaid/images: the sequence diagram, or the nested "
                           "calls as a tree.")(fn)
    fn = click.option("--no-values", is_flag=True,
                      help="Step names only: hide every step's key values and result.")(fn)
    fn = click.option("--ops", "ops_only", is_flag=True,
                      help="Only aten operators, nested as torch.profiler shows them.")(fn)
    fn = click.option("--depth", type=click.IntRange(min=1), default=None,
                      help="Show the call tree down to N levels.")(fn)
    fn = click.option("--full", is_flag=True,
                      help="Every step with its note and source (the default tree is the "
                           "lecture view: the steps the seeds teach, one line each, the "
                           "rest folded; --layers, --ops and --depth show the full tree "
                           "filtered).")(fn)
    return click.option("--layers", default=None, metavar="LIST",
                        help="Comma-separated layers to show: python, binding, indexing, "
                             "dispatcher, kernel, memory, rng.")(fn)


def _statements(statements: str | None, source_file) -> str:
    if (statements is None) == (source_file is None):
        raise click.UsageError("give STATEMENTS or -f FILE (one of them)")
    if source_file is not None:
        return _read_limited(source_file, source_file.name)
    if statements == "-":
        return _read_limited(click.get_text_stream("stdin"), "stdin")
    assert statements is not None       # exactly one of the two was given
    return _utf8(statements, "STATEMENTS")


def _read_limited(stream, name: str) -> str:
    """At most one character more than tidx takes (engine.interpreter.statements'
    MAX_SOURCE), so -f /dev/zero or an endless pipe is refused after 100,001
    characters, not read whole first."""
    from engine.interpreter.statements import MAX_SOURCE

    try:
        text = stream.read(MAX_SOURCE + 1)
    except UnicodeDecodeError:
        raise click.UsageError(f"{name} is not UTF-8 text") from None
    if len(text) > MAX_SOURCE:
        raise click.UsageError(f"{name} is longer than {MAX_SOURCE} characters; tidx takes "
                               f"at most {MAX_SOURCE}")
    return text


def _utf8(text: str, where: str) -> str:
    """Bytes that were not UTF-8 reach Python's argv as lone surrogates: refuse them here,
    not when the trace is printed."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise click.UsageError(f"{where} is not UTF-8 text") from None
    return text


def _explained(message: str, lang: str, context: dict | None = None) -> str:
    """``message`` and, under it, the line explaining it in plain words (``context``:
    where the trace says it happened, :func:`tracer.i18n.error_context`)."""
    from tracer.i18n import explain_error

    why = explain_error(message, lang, context)
    return f"{message}\n→ {why}" if why else message


def _run(statements: str | None, source_file, seed: int | None,
         max_bytes: int | None, text: str | None = None, lang: str = "en",
         cpu_capability: str | None = None) -> dict:
    from engine.interpreter import session
    from engine.core.errors import Refused as EngineRefused

    if text is None:
        text = _statements(statements, source_file)
    try:
        doc = session.run(text, seed=seed, max_bytes=max_bytes, cpu_capability=cpu_capability)
    except EngineRefused as exc:
        raise Refused(_explained(str(exc), lang)) from None
    warning = (doc.get("cpu") or {}).get("warning")
    if warning:     # torch's TORCH_WARN for an ATEN_CPU_CAPABILITY it ignores
        click.echo(f"tidx: UserWarning: {warning}", err=True)
    return doc


def _filtered(doc: dict, layers: str | None, depth: int | None, ops_only: bool,
              no_values: bool) -> dict:
    from tracer import filters

    try:
        keep = filters.parse_layers(layers) if layers is not None else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--layers") from None
    return filters.apply(doc, keep_layers=keep, max_depth=depth, ops_only=ops_only,
                         values=not no_values)


def _lecture(full: bool, layers: str | None, depth: int | None, ops_only: bool) -> bool:
    """Whether the tree is the lecture view: unless --full or a filter asks for steps."""
    return not full and layers is None and depth is None and not ops_only


def _exit_if_raised(doc: dict, lang: str = "en") -> None:
    # an error the lesson caught itself (try/except ... print(e)) is not a failure
    failed = next((st for st in doc["statements"]
                   if st["error"] and not st["error"].get("caught")), None)
    if failed is not None:
        from tracer.i18n import error_context
        from tracer.render.visible import visible

        err = failed["error"]
        sys.stdout.flush()  # the trace first, then the error line, in a terminal too
        # (PyTorch's message may quote the user's text: its control characters shown)
        click.echo(f"tidx: {failed['source']!r} raised {err['type']}: "
                   f"{visible(_explained(err['message'], lang, error_context(failed)))}",
                   err=True)
        sys.exit(1)


@main.command()
@statement_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="tree", show_default=True,
              help="How to draw the trace.")
@view_options
@click.option("--no-notes", is_flag=True, help="Hide the one-sentence note of each step.")
@width_option("Terminal width for the tree")
@click.option("--verify", is_flag=True,
              help="Also run the statements in real PyTorch (if installed) and show what "
                   "matches.")
def explain(statements: str | None, source_file, fmt: str, seed: int | None,
            max_bytes: int | None, layers: str | None, depth: int | None, full: bool,
            ops_only: bool, no_values: bool, diagram: str, lang: str, no_notes: bool,
            width: int | None, verify: bool, cpu_capability: str | None) -> None:
    """Run STATEMENTS (PyTorch syntax, ';' or newlines between them; '-' reads stdin)
    and show every step.

    \b
    Default names from the seeds are ready to use: t, rows, cols, a, b, x, ...
    Example:  tidx explain "t[rows, cols] = 10"
    """
    text = _statements(statements, source_file)
    doc = _run(None, None, seed, max_bytes, text=text, lang=lang, cpu_capability=cpu_capability)
    _show(doc, fmt, layers, depth, ops_only, no_values, diagram, no_notes, width,
          text if verify else None, lang, lecture=_lecture(full, layers, depth, ops_only))


def _verify(text: str, full: dict, width: int | None, lang: str = "en") -> None:
    """Run the statements in real PyTorch and print the comparison table."""
    import dataclasses

    from engine.interpreter import verify as V
    from tracer.render import verify as render_verify

    from tracer import i18n
    from tracer.render import progress

    why = V.cannot_run(full)
    if why is not None:
        click.echo(i18n.text("ui.verify.simulated", lang, why=why), err=True)
        return
    with progress.bar(i18n.text("ui.export.progress.verify", lang), None):
        rows = V.verify(text, full)
    if rows is None:
        click.echo("--verify: PyTorch is not installed here (pip install torch==2.13.0); "
                   "nothing was compared.", err=True)
        return
    console = _console(width)
    console.print(render_verify.render([dataclasses.asdict(r) for r in rows], V.CHECKS,
                                       V.torch_version() or "?", lang=lang,
                                       capability=(full.get("cpu") or {}).get("capability",
                                                                               "?")))


def _show(full: dict, fmt: str, layers: str | None, depth: int | None, ops_only: bool,
          no_values: bool, diagram: str, no_notes: bool, width: int | None,
          verify_text: str | None = None, lang: str = "en", lecture: bool = False) -> None:
    """Print a run in one of the stdout formats (and the --verify table), then exit 1 if
    a statement raised.  ``lecture``: the tree is the lecture view (tracer.lecture)."""
    doc = _filtered(full, layers, depth, ops_only, no_values)
    if fmt == "tree":
        from tracer import lecture as L
        from tracer.render import tree as render_tree
        console = _console(width, soft_wrap=False)
        if lecture:
            doc = L.fold(doc)
        console.print(render_tree.render(doc, notes=not no_notes, full=full, lang=lang,
                                         brief=lecture))
    else:
        from tracer.render import export
        # the dot source draws the lecture view's steps as export's images do; JSON,
        # mermaid, markdown and gdb are the whole trace
        click.echo(export.content(doc, fmt, diagram, lang=lang, lecture=lecture).decode(),
                   nl=False)
    if verify_text is not None:
        _verify(verify_text, full, width, lang)
    _exit_if_raised(doc, lang)


@main.command("export")
@statement_options
@click.option("-o", "--output", required=True, metavar="FILE",
              help="Where to write; the suffix picks the format: .svg .png .pdf .dot/.gv "
                   ".mmd .md .json .html .gdb .gif. Several statements make a PDF of one "
                   "page each, or one SVG/PNG file each, numbered beside FILE (out.svg -> "
                   "out-1.svg, out-2.svg, ...). '-' writes to standard output (with "
                   "--format); a link, a directory, a FIFO or a device is refused.")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default=None,
              help="Override the format the suffix implies.")
@click.option("--width-px", type=click.IntRange(min=200, max=20000), default=1920,
              show_default=True, help="Width of a PNG in pixels (the drawing is scaled to it).")
@view_options
def export_cmd(statements: str | None, source_file, output: str, fmt: str | None,
               width_px: int, seed: int | None, max_bytes: int | None,
               layers: str | None, depth: int | None, full: bool, ops_only: bool,
               no_values: bool, diagram: str, lang: str, cpu_capability: str | None) -> None:
    """Run STATEMENTS and write the trace to FILE as a diagram, page or data.

    \b
    Example:  tidx export "t[rows, cols] = 10" -o indexing.svg
              tidx export -f lesson.py -o lesson.pdf    (one page per statement)
    SVG works without Graphviz installed; PNG and PDF need its `dot` program.
    """
    from tracer import i18n
    from tracer.render import export, progress

    stdout = export.to_stdout(output)
    try:
        fmt = export.format_for(output, fmt)
    except export.ExportError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        if stdout:
            export.check_stdout(fmt, terminal=click.get_binary_stream("stdout").isatty())
        else:   # before anything runs: a FIFO, a link, a missing directory ...
            export.check_target(output, fmt)
    except export.ExportError as exc:
        raise Refused(str(exc)) from None
    with progress.bar(i18n.text("ui.export.progress.run", lang), None):
        ran = _run(statements, source_file, seed, max_bytes, lang=lang,
                   cpu_capability=cpu_capability)
    # (images and the HTML stepper draw the lecture view's steps unless --full or a
    # filter asks for steps, as the tree does)
    doc = _filtered(ran, layers, depth, ops_only, no_values)
    count = len(export.statements(doc)) if fmt in export.IMAGES else 1
    if stdout and len(export.paths(output, fmt, count)) > 1:
        raise Refused(f"-o - writes one file, and {fmt.upper()} of {count} statements is "
                      f"{count} files (one per statement): give a file name, or export "
                      ".pdf or .html")
    try:
        # every file is rendered before any is written: all of them, or none
        with progress.bar(i18n.text("ui.export.progress.render", lang, fmt=fmt.upper()),
                          count) as tick:
            files, pages = export.render_all(doc, output, fmt, diagram, lang=lang,
                                             width_px=width_px, tick=tick, full=ran,
                                             lecture=_lecture(full, layers, depth,
                                                              ops_only))
        if not stdout:
            export.write_all(files)
    except export.ExportError as exc:
        raise Refused(str(exc)) from None
    if stdout:
        out = click.get_binary_stream("stdout")
        out.write(files[0][1])
        out.flush()
        said = i18n.both("ui.export.wrote", lang, path="standard output", fmt=fmt)
    elif len(files) > 1:
        said = i18n.both("ui.export.wrote_files", lang, count=len(files), first=files[0][0],
                         last=files[-1][0], fmt=fmt)
    elif pages > 1:
        said = i18n.both("ui.export.wrote_pages", lang, path=output, fmt=fmt, count=pages)
    else:
        said = i18n.both("ui.export.wrote", lang, path=output, fmt=fmt)
    click.echo(f"tidx: {said}", err=True)
    _exit_if_raised(doc, lang)


@main.command()
@click.argument("a")
@click.argument("b")
@seed_option("Seed the random generator (as torch.manual_seed) for both.")
@width_option("Terminal width")
@lang_option
@capability_option
def compare(a: str, b: str, seed: int | None, width: int | None, lang: str,
            cpu_capability: str | None) -> None:
    """Run statements A and B separately and show them side by side: view or copy,
    shape, strides, storage offset, dtype, bytes allocated, aten operators, each one's
    storage picture, and where their paths part.

    \b
    Example:  tidx compare "y = t[1:3]" "y = t[[1, 2]]"
    """
    from tracer.render import compare as render_compare

    doc_a = _run(None, None, seed, None, text=_utf8(a, "A"), lang=lang,
                 cpu_capability=cpu_capability)
    doc_b = _run(None, None, seed, None, text=_utf8(b, "B"), lang=lang,
                 cpu_capability=cpu_capability)
    console = _console(width)
    console.print(render_compare.render(doc_a, doc_b, lang=lang))


@main.command()
@statement_options
@width_option("Terminal width")
@lang_option
@click.option("--only", type=click.Choice(["seed"]), default=None,
              help="seed: only the steps the seeds teach (the lecture view's; the "
                   "default unless --full, --layers or --ops).")
@click.option("--full", is_flag=True, help="Every step, the folded ones too.")
@click.option("--layers", default=None, metavar="LIST",
              help="Comma-separated layers whose steps to show: python, binding, indexing, "
                   "dispatcher, kernel, memory, rng.")
@click.option("--ops", "ops_only", is_flag=True, help="Only the aten operators' steps.")
@click.option("--jump", "--start", "start", type=click.IntRange(min=1), default=None,
              help="Open at step N (printed without a terminal: steps N to the end).")
def step(statements: str | None, source_file, seed: int | None, max_bytes: int | None,
         width: int | None, lang: str, only: str | None, full: bool, layers: str | None,
         ops_only: bool, start: int | None, cpu_capability: str | None) -> None:
    """Walk through the steps of STATEMENTS one at a time, each with the storage it
    touched as it was before and after it. Keys: n/space/enter next, p/b back, g and a
    number to jump to that step, q quit. Without a terminal every step is printed."""
    wanted = _layers(layers)
    doc = _run(statements, source_file, seed, max_bytes, lang=lang,
               cpu_capability=cpu_capability)
    _step_through(doc, width, lang, (_only(only, full, layers, ops_only), wanted, ops_only),
                  start)


def _only(only: str | None, full: bool, layers: str | None, ops_only: bool) -> str | None:
    """``tidx step``'s --only: the lecture view's steps ("seed") unless --full or a filter
    asks for other steps, as explain's tree."""
    if only is not None:
        return only
    return "seed" if _lecture(full, layers, None, ops_only) else None


def _layers(layers: str | None) -> list[str] | None:
    """--layers as a list of layer names (a usage error names the unknown one)."""
    from tracer import filters

    try:
        return filters.parse_layers(layers) if layers is not None else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--layers") from None


def _step_through(full: dict, width: int | None, lang: str = "en",
                  only: tuple = (None, None, False), start: int | None = None) -> None:
    """Walk ``full`` step by step; ``only``: --only, the --layers list and --ops."""
    from tracer import i18n
    from tracer.render import step as render_step

    flat = render_step.steps(full, render_step.only(full, *only))
    console = _console(width)
    if not flat:
        click.echo("no steps to show")
        return
    if start is not None and start > len(flat):
        raise click.BadParameter(i18n.text("ui.step.no_such_step", lang, number=start,
                                           total=len(flat)), param_hint="--jump")
    k = 0 if start is None else start - 1
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if not interactive:
        for k in range(k, len(flat)):
            console.print(render_step.render(flat, k, lang=lang))
            console.print()
        _exit_if_raised(full, lang)
        return
    notice = None
    while True:
        console.clear()
        console.print(render_step.render(flat, k, interactive=True, lang=lang))
        if notice:
            console.print(notice, style="red", markup=False)
            notice = None
        try:
            key = click.getchar()
        except (EOFError, KeyboardInterrupt):
            # click raises these for Ctrl-D and Ctrl-C: the user quitting, not tidx
            # failing (exit 3) nor a PyTorch error (click's "Aborted!" exits 1)
            key = "q"
        if key in ("q", "Q", "\x1b", "\x03"):
            break
        if key in ("p", "b", "\x1b[D", "k"):
            k = max(0, k - 1)
        elif key in ("n", " ", "\r", "\n", "\x1b[C", "j"):
            if k == len(flat) - 1:
                break
            k += 1
        elif key in ("g", "G"):
            k, notice = _ask_step(console, k, len(flat), lang)
    _exit_if_raised(full, lang)


def _ask_step(console, k: int, total: int, lang: str) -> tuple[int, str | None]:
    """Read a step number after ``g`` (digits, then enter): that step, or ``k`` and a
    line saying why when the number is not a step (Escape or Ctrl-C: ``k``, silently)."""
    from tracer import i18n

    console.print(i18n.text("ui.step.jump", lang), end="")
    digits = ""
    done = False
    while not done:
        try:
            keys = click.getchar()
        except (EOFError, KeyboardInterrupt):
            return k, None
        if keys.startswith("\x1b"):
            return k, None
        for key in keys:        # one read can hold several keys ("5" and enter)
            if key in ("\r", "\n"):
                done = True
                break
            if key in ("\x7f", "\b"):
                digits = digits[:-1]
            elif key in "0123456789":       # not str.isdigit: '²' is a digit int() refuses
                digits += key
                console.print(key, end="")
    if not digits:
        return k, None
    number = digits.lstrip("0") or "0"      # as typed, however long (int() stops at 4300)
    if len(number) <= len(str(total)) and 1 <= int(number) <= total:
        return int(number) - 1, None
    return k, i18n.text("ui.step.no_such_step", lang, number=number, total=total)


@main.command()
def lessons() -> None:
    """List the lessons: one per seed topic, each a file that also runs under PyTorch."""
    from engine.interpreter import lessons as L

    for lesson in L.available():
        click.echo(f"{lesson.name:<40} {lesson.title}")


@main.command()
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="tree", show_default=True,
              help="How to draw the trace.")
@seed_option("Seed the random generator (as torch.manual_seed).")
@view_options
@click.option("--no-notes", is_flag=True, help="Hide the one-sentence note of each step.")
@width_option("Terminal width for the tree")
@click.option("--source", "show_source", is_flag=True,
              help="Print the lesson's file instead of running it.")
@click.option("--verify", is_flag=True,
              help="Also run the lesson in real PyTorch (if installed) and show what matches.")
@click.option("--step", "step_mode", is_flag=True,
              help="Walk through the lesson one step at a time.")
@capability_option
def lesson(name: str, fmt: str, seed: int | None, layers: str | None, depth: int | None,
           full: bool, ops_only: bool, no_values: bool, diagram: str, lang: str,
           no_notes: bool, width: int | None, show_source: bool, verify: bool,
           step_mode: bool, cpu_capability: str | None) -> None:
    """Run the lesson NAME (see `tidx lessons`) and show every step."""
    from engine.interpreter import lessons as L
    from engine.core.errors import Refused as EngineRefused

    try:
        found = L.load(name)
    except EngineRefused as exc:
        raise Refused(str(exc)) from None
    if show_source:
        click.echo(found.text, nl=False)
        return
    doc = _run(None, None, seed, None, text=found.text, lang=lang,
               cpu_capability=cpu_capability)
    if step_mode:   # the filters walk the steps they keep (--full: every step anyway)
        _step_through(doc, width, lang, (_only(None, full, layers, ops_only), _layers(layers),
                                         ops_only))
        return
    _show(doc, fmt, layers, depth, ops_only, no_values, diagram, no_notes, width,
          found.text if verify else None, lang, lecture=_lecture(full, layers, depth,
                                                                 ops_only))


if __name__ == "__main__":  # pragma: no cover
    main()
