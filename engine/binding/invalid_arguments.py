"""The TypeError text of a call no signature accepts: torch/csrc/utils/invalid_arguments.cpp.

``format_invalid_args`` lists every signature and, for those with the right number of
arguments, which arguments did not match (``!list of [bool]!``), in the exact words
and order torch prints; keyword arguments come in the order libstdc++'s
``std::unordered_map`` iterates them (:func:`unordered_map_order`).  Types are named
by :func:`engine.core.errors.tp_name`, as ``Py_TYPE(obj)->tp_name`` names them.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Sequence


from engine.core.errors import torch_error, tp_name


_MUL = 0xC6A4A7935BD1E995
_M64 = (1 << 64) - 1


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash_bytes(data: bytes, seed: int = 0xC70F6907) -> int:
    """libstdc++'s std::_Hash_bytes (std::hash<std::string>), 64-bit."""
    n = len(data)
    h = (seed ^ (n * _MUL)) & _M64
    aligned = n & ~7
    for i in range(0, aligned, 8):
        d = _shift_mix(int.from_bytes(data[i:i + 8], "little") * _MUL & _M64) * _MUL & _M64
        h = (h ^ d) * _MUL & _M64
    if n & 7:
        h = (h ^ int.from_bytes(data[aligned:], "little")) * _MUL & _M64
    h = _shift_mix(h) * _MUL & _M64
    return _shift_mix(h)


_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79,
           83, 89, 97, 103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241,
           257, 277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761,
           823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179,
           2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953, 6427,
           6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411,
           17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043,
           45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203, 99733)
_FAST_BKT = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _next_bkt(n: int) -> int:
    """_Prime_rehash_policy::_M_next_bkt (max load factor 1: next resize = the count)."""
    if n < len(_FAST_BKT):
        return _FAST_BKT[n]
    return _PRIMES[min(bisect.bisect_left(_PRIMES, n, 6), len(_PRIMES) - 1)]


def _insert_bucket_begin(order: list[tuple[str, int]], node: tuple[str, int],
                         n_bkt: int) -> None:
    """A node goes first in its bucket; into an empty bucket, first of the whole list."""
    b = node[1] % n_bkt
    first = next((i for i, (_, h) in enumerate(order) if h % n_bkt == b), 0)
    order.insert(first, node)


def unordered_map_order(keys: Sequence[str]) -> list[str]:
    """The iteration order of a ``std::unordered_map<std::string, ...>`` after
    inserting ``keys`` in this order: libstdc++'s hashtable (prime rehash policy,
    a node goes first in its bucket; an empty bucket's node first of all).

    >>> unordered_map_order(["mask", "value"]), unordered_map_order(["a", "b", "c"])
    (['value', 'mask'], ['c', 'b', 'a'])
    """
    order: list[tuple[str, int]] = []        # the singly linked list, begin first
    n_bkt, next_resize = 1, 0
    for key in keys:
        h = _hash_bytes(key.encode("utf-8"))
        n_elt = len(order)
        if n_elt + 1 > next_resize:             # _Prime_rehash_policy::_M_need_rehash
            min_bkts = max(n_elt + 1, 0 if next_resize else 11)
            if min_bkts >= n_bkt:
                n_bkt = next_resize = _next_bkt(max(min_bkts + 1, n_bkt * 2))
                rehashed: list[tuple[str, int]] = []     # _M_rehash_aux, in list order
                for node in order:
                    _insert_bucket_begin(rehashed, node, n_bkt)
                order = rehashed
            else:
                next_resize = n_bkt
        _insert_bucket_begin(order, (key, h), n_bkt)
    return [k for k, _ in order]


@dataclass
class _Option:
    arguments: list[tuple[str, str]]          # (name, type name) as _parseOption reads them
    is_variadic: bool = False
    has_out: bool = False
    printable: str = ""


def _parse_option(option: str, kwargs: dict) -> _Option:
    """_parseOption: the parts of a toString() text.  It splits on ", " and takes the
    last word as the name, so ``*`` counts as an argument and ``bool x = False`` is
    an argument named ``False`` of type ``bool x =``, as in torch."""
    if option == "no arguments":
        return _Option([], printable=option)
    printable = option
    inner = option[1:-1]
    has_out = False
    out_pos = printable.find("#")
    if out_pos != -1:
        if "out" in kwargs:
            printable = printable[:out_pos] + "*, " + printable[out_pos + 1:]
        elif out_pos >= 2:
            printable = printable[:out_pos - 2] + ")"
        else:
            printable = printable[:out_pos] + ")"
        has_out = True
    arguments = []
    for arg in inner.split(", "):
        start = 0
        if arg[start:start + 1] == "#":
            start += 1
        nullable = False
        if arg[start:start + 1] == "[":
            nullable = True
            start += 1
            arg = arg[:len(arg) - len(" or None]")]
        type_end = arg.rfind(" ")              # npos: the name is the whole text
        name = arg[type_end + 1:]
        if "..." in arg:
            type_end -= 4
        type_name = arg[start:] if type_end == -1 else arg[start:type_end]
        arguments.append((name, ("?" if nullable else "") + type_name))
    return _Option(arguments, "..." in inner, has_out, printable)


def _type_matches(type_name: str, obj: Any) -> bool:
    """_buildType(...)->is_matching: by Python type name only."""
    if type_name.startswith("?"):
        return obj is None or _type_matches(type_name[1:], obj)
    name = tp_name(obj)
    if type_name == "float":
        return name in ("float", "int", "long")
    if type_name == "int":
        return name in ("int", "long")
    if type_name.startswith("tuple["):
        types = type_name[6:-1].split(",")
        return (isinstance(obj, tuple) and len(obj) == len(types)
                and all(_type_matches(t, o) for t, o in zip(types, obj)))
    if type_name.startswith("sequence["):
        sub = type_name[9:-1]
        try:
            return all(_type_matches(sub, o) for o in obj)
        except TypeError:
            return False
    return name == type_name


def _argcount_match(option: _Option, args: tuple, kwargs: dict) -> bool:
    expected = len(option.arguments)
    got = len(args) + len(kwargs)
    if option.has_out and "out" not in kwargs:
        expected -= 1
    return got == expected or (option.is_variadic and got > expected)


def _formatted_arg_desc(option: _Option, args: tuple, kwargs: dict, tty: bool) -> str:
    red, reset_red, green, reset_green = (("\33[31;1m", "\33[0m", "\33[32;1m", "\33[0m")
                                          if tty else ("!", "!", "", ""))
    parts = []
    for i in range(len(args) + len(kwargs)):
        is_kwarg = i >= len(args)
        if is_kwarg and option.arguments[i][0] not in kwargs:
            raise torch_error(RuntimeError, "unordered_map::at")    # std::out_of_range
        arg = kwargs[option.arguments[i][0]] if is_kwarg else args[i]
        if i < len(option.arguments):
            matching = _type_matches(option.arguments[i][1], arg)
        else:
            matching = option.is_variadic and _type_matches(option.arguments[-1][1], arg)
        text = (green if matching else red)
        if is_kwarg:
            text += option.arguments[i][0] + "="
        if isinstance(arg, (tuple, list)):
            inner = ", ".join(tp_name(x) for x in arg)
            if isinstance(arg, tuple):
                text += f"{tp_name(arg)} of ({inner}{',' if len(arg) == 1 else ''})"
            else:
                text += f"{tp_name(arg)} of [{inner}]"
        else:
            text += tp_name(arg)
        text += reset_green if matching else reset_red
        parts.append(text + ", ")
    result = "".join(parts)
    if args:
        result = result[:-2]
    return f"({result})"


def _arg_desc(args: tuple, kwargs: dict) -> str:
    result = "".join(tp_name(a) + ", " for a in args)
    result += "".join(f"{k}={tp_name(kwargs[k])}, " for k in unordered_map_order(list(kwargs)))
    if args:
        result = result[:-2]
    return f"({result})"


def _try_match_kwargs(option: _Option, kwargs: dict) -> list[str]:
    start = len(option.arguments) - len(kwargs)
    if option.has_out and "out" not in kwargs:
        start -= 1
    start = max(start, 0)
    names = [n for n, _ in option.arguments[start:]]
    return [k for k in unordered_map_order(list(kwargs)) if k not in names]


def format_invalid_args(args: tuple, kwargs: dict, function_name: str,
                        options: Sequence[str], tty: bool = False) -> str:
    """invalid_arguments.cpp ``format_invalid_args``.  Torch marks mismatched
    arguments in red on a terminal (``tty``) and between ``!`` otherwise; tidx
    prints the ``!`` form, its errors being data shown in a trace."""
    msg = f"{function_name} received an invalid combination of arguments - "
    if len(options) == 1:
        option = _parse_option(options[0], kwargs)
        unmatched = _try_match_kwargs(option, kwargs) if kwargs else []
        if unmatched:
            msg += "got unrecognized keyword arguments: " + ", ".join(unmatched)
        else:
            msg += "got "
            if _argcount_match(option, args, kwargs):
                msg += _formatted_arg_desc(option, args, kwargs, tty)
            else:
                msg += _arg_desc(args, kwargs)
            msg += ", but expected " + option.printable
        return msg
    msg += f"got {_arg_desc(args, kwargs)}, but expected one of:\n"
    for option_str in options:
        option = _parse_option(option_str, kwargs)
        msg += f" * {option.printable}\n"
        if _argcount_match(option, args, kwargs):
            unmatched = _try_match_kwargs(option, kwargs) if kwargs else []
            if unmatched:
                msg += ("      didn't match because some of the keywords were incorrect: "
                        + ", ".join(unmatched) + "\n")
            else:
                msg += ("      didn't match because some of the arguments have invalid "
                        "types: " + _formatted_arg_desc(option, args, kwargs, tty) + "\n")
    return msg
