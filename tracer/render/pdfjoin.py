"""Join single-page PDFs (Graphviz's, one per statement) into one PDF of many pages.

Graphviz writes one page per graph, and a lesson's handout wants a page per
statement.  No PDF library is a dependency, and this needs little: each input is
read through its cross-reference table (the byte offset of every object, so a
stream's binary data is never parsed), its objects are renumbered after the
previous input's, and each input's page tree becomes a child of one new page tree
(a PDF page tree may nest, so the inputs' own trees stay as they are).  Only the
classic ``xref`` table that Graphviz's cairo writes is read; anything else is
refused with :class:`PdfError`.
"""

from __future__ import annotations

import re

_REF = re.compile(rb"(\d+) (\d+) R\b")
_OBJ = re.compile(rb"(\d+) (\d+) obj\b")


class PdfError(ValueError):
    """An input this joiner cannot read."""


def _objects(pdf: bytes) -> tuple[dict[int, bytes], int]:
    """The bodies (between ``obj`` and ``endobj``) of every object, and the root's number."""
    found = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf)
    if not found or not pdf.startswith(b"%PDF-"):
        raise PdfError("not a PDF with a startxref")
    at = int(found.group(1))
    head = re.compile(rb"xref\s+").match(pdf, at)
    if head is None:
        raise PdfError("no classic xref table (a cross-reference stream?)")
    at = head.end()
    offsets: dict[int, int] = {}
    while (sub := re.compile(rb"(\d+) (\d+)\s*\n").match(pdf, at)) is not None:
        first, count = int(sub.group(1)), int(sub.group(2))
        at = sub.end()
        for k in range(count):
            entry = pdf[at:at + 20]
            if entry[17:18] == b"n":
                offsets[first + k] = int(entry[:10])
            at += 20
    trailer = pdf[at:]
    root = re.search(rb"/Root (\d+) 0 R", trailer)
    if root is None or not trailer.lstrip().startswith(b"trailer"):
        raise PdfError("no trailer with a /Root")
    bodies: dict[int, bytes] = {}
    starts = sorted(set(offsets.values())) + [at]
    for num, off in offsets.items():
        end = starts[starts.index(off) + 1]
        m = _OBJ.match(pdf, off)
        if m is None or int(m.group(1)) != num:
            # cairo lists numbers it reserved and never wrote as in use, all at the
            # first object's offset: nothing refers to them, so they are dropped
            continue
        body = pdf[m.end():end]
        stop = body.rfind(b"endobj")
        if stop < 0:
            raise PdfError(f"object {num} has no endobj")
        bodies[num] = body[:stop]
    return bodies, int(root.group(1))


def _renumber(body: bytes, shift: int) -> bytes:
    """Shift every indirect reference outside stream data."""
    cut = body.find(b"stream")
    head, rest = (body, b"") if cut < 0 else (body[:cut], body[cut:])
    head = _REF.sub(lambda m: b"%d %s R" % (int(m.group(1)) + shift, m.group(2)), head)
    return head + rest


def join(pdfs: list[bytes]) -> bytes:
    """One PDF whose pages are the pages of ``pdfs``, in order."""
    if len(pdfs) == 1:
        return pdfs[0]
    objects: dict[int, bytes] = {}
    kids: list[int] = []
    total = 0
    next_num = 2                      # 1: the new catalog, then the new page tree
    parts = [_objects(pdf) for pdf in pdfs]
    tree_num = 2 + sum(max(bodies) for bodies, _ in parts)
    for bodies, root in parts:
        shift = next_num - 1
        catalog = bodies[root]
        pages = re.search(rb"/Pages (\d+) 0 R", catalog)
        if pages is None:
            raise PdfError("a catalog without /Pages")
        pages_num = int(pages.group(1))
        count = re.search(rb"/Count (\d+)", bodies[pages_num])
        if count is None:
            raise PdfError("a page tree without /Count")
        for num, body in bodies.items():
            if num == root:           # its catalog is replaced by the joined one
                continue
            body = _renumber(body, shift)
            if num == pages_num:      # its page tree now hangs under the joined one
                body = body.replace(b"<<", b"<< /Parent %d 0 R" % tree_num, 1)
            objects[num + shift] = body
        kids.append(pages_num + shift)
        total += int(count.group(1))
        next_num += max(bodies)
    objects[1] = b"\n<< /Type /Catalog /Pages %d 0 R >>\n" % tree_num
    objects[tree_num] = (b"\n<< /Type /Pages /Kids [%s] /Count %d >>\n"
                         % (b" ".join(b"%d 0 R" % k for k in kids), total))
    out = bytearray(b"%PDF-1.5\n%\xb5\xed\xae\xfb\n")
    where: dict[int, int] = {}
    for num in sorted(objects):
        where[num] = len(out)
        out += b"%d 0 obj" % num + objects[num] + b"endobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += (b"%010d 00000 n \n" % where[num]) if num in where else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def page_count(pdf: bytes) -> int:
    """The /Count of the document's page tree, read through its xref table."""
    bodies, root = _objects(pdf)
    pages = re.search(rb"/Pages (\d+) 0 R", bodies[root])
    count = re.search(rb"/Count (\d+)", bodies[int(pages.group(1))]) if pages else None
    if count is None:
        raise PdfError("no page tree")
    return int(count.group(1))
