"""What a run of statements and a view of it are asked for: one :class:`Options` value.

Every front end fills one — the command line from its click options (``cli.py``), the
notebook magic from the same options (``tidx.py``), a library user by hand — and hands
it to the application layer: ``engine.interpreter.application.run(text, options)``
makes the trace document, ``tracer.render.show.show(document, options, out)`` draws it.

Every value is checked here, once: a wrong one raises :class:`OptionError`, which names
the option and the value received.  The front ends' own parsers draw their choices and
limits from the tuples below (click's ``Choice``/``IntRange``, so ``-h`` lists them),
and their callbacks call the checks below (``--seed``, ``--max-bytes``), so a value
the command line takes is one :class:`Options` takes, and refused in the same words.

It sits in the tracer because both sides read it: the run side (the engine's
interpreter) may import the tracer, and the tracer imports nothing of the engine.

>>> Options(seed=0, layers="kernel, python").layers
('python', 'kernel')
>>> Options(full=True).lecture, Options().lecture, Options(ops=True).lecture
(False, True, False)
>>> Options(max_bytes="2GiB").max_bytes
2147483648
>>> Options(depth=0)
Traceback (most recent call last):
...
tracer.options.OptionError: --depth: expected a whole number of at least 1, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterable

from tracer import filters
from tracer.i18n import LANGS

#: What ``tidx explain --format`` prints on standard output.
FORMATS = ("tree", "json", "mermaid", "dot", "markdown", "gdb")
#: What ``tidx export`` writes (the suffix of ``-o`` picks one).
EXPORT_FORMATS = ("svg", "png", "pdf", "dot", "mermaid", "markdown", "json", "html", "gdb",
                  "gif")
#: What the notebook magic shows: the lecture view as HTML (its default), the tree, JSON.
NOTEBOOK_FORMATS = ("html", "tree", "json")
#: Every format some front end takes.
ALL_FORMATS = tuple(dict.fromkeys(FORMATS + EXPORT_FORMATS + NOTEBOOK_FORMATS))
#: ``--diagram``: the sequence diagram, or the nested calls as a tree.
DIAGRAMS = ("sequence", "calls")
#: ``--cpu-capability``: ATEN_CPU_CAPABILITY's values (engine.core.capability.ENV_VALUES,
#: which tests/interpreter/test_application.py holds this to).
CAPABILITIES = ("default", "avx2", "avx512")
#: ``--seed``: torch.manual_seed's range, an int64 or a uint64 (a negative seed is taken
#: modulo 2**64).
SEEDS = (-2**63, 2**64 - 1)
#: Narrower than this, the tree's columns (layer, step, values) cannot be laid out: a
#: width below it is refused rather than printing nothing (0) or a column of letters.
MIN_WIDTH = 20
#: How a front end asks for a bug in tidx itself to be reported (the one line it prints).
REPORT = "a bug in tidx, please report it with the command that caused it"
#: ``--max-bytes``' suffixes, longest first.
_SIZES = (("gib", 2**30), ("mib", 2**20), ("kib", 2**10), ("gb", 10**9), ("mb", 10**6),
          ("kb", 10**3), ("b", 1))


class OptionError(ValueError):
    """An option's value tidx does not take: ``option`` (as the command line spells it)
    and ``message`` (what was expected and what was received)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


def parse_bytes(value: str | int) -> int:
    """``--max-bytes``: ``2GiB``, ``512MiB``, ``1000000`` (or an int) as a byte count.

    >>> parse_bytes("512 MiB"), parse_bytes("1e9"), parse_bytes(4096)
    (536870912, 1000000000, 4096)
    """
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise OptionError("--max-bytes", f"expected a size like 1GiB or 500000000, got "
                                         f"{value!r}")
    text = str(value).strip().lower().replace(" ", "")
    scale = 1
    for suffix, mult in _SIZES:
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)], mult
            break
    try:
        number = float(text)
    except ValueError:
        raise OptionError("--max-bytes", f"expected a size like 1GiB or 500000000, got "
                                         f"{value!r}") from None
    if not math.isfinite(number) or number * scale >= 2**63:
        raise OptionError("--max-bytes", f"expected a finite size below 8 EiB, got {value!r}")
    if number * scale < 1:
        raise OptionError("--max-bytes", f"must be at least one byte, got {value!r}")
    return int(number * scale)


def check_seed(value: int) -> int:
    """``--seed``: what torch.manual_seed accepts; anything wider torch refuses (its
    ValueError), so tidx refuses it too rather than seed with something else."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError("--seed", f"expected an integer, got {value!r}")
    if not SEEDS[0] <= value <= SEEDS[1]:
        raise OptionError("--seed", f"{value} is not a seed torch.manual_seed takes (-2**63 "
                                    "to 2**64 - 1; torch: ValueError: Overflow when "
                                    "unpacking long long)")
    return value


def parse_layers(value: str | Iterable[str]) -> tuple[str, ...]:
    """``--layers``: ``"python,dispatcher"`` (or the names) as layer names in the trace's
    order; an unknown name is refused, naming the layers there are
    (:func:`tracer.filters.parse_layers`).

    >>> parse_layers("kernel, python"), parse_layers(["rng"])
    (('python', 'kernel'), ('rng',))
    """
    text = value if isinstance(value, str) else ",".join(map(str, value))
    try:
        return tuple(filters.parse_layers(text))
    except ValueError as exc:
        raise OptionError("--layers", str(exc)) from None


def _one_of(option: str, choices: tuple[str, ...], *, optional: bool = False
            ) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value is None and optional:
            return None
        if value not in choices:
            raise OptionError(option, f"expected one of {', '.join(map(repr, choices))}, "
                                      f"got {value!r}")
        return value
    return check


def _at_least(option: str, least: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise OptionError(option, f"expected a whole number of at least {least}, got "
                                      f"{value!r}")
        return value
    return check


def _flag(option: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, bool):
            raise OptionError(option, f"expected True or False, got {value!r}")
        return value
    return check


@dataclass(frozen=True)
class Options:
    """How to run statements and how to show the run; every field checked when made.

    Running: ``seed`` (torch.manual_seed's; None: a random one, as torch), ``max_bytes``
    (the run's memory budget; None: 1 GiB; ``"2GiB"`` is read), ``cpu_capability``
    (whose kernel builds to replay; None: ATEN_CPU_CAPABILITY, else the CPU's best).

    Showing: ``lang``; the filters every format honours — ``layers`` (a comma-separated
    string or names; kept as a tuple), ``depth``, ``ops`` (aten operators only),
    ``values`` (False: step names only); the view — ``full`` (every step; otherwise the
    lecture view unless a filter asks for steps, :attr:`lecture`); ``diagram``,
    ``format``, ``width`` (columns of the tree; None: the terminal's), ``notes`` (each
    step's sentence in the full tree) and ``verify`` (also run real PyTorch).
    """

    seed: int | None = None
    max_bytes: int | None = None
    cpu_capability: str | None = None
    lang: str = "en"
    layers: tuple[str, ...] | None = None
    depth: int | None = None
    ops: bool = False
    values: bool = True
    full: bool = False
    diagram: str = "sequence"
    format: str = "tree"
    width: int | None = None
    notes: bool = True
    verify: bool = False

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            checked = _CHECKS[field.name](value)
            if checked is not value:    # normalised ("2GiB", "python,kernel"): keep that
                object.__setattr__(self, field.name, checked)

    @property
    def lecture(self) -> bool:
        """Whether the steps shown are the lecture view's (tracer.lecture): unless
        ``full`` or a filter (``layers``, ``depth``, ``ops``) asks for steps."""
        return not self.full and self.layers is None and self.depth is None and not self.ops


_CHECKS: dict[str, Callable[[Any], Any]] = {
    "seed": lambda v: None if v is None else check_seed(v),
    "max_bytes": lambda v: None if v is None else parse_bytes(v),
    "cpu_capability": _one_of("--cpu-capability", CAPABILITIES, optional=True),
    "lang": _one_of("--lang", LANGS),
    "layers": lambda v: None if v is None else parse_layers(v),
    "depth": _at_least("--depth", 1),
    "ops": _flag("--ops"),
    "values": _flag("--no-values"),
    "full": _flag("--full"),
    "diagram": _one_of("--diagram", DIAGRAMS),
    "format": _one_of("--format", ALL_FORMATS),
    "width": _at_least("--width", MIN_WIDTH),
    "notes": _flag("--no-notes"),
    "verify": _flag("--verify"),
}
