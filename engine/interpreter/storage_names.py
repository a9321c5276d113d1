"""Which of the user's names hold which storages, kept up to date statement by statement.

After each statement the Session records the user's tensors on the storages it touched
(a picture draws the base ``t`` of a view ``y`` and calls every tensor by its name),
which storages a new tensor shares, and which simulated-GPU storages no name reaches any
more.  Asking every name each time costs statements times names: a lesson of 3,000
``yN = t[i]`` lines asked 4.5 million times and recorded 3,000 names with each
statement.  This index is updated for the names a statement changed (those it bound or
wrote into, and the default names it made) and answers for one storage in time that
does not grow with the names on it.

A tensor's storage never changes (a TensorImpl keeps the StorageImpl it was made with;
``resize_`` grows that storage in place), so a name holding a tensor, or a tuple of
tensors, is indexed once when it is bound.  A name holding a list or a dict is read
again after every statement that stores into a subscript or augments a name: another
name may hold the same list and change it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from engine.binding.tensor import is_tensor, unpack
from engine.memory.cuda_lifetime import reachable_storages


class StorageNames:
    """The index: for each storage, the names reaching it (most recently bound last)."""

    def __init__(self, storage_of: Callable[[Any], Any]) -> None:
        self._storage_of = storage_of
        #: name -> the serials of the storages its value reaches (lists and tuples too)
        self._reach: dict[str, frozenset[int]] = {}
        #: storage serial -> the names reaching it, in the order they came to
        self._holders: dict[int, dict[str, None]] = {}
        #: names holding a mutable container: read again after every statement
        self._mutable: dict[str, None] = {}
        #: storage serial -> the names that are a tensor on it -> that tensor's serial,
        #: most recently bound last
        self._on: dict[int, dict[str, int]] = {}
        #: name -> (storage serial, tensor serial) of a name that is a tensor
        self._tensor: dict[str, tuple[int, int]] = {}
        #: storage serial -> tensor serial -> how many names are that tensor
        self._refs: dict[int, dict[int, int]] = {}
        #: storage serial -> names whose tensor covered the whole storage when bound
        self._bases: dict[int, dict[str, None]] = {}

    # -- keeping it up to date ---------------------------------------------------------
    def update(self, names: dict[str, Any], changed: Iterable[str], stores: bool = True
               ) -> dict[int, list[str]]:
        """Index ``changed`` anew, and every name holding a list or dict when the
        statement ``stores`` into a subscript or augments a name (the only ways a list
        changes in place: ``m = l; m[0] = x`` changes l too).  Returns the storages some
        name stopped reaching, each with the names that reached it before: the only
        storages that can have lost their last name."""
        todo = dict.fromkeys(changed)
        if stores:
            todo.update(self._mutable)
        new = {name: self._reaches(names[name]) if name in names else frozenset()
               for name in todo}
        dropped = {s for name, reach in new.items()
                   for s in self._reach.get(name, frozenset()) - reach}
        before = {s: list(self._holders.get(s, ())) for s in dropped}
        for name, reach in new.items():
            self._set(name, names.get(name), reach)
        return before

    def _set(self, name: str, value: Any, reach: frozenset[int]) -> None:
        old = self._reach.pop(name, frozenset())
        for s in old - reach:
            holders = self._holders[s]
            del holders[name]
            if not holders:
                del self._holders[s]
        for s in reach - old:
            self._holders.setdefault(s, {})[name] = None
        if reach:
            self._reach[name] = reach
        self._mutable.pop(name, None)
        if _mutable(value):
            self._mutable[name] = None
        was = self._tensor.pop(name, None)
        if was is not None:
            storage, tensor = was
            on = self._on[storage]
            del on[name]
            refs = self._refs[storage]
            refs[tensor] -= 1
            if not refs[tensor]:
                del refs[tensor]
            if not on:
                del self._on[storage], self._refs[storage]
            self._bases.get(storage, {}).pop(name, None)
        if is_tensor(value):
            impl = unpack(value)
            serial = impl.storage.serial
            self._tensor[name] = (serial, impl.serial)
            self._on.setdefault(serial, {})[name] = impl.serial
            refs = self._refs.setdefault(serial, {})
            refs[impl.serial] = refs.get(impl.serial, 0) + 1
            if _covers(impl):
                self._bases.setdefault(serial, {})[name] = None

    def _reaches(self, value: Any) -> frozenset[int]:
        """The serials of the storages ``value`` reaches: a tensor's, and those of the
        tensors inside lists, tuples and dicts."""
        return frozenset(reachable_storages([value], self._storage_of))

    # -- questions ----------------------------------------------------------------------
    def reached(self, serial: int) -> bool:
        """Whether some name reaches storage ``serial``."""
        return serial in self._holders

    def tensor_of(self, name: str) -> tuple[int, int] | None:
        """(storage serial, tensor serial) when ``name`` is a tensor."""
        return self._tensor.get(name)

    def count(self, serial: int) -> int:
        """How many names are a tensor on storage ``serial``."""
        return len(self._on.get(serial, ()))

    def tensors(self, serial: int) -> int:
        """How many different tensors those names are (``a = t`` is one tensor)."""
        return len(self._refs.get(serial, ()))

    def chosen(self, serial: int, names: dict[str, Any], first: Iterable[str], limit: int
               ) -> list[str]:
        """The names on storage ``serial`` a picture draws: ``first`` (those the
        statement used), the base (the name most recently bound to a tensor covering
        the whole storage, if it still does), then the most recently bound, until
        ``limit`` names (``first`` are all kept)."""
        on = self._on.get(serial, {})
        out = list(dict.fromkeys(n for n in first if n in on))
        for tried, name in enumerate(reversed(self._bases.get(serial, {}))):
            if tried == limit:
                break
            if _covers(unpack(names[name])):
                if name not in out:
                    out.append(name)
                break
        for name in reversed(on):
            if len(out) >= limit:
                break
            if name not in out:
                out.append(name)
        return out


def _mutable(value: Any) -> bool:
    """A list or dict, or a tuple holding one: another name may change it in place."""
    if isinstance(value, (list, dict)):
        return True
    return isinstance(value, tuple) and any(_mutable(v) for v in value)


def _covers(impl: Any) -> bool:
    """Whether the tensor is its storage's base: every element, contiguous, from 0
    (:func:`tracer.picture.covers` asks the same of a summary)."""
    v = impl.view
    numel = v.numel
    return (numel > 0 and v.offset == 0 and v.is_contiguous and
            impl.storage.nbytes // impl.dtype.itemsize == numel)
