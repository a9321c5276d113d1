"""``tidx step`` on a terminal: one step fitted to the screen it is on.

A step of ``t[rows, cols] = 10`` is some 60 lines (its storages before and after);
printed whole into an 80x24 terminal it scrolls its own heading away, and the learner
no longer sees which step of which statement this is.  Here a step is cut into pages
the height of the terminal: the heading (``step 5/15  >>> t[rows, cols] = 10``) stays
on the first line of every page, the keys on the last but one, and the last line says
where in the step the page is (``lines 1-19 of 61``) or what a key could not do
(``this is the last step``).  What is drawn is :mod:`tracer.render.step`'s, unchanged;
only where it is cut is decided here, from the lines rich lays it out in at the
terminal's width, so a page never holds more lines than the terminal has.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, Group
from rich.segment import Segment, Segments
from rich.text import Text

from tracer import i18n
from tracer.render import step as render_step

Line = list[Segment]


@dataclass
class Screen:
    """Step ``k`` laid out for a terminal: its heading's lines, its body's lines, the
    keys' lines, and how many body lines a page holds."""

    head: list[Line]
    body: list[Line]
    keys: list[Line]
    room: int

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.body) // self.room))

    def page(self, n: int) -> list[Line]:
        """Page ``n`` (0-based, clamped) of the body."""
        n = min(max(n, 0), self.pages - 1)
        return self.body[n * self.room:(n + 1) * self.room]


def layout(console: Console, flat: list, k: int, lang: str = "en") -> Screen:
    """Step ``k`` of ``flat`` (:func:`tracer.render.step.steps`) in ``console``'s
    width and height.  The heading takes at most a third of the screen (a long
    statement is cut there, its end in the body's first page); one line is the
    status line; the body gets the rest, one line at least."""
    options = console.options.update(width=console.width, height=None)
    lines = lambda renderable: console.render_lines(renderable, options, pad=False)  # noqa: E731
    head = lines(render_step.heading(flat, k, lang))
    keys = lines(render_step.keys(lang))
    height = console.height
    head = head[:max(1, height // 3)]
    body = lines(Group(*render_step.body(flat, k, lang)))
    room = max(1, height - len(head) - len(keys) - 1)
    return Screen(head, body, keys, room)


def status(screen: Screen, page: int, lang: str = "en") -> str:
    """The status line of a page: which of the step's lines it shows, when they do
    not fit on one page; empty otherwise."""
    if screen.pages == 1:
        return ""
    first = page * screen.room + 1
    last = min(len(screen.body), (page + 1) * screen.room)
    more = "ui.step.lines" if last < len(screen.body) else "ui.step.lines_end"
    return i18n.text(more, lang, first=first, last=last, total=len(screen.body))


def draw(console: Console, screen: Screen, page: int, notice: str | None = None,
         lang: str = "en") -> None:
    """Clear the terminal and draw page ``page`` of ``screen``: the heading, the
    page (filled to its height), the keys, and on the last line ``notice`` (red; "" leaves the line empty)
    or the page's status.  The
    cursor stays at the end of the last line (no newline after it: the screen does
    not scroll, and the prompt of ``g`` is typed there)."""
    console.clear()
    out: list[Segment] = []
    page_lines = screen.page(page)
    # the keys and the status stay on the last lines, however short the page
    padding: list[Line] = [[] for _ in range(screen.room - len(page_lines))]
    for line in [*screen.head, *page_lines, *padding, *screen.keys]:
        out += [*line, Segment.line()]
    console.print(Segments(out), end="")
    last = Text(notice, style="red") if notice is not None \
        else Text(status(screen, page, lang), style="dim")
    console.print(last, end="", no_wrap=True, overflow="ellipsis", crop=True)
