"""tidx in Jupyter and IPython: ``%load_ext tidx``, then

    %%tidx --seed 0
    x = torch.randn(3, 4)
    y = x[1:, ::2]

or ``%tidx t[rows, cols] = 10`` for one line.  It shows the lecture view of the
statements and the storage picture of each as HTML (``--full`` every step), with the
CLI's options: ``--seed``, ``--lang``, ``--full``, ``--ops``, ``--layers``,
``--depth``, ``--no-values``, ``--max-bytes``, ``--cpu-capability``, ``--format html|tree|json``.

The cells of a notebook go on in one Session, as Python cells go on in one kernel:
the names a cell binds are there in the next, and the generator goes on where it
stopped (``--seed`` reseeds it first, as ``torch.manual_seed``); ``--new`` starts a
fresh Session (a CPU capability or memory limit other than the first cell's).

A thin adapter over the application layer, as ``cli.py`` is: click parses the options
with the CLI's own declarations (tracer.click_options; never evaluated) into one
:class:`tracer.options.Options`; :func:`engine.interpreter.application.run` runs the
cell; :mod:`tracer.render.show` draws it.  A PyTorch error shows PyTorch's class and
message in the output, under the steps that led to it; input tidx refuses, a bad
option, or a fault of tidx's is one line on stderr.  Never a traceback.

It sits beside ``cli.py`` at the top and shares nothing with it but the application
layer and the options' declarations (tracer.click_options); nothing imports it.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

import click

from tracer import click_options as O
from tracer.options import NOTEBOOK_FORMATS, REPORT


def _options(fn):
    fn = O.view_options(fn)
    fn = O.capability_option(fn)
    fn = click.option("--format", "fmt", type=click.Choice(NOTEBOOK_FORMATS),
                      default="html", show_default=True,
                      help="html: the lecture view and storage pictures; tree: the "
                           "terminal's tree; json: the trace document.")(fn)
    fn = click.option("--width", type=O.WIDTH, default=100, show_default=True,
                      help="Width of the tree.")(fn)
    fn = click.option("--new", "new_session", is_flag=True,
                      help="Start a new session: forget the names, generator and memory "
                           "of the cells before.")(fn)
    fn = O.seed_option("Seed the random generator first (as torch.manual_seed).")(fn)
    return O.max_bytes_option(fn)


@click.command("%tidx", context_settings={"help_option_names": ["-h", "--help"]})
@_options
def _command(**options: Any) -> dict[str, Any]:
    """Run the statements of the cell (or of the rest of the line) on tidx's engine and
    show the lecture view and storage pictures."""
    return options


def _value_options() -> set[str]:
    """The option names that take a value (the rest are flags)."""
    return {name for p in _command.params if isinstance(p, click.Option) and not p.is_flag
            for name in p.opts}


def split_line(line: str) -> tuple[list[str], str]:
    """The leading options of a line magic and the statements after them, which keep
    their spelling (a statement is not shell words: ``t[rows, cols]``, ``'meta'``).

    >>> split_line("--seed 0 --full x = torch.randn(3, 4)")
    (['--seed', '0', '--full'], 'x = torch.randn(3, 4)')
    >>> split_line("--lang=zh -- -t")
    (['--lang=zh'], '-t')
    """
    takes_value = _value_options()
    options: list[str] = []
    rest = line.strip()
    while rest.startswith("-"):
        token, _, after = rest.partition(" ")
        if token == "--":
            return options, after.strip()
        options.append(token)
        rest = after.lstrip()
        if token in takes_value:
            value, _, after = rest.partition(" ")
            options.append(value)
            rest = after.lstrip()
    return options, rest


def parse(args: list[str]) -> dict[str, Any] | None:
    """The magic's options as click read them, or None when ``--help`` printed the help
    instead."""
    result = _command.main(args=args, prog_name="%tidx", standalone_mode=False)
    return result if isinstance(result, dict) else None


class Magic:
    """``%tidx`` / ``%%tidx``, holding the notebook's Session from cell to cell."""

    def __init__(self) -> None:
        self.session: Any = None

    def __call__(self, line: str, cell: str | None = None) -> None:
        view = self.run(line, cell)
        if view is not None:
            from IPython.display import display

            # one output: the view's bundle holds the HTML (Jupyter) and the tree as
            # text (a terminal IPython)
            display(view)

    def run(self, line: str, cell: str | None = None) -> Any:
        """What the magic shows for ``line`` (options, then statements for ``%tidx``)
        and ``cell`` (the statements of ``%%tidx``): an object with display hooks, or
        None after printing (tree, json, an error line)."""
        from engine.interpreter import application
        from tracer.options import OptionError

        lang = "en"     # the refusals' explanations: in --lang's language once read
        try:
            if cell is None:
                args, text = split_line(line)
            else:
                args, text = shlex.split(line), cell
            parsed = parse(args)
            if parsed is None:
                return None
            lang = parsed["lang"]
            if not text.strip():
                raise click.UsageError("no statements to run")
            return self._show(text, O.options_from(parsed), parsed["new_session"])
        except click.ClickException as exc:
            print(f"tidx: {exc.format_message()}", file=sys.stderr)
        except OptionError as exc:
            print(f"tidx: {exc}", file=sys.stderr)
        except application.Refused as exc:
            from tracer.render.show import explained

            print(f"tidx: {explained(str(exc), lang)}", file=sys.stderr)
        except ValueError as exc:     # shlex: an unclosed quote in the options
            print(f"tidx: {exc}", file=sys.stderr)
        except RecursionError:
            print("tidx: statement nested too deeply", file=sys.stderr)
        except Exception as exc:  # noqa: BLE001 - a bug in tidx: one line, no traceback
            print(f"tidx: internal error ({REPORT}): {type(exc).__name__}: {exc}",
                  file=sys.stderr)
        return None

    def _show(self, text: str, options: Any, new: bool) -> Any:
        from engine.interpreter import application
        from tracer.render import show

        if self.session is None or new:
            self.session = application.new_session(options)
        doc = application.record(text, options, self.session)
        warning = doc.run.cpu.warning if doc.run is not None and doc.run.cpu else None
        if warning:     # torch's TORCH_WARN for an ATEN_CPU_CAPABILITY it ignores
            print(f"tidx: UserWarning: {warning}", file=sys.stderr)
        if options.format == "html":
            return show.view(doc, options)
        show.show(doc, options, sys.stdout)
        return None


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tidx``: register ``%tidx`` and ``%%tidx`` (one Session per load)."""
    ipython.register_magic_function(Magic(), magic_kind="line_cell", magic_name="tidx")
