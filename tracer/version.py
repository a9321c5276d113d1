"""tidx's version, the one place it is written: pyproject.toml reads it from here
(``[tool.setuptools.dynamic]``), and a document records it without asking
``importlib.metadata``, whose import alone cost ~30 ms of every cold ``tidx explain``."""

__version__ = "0.1.0"
