"""The base of ``Tensor`` that type checkers see its installed methods on.

:func:`engine.binding.methods.install` puts Tensor's methods and attributes on the class
at import time, from the declarations; a type checker reads them from
``tensor_methods.pyi`` beside this file, which :mod:`engine.binding.stubs` writes from the
installed class (as torch's ``_TensorBase`` methods come from a generated ``.pyi``).
At run time this class is empty.
"""

from __future__ import annotations


class TensorMethods:
    """Empty at run time; see tensor_methods.pyi."""

    __slots__ = ()
