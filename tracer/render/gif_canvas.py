"""The canvas a GIF's frames are measured and painted on (tracer.render.gif).

A lesson's GIF has thousands of frames that draw the same statement, offsets, values
and notes again and again: the canvas renders each text's glyphs once (the mask
ImageDraw.text would blend, pasted in the text's ink: pixel for pixel the same), and
keeps the widths and wrapping of texts, all bounded so that a long lesson costs no
more memory than a short one.  A frame's layout items paint on :class:`Ops`, which
records what they would paint: a frame repaints only the items that changed.
"""

from __future__ import annotations

import math
from typing import Any

#: What a canvas keeps between frames: the glyphs of this many bytes of text, and the
#: widths and wrapping of this many texts (a GIF's frames repeat the same statement,
#: offsets and values; bounded, so a long lesson costs no more memory than a short one).
GLYPH_BYTES = 16 * 2**20
KEPT_TEXTS = 20_000

#: The lines a frame gives one text at most (the statement, a note, an error): a
#: statement of 100,000 characters would make a frame taller than a GIF can be.
MOST_LINES = 12


class Canvas:
    """Where frames are measured and painted, keeping what the frames draw again and
    again: each text's glyphs, width and wrapping (bounded)."""

    def __init__(self, PIL: Any, width: int) -> None:
        self.Image, self.ImageDraw = PIL.Image, PIL.ImageDraw
        self.width = width
        self.draw = self.ImageDraw.Draw(self.Image.new("RGB", (width, 1)))   # to measure
        self._glyphs: dict[tuple, tuple[Any, int, int] | None] = {}
        self._glyph_bytes = 0
        self._widths: dict[tuple, float] = {}
        self._wraps: dict[tuple, list[str]] = {}

    def textlength(self, text: str, font: Any) -> float:
        key = (font, text)
        found = self._widths.get(key)
        if found is None:
            found = self.draw.textlength(text, font=font)
            _keep(self._widths, key, found)
        return found

    def wrap(self, text: str, font: Any, width: float) -> list[str]:
        key = (font, text, width)
        found = self._wraps.get(key)
        if found is None:
            found = wrap(self, text, font, width)
            _keep(self._wraps, key, found)
        return found

    def glyph(self, xy: tuple[float, float], text: str, font: Any, anchor: str | None
              ) -> tuple[Any, int, int] | None:
        """What ImageDraw.text draws for ``text`` at ``xy``, rendered once: the mask
        and where its corner goes (``int(x) - dx``, ``int(y) - dy``); the same text at
        the same fraction of a pixel is the same mask.  None for a bitmap font, which
        takes no anchor: it is drawn as it is."""
        x, y = xy
        fx, fy = x - int(x), y - int(y)
        key = (font, text, anchor, fx, fy)
        if key in self._glyphs:
            return self._glyphs[key]
        try:
            left, top, right, bottom = font.getbbox(text, anchor=anchor)
        except TypeError:
            return None
        pad = 4
        dx, dy = pad - int(left), pad - int(top)
        mask = self.Image.new("L", (int(right) - int(left) + 2 * pad,
                                    int(bottom) - int(top) + 2 * pad), 0)
        self.ImageDraw.Draw(mask).text((dx + fx, dy + fy), text, font=font, fill=255,
                                       anchor=anchor)
        found = (mask, dx, dy)
        size = mask.size[0] * mask.size[1]
        while self._glyphs and self._glyph_bytes + size > GLYPH_BYTES:
            old = self._glyphs.pop(next(iter(self._glyphs)))
            self._glyph_bytes -= old[0].size[0] * old[0].size[1] if old else 0
        if size <= GLYPH_BYTES:
            self._glyphs[key] = found
            self._glyph_bytes += size
        return found

    def paint(self, image: Any, ops: list[tuple], top: int) -> None:
        """Paint recorded ops (:class:`Ops`) on ``image``, whose first row is row
        ``top`` of the frame: a text's mask pasted in its ink as ImageDraw's
        draw_bitmap blends it, rectangles by ImageDraw (their rows are whole pixels)."""
        draw = self.ImageDraw.Draw(image)
        for op in ops:
            if op[0] == "text":
                _, xy, text, font, fill, anchor = op
                found = self.glyph(xy, text, font, anchor)
                if found is None:
                    draw.text((xy[0], xy[1] - top), text, font=font, fill=fill, anchor=anchor)
                    continue
                mask, dx, dy = found
                image.paste(fill, (int(xy[0]) - dx, int(xy[1]) - dy - top), mask)
            else:
                kind, box, kwargs = op
                box = (box[0], box[1] - top, box[2], box[3] - top)
                getattr(draw, kind)(box, **dict(kwargs))


class Ops:
    """What a frame's layout item paints, recorded rather than painted: the ops are the
    item's identity (a frame repaints only the items that are not the same as in the
    frame before) and give the rows it covers."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.ops: list[tuple] = []
        self.top, self.bottom = 1 << 30, -(1 << 30)
        self.anywhere = False     # a bitmap font's text: where is not known

    def _rows(self, top: float, bottom: float) -> None:
        self.top = min(self.top, math.floor(top))
        self.bottom = max(self.bottom, math.ceil(bottom))

    def text(self, xy: tuple[float, float], text: str, font: Any, fill: Any,
             anchor: str | None = None) -> None:
        self.ops.append(("text", tuple(xy), text, font, tuple(fill), anchor))
        found = self.canvas.glyph(xy, text, font, anchor)
        if found is None:
            self.anywhere = True
            return
        mask, _, dy = found
        corner = int(xy[1]) - dy
        self._rows(min(corner, xy[1]), max(corner + mask.size[1], xy[1] + 1))

    def _shape(self, kind: str, box: Any, kwargs: dict[str, Any]) -> None:
        self.ops.append((kind, tuple(box), tuple(sorted(
            (k, tuple(v) if isinstance(v, list) else v) for k, v in kwargs.items()))))
        edge = kwargs.get("width", 1) + 1
        self._rows(box[1] - edge, box[3] + edge + 1)

    def rectangle(self, box: Any, **kwargs: Any) -> None:
        self._shape("rectangle", box, kwargs)

    def rounded_rectangle(self, box: Any, **kwargs: Any) -> None:
        self._shape("rounded_rectangle", box, kwargs)


def _keep(cache: dict, key: Any, value: Any) -> None:
    """Remember ``value``, forgetting the oldest entry past :data:`KEPT_TEXTS`."""
    if len(cache) >= KEPT_TEXTS:
        del cache[next(iter(cache))]
    cache[key] = value


def wrap(draw: Canvas, text: str, font: Any, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (at spaces; a word longer than
    a line is broken where it must), at most :data:`MOST_LINES` of them (the last one
    ending in ``…`` when text was left)."""
    lines: list[str] = []
    for para in text.split("\n"):
        if len(lines) > MOST_LINES:
            break
        line = ""
        for word in para.split(" "):
            if len(lines) > MOST_LINES:
                break
            trial = f"{line} {word}" if line else word
            if draw.textlength(trial, font) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while len(lines) <= MOST_LINES and len(word) > 1 and \
                    draw.textlength(word, font) > width:
                cut = _fits(draw, word, font, width)
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    if len(lines) > MOST_LINES:
        lines = lines[:MOST_LINES]
        lines[-1] += " …"
    return lines


def _fits(draw: Canvas, word: str, font: Any, width: float) -> int:
    """How many characters of ``word`` fit in ``width`` (at least one), found by halving:
    a word of 100,000 characters is measured a few times, not 100,000 times.  A line
    takes at most ``width`` + 1 of them (zero-width characters past that go on the
    next line)."""
    low, high = 1, min(len(word), int(width) + 1)
    while low < high:
        mid = (low + high + 1) // 2
        if draw.textlength(word[:mid], font) <= width:
            low = mid
        else:
            high = mid - 1
    return low
