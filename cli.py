"""tidx's command line: options -> run -> render.  No engine logic, no drawing code.

Exit codes: 0 done; 1 a statement raised a PyTorch error (the trace up to the
failing step is still shown); 2 usage errors and input tidx refuses; 3 a bug in
tidx itself.  Every error is one line, never a traceback.
"""

from __future__ import annotations

import os
import sys

import click

FORMATS = ("tree", "json")


class TidxBug(click.ClickException):
    exit_code = 3


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
    if number <= 0:
        raise click.BadParameter("must be positive")
    return int(number * scale)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tidx", prog_name="tidx")
def main() -> None:
    """See what PyTorch does inside: run a statement on tidx's engine, which follows
    PyTorch's C++ path, and draw every step."""


@main.command()
@click.argument("statements", required=False)
@click.option("-f", "--file", "source_file", type=click.File("r", encoding="utf-8"),
              help="Read statements from a file ('-' for stdin); `import torch` lines and "
                   "comments are fine, so the same file runs under real PyTorch.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="tree", show_default=True,
              help="How to draw the trace.")
@click.option("--seed", type=int, default=None,
              help="Seed the random generator (as torch.manual_seed). Default: random, "
                   "like torch.")
@click.option("--max-bytes", callback=_parse_bytes, default=None,
              help="Memory limit checked before any allocation (default 1GiB).")
@click.option("--no-notes", is_flag=True, help="Hide the one-sentence note of each step.")
@click.option("--width", type=int, default=None, help="Terminal width for the tree.")
def explain(statements: str | None, source_file, fmt: str, seed: int | None,
            max_bytes: int | None, no_notes: bool, width: int | None) -> None:
    """Run STATEMENTS (PyTorch syntax, ';' or newlines between them; '-' reads stdin)
    and show every step.

    \b
    Default names from the seeds are ready to use: t, rows, cols, a, b, x, ...
    Example:  tidx explain "t[rows, cols] = 10"
    """
    from engine import session
    from engine.errors import Refused

    if (statements is None) == (source_file is None):
        raise click.UsageError("give STATEMENTS or -f FILE (one of them)")
    if source_file is not None:
        try:
            statements = source_file.read()
        except UnicodeDecodeError:
            raise click.UsageError(f"{source_file.name} is not UTF-8 text") from None
    elif statements == "-":
        statements = click.get_text_stream("stdin").read()
    try:
        doc = session.run(statements, seed=seed, max_bytes=max_bytes)
    except Refused as exc:
        raise click.UsageError(str(exc)) from None
    except RecursionError:
        raise click.UsageError("statement nested too deeply") from None
    except Exception as exc:  # noqa: BLE001 - a bug in tidx: one line, distinct code
        raise TidxBug(f"internal error (a bug in tidx, please report it): "
                      f"{type(exc).__name__}: {exc}") from None

    if fmt == "json":
        from tracer import render_json
        click.echo(render_json.render(doc), nl=False)
    else:
        from rich.console import Console

        from tracer import render_tree
        console = Console(width=width, no_color="NO_COLOR" in os.environ or None,
                          highlight=False, soft_wrap=False)
        console.print(render_tree.render(doc, notes=not no_notes))
    failed = next((st for st in doc["statements"] if st["error"]), None)
    if failed is not None:
        err = failed["error"]
        click.echo(f"tidx: {failed['source']!r} raised {err['type']}: {err['message']}",
                   err=True)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
