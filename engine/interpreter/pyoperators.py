"""Python's binary and comparison operators as the evaluator applies them: by AST name,
each with its ``operator`` function, the special methods a tensor answers it with, and its
symbol (for Python's own error messages)."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple


COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "Gt": lambda a, b: a > b, "GtE": lambda a, b: a >= b, "Lt": lambda a, b: a < b,
    "LtE": lambda a, b: a <= b, "Eq": lambda a, b: a == b, "NotEq": lambda a, b: a != b,
}
REFLECT = {"Gt": "Lt", "GtE": "LtE", "Lt": "Gt", "LtE": "GtE", "Eq": "Eq", "NotEq": "NotEq"}


class Operator(NamedTuple):
    """A Python binary operator: its ``operator`` module function, the special methods a
    tensor answers it with, and its symbol."""

    fn: str
    dunder: str
    reflected: str
    inplace: str
    symbol: str

    @property
    def inplace_fn(self) -> str:
        return "i" + self.fn.rstrip("_") if self.fn.endswith("_") else "i" + self.fn


def _operator(fn: str, name: str, symbol: str) -> Operator:
    return Operator(fn, f"__{name}__", f"__r{name}__", f"__i{name}__", symbol)


#: Operators torch.Tensor has no in-place special method for (``x @= y`` rebinds x)
NO_INPLACE = frozenset({"MatMult"})
#: Python's binary operators by AST name.  A tensor operand answers through the engine
#: Tensor's own special method (from its declarations); one it lacks is refused.
OPERATORS: dict[str, Operator] = {
    "Add": _operator("add", "add", "+"), "Sub": _operator("sub", "sub", "-"),
    "Mult": _operator("mul", "mul", "*"), "Div": _operator("truediv", "truediv", "/"),
    "FloorDiv": _operator("floordiv", "floordiv", "//"), "Mod": _operator("mod", "mod", "%"),
    "Pow": _operator("pow", "pow", "**"), "BitAnd": _operator("and_", "and", "&"),
    "BitOr": _operator("or_", "or", "|"), "BitXor": _operator("xor", "xor", "^"),
    "LShift": _operator("lshift", "lshift", "<<"), "RShift": _operator("rshift", "rshift", ">>"),
    "MatMult": _operator("matmul", "matmul", "@"),
}
