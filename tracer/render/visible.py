"""User text made visible: the characters that would act instead of being shown.

Everything a lesson brings — its source, what it printed, the names and values it
binds, PyTorch's messages quoting its arguments — is data in every format tidx
writes.  Each format escapes its own syntax where it writes the text (DOT in
:class:`tracer.render.pinned.Digraph`, HTML with :func:`tracer.render.html.escape`,
mermaid's entities, markdown's backslashes, gdb's comment lines); what no syntax
escaping covers are the characters that are not text:

* control characters: NUL ends a C string (the in-process Graphviz reads its input
  as one), ESC drives a terminal, a carriage return overwrites a line, and XML (SVG)
  has no place for most of them;
* bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE ...), which make a page
  show the text in another order than it holds ("Trojan Source", CVE-2021-42574),
  and the other invisible format characters (zero-width space, BOM);
* line and paragraph separators (U+2028, U+2029), lone surrogates (no UTF-8 has
  them) and U+FFFE/U+FFFF (not characters of XML).

:func:`visible` writes each as Python writes it in a string literal (``\\x1b``,
``\\u202e``), so the page shows what the string holds.  Zero-width (non-)joiners
stay: they join letters and emoji, and move nothing.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

#: Format characters that only join or separate letters (emoji sequences, Indic
#: scripts): shown as they are.
_JOINERS = "\u200c\u200d"


@functools.cache
def _hidden() -> re.Pattern[str]:
    """One character class of everything :func:`visible` escapes (built once: the
    format characters come from the Unicode database, 0.06 s over every code point)."""
    ranges = ["\x00-\x09\x0b-\x1f\x7f-\x9f", "\ud800-\udfff", "\u2028\u2029",
              "\ufffe\uffff"]
    ranges += [re.escape(chr(c)) for c in range(sys.maxunicode + 1)
               if unicodedata.category(chr(c)) == "Cf" and chr(c) not in _JOINERS]
    return re.compile("[" + "".join(ranges) + "]")


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, *, newlines: bool = True) -> str:
    r"""``text`` with every control, bidirectional or invisible format character
    written as its Python escape; ``newlines``: keep ``\n`` (a printed tensor's lines),
    else write it as ``\n`` too (a one-line place).

    >>> visible("a\x00b\x1b[31m \u202eevil")
    'a\\x00b\\x1b[31m \\u202eevil'
    >>> visible("two\nlines"), visible("two\nlines", newlines=False)
    ('two\nlines', 'two\\nlines')
    >>> visible("t[0] → 5 这 👍🏽")          # text stays text
    't[0] → 5 这 👍🏽'
    """
    if text.isprintable():   # the usual case: str.isprintable() rejects every one of them
        return text
    out = _hidden().sub(_escape, text)
    return out if newlines else out.replace("\n", "\\n")


def one_line(text: str) -> str:
    r"""``text`` visible, its lines joined by a space and its runs of blanks made one
    (a statement over several lines of a file, as one heading).

    >>> one_line("torch.tensor([1,\n    2])\x07")
    'torch.tensor([1, 2])\\x07'
    """
    return " ".join(visible(text).split())
