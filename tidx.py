"""tidx in Jupyter and IPython: ``%load_ext tidx``, then

    %%tidx --seed 0
    x = torch.randn(3, 4)
    y = x[1:, ::2]

or ``%tidx t[rows, cols] = 10`` for one line.  It shows the lecture view of the
statements and the storage picture of each as HTML (``--full`` every step), with the
CLI's options: ``--seed``, ``--lang``, ``--full``, ``--ops``, ``--layers``,
``--depth``, ``--no-values``, ``--max-bytes``, ``--cpu-capability``, ``--format html|tree|json``.

The options are parsed by click with the CLI's own option definitions (never
evaluated); the statements run on tidx's engine as ``tidx explain`` runs them.  A
PyTorch error shows PyTorch's class and message in the output, under the steps that
led to it; input tidx refuses, a bad option, or a fault of tidx's is one line on
stderr.  Never a traceback.

It sits beside ``cli.py`` at the top: it may import the engine, the tracer and the
CLI's option helpers; nothing imports it.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

import click

import cli

#: What the magic can show: the HTML view (default), the terminal's tree, the document.
MAGIC_FORMATS = ("html", "tree", "json")


def _options(fn):
    fn = cli.view_options(fn)
    fn = cli.capability_option(fn)
    fn = click.option("--format", "fmt", type=click.Choice(MAGIC_FORMATS), default="html",
                      show_default=True, help="html: the lecture view and storage "
                      "pictures; tree: the terminal's tree; json: the trace document.")(fn)
    fn = click.option("--width", type=cli.WIDTH, default=100, show_default=True,
                      help="Width of the tree.")(fn)
    fn = cli.seed_option("Seed the random generator (as torch.manual_seed).")(fn)
    return click.option("--max-bytes", callback=cli._parse_bytes, default=None,
                        help="Memory limit checked before any allocation (default 1GiB).")(fn)


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
    """The magic's options, or None when ``--help`` printed the help instead."""
    result = _command.main(args=args, prog_name="%tidx", standalone_mode=False)
    return result if isinstance(result, dict) else None


def run(line: str, cell: str | None = None) -> Any:
    """What the magic shows for ``line`` (options, then statements for ``%tidx``) and
    ``cell`` (the statements of ``%%tidx``): an object with display hooks, or None
    after printing (tree, json, an error line)."""
    try:
        if cell is None:
            args, text = split_line(line)
        else:
            args, text = shlex.split(line), cell
        options = parse(args)
        if options is None:
            return None
        if not text.strip():
            raise click.UsageError("no statements to run")
        return _show(cli._utf8(text, "the statements"), options)
    except click.ClickException as exc:
        print(f"tidx: {exc.format_message()}", file=sys.stderr)
    except ValueError as exc:     # shlex: an unclosed quote in the options
        print(f"tidx: {exc}", file=sys.stderr)
    except RecursionError:
        print("tidx: statement nested too deeply", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - a bug in tidx: one line, never a traceback
        print(f"tidx: internal error ({cli.REPORT}): {type(exc).__name__}: {exc}",
              file=sys.stderr)
    return None


def _show(text: str, o: dict[str, Any]) -> Any:
    from tracer.render import json as render_json
    from tracer.render.notebook import LessonView

    ran = cli._run(None, None, o["seed"], o["max_bytes"], text=text, lang=o["lang"],
                   cpu_capability=o["cpu_capability"])
    doc = cli._filtered(ran, o["layers"], o["depth"], o["ops_only"], o["no_values"])
    lecture = cli._lecture(o["full"], o["layers"], o["depth"], o["ops_only"])
    if o["fmt"] == "json":
        print(render_json.render(doc), end="")
        return None
    view = LessonView(doc, lang=o["lang"], lecture=lecture)
    if o["fmt"] == "tree":
        from rich.console import Console

        Console(file=sys.stdout, width=o["width"], highlight=False, force_jupyter=False,
                soft_wrap=False).print(view)
        return None
    return view


def _magic(line: str, cell: str | None = None) -> None:
    """``%tidx`` / ``%%tidx``: see the module's doc."""
    view = run(line, cell)
    if view is not None:
        import io

        from IPython.display import display
        from rich.console import Console

        # published raw, HTML beside the tree as text: Jupyter shows the HTML whatever
        # formatters are switched on; a terminal IPython shows the tree
        plain = Console(file=io.StringIO(), width=100, record=True, highlight=False)
        plain.print(view)
        display({"text/html": view._repr_html_(), "text/plain": plain.export_text()},
                raw=True)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tidx``: register ``%tidx`` and ``%%tidx``."""
    ipython.register_magic_function(_magic, magic_kind="line_cell", magic_name="tidx")
