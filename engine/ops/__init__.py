"""The aten operators: each declared beside its kernel (engine.dispatch.declarations).

Every module of this package is imported here, so a new family of operators is a new
module and nothing else: its declarations register as it is imported.  The modules are
listed with ``os.scandir``, in name order as ``pkgutil.iter_modules`` gives them:
pkgutil imports ``inspect``, ~12 ms of every cold start.
"""

import importlib
import os

for _name in sorted(e.name[:-3] for e in os.scandir(__path__[0])
                    if e.name.endswith(".py") and e.name != "__init__.py"):
    importlib.import_module(f"{__name__}.{_name}")
