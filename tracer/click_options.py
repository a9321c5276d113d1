"""The application layer's options as click declares them: what both front ends parse.

``cli.py`` (the commands) and ``tidx.py`` (the ``%%tidx`` magic) declare their options
with these decorators, so ``--seed``, ``--max-bytes``, ``--layers``, ``--lang`` ... read
and refuse a value in the same words everywhere, and :func:`options_from` turns what
click parsed into one :class:`tracer.options.Options`.  The checks themselves are
tracer.options'; here they only speak click's language (``Invalid value for
'--seed': ...``).
"""

from __future__ import annotations

from typing import Any

import click

from tracer.options import (CAPABILITIES, DIAGRAMS, LANGS, MIN_WIDTH, OptionError, Options,
                            check_seed, parse_bytes, parse_layers)


def checked(check: Any) -> Any:
    """A click callback running one of tracer.options' checks: its refusal in click's
    words (``Invalid value for '--seed': ...``)."""
    def callback(ctx: click.Context, param: click.Parameter, value):
        if value is None:
            return None
        try:
            return check(value)
        except OptionError as exc:
            raise click.BadParameter(exc.message) from None
    return callback


def seed_option(text: str):
    """``--seed``, checked as torch.manual_seed checks it (tracer.options.check_seed)."""
    return click.option("--seed", type=int, default=None, callback=checked(check_seed),
                        help=text)


def max_bytes_option(fn):
    """``--max-bytes 2GiB`` / ``512MiB`` / ``1000000`` (tracer.options.parse_bytes)."""
    return click.option("--max-bytes", callback=checked(parse_bytes), default=None,
                        help="Memory limit checked before any allocation (default "
                             "1GiB).")(fn)


def layers_option(text: str):
    """``--layers LIST``, read as tracer.options reads it (an unknown name refused)."""
    def read(ctx: click.Context, param: click.Parameter, value: str | None):
        try:
            return None if value is None else parse_layers(value)
        except OptionError as exc:
            raise click.BadParameter(exc.message, param_hint="--layers") from None
    return click.option("--layers", default=None, metavar="LIST", callback=read, help=text)


WIDTH = click.IntRange(min=MIN_WIDTH)


def width_option(text: str):
    """``--width``: at least MIN_WIDTH columns."""
    return click.option("--width", type=WIDTH, default=None,
                        help=f"{text} (at least {MIN_WIDTH} columns; default: the terminal's).")


def options_from(params: dict[str, Any]) -> Options:
    """One command's click parameters as the application layer's Options (the flags
    that say "no" turned round: --no-values, --no-notes)."""
    return Options(seed=params.get("seed"), max_bytes=params.get("max_bytes"),
                   cpu_capability=params.get("cpu_capability"),
                   lang=params.get("lang", "en"), layers=params.get("layers"),
                   depth=params.get("depth"), ops=params.get("ops_only", False),
                   values=not params.get("no_values", False), full=params.get("full", False),
                   diagram=params.get("diagram", "sequence"),
                   format=params.get("fmt") or "tree", width=params.get("width"),
                   notes=not params.get("no_notes", False),
                   verify=params.get("verify", False))


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
    fn = max_bytes_option(fn)
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
    return layers_option("Comma-separated layers to show: python, binding, indexing, "
                          "dispatcher, kernel, memory, rng.")(fn)


def export_options(fn):
    """``-o FILE`` and how to write it: ``tidx export``'s, and ``tidx lesson -o``'s."""
    fn = click.option("--width-px", type=click.IntRange(min=200, max=20000), default=1920,
                      show_default=True,
                      help="Width of a PNG in pixels (the drawing is scaled to it).")(fn)
    return click.option(
        "-o", "--output", metavar="FILE",
        help="Where to write; the suffix picks the format: .svg .png .pdf .dot/.gv .mmd .md "
             ".json .html .gdb .gif (PNG and PDF need Graphviz's dot program). Several "
             "statements make a PDF of one page each, or one SVG/PNG file each, numbered "
             "beside FILE (out.svg -> out-1.svg, out-2.svg, ...). '-' writes to standard "
             "output (with --format); a link, a directory, a FIFO or a device is "
             "refused.")(fn)
