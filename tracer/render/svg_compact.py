"""The Graphviz SVG of a diagram, as small as the HTML stepper can carry it.

A 32-statement lesson's sequence diagram is 1.7 MB of SVG, two thirds of its HTML
page; most of it draws nothing: a comment and a ``<title>`` naming every node and
edge (``p12->p13``), an ``id`` on every group, the font family and ``text-anchor=
"start"`` repeated on each of 2,000 texts, and coordinates to 1/100 of a point.
:func:`compact` drops those and writes coordinates to 1/10 of a point (a pixel is
3/4 of a point: nothing moves by a visible amount), which leaves about 70%;
:func:`deflated` packs that with raw DEFLATE in base64 (about 10% of the SVG), which
the stepper's script inflates with the browser's own ``DecompressionStream``.

Pure text in, text out; what Graphviz wrote about the user's text (labels, tooltips,
links) is kept byte for byte: only whole attributes and elements are matched.
"""

from __future__ import annotations

import base64
import re
import zlib

#: Graphviz's per-element comment and node/edge title: no picture, no tooltip the
#: diagram sets (those are ``xlink:title`` on its links, kept).
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
_TITLE = re.compile(r"<title>[^<]*</title>\n?")
#: the ids Graphviz numbers its groups by (nothing refers to them)
_GROUP_ID = re.compile(r'<g id="(?:graph|node|edge|clust|a_node|a_edge)\d+(?:_\d+)?"')
#: coordinates with more than one decimal, inside the attributes that hold only numbers
_GEOMETRY = re.compile(r' (?:points|d|x|y|cx|cy|rx|ry)="[^"]*"')
_DECIMALS = re.compile(r"(\d)\.(\d)\d+")
_FONT = re.compile(r' font-family="([^"]*)"')


def compact(svg: str) -> str:
    """``svg`` (Graphviz's, from ``<svg`` on) drawing the same, smaller.  The most used
    font family moves to the ``<svg>`` element, where the texts without one inherit it.

    >>> compact('<svg width="1pt">\\n<!-- a&#45;&gt;b -->\\n<g id="edge1" class="edge">'
    ...         '<title>a&#45;&gt;b</title>\\n<path d="M90.361,-26.1149"/>'
    ...         '<text text-anchor="start" x="1.25" font-family="Courier" '
    ...         'font-size="12.00">x 1.257</text></g></svg>')
    '<svg font-family="Courier" width="1pt">\\n<g class="edge"><path d="M90.3,-26.1"/><text x="1.2" font-size="12">x 1.257</text></g></svg>'
    """
    out = _COMMENT.sub("", svg)
    out = _TITLE.sub("", out)
    out = _GROUP_ID.sub("<g", out)
    out = out.replace(' text-anchor="start"', "")
    out = re.sub(r' font-size="(\d+)\.00"', r' font-size="\1"', out)
    out = _GEOMETRY.sub(lambda m: _DECIMALS.sub(r"\1.\2", m.group(0)), out)
    fonts = _FONT.findall(out)
    if fonts:
        common = max(set(fonts), key=fonts.count)
        out = out.replace(f' font-family="{common}"', "")
        out = out.replace("<svg", f'<svg font-family="{common}"', 1)
    return out


def deflated(svg: str) -> str:
    """``svg`` as raw DEFLATE (``DecompressionStream("deflate-raw")``) in base64."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(packer.compress(svg.encode()) + packer.flush()).decode("ascii")
