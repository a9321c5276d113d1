"""An animated GIF of the storage picture, one frame per step (``tidx export ... -o t.gif``).

For slides that cannot hold HTML: each frame shows the statement, ``step K / N``, the
step's layer and name, and the storage the statement works on as it is *at that step*
— cells not yet allocated, values not yet written, the cells the step writes in red.

Two parts, as everywhere in ``tracer/render``: :func:`frames` builds the frames as plain
data from the trace document (what a test reads), :func:`render` draws them with
Pillow.  Nothing re-runs the engine: the state at each step is :mod:`tracer.timeline`'s
(the storage before and after every step that touches it, replayed from the values
the trace recorded), the pictures are :mod:`tracer.picture`'s, so the GIF shows what
``tidx step`` and the terminal picture show.
"""

from __future__ import annotations

import io
from itertools import groupby
import struct
from pathlib import Path
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from tracer import i18n
from tracer import numbering
from tracer.numbering import Numbered
from tracer.document import Document, Event
from tracer import values as V
from tracer.picture import MAX_CELLS, arithmetic_terms, collect, index_text
from tracer.picture import selected_labels as selects
from tracer.render import format as F
from tracer.render.gif_canvas import Canvas, Ops
from tracer.render.storage import geometry
from tracer.timeline import statement_timeline

#: How long a frame stays, in milliseconds; the last one longer (the statement's end).
FRAME_MS = 1200
LAST_FRAME_MS = 4000
WIDTH = 1920

#: Fonts looked for, in order (fonts-dejavu-core; a CJK font for ``--lang zh``).
MONO_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
              "/usr/share/fonts/dejavu/DejaVuSansMono.ttf",
              "/Library/Fonts/DejaVuSansMono.ttf")
BOLD_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
              "/usr/share/fonts/dejavu/DejaVuSansMono-Bold.ttf")
CJK_FONTS = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/truetype/arphic/uming.ttc")

#: Colours (RGB): the terminal's, on a white slide.
LAYER_RGB: dict[str, tuple[int, int, int]] = {
    "python": (176, 130, 0), "binding": (160, 40, 160), "indexing": (0, 130, 150),
    "dispatcher": (30, 60, 200), "kernel": (20, 130, 40), "memory": (190, 30, 30),
    "rng": (200, 60, 200),
}
WRITTEN_RGB = (214, 39, 40)      # changed in this step
EARLIER_RGB = (250, 205, 205)    # changed earlier in this statement
READ_RGB = (120, 210, 230)       # read in this step
INK, DIM, PAPER, GRID = (20, 20, 20), (120, 120, 120), (255, 255, 255), (60, 60, 60)
ABSENT_RGB = (235, 235, 235)

#: Cells in one row of a storage grid before it wraps.
PER_ROW = 16


class GifError(Exception):
    """A one-line reason the GIF cannot be made (export turns it into its own error)."""


# -- the frames, as data -------------------------------------------------------------------

def _find(pictures: list[dict[str, Any]], storage: str) -> dict[str, Any] | None:
    return next((p for p in pictures if p["storage"] == storage), None)


def _size(ev: Event) -> int:
    """How many steps ``ev``'s subtree holds, itself included."""
    return 1 + sum(_size(c) for c in ev.children)


def _touches(item: dict[str, Any], storage: str) -> bool:
    return (_find(item["before"], storage) is not None or
            _find(item["after"], storage) is not None)


def _made_at(items: list[dict[str, Any]], storage: str) -> int | None:
    """The step that makes ``storage`` in this statement (StorageImpl: its result is
    that storage), or None when it existed before or the trace does not say."""
    return next((k for k, item in enumerate(items) if item["event"] is not None and
                 V.kind(item["event"].result) == "storage" and
                 item["event"].result.get("label") == storage), None)


def _state(items: list[dict[str, Any]], k: int, storage: str, final: dict[str, Any],
           made: int | None) -> tuple[dict[str, Any], str]:
    """``storage`` as it is while step ``k`` runs, and how to read its marks: "after"
    (a step none of whose inner steps touch it: what it changed, done), "before" (a
    step whose inner steps are still to touch it: where they will write), "still" (a
    step that does not touch it: the state then, no marks) or "absent" (not allocated
    yet: before the step that makes it, ``made``).

    The timeline draws a storage only at the steps that touch it, each before it started
    and after it ended; between two such steps nothing wrote into it (a write touches),
    so the next step's "before" is the state now."""
    item = items[k]
    if item["event"] is None:
        return final, "still"
    if made is not None and k < made:
        return final, "absent"
    after, before = _find(item["after"], storage), _find(item["before"], storage)
    inner = items[k + 1:k + _size(item["event"])]
    if after is not None and not any(_touches(i, storage) for i in inner):
        return after, "after"    # normal_kernel: its inner steps only explain a number
    if before is not None:
        return before, "before"
    if after is not None and made is None:
        return after, "absent"            # made inside this step: not there at its start
    for later in items[k + 1:]:
        before = _find(later["before"], storage)
        if before is not None:
            return before, "still"
        if made is None and _find(later["after"], storage) is not None:
            return final, "absent"        # a later step makes it
    for earlier in reversed(items[:k]):
        after = _find(earlier["after"], storage)
        if after is not None:
            return after, "still"
    return final, "still"


def _statement_frames(doc: Document, i: int) -> list[dict[str, Any]]:
    st = doc.statements[i]
    prev = doc.statements[i - 1] if i else None
    items = statement_timeline(st, prev, i)
    finals = collect(st, prev)
    out: list[dict[str, Any]] = []
    earlier: dict[str, set[int]] = {p["storage"]: set() for p in finals}
    made = {p["storage"]: _made_at(items, p["storage"]) for p in finals}
    for k, item in enumerate(items):
        drawn = []
        for final in finals:
            name = final["storage"]
            p, how = _state(items, k, name, final, made[name])
            marks = dict(p["touched"]) if how in ("after", "before") else {}
            drawn.append({"storage": name, "dtype": final["dtype"], "nbytes": final["nbytes"],
                          "size": final["size"], "exists": how != "absent",
                          "cells": p["cells"] if how != "absent" else {},
                          "now": marks if how == "after" else {},
                          "soon": marks if how == "before" else {},
                          "earlier": sorted(earlier[name]),
                          "views": p["views"], "more_views": p.get("more_views", 0),
                          "grids": p["grids"],
                          "arithmetic": p["arithmetic"] if how == "after" else None})
            if how == "after":
                earlier[name] |= {o for o, m in marks.items() if m == "written"}
        out.append({"statement": st.source or "", "event": item["event"],
                    "pictures": drawn, "error": None})
    if st.error is not None and out:
        out[-1]["error"] = st.error
        out[-1]["context"] = i18n.error_context(st)
    return out


def _each(doc: Document, numbered: Iterable[Numbered]
          ) -> Iterator[dict[str, Any]]:
    """:func:`frames` one statement at a time, without the legend: a long lesson's
    frames are never all held at once.  ``numbered``: the steps to draw, as
    :mod:`tracer.numbering` numbers them (every statement has one at least); each
    frame still shows the state after every step before it, and a statement's error
    is on its last frame."""
    for i, mine_steps in groupby(numbered, key=lambda s: s.statement):
        mine = _statement_frames(doc, i)
        chosen = [mine[s.position or 0] for s in mine_steps]
        if doc.statements[i].error is not None and chosen:
            chosen[-1] = {**chosen[-1], "error": mine[-1]["error"],
                          "context": mine[-1].get("context")}
        yield from chosen


def frames(doc: Document, *, lecture: bool = False) -> list[dict[str, Any]]:
    """One frame per step of every statement (the steps of :mod:`tracer.timeline`), as
    plain data: ``{"statement", "event", "error", "pictures": [{"storage", "dtype",
    "nbytes", "size", "exists", "cells": {offset: value}, "now": {offset: "written"|
    "read"} (what this step did), "soon": {...} (where a step with steps inside will
    write), "earlier": [offset, ...] (changed by an earlier step of the statement),
    "views", "more_views", "grids", "arithmetic"}], "legend": [mark, ...]}`` —
    ``error`` on a statement's last frame, ``legend`` the marks the whole animation
    uses.  The storages are those :func:`tracer.picture.collect` draws for the
    statement.  The frames are the steps :mod:`tracer.numbering` numbers (``lecture``:
    the lecture view's, else every step), frame K being step K."""
    out = list(_each(doc, numbering.each(doc, full=not lecture)))
    legend = _marks(out)
    for frame in out:
        frame["legend"] = legend
    return out


#: The legend's entries, in order: colour and label id.
LEGEND: dict[str, tuple[tuple[int, int, int], str]] = {
    "written": (WRITTEN_RGB, "ui.gif.changed"), "soon": (WRITTEN_RGB, "ui.gif.soon"),
    "earlier": (EARLIER_RGB, "ui.gif.earlier"),
    "read": (READ_RGB, "ui.gif.read"), "absent": (ABSENT_RGB, "ui.gif.absent"),
    "unknown": (PAPER, "ui.gif.unknown"),
}


def _marks(frames: Iterable[dict[str, Any]]) -> list[str]:
    """The marks some frame of the animation uses: the legend names those, on every
    frame alike (a legend that changed from frame to frame would jump)."""
    used: set[str] = set()
    for frame in frames:
        used |= _used(frame)
    return [mark for mark in LEGEND if mark in used]


def _used(frame: dict[str, Any]) -> set[str]:
    used: set[str] = set()
    for p in frame["pictures"]:
        used |= set(p["now"].values())
        used |= {"soon"} if "written" in p["soon"].values() else set()
        used |= {"read"} if "read" in p["soon"].values() else set()
        used |= {"earlier"} if p["earlier"] else set()
        used |= {"absent"} if not p["exists"] else set()
        shown = range(min(p["size"], MAX_CELLS))
        used |= {"unknown"} if p["exists"] and any(o not in p["cells"]
                                                   for o in shown) else set()
    return used


# -- drawing ---------------------------------------------------------------------------

def _font_path(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if Path(p).is_file()), None)


class _Fonts:
    def __init__(self, ImageFont: Any, scale: float, lang: str) -> None:
        regular = _font_path(CJK_FONTS if lang == "zh" else MONO_FONTS) or \
            _font_path(MONO_FONTS)
        bold = _font_path(BOLD_FONTS) if lang != "zh" else regular

        def load(path: str | None, size: int) -> Any:
            size = max(8, round(size * scale))
            if path:
                return ImageFont.truetype(path, size)
            return ImageFont.load_default(size=size)   # Pillow's own, when no DejaVu

        self.title = load(bold or regular, 44)
        self.head = load(bold or regular, 34)
        self.text = load(regular, 28)
        self.cell = load(bold or regular, 40)
        self.small = load(regular, 22)


def _text_width(draw: Canvas, text: str, font: Any) -> float:
    return draw.textlength(text, font)


def _cell_text(p: dict[str, Any], off: int) -> str:
    """A storage element as torch prints it; ``·`` when the trace did not record it."""
    if not p["exists"]:
        return ""
    return F.number(p["cells"][off]) if off in p["cells"] else "·"


def _layout(draw: Any, frame: dict[str, Any], k: int, n: int, width: int, fonts: _Fonts,
            lang: str, scale: float) -> list[tuple[int, Any]]:
    """Where everything of a frame goes: ``[(y, paint(draw, y))]``, top to bottom (the
    same pass measures the height of the tallest frame and paints each)."""
    margin = round(60 * scale)
    inner = width - 2 * margin
    out: list[tuple[int, Any]] = []
    y = margin

    def text_line(text: str, font: Any, fill: Any, x: int = margin) -> None:
        nonlocal y
        for line in draw.wrap(text, font, inner - (x - margin)):
            out.append((y, lambda d, yy, line=line: d.text((x, yy), line, font=font,
                                                           fill=fill)))
            y += round(font.size * 1.35)

    step = i18n.text("ui.gif.step", lang, number=k + 1, total=n)
    step_w = _text_width(draw, step, fonts.head)
    first = y
    for line in draw.wrap(f">>> {frame['statement']}", fonts.title, inner - step_w - 40):
        out.append((y, lambda d, yy, line=line: d.text((margin, yy), line, font=fonts.title,
                                                       fill=INK)))
        y += round(fonts.title.size * 1.35)
    out.append((first, lambda d, yy: d.text((width - margin - step_w, yy + 8), step,
                                            font=fonts.head, fill=DIM)))
    ev: Event | None = frame["event"]
    if ev is not None:
        layer = i18n.layer(ev.layer.value, lang)
        colour = LAYER_RGB.get(ev.layer.value, INK)
        pad = round(10 * scale)
        badge_w = _text_width(draw, layer, fonts.head) + 2 * pad

        def badge(d: Any, yy: int, layer: str = layer, colour: Any = colour,
                  name: str = ev.name) -> None:
            d.rounded_rectangle((margin, yy, margin + badge_w, yy + fonts.head.size + 2 * pad),
                                radius=pad, fill=colour)
            d.text((margin + pad, yy + pad * 0.6), layer, font=fonts.head, fill=PAPER)
            d.text((margin + badge_w + 2 * pad, yy + pad * 0.6), name, font=fonts.head,
                   fill=INK)
        y += round(8 * scale)
        out.append((y, badge))
        y += fonts.head.size + 3 * pad
        note = i18n.note(ev, lang)
        if note:
            text_line(note, fonts.text, DIM)
    y += round(20 * scale)
    for p in frame["pictures"]:
        y = _storage(out, draw, p, y, margin, inner, fonts, lang, scale)
    if frame["error"]:
        err = frame["error"]
        text_line(f"{err.type}: {err.message}", fonts.text, WRITTEN_RGB)
        why = i18n.explain_error(err.message, lang, frame.get("context"))
        if why:
            text_line(f"→ {why}", fonts.text, WRITTEN_RGB)
    if frame["pictures"] and frame.get("legend"):
        y = _legend(out, draw, frame["legend"], y, margin, fonts, lang, scale)
    out.append((y + margin, lambda d, yy: None))   # the bottom margin, for measuring
    return out


def _storage(out: list, draw: Any, p: dict[str, Any], y: int, margin: int, inner: int,
             fonts: _Fonts, lang: str, scale: float) -> int:
    title = i18n.text("ui.storage.title", lang, storage=p["storage"], size=p["size"],
                      dtype=p["dtype"], nbytes=p["nbytes"]) + F.on_device(p, lang)
    if not p["exists"]:
        title += "   " + i18n.text("ui.gif.not_allocated", lang)
    out.append((y, lambda d, yy: d.text((margin, yy), title, font=fonts.head, fill=INK)))
    y += round(fonts.head.size * 1.6)
    labels = [(g["name"], selects(g)) for g in p["grids"]]
    head = max([_text_width(draw, name, fonts.text) for name, _ in labels] +
               [_text_width(draw, i18n.text("ui.storage.offset", lang), fonts.small)]) + 24
    n = min(p["size"], MAX_CELLS)
    per_row = max(1, min(PER_ROW, n))
    texts = {o: _cell_text(p, o) for o in range(n)}
    need = max([_text_width(draw, t, fonts.cell) for t in texts.values()] +
               [_text_width(draw, w, fonts.text) for _, where in labels
                for w in where.values()] + [0]) + 24
    # cells as wide as the slide allows (up to 220 px at 1920), never narrower than
    # their widest text
    cell = max(int(need), min(round(220 * scale), int((inner - head) // per_row)))
    per_row = max(1, min(per_row, int((inner - head) // cell)))
    cell_h = round(fonts.cell.size * 2.0)
    for first in range(0, n, per_row):
        chunk = list(range(first, min(n, first + per_row)))
        x0 = margin + head

        def offsets(d: Any, yy: int, chunk: list[int] = chunk, x0: float = x0) -> None:
            d.text((margin, yy), i18n.text("ui.storage.offset", lang), font=fonts.small,
                   fill=DIM)
            for i, o in enumerate(chunk):
                d.text((x0 + i * cell + cell / 2, yy), str(o), font=fonts.small, fill=DIM,
                       anchor="ma")
        out.append((y, offsets))
        y += round(fonts.small.size * 1.5)

        def grid(d: Any, yy: int, chunk: list[int] = chunk, x0: float = x0) -> None:
            for i, o in enumerate(chunk):
                box = (x0 + i * cell, yy, x0 + (i + 1) * cell, yy + cell_h)
                mark = p["now"].get(o)
                fill = (ABSENT_RGB if not p["exists"] else WRITTEN_RGB if mark == "written"
                        else READ_RGB if mark == "read"
                        else EARLIER_RGB if o in p["earlier"] else PAPER)
                d.rectangle(box, fill=fill, outline=GRID, width=max(1, round(2 * scale)))
                soon = p["soon"].get(o)
                if soon:   # where the steps inside this one will write (or read)
                    inset = round(4 * scale)
                    d.rectangle((box[0] + inset, box[1] + inset, box[2] - inset,
                                 box[3] - inset), outline=WRITTEN_RGB if soon == "written"
                                else READ_RGB, width=max(2, round(5 * scale)))
                ink = PAPER if mark == "written" else INK
                d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), texts[o],
                       font=fonts.cell, fill=ink, anchor="mm")
        out.append((y, grid))
        y += cell_h + round(8 * scale)
        for name, where in labels:
            def row(d: Any, yy: int, name: str = name, where: dict[int, str] = where,
                    chunk: list[int] = chunk, x0: float = x0) -> None:
                d.text((margin, yy), name, font=fonts.text, fill=LAYER_RGB["indexing"])
                for i, o in enumerate(chunk):
                    if o in where:
                        d.text((x0 + i * cell + cell / 2, yy), where[o], font=fonts.text,
                               fill=LAYER_RGB["indexing"], anchor="ma")
            out.append((y, row))
            y += round(fonts.text.size * 1.4)
        y += round(12 * scale)
    if p["size"] > n:
        more = i18n.text("ui.storage.more", lang, count=p["size"] - n)
        out.append((y, lambda d, yy: d.text((margin + head, yy), more, font=fonts.small,
                                            fill=DIM)))
        y += round(fonts.small.size * 1.5)
    for t in p["views"]:
        line = f"{V.shown(t)}: {t['dtype']}{list(t['shape'])} {geometry(t, lang)}"
        out.append((y, lambda d, yy, line=line: d.text((margin, yy), line, font=fonts.small,
                                                       fill=DIM)))
        y += round(fonts.small.size * 1.4)
    if p.get("more_views"):   # as every picture says it: the views not drawn
        line = i18n.text("ui.picture.more_views", lang, count=p["more_views"])
        out.append((y, lambda d, yy: d.text((margin, yy), line, font=fonts.small, fill=DIM)))
        y += round(fonts.small.size * 1.4)
    a = p["arithmetic"]
    if a:   # one changed element's offset worked out: what the strides mean
        line = (f"{a['view']}{index_text(a['index'])} -> " +
                i18n.text("ui.picture.arithmetic", lang, terms=arithmetic_terms(a),
                          result=a["result"]))
        out.append((y, lambda d, yy: d.text((margin, yy), line, font=fonts.text, fill=INK)))
        y += round(fonts.text.size * 1.5)
    return y + round(24 * scale)


def _legend(out: list, draw: Any, marks: list[str], y: int, margin: int, fonts: _Fonts,
            lang: str, scale: float) -> int:
    x = margin
    box = round(fonts.small.size * 1.1)
    for mark in marks:
        colour, id = LEGEND[mark]
        label = i18n.text(id, lang)
        wide = box + 10 + round(_text_width(draw, label, fonts.small))
        if x > margin and x + wide > draw.width - margin:   # the next legend line
            x, y = margin, y + round(box * 1.6)

        def item(d: Any, yy: int, x: int = x, colour: Any = colour, label: str = label,
                 mark: str = mark) -> None:
            if mark == "soon":   # drawn as the cells show it: an inner red frame
                d.rectangle((x, yy, x + box, yy + box), fill=PAPER, outline=colour,
                            width=max(2, box // 5))
            else:
                d.rectangle((x, yy, x + box, yy + box), fill=colour, outline=GRID)
            d.text((x + box + 10, yy), label, font=fonts.small, fill=DIM)
        out.append((y, item))
        x += wide + round(40 * scale)
    return y + round(box * 1.6)


def _palette(Image: Any) -> Any:
    """The frames' colours, exactly, then the blends antialiased text makes between each
    ink and each background (16 steps)."""
    inks = [INK, DIM, GRID, WRITTEN_RGB, EARLIER_RGB, READ_RGB, ABSENT_RGB, PAPER,
            *LAYER_RGB.values()]
    colours = list(inks)
    for back in (PAPER, WRITTEN_RGB, EARLIER_RGB, READ_RGB, ABSENT_RGB):
        for ink in inks:
            for i in range(1, 15, 2):
                f = i / 15
                r, g, b = (round(x * (1 - f) + c * f) for x, c in zip(back, ink))
                colours.append((r, g, b))
    colours = list(dict.fromkeys(colours))[:256]
    image = Image.new("P", (1, 1))
    image.putpalette([v for c in colours for v in c] + [0] * (768 - 3 * len(colours)))
    return image


def render(doc: Document, *, width: int = WIDTH, lang: str = "en",
           lecture: bool = False) -> bytes:
    """The GIF bytes (:func:`write` into memory)."""
    buf = io.BytesIO()
    write(doc, buf, width=width, lang=lang, lecture=lecture)
    return buf.getvalue()


def write(doc: Document, fp: BinaryIO, *, width: int = WIDTH, lang: str = "en",
          lecture: bool = False) -> None:
    """Write the GIF to ``fp``: one frame per step (``lecture``: per step the lecture
    view shows), :data:`FRAME_MS` each, the last :data:`LAST_FRAME_MS`; ``width``
    pixels wide (text scaled to it), as tall as the tallest frame needs.

    Frames are made, drawn and written one at a time (two passes over the steps: the
    first finds the tallest frame and the legend every frame shows), each stored as
    the box of pixels that changed since the frame before: the memory a GIF takes does
    not grow with the lesson (Pillow's ``save_all`` holds every frame until the end:
    57 MiB a statement)."""
    try:
        import PIL.GifImagePlugin
        import PIL.ImageDraw
        import PIL.ImageFont
        from PIL import GifImagePlugin, Image, ImageFont
    except ImportError:
        raise GifError("GIF export needs Pillow: pip install pillow") from None
    total = sum(1 for _ in numbering.each(doc, full=not lecture))
    if not total:
        raise GifError("no steps to animate")
    if lang != "en" and _font_path(CJK_FONTS) is None:
        lang = "en"   # DejaVu has no CJK glyphs: Chinese would be drawn as empty boxes
    scale = width / WIDTH
    fonts = _Fonts(ImageFont, scale, lang)
    canvas = Canvas(PIL, width)
    used: set[str] = set()
    plain = pictured = 0
    for k, frame in enumerate(_each(doc, numbering.each(doc, full=not lecture))):
        used |= _used(frame)
        tall = _layout(canvas, frame, k, total, width, fonts, lang, scale)[-1][0]
        if frame["pictures"]:
            pictured = max(pictured, tall)
        else:
            plain = max(plain, tall)
    legend = [mark for mark in LEGEND if mark in used]
    below = _legend([], canvas, legend, 0, round(60 * scale), fonts, lang, scale) \
        if legend else 0
    height = max(plain, pictured + below if pictured else 0)
    if height > 0xFFFF:
        raise GifError(f"a frame would be {height} pixels tall; a GIF holds at most 65535")
    palette = _palette(Image)
    colours = bytes(palette.getpalette()[:768])
    # the logical screen, every frame's colours (one fixed palette: Pillow's adaptive one
    # costs ~0.2 s a frame, and fixed colours keep a cell's colour from frame to frame),
    # and NETSCAPE2.0's loop for ever
    fp.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7,
                                     _index(colours, PAPER), 0) + colours +
             b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00")
    before: dict[tuple, tuple[int, int]] = {}
    written = 0
    for k, frame in enumerate(_each(doc, numbering.each(doc, full=not lecture))):
        frame["legend"] = legend
        items = []
        for y, paint in _layout(canvas, frame, k, total, width, fonts, lang, scale):
            rec = Ops(canvas)
            paint(rec, y)
            if rec.ops:
                items.append(rec)
        now = {tuple(rec.ops): (rec.top, rec.bottom) for rec in items}
        top, bottom = _changed(before, now, items, height, whole=k == 0)
        # the rows that changed, painted from scratch: every item over them, in order
        strip = Image.new("RGB", (width, bottom - top), PAPER)
        for rec in items:
            if rec.top < bottom and rec.bottom > top:
                canvas.paint(strip, rec.ops, top)
        part = strip.quantize(palette=palette, dither=Image.Dither.NONE)
        fp.write(_comment(frame, k, total))
        # disposal 1: the next frame is drawn over this one, so it stores only its rows
        for chunk in GifImagePlugin.getdata(part, offset=(0, top), disposal=1,
                                            duration=LAST_FRAME_MS if k == total - 1
                                            else FRAME_MS):
            fp.write(chunk)
        before = now
        written += 1
    assert written == total, (written, total)
    fp.write(b";")


def _comment(frame: dict[str, Any], k: int, total: int) -> bytes:
    """The frame's caption as a GIF89a Comment Extension (``step K / N: NAME``, the
    numbering of tracer/numbering.py in plain ASCII, as the spec asks): what a screen
    reader or a script reads of a frame without seeing its pixels."""
    ev: Event | None = frame["event"]
    text = f"step {k + 1} / {total}" + (f": {ev.name}" if ev is not None else "")
    data = text.encode("ascii", "backslashreplace")
    blocks = b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255]
                      for i in range(0, len(data), 255))
    return b"\x21\xfe" + blocks + b"\x00"


def _changed(before: dict[tuple, tuple[int, int]], now: dict[tuple, tuple[int, int]],
             items: list[Ops], height: int, whole: bool) -> tuple[int, int]:
    """The rows a frame repaints: those of the items it paints that the frame before
    did not, and of those it painted that this one does not, widened to every item
    that reaches into them (each is painted whole; painting part of a text is not
    possible), within the frame.  All of it for the first frame (the screen starts
    empty) and when a text's rows are not known (a bitmap font)."""
    if whole or any(rec.anywhere for rec in items):
        return 0, height
    rows = [now[key] for key in now.keys() - before.keys()] + \
           [before[key] for key in before.keys() - now.keys()]
    # nothing changed: the first row (a frame has a pixel at least)
    top, bottom = (min(r[0] for r in rows), max(r[1] for r in rows)) if rows else (0, 1)
    grown = True
    while grown:
        grown = False
        for rec in items:
            if rec.top < bottom and rec.bottom > top and \
                    (rec.top < top or rec.bottom > bottom):
                top, bottom = min(top, rec.top), max(bottom, rec.bottom)
                grown = True
    return max(0, top), min(height, max(bottom, top + 1))


def _index(colours: bytes, rgb: tuple[int, int, int]) -> int:
    """The palette index of colour ``rgb``."""
    return next(i for i in range(len(colours) // 3) if tuple(colours[3 * i:3 * i + 3]) == rgb)
