"""A progress bar for long work (rendering a lesson's images, running --verify), on
stderr when it is a terminal and nowhere otherwise: a pipe, a log or a test sees
only tidx's usual lines."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                           TextColumn, TimeElapsedColumn)


def console() -> Console:
    """The console a bar is drawn on: stderr, so stdout stays the output."""
    return Console(stderr=True)


@contextmanager
def bar(description: str, total: int | None, on: Console | None = None
        ) -> Iterator[Callable[[], None]]:
    """A bar of ``total`` steps (None: work of unknown length, a pulsing bar); yields
    the function that advances it by one.  The bar disappears when the work ends."""
    on = on if on is not None else console()
    if not on.is_terminal:
        yield lambda: None
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn()]
    if total is not None:
        columns.append(MofNCompleteColumn())
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=on, transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)
