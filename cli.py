"""tidx's command line: options -> run -> render.  No engine logic, no drawing code.

A thin adapter over the application layer: each command's click options become one
:class:`tracer.options.Options` (:func:`options_from`),
:func:`engine.interpreter.application.run` runs the statements and
:func:`tracer.render.show.show` draws them; what is left here is the command line's
own: reading statements, exit codes, the export's files, the step walker's keys.

Exit codes: 0 done; 1 a statement raised a PyTorch error (the trace up to the
failing step is still shown); 2 usage errors and input tidx refuses; 3 a bug in
tidx itself.  Every error is one line, never a traceback.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from tracer.click_options import (WIDTH, capability_option, export_options, lang_option,
                                  layers_option, max_bytes_option, options_from, seed_option,
                                  statement_options, view_options, width_option)
from tracer.options import EXPORT_FORMATS, FORMATS, REPORT, OptionError, Options

if TYPE_CHECKING:
    from tracer.document import Document

__all__ = ["REPORT", "WIDTH", "main"]


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
    # click's exit code is its class's (a ClassVar since Click 8.5): a subclass carries it
    return type("ClickError", (OneLine,), {"exit_code": exc.exit_code})(message)


def _binary_stdout():
    """Standard output's bytes, as click.get_binary_stream("stdout") gave them (deprecated
    since Click 8.5): the stream itself when it takes bytes, else its buffer."""
    return getattr(sys.stdout, "buffer", sys.stdout)


def _closed_pipe(ctx: click.Context) -> NoReturn:
    """The reader stopped reading (tidx ... | head): nothing more to say, and nothing more
    to flush; end as a process killed by SIGPIPE ends (the README's 141)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):     # no file descriptor (captured output)
        pass
    import signal   # (here: the signal module makes its enums at import, issue #25)

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


#: click >= 8.2 raises this for ``tidx`` without a command, to print the help
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", OneLine)


class GuardedGroup(click.Group):
    """The command group, with one guard around every command, renderers and exports
    included: every error is one line (``tidx: ...``) with its exit code; a closed pipe
    ends as SIGPIPE does; anything unexpected is tidx's fault, said in one line (exit 3),
    never a traceback."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **options: Any) -> Any:
        if args is None:
            # The process's own command line (the tidx console script, python cli.py): it
            # ends with this command.  CPython's last collection, at exit, walks every
            # object the imports made (numpy's, rich's, click's, tidx's: a tenth of a cold
            # explain) for reference cycles to free in a process that is ending; frozen
            # then, they are left to the OS.  Nothing else changes: the collector runs as
            # always while the command does, atexit handlers and finalizers run, objects
            # die by reference count, stdout and stderr are flushed (issue #25).  (A
            # caller passing args, as click's CliRunner does, keeps its process as it is.)
            atexit.register(gc.freeze)
        return super().main(args, *rest, **options)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # the group's own options (--version, --help, an unknown one)
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            _closed_pipe(ctx)
        except (OneLine, click.exceptions.Exit, click.Abort, _NO_ARGS_IS_HELP):
            raise       # (``tidx`` alone: click prints the help, as --help does)
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
            import signal

            ctx.exit(128 + signal.SIGINT)
        except click.ClickException as exc:
            raise _one_line(exc) from None
        except OptionError as exc:      # Options' own check, naming the option
            raise Refused(str(exc)) from None
        except BrokenPipeError:
            _closed_pipe(ctx)
        except RecursionError:
            raise Refused("statement nested too deeply") from None
        except Exception as exc:  # noqa: BLE001 - a bug in tidx: one line, distinct code
            raise TidxBug(f"internal error ({REPORT}): {type(exc).__name__}: {exc}") from None


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tidx", prog_name="tidx")
def main() -> None:
    """See what PyTorch does inside: run a statement on tidx's engine, which follows
    PyTorch's C++ path, and draw every step."""


def _statements(statements: str | None, source_file) -> str:
    if (statements is None) == (source_file is None):
        raise click.UsageError("give STATEMENTS or -f FILE (one of them)")
    if source_file is not None:
        return _read_limited(source_file, source_file.name)
    if statements == "-":
        # click.open_file("-") is stdin, as -f - reads it (click.get_text_stream is not
        # in click 9's API)
        with click.open_file("-", "r", encoding="utf-8") as stdin:
            return _read_limited(stdin, "stdin")
    assert statements is not None       # exactly one of the two was given
    return utf8(statements, "STATEMENTS")


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


def utf8(text: str, where: str) -> str:
    """Bytes that were not UTF-8 reach Python's argv as lone surrogates: refuse them here,
    not when the trace is printed."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise click.UsageError(f"{where} is not UTF-8 text") from None
    return text


def _run(text: str, options: Options) -> "Document":
    """The application layer's run of ``text`` in a new Session (its typed document); a
    refusal in one line."""
    from engine.interpreter import application
    from tracer.render.show import explained

    try:
        doc = application.record(text, options)
    except application.Refused as exc:
        raise Refused(explained(str(exc), options.lang)) from None
    warning = doc.run.cpu.warning if doc.run is not None and doc.run.cpu is not None \
        else None
    if warning:     # torch's TORCH_WARN for an ATEN_CPU_CAPABILITY it ignores
        click.echo(f"tidx: UserWarning: {warning}", err=True)
    return doc


def _exit_if_raised(doc: "Document", lang: str = "en") -> None:
    # an error the lesson caught itself (try/except ... print(e)) is not a failure
    failed = next((st for st in doc.statements
                   if st.error is not None and not st.error.caught), None)
    if failed is not None and failed.error is not None:
        from tracer.i18n import error_context
        from tracer.render.show import explained
        from tracer.render.visible import visible

        err = failed.error
        sys.stdout.flush()  # the trace first, then the error line, in a terminal too
        # (PyTorch's message may quote the user's text: its control characters shown)
        context = error_context(failed)
        click.echo(f"tidx: {failed.source!r} raised {err.type}: "
                   f"{visible(explained(err.message, lang, context))}", err=True)
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
def explain(statements: str | None, source_file, **params) -> None:
    """Run STATEMENTS (PyTorch syntax, ';' or newlines between them; '-' reads stdin)
    and show every step.

    \b
    Default names from the seeds are ready to use: t, rows, cols, a, b, x, ...
    Example:  tidx explain "t[rows, cols] = 10"
    """
    options = options_from(params)
    text = _statements(statements, source_file)
    _show(_run(text, options), options, text)


@main.command()
@click.argument("document", type=click.File("rb"))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="tree", show_default=True,
              help="How to draw the trace.")
@view_options
@click.option("--no-notes", is_flag=True, help="Hide the one-sentence note of each step.")
@width_option("Terminal width for the tree")
def render(document, **params) -> None:
    """Draw a trace saved before (DOCUMENT: what `tidx explain ... --format json` wrote;
    '-' reads stdin) as explain draws a run: record once, draw it in any view later.

    \b
    Example:  tidx explain "t[rows, cols] = 10" --format json > trace.json
              tidx render trace.json --format mermaid
    """
    from tracer.document import MAX_JSON, DocumentError, read_json

    options = options_from(params)
    name = getattr(document, "name", "<stdin>")
    name = "stdin" if name == "<stdin>" else name
    try:
        doc = read_json(document.read(MAX_JSON + 1), name)
    except DocumentError as exc:
        raise Refused(str(exc)) from None
    _show(doc, options, "")


class _Echo:
    """A text stream writing through click.echo (its encoding rules for stdout)."""

    def write(self, text: str) -> None:
        click.echo(text, nl=False)


def _show(full: "Document", options: Options, text: str) -> None:
    """Print a run as ``options.format`` (and the --verify table), then exit 1 if a
    statement raised."""
    from tracer.render import show

    out = _console(options.width, soft_wrap=False) if options.format == "tree" else _Echo()
    doc = show.show(full, options, out)
    if options.verify:
        _verify(text, full, options)
    _exit_if_raised(doc, options.lang)


def _verify(text: str, typed: "Document", options: Options) -> None:
    """Run the statements in real PyTorch and print the comparison table."""
    from engine.interpreter import application
    from tracer import i18n
    from tracer.render import progress
    from tracer.render import verify as render_verify

    full = typed.to_json()   # (verify still reads the JSON form: issue #25)
    why = application.cannot_verify(full)
    if why is not None:
        click.echo(i18n.text("ui.verify.simulated", options.lang, why=why), err=True)
        return
    with progress.bar(i18n.text("ui.export.progress.verify", options.lang), None):
        verified = application.verify(text, full)
    if verified is None:
        click.echo("--verify: PyTorch is not installed here (pip install torch==2.13.0); "
                   "nothing was compared.", err=True)
        return
    _console(options.width).print(render_verify.render(
        verified.rows, verified.checks, verified.torch_version, lang=options.lang,
        capability=typed.run.cpu.capability if typed.run and typed.run.cpu else "?"))


@main.command("export")
@statement_options
@export_options
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default=None,
              help="Override the format the suffix implies.")
@view_options
def export_cmd(statements: str | None, source_file, output: str | None, width_px: int,
               aspect: str, **params) -> None:
    """Run STATEMENTS and write the trace to FILE as a diagram, page or data.

    \b
    Example:  tidx export "t[rows, cols] = 10" -o indexing.svg
              tidx export -f lesson.py -o lesson.pdf    (one page per statement)
              tidx lesson seed_001_indexing -o lesson.html   (a built-in lesson)
    SVG works without Graphviz installed; PNG and PDF need its `dot` program.
    """
    if output is None:
        raise click.UsageError("Missing option '-o' / '--output'.")
    _export(lambda: _statements(statements, source_file), params, output, width_px, aspect)


def _export(text, params: dict, output: str, width_px: int, aspect: str = "16:9") -> None:
    """Run ``text()`` and write its export to ``output`` (``params``: the command's
    click parameters; ``fmt`` overrides the suffix).  ``text`` is called once the
    target is known to be writable: nothing runs for an export that cannot be written."""
    from tracer import i18n
    from tracer.render import export, progress
    from tracer.render.show import shown

    stdout = export.to_stdout(output)
    try:
        fmt = export.format_for(output, params.get("fmt"))
    except export.ExportError as exc:
        raise click.UsageError(str(exc)) from None
    options = options_from({**params, "fmt": fmt})
    lang = options.lang
    try:
        if stdout:
            export.check_stdout(fmt, terminal=_binary_stdout().isatty())
        else:   # before anything runs: a FIFO, a link, a missing directory ...
            export.check_target(output, fmt)
    except export.ExportError as exc:
        raise Refused(str(exc)) from None
    with progress.bar(i18n.text("ui.export.progress.run", lang), None):
        ran = _run(text(), options)
    # (images and the HTML stepper draw the lecture view's steps unless --full or a
    # filter asks for steps, as the tree does)
    typed = shown(ran, options)
    count = len(export.statements(typed)) if fmt in export.IMAGES else 1
    if stdout and len(export.paths(output, fmt, count)) > 1:
        raise Refused(f"-o - writes one file, and {fmt.upper()} of {count} statements is "
                      f"{count} files (one per statement): give a file name, or export "
                      ".pdf or .html")
    try:
        # every file is rendered before any is written: all of them, or none
        with progress.bar(i18n.text("ui.export.progress.render", lang, fmt=fmt.upper()),
                          count) as tick:
            files, pages = export.render_all(typed, output, fmt, options.diagram, lang=lang,
                                             width_px=width_px, tick=tick, full=ran,
                                             lecture=options.lecture, aspect=aspect)
        if stdout and len(files) > 1:
            raise Refused(f"-o - writes one file, and this {fmt.upper()} is {len(files)} "
                          "pages (one file each): give a file name, export .pdf, or "
                          "--aspect free")
        if not stdout:
            export.write_all(files)
    except export.ExportError as exc:
        raise Refused(str(exc)) from None
    if stdout:
        out = _binary_stdout()
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
    _exit_if_raised(typed, lang)


@main.command()
@click.argument("a")
@click.argument("b")
@seed_option("Seed the random generator (as torch.manual_seed) for both.")
@width_option("Terminal width")
@lang_option
@capability_option
def compare(a: str, b: str, **params) -> None:
    """Run statements A and B separately and show them side by side: view or copy,
    shape, strides, storage offset, dtype, bytes allocated, aten operators, each one's
    storage picture, and where their paths part.

    \b
    Example:  tidx compare "y = t[1:3]" "y = t[[1, 2]]"
    """
    from tracer.render import compare as render_compare

    options = options_from(params)
    doc_a = _run(utf8(a, "A"), options)
    doc_b = _run(utf8(b, "B"), options)
    _console(options.width).print(render_compare.render(doc_a, doc_b, lang=options.lang))


@main.command()
@statement_options
@width_option("Terminal width")
@lang_option
@click.option("--only", type=click.Choice(["seed"]), default=None,
              help="seed: only the steps the seeds teach (the lecture view's; the "
                   "default unless --full, --layers or --ops).")
@click.option("--full", is_flag=True, help="Every step, the folded ones too.")
@layers_option("Comma-separated layers whose steps to show: python, binding, indexing, "
                "dispatcher, kernel, memory, rng.")
@click.option("--ops", "ops_only", is_flag=True, help="Only the aten operators' steps.")
@click.option("--jump", "--start", "start", type=click.IntRange(min=1), default=None,
              help="Open at step N (printed without a terminal: steps N to the end).")
def step(statements: str | None, source_file, only: str | None, start: int | None,
         **params) -> None:
    """Walk through the steps of STATEMENTS one at a time, each with the storage it
    touched as it was before and after it. Keys: n/space/enter next, p/b back, g and a
    number to jump to that step, q quit. Without a terminal every step is printed."""
    options = options_from(params)
    doc = _run(_statements(statements, source_file), options)
    _step_through(doc, options.width, options.lang, _only(only, options), start)


def _only(only: str | None, options: Options) -> tuple:
    """What ``tidx step`` walks: --only (the lecture view's steps, "seed", unless --full
    or a filter asks for other steps, as explain's tree), the --layers list, --ops."""
    if only is None and options.lecture:
        only = "seed"
    layers = list(options.layers) if options.layers is not None else None
    return only, layers, options.ops


def _step_through(ran: "Document", width: int | None, lang: str = "en",
                  only: tuple = (None, None, False), start: int | None = None) -> None:
    """Walk ``full`` step by step; ``only``: --only, the --layers list and --ops."""
    from tracer import i18n
    from tracer.render import step as render_step
    from tracer.render import step_screen

    flat = render_step.only(ran, *only)
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
        _exit_if_raised(ran, lang)
        return
    notice, page, typed = None, 0, ""
    with _no_echo():    # keys typed while a step is drawn are not echoed over it
        while True:     # one page of step k at a time, fitted to the terminal's size now
            screen = step_screen.layout(console, flat, k, lang)
            page = min(page, screen.pages - 1)
            step_screen.draw(console, screen, page, notice, lang)
            notice = None
            try:
                typed = typed or click.getchar()
            except (EOFError, KeyboardInterrupt):
                # click raises these for Ctrl-D and Ctrl-C: the user quitting, not tidx
                # failing (exit 3) nor a PyTorch error (click's "Aborted!" exits 1)
                typed = "q"
            # one read holds every key typed while a step was drawn ("nnn"): one at a
            # time, an escape sequence (an arrow) whole
            key, typed = (typed, "") if typed.startswith("\x1b") else (typed[0], typed[1:])
            if key in ("q", "Q", "\x1b", "\x03"):
                break
            if key in ("p", "b", "\x1b[D", "k"):
                k, page = (k, page - 1) if page else (max(0, k - 1), 0)
            elif key in ("n", " ", "\r", "\n", "\x1b[C", "j"):
                if page + 1 < screen.pages:
                    page += 1
                elif k == len(flat) - 1:    # stay: the next key must not land in the shell
                    notice = i18n.text("ui.step.last", lang)
                else:
                    k, page = k + 1, 0
            elif key in ("g", "G"):        # the keys read with it may hold the number
                step_screen.draw(console, screen, page, "", lang)
                (k, notice), page = _ask_step(console, k, len(flat), lang, typed), 0
                typed = ""
    console.print()
    _exit_if_raised(ran, lang)


@contextlib.contextmanager
def _no_echo():
    """The terminal does not echo keys inside: click.getchar reads each key raw, but
    one typed while a step is drawn, between two reads, would be echoed over the step
    (a stray ``n`` on its heading).  Without termios (Windows) or a terminal: as is."""
    try:
        import termios
        fd = sys.stdin.fileno()
        before = termios.tcgetattr(fd)
    except Exception:   # ImportError, OSError, termios.error: nothing to quieten
        before = None
    if before is not None:
        quiet = list(before)
        quiet[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSADRAIN, quiet)
    try:
        yield
    finally:
        if before is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, before)


def _ask_step(console, k: int, total: int, lang: str, typed: str = ""
              ) -> tuple[int, str | None]:
    """Read a step number after ``g`` (digits, then enter; ``typed``: the keys read
    with the ``g``): that step, or ``k`` and a line saying why when the number is not
    a step (Escape or Ctrl-C: ``k``, silently)."""
    from tracer import i18n

    console.print(i18n.text("ui.step.jump", lang), end="")
    digits = ""
    done = False
    while not done:
        try:
            keys, typed = typed or click.getchar(), ""
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
@click.option("--format", "fmt", type=click.Choice(tuple(dict.fromkeys(FORMATS + EXPORT_FORMATS))),
              default=None,
              help="How to draw the trace (default: tree; with -o, the suffix's format).")
@export_options
@seed_option("Seed the random generator (as torch.manual_seed).")
@max_bytes_option
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
def lesson(name: str, output: str | None, width_px: int, aspect: str, show_source: bool,
           step_mode: bool, **params) -> None:
    """Run the lesson NAME (see `tidx lessons`) and show every step, or write it to a
    file as `tidx export` does (-o lesson.html, .pdf, .gif ...)."""
    from engine.interpreter import lessons as L
    from engine.core.errors import Refused as EngineRefused

    try:
        found = L.load(name)
    except EngineRefused as exc:
        raise Refused(str(exc)) from None
    if show_source:
        click.echo(found.text, nl=False)
        return
    if output is not None:
        _export(lambda: found.text, params, output, width_px, aspect)
        return
    if params["fmt"] not in (None, *FORMATS):
        raise click.UsageError(f"--format {params['fmt']} writes a file: give -o FILE")
    options = options_from(params)
    doc = _run(found.text, options)
    if step_mode:   # the filters walk the steps they keep (--full: every step anyway)
        _step_through(doc, options.width, options.lang, _only(None, options))
        return
    _show(doc, options, found.text)


if __name__ == "__main__":  # pragma: no cover
    main()
