"""Step specs: each traced step declared once, beside the engine code that emits it.

A :class:`StepSpec` says everything about a step that does not change from one run to
the next: its name, its :class:`Layer`, the PyTorch source it mirrors, its note id, the
function of libtorch 2.13's release build that runs it (:class:`Libtorch`: gdb breaks
there) or why there is none, how the lecture view treats it (:class:`Lecture`), and
what it counts for in the memory a statement allocated (:class:`Counted`).  The engine
passes the spec to :func:`tracer.recorder.span`; the recorded event carries the layer, the
lecture treatment, the libtorch answer and what it counts, so nothing in the tracer
decides anything by matching a step's name (renaming a step renames it and changes
nothing else).

The specs live in the engine, next to the code that emits them (``tracer/`` imports
nothing of the engine); the types live here so the engine can import them.  Every spec
declared with :func:`step` is kept in a list (:func:`declared`) that tests walk, as the
dispatcher's registry keeps the operators' declarations: declarations, not run state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["Counted", "Layer", "Lecture", "Libtorch", "StepSpec", "step", "symbol", "inlined", "part_of",
           "named_after", "PYTHON", "UNMAPPED", "FROM_KERNEL", "declared"]


class Layer(StrEnum):
    """PyTorch's own layering, outermost first (docs/trace-format.md's ``layer``)."""

    PYTHON = "python"
    BINDING = "binding"
    INDEXING = "indexing"
    DISPATCHER = "dispatcher"
    KERNEL = "kernel"
    MEMORY = "memory"
    RNG = "rng"


class Lecture(StrEnum):
    """How the lecture view (:mod:`tracer.lecture`) treats a step: the event's
    ``lecture`` field (docs/trace-format.md)."""

    #: taught: shown, its children as their own treatment says
    SHOWN = "shown"
    #: the checks and plumbing around the taught steps: folded away wherever they are
    HIDDEN = "hidden"
    #: shown on one line, everything it ran folded into it (what it does is the lesson,
    #: how it does it is not: ``valueToTensor``)
    FOLD_INSIDE = "fold_inside"
    #: its inside taught once per document (the first ``empty`` shows the allocator,
    #: every later one folds it) and again when its allocation path is new
    FOLD_INSIDE_AFTER_FIRST = "fold_inside_after_first"
    #: shown, and one of the steps that tell one allocation path from another (the CPU
    #: allocator; the caching allocator with or without a new segment)
    ALLOCATION_PATH = "allocation_path"
    #: a move of a tensor to another device: shown wherever it is, inside a folded step too
    TRANSFER = "transfer"
    #: shown directly under the transfer that runs it (the bytes crossing to the device)
    LIFTED = "lifted"


class Counted(StrEnum):
    """What a step counts for in the memory a statement allocated (tracer/allocated.py,
    the document's ``allocated``), as torch.profiler (``profile_memory=True``) counts it."""

    #: a CPU block of its ``nbytes`` (the CPU allocator's allocate)
    BLOCK = "block"
    #: a CPU block of its ``nbytes`` when its ``realloc`` is true (resize_ grew a storage)
    REALLOC = "realloc"
    #: a block the simulated GPU's caching allocator hands out, of the size its
    #: :data:`ROUNDED` step gave
    CUDA_BLOCK = "cuda_block"
    #: the rounded size of a CUDA block (its result)
    ROUNDED = "rounded"
    #: a CUDA block given back to the cache, of its ``size``
    CUDA_FREE = "cuda_free"


@dataclass(frozen=True, slots=True)
class Libtorch:
    """Whether gdb can break on a step in libtorch 2.13's release build: ``function`` the
    gdb location (or the inlined function), ``into`` where an inlined step or a part
    runs, ``why`` None when breakable, else ``inlined``, ``part``, ``python`` or
    ``unmapped`` (docs/trace-format.md's ``libtorch``).  ``rule`` is an answer read
    from the event itself: ``kernel``, a dispatcher step's kernel argument, or a
    function named after the step (``"torch::autograd::{name}"``, a family's member)."""

    function: str | None = None
    into: str | None = None
    why: str | None = None
    rule: str | None = None

    def answer(self) -> dict[str, Any]:
        """The event's ``libtorch`` field."""
        return {"breakable": self.why is None, "function": self.function, "into": self.into,
                "why": self.why}


def symbol(function: str) -> Libtorch:
    """A step that is a call of ``function`` of the wheel (the gdb location)."""
    return Libtorch(function)


def inlined(function: str, into: str) -> Libtorch:
    """A step whose C++ ``function`` the release build compiled into ``into``."""
    return Libtorch(function, into, "inlined")


def part_of(function: str) -> Libtorch:
    """A step that is a part of one C++ function (a branch, a computation), not a call."""
    return Libtorch(None, function, "part")


#: Python code in torch/*.py: pdb's business, not gdb's
PYTHON = Libtorch(why="python")
#: tidx has not matched this step to a function of the wheel
UNMAPPED = Libtorch(why="unmapped")
#: a dispatcher step: its kernel argument says (tracer/symbols.py's rule)
FROM_KERNEL = Libtorch(why="unmapped", rule="kernel")


def named_after(template: str) -> Libtorch:
    """A family's members are calls of the function named after each member's step
    (``named_after("torch::autograd::{name}")`` for ``THPVariable_<method>``)."""
    return Libtorch(why="unmapped", rule=template)


@dataclass(frozen=True, slots=True)
class StepSpec:
    """One traced step, declared once: ``span(SPEC, **args)`` records it.

    ``note`` is the step's default note id (a call may pass another, or a ``Note`` with
    parameters).  A family of steps named at run time (``torch.<function>``, the
    dispatcher's ``aten::<op>``) is one spec whose calls pass :meth:`named`.
    """

    name: str
    layer: Layer
    source: str | None = None
    note: str | None = None
    libtorch: Libtorch = UNMAPPED
    lecture: Lecture = Lecture.SHOWN
    counted: Counted | None = None

    def named(self, name: str, libtorch: Libtorch | None = None) -> "StepSpec":
        """This spec under the name it has in this run (a family's member)."""
        return dataclasses.replace(self, name=name,
                                   libtorch=self.libtorch if libtorch is None else libtorch)


_DECLARED: list[StepSpec] = []


def step(name: str, layer: Layer, *, source: str | None = None, note: str | None = None,
         libtorch: Libtorch | None = None, lecture: Lecture = Lecture.SHOWN,
         counted: Counted | None = None) -> StepSpec:
    """Declare a step (at module level, beside the code that emits it).  Without
    ``libtorch``, a Python step is :data:`PYTHON` and any other :data:`UNMAPPED`.

    >>> StepSpec("computeStorageNbytesContiguous", Layer.MEMORY,
    ...          libtorch=symbol("at::detail::computeStorageNbytesContiguous")
    ...          ).libtorch.answer()["breakable"]
    True
    """
    if libtorch is None:
        libtorch = PYTHON if layer is Layer.PYTHON else UNMAPPED
    spec = StepSpec(name, Layer(layer), source, note, libtorch, Lecture(lecture),
                    None if counted is None else Counted(counted))
    _DECLARED.append(spec)
    return spec


def declared() -> list[StepSpec]:
    """Every spec declared so far (those of the engine modules imported)."""
    return list(_DECLARED)
