"""The JSON view: the trace document as text (the public format, docs/trace-format.md)."""

from __future__ import annotations

import json
import re
from typing import Any

#: A lone surrogate (a Python string may hold one: ``s = "\ud800"``) has no UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")


def render(doc: dict[str, Any]) -> str:
    r"""Stable, human-diffable JSON: keys in recording order, two-space indent; text as
    it is (``ensure_ascii=False``), but a lone surrogate as its ``\uXXXX`` escape, so
    the document encodes as UTF-8 and reads back to the same strings.

    >>> print(render({"s": "\ud800 é"}))
    {
      "s": "\ud800 é"
    }
    <BLANKLINE>
    """
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
