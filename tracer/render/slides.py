"""Slide pages: a statement's drawing cut into pages of one shape (issue 28).

A lesson exported as PNG, PDF or SVG is shown on a projector: every page of it has
the slide's shape (16:9 unless ``--aspect`` says 4:3, a4 or free), every page of a
lesson has the same size, and no text on it is smaller than :data:`MIN_TEXT_PX`
pixels on a slide 1080 pixels high.  A page is :data:`PAGE_W` points wide; the
drawings (tracer.render.dot, storage_dot) are made at most that wide, with no text
under 15 points, so a 1920-pixel slide draws a point as 1.6 pixels and the smallest
text 24 pixels high.

A drawing taller than a page is cut into several: every node of the sequence
diagram and of the storage picture is pinned, so where each one is is known before
Graphviz runs (:attr:`tracer.render.pinned.Digraph.boxes`).  A page ends in a gap
between two rows, never through a label or a box (an activation bar or a lifeline
may run on); a storage picture that fits on a page is never cut
(:attr:`~tracer.render.pinned.Digraph.units`): it starts a page of its own when it
does not fit under the diagram.  Each page is the whole drawing with Graphviz's
``viewport`` (its size, zoom and centre), so every format clips it the same way.
"""

from __future__ import annotations

from typing import Any

#: ``--aspect``: the page's width and height ratio; ``free`` is one page a statement,
#: as large as its drawing (the shape before slides).  ``a4`` is landscape, as a slide.
ASPECTS: dict[str, tuple[int, int] | None] = {"16:9": (16, 9), "4:3": (4, 3),
                                              "a4": (297, 210), "free": None}
DEFAULT = "16:9"
#: A slide page's width in points (a PDF page's size; an SVG's viewBox).
PAGE_W = 1200.0
#: Blank border of a page, in points.
MARGIN = 24.0
#: The smallest text on a slide 1080 pixels high, in pixels.
MIN_TEXT_PX = 24
#: Room kept above and below a node when a page ends beside it (an arrowhead).
_CLEAR = 4.0


def page_size(aspect: str) -> tuple[float, float]:
    """A page's width and height in points.

    >>> page_size("16:9"), page_size("4:3")
    ((1200.0, 675.0), (1200.0, 900.0))
    """
    shape = ASPECTS[aspect]
    assert shape is not None, aspect
    return PAGE_W, round(PAGE_W * shape[1] / shape[0], 2)


def pixels(aspect: str, width_px: int) -> tuple[int, int]:
    """A PNG page's size in pixels at ``width_px``: (1920, 1080) for 16:9."""
    w, h = page_size(aspect)
    return width_px, round(width_px * h / w)


def extent(graph: Any) -> tuple[float, float, float, float]:
    """The drawing's bounding box in points (left, bottom, right, top), as Graphviz
    computes it from the pinned nodes."""
    boxes = graph.boxes
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def bands(boxes: list[tuple[float, float, float, float, bool]],
          units: list[tuple[float, float]], room: float,
          later: float | None = None) -> list[tuple[float, float]]:
    """Where the pages of a drawing start and end, top to bottom: ``(top, bottom)``
    the first at most ``room`` points tall, the others at most ``later`` (less: their
    top repeats the titles), ending in a gap between nodes, never inside a unit that
    fits on one page (unless no such gap exists: then exactly at the page's end).

    >>> boxes = [(0, y - 5, 10, y + 5, False) for y in (0, -30, -60, -90)]
    >>> bands(boxes, [], 60)        # rows 30 apart, ten points tall: pages of two rows
    [(5, -45.0), (-45.0, -95)]
    >>> bands(boxes, [(-20, -95)], 80)  # the last three rows kept together
    [(5, -15.0), (-15.0, -95)]
    """
    top = max(b[3] for b in boxes)
    low = min(b[1] for b in boxes)
    solid = sorted(((b[1] - _CLEAR, b[3] + _CLEAR) for b in boxes if not b[4]),
                   key=lambda iv: -iv[1])
    cuts: list[float] = []      # the middle of each gap between solid nodes
    reach = None                # the lowest bottom of the solid nodes so far
    for lo, hi in solid:
        if reach is not None and hi < reach:
            cuts.append((hi + reach) / 2)
        reach = lo if reach is None else min(reach, lo)
    later = room if later is None else later
    whole = [(a, b) for a, b in units if a - b <= later]
    cuts = [c for c in cuts if not any(b < c < a for a, b in whole)]
    pages: list[tuple[float, float]] = []
    while top - low > (later if pages else room):
        limit = top - (later if pages else room)
        fits = [c for c in cuts if limit <= c < top - 1]
        cut = min(fits) if fits else limit
        pages.append((top, cut))
        top = cut
    pages.append((top, low))
    return pages


def pages(graph: Any, aspect: str) -> list[Any]:
    """The drawing as pages of ``aspect``: copies of ``graph`` each with the
    ``viewport`` of one page and only the nodes and edges it shows (``free``, or a
    drawing Graphviz lays out itself, such as the call tree: the graph itself, one
    page as large as the drawing)."""
    if ASPECTS.get(aspect) is None or not getattr(graph, "boxes", None):
        return [graph]
    w, h = page_size(aspect)
    left, low, right, top = extent(graph)
    # two invisible points on the corners keep Graphviz's bounding box the whole
    # drawing's on every page, whatever the page leaves out
    for name, (x, y) in (("slide_ll", (left, low)), ("slide_ur", (right, top))):
        graph.node(name, shape="point", width="0.01", height="0.01", style="invis",
                   pos=f"{x:.2f},{y:.2f}!")
    left, low, right, top = extent(graph)
    zoom = min(1.0, (w - 2 * MARGIN) / max(right - left, 1.0))
    room = (h - 2 * MARGIN) / zoom
    titles = max((float(a["height"]) * 72 for *_, a in graph.header), default=0.0)
    headed = titles + MARGIN if titles else 0.0     # the titles, and a gap under them
    out = []
    for k, (start, end) in enumerate(bands(graph.boxes, graph.units, room,
                                           room - headed)):
        page = graph.copy()
        page.body = _shown(graph, start, end)
        # (not over a page that opens with the titles under the last row)
        footed = graph.footer is not None and end < graph.footer < start and \
            start - graph.footer < 2 * titles
        if k and titles and not footed:   # the lifelines' titles again, at the top
            for name, label, x, attrs in graph.header:
                y = start + headed - titles / 2
                page.node(f"{name}_p{k}", label, pos=f"{x:.2f},{y:.2f}!", **attrs)
        top = start + (headed if k and not footed else 0.0)
        # Graphviz moves the drawing so its bounding box starts at (0, 0): the centre
        # is given there, the page's top MARGIN above its top
        cx = (w / 2 - MARGIN) / zoom
        cy = top - low + MARGIN / zoom - h / 2 / zoom
        page.attr("graph", viewport=f"{w:.2f},{h:.2f},{zoom:.4f},{cx:.2f},{cy:.2f}",
                  pad="0", margin="0")
        page.page_w = w
        out.append(page)
    return out


def _shown(graph: Any, start: float, end: float) -> list[str]:
    """The lines of ``graph.body`` a page from ``start`` down to ``end`` draws: every
    node in it (a bar or a lifeline crossing it too), every edge with an end in it or
    crossing it, the points those edges join; nothing above or below it, which its
    margins would otherwise show."""
    def inside(box: tuple[float, float, float, float, bool]) -> bool:
        return box[1] < start and box[3] > end

    drop = {i for i, box in graph.lines.values() if not inside(box)}
    for i, tail, head in graph.links:
        ends = [graph.lines[n][1] for n in (tail, head) if n in graph.lines]
        if len(ends) < 2:
            continue
        above = all(b[1] >= start for b in ends)
        below = all(b[3] <= end for b in ends)
        if above or below:
            drop.add(i)
        else:   # an edge on the page keeps the points it joins
            drop.difference_update(graph.lines[n][0] for n in (tail, head))
    for name in ("slide_ll", "slide_ur"):
        drop.discard(graph.lines[name][0])
    return [line for i, line in enumerate(graph.body) if i not in drop]
