"""A grammar of small tidx programs, for the fuzz test of issue #13.

Hypothesis draws programs of 1-4 statements from tidx's whole statement surface:
factories, views, every kind of index, subscript assignment, in-place operators,
methods whose result is not a tensor, operators on tensors and numbers, arguments of
the wrong type, huge and negative numbers, deep nesting in ``torch.tensor``, and any
method or ``torch.*`` function tidx binds called with arguments drawn from a pool.
Every program is valid Python in the allow-listed syntax ``tidx explain`` takes.

The vocabulary is read from the engine (``engine.binding.methods.PUBLIC``,
``engine.binding.functions.FUNCTIONS``, the default names), so a method or function
main adds is drawn as soon as it exists; a few names tidx does not bind (``add_``,
``mul_``) are drawn too, to check that tidx refuses them in one line.

The grammar tracks the shape and dtype of the names it knows (the defaults, and what
factories and simple views make) only to draw arguments that are mostly in range; it
never predicts a result: what a program should give is real PyTorch's answer.

``hazards=True`` (the long local hunt only, where each program runs in a worker
process under a time limit) also puts huge numbers where a view's sizes go
(``expand``, ``as_strided``): a view of 10**12 elements allocates nothing, but
reducing or listing it would run for minutes in tidx and in torch alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from engine.binding.functions import FUNCTIONS
from engine.binding.methods import PUBLIC
from engine.interpreter.defaults import DEFAULTS

#: The defaults' shapes and dtypes (engine/interpreter/defaults.py), to draw arguments in
#: range; tests/interpreter/test_fuzz_programs.py checks this table against the engine.
DEFAULT_TENSORS: dict[str, tuple[tuple[int, ...], str]] = {
    "t": ((3, 3), "int64"), "rows": ((2,), "int64"), "cols": ((2,), "int64"),
    "a": ((3, 2, 2), "int64"), "index_0": ((3,), "bool"), "index_1": ((2,), "bool"),
    "index_2": ((3, 2), "bool"), "b": ((3, 2), "int64"), "idx_0": ((2, 2), "int64"),
    "idx_1": ((2,), "int64"), "x": ((3, 4), "float32"), "indices": ((2,), "int64"),
}
assert set(DEFAULT_TENSORS) == {d.name for d in DEFAULTS}

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
          "float64")
DTYPE_ALIASES = ("long", "int", "float", "double", "half", "short")
#: Numbers past every limit: int64's ends and beyond, sizes no memory holds.
HUGE = ("2**63", "2**63 - 1", "-2**63", "-2**63 - 1", "2**64", "10**12", "-(10**12)",
        "2**62")
#: In-place arithmetic (refused until issue 14 bound it; run and compared since).
UNBOUND_METHODS = ("add_", "mul_", "sub_", "div_")
#: Python's augmented operators, as `t += x` writes them.
AUGMENTED = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^")


#: Seed 003's emulated NPU library (samples/seed_003_pypto_index_select.py), right and wrong;
#: programs that use it are not compared with torch, which has no pypto.
PYPTO_STATEMENTS = (
    "pypto.set_vec_tile_shapes(2, 4)", "pypto.set_vec_tile_shapes(3, 2)",
    "pypto.set_vec_tile_shapes(0)", "pypto.set_ub_size(2**63)",
    "p = pypto.tensor([2], pypto.DT_INT32, data=[0, 2])",
    "pypto.index_select(pypto.tensor([3, 4], pypto.DT_FP32), 0, "
    "pypto.tensor([2], pypto.DT_INT32, data=[0, 2]))",
    "pypto.index_select(x, 1, indices)", "pypto.tensor([2], pypto.DT_FP16)",
    "pypto.from_engine(t)", "pypto.index_select(pypto.from_engine(x), 0, "
    "pypto.from_engine(indices))", "pypto.tensor([-1], pypto.DT_INT8)",
)


@dataclass(frozen=True)
class Program:
    statements: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.statements)

    def __repr__(self) -> str:  # hypothesis prints the falsifying example with this
        return f"Program({self.text!r})"


class Env:
    """The names a program has bound so far: tensors (shape or None, dtype or None)
    and other values (their Python kind)."""

    def __init__(self) -> None:
        self.tensors: dict[str, tuple[tuple[int, ...] | None, str | None]] = dict(
            DEFAULT_TENSORS)
        self.values: dict[str, str] = {}
        self.counter = 0

    def fresh(self) -> str:
        self.counter += 1
        return f"v{self.counter}"

    def bind_tensor(self, name: str, shape, dtype) -> None:
        self.values.pop(name, None)
        self.tensors[name] = (shape, dtype)

    def bind_value(self, name: str, kind: str) -> None:
        self.tensors.pop(name, None)
        self.values[name] = kind


# -- numbers and small pieces -----------------------------------------------------------------
def small_ints(lo: int = -3, hi: int = 4):
    return st.integers(lo, hi).map(str)


def ints(huge: bool = True):
    """Mostly small, sometimes negative, sometimes past every limit."""
    options = [small_ints()] * 4
    if huge:
        options.append(st.sampled_from(HUGE))
    return st.one_of(*options)


def floats():
    return st.sampled_from(["0.5", "-1.5", "2.0", "0.0", "1e308 * 10", "-(1e308 * 10)",
                            "1e-45", "3.25"])


def scalars(huge: bool = True):
    return st.one_of(ints(huge), floats(), st.sampled_from(["True", "False"]))


def dtypes():
    return st.one_of(st.sampled_from(DTYPES), st.sampled_from(DTYPE_ALIASES)).map(
        lambda d: f"torch.{d}")


def strings():
    return st.sampled_from(['"a"', '"sum"', '"cpu"', '"float32"', '""'])


def dim_for(shape, *, extra: int = 1):
    """A dim of ``shape``: mostly valid (negative ones too), sometimes out of range."""
    n = len(shape) if shape is not None else 2
    valid = st.integers(-n, n - 1) if n else st.sampled_from([0, -1])
    wrong = st.sampled_from(sorted({-n - extra, n - 1 + extra, n}))
    return st.one_of(valid, valid, valid, wrong).map(str)


def index_in(size):
    size = 3 if size is None else size
    return st.integers(-size - 1, size).map(str)


def shape_tuples(max_dims: int = 3, huge: bool = False):
    """A shape as a Python tuple of ints (small, with a 0 now and then)."""
    item = st.integers(0, 3) if not huge else st.one_of(
        st.integers(0, 3), st.integers(0, 3), st.sampled_from(["-1", "-2", *HUGE]))
    return st.lists(item, min_size=0, max_size=max_dims)


def shape_text(parts, style: str) -> str:
    """``2, 3`` / ``(2, 3)`` / ``[2, 3]`` / ``size=(2, 3)``."""
    parts = [str(p) for p in parts]
    tup = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if style == "varargs" and parts:
        return ", ".join(parts)
    if style == "list":
        return "[" + ", ".join(parts) + "]"
    if style == "kw":
        return f"size={tup}"
    return tup


def _known_shape(parts) -> tuple[int, ...] | None:
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        return None
    return shape if all(s >= 0 for s in shape) else None


# -- nested lists (torch.tensor data, list indices) ---------------------------------------------
def nested_lists(leaf, max_depth: int = 3):
    """Rectangular and ragged nested lists of ``leaf`` texts."""
    return st.recursive(leaf, lambda inner: st.lists(inner, min_size=0, max_size=3).map(
        lambda xs: "[" + ", ".join(xs) + "]"), max_leaves=8).filter(lambda s: len(s) < 200)


def rectangular(leaf, shape) -> st.SearchStrategy[str]:
    if not shape:
        return leaf
    return st.lists(rectangular(leaf, shape[1:]), min_size=shape[0], max_size=shape[0]).map(
        lambda xs: "[" + ", ".join(xs) + "]")


@st.composite
def tensor_data(draw, huge: bool = True):
    """``torch.tensor``'s data: a scalar, a rectangular list, a ragged one, or deep."""
    leaf = draw(st.sampled_from(["int", "float", "bool", "mixed", "huge"] if huge
                                else ["int", "float", "bool", "mixed"]))
    leaves = {"int": small_ints(-5, 9), "float": floats(), "bool": st.sampled_from(
        ["True", "False"]), "mixed": scalars(huge=False), "huge": ints(huge=True)}[leaf]
    kind = draw(st.sampled_from(["scalar", "rect", "rect", "rect", "ragged", "deep"]))
    if kind == "scalar":
        return draw(leaves), ()
    if kind == "rect":
        shape = tuple(draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))
        return draw(rectangular(leaves, shape)), shape
    if kind == "ragged":
        return draw(nested_lists(leaves)), None
    depth = draw(st.sampled_from([5, 20, 64, 65, 200, 1200]))
    return "[" * depth + draw(leaves) + "]" * depth, None


# -- tensors --------------------------------------------------------------------------------
def tensor_name(env: Env):
    return st.sampled_from(sorted(env.tensors))


@st.composite
def factory(draw, env: Env, huge: bool = True):
    """A factory call: (text, shape or None, dtype or None)."""
    kind = draw(st.sampled_from(["zeros", "ones", "empty", "full", "arange", "tensor",
                                 "tensor", "randn", "rand", "randint", "empty_strided",
                                 "eye", "randperm", "scalar_tensor", "like"]))
    parts = draw(shape_tuples(huge=huge and draw(st.integers(0, 5)) == 0))
    style = draw(st.sampled_from(["varargs", "tuple", "list", "kw"]))
    shape = _known_shape(parts)
    dtype = None
    kwargs = []
    if draw(st.integers(0, 2)) == 0:
        dtype = draw(st.sampled_from(DTYPES))
        kwargs.append(f"dtype=torch.{dtype}")
    if draw(st.integers(0, 12)) == 0:
        kwargs.append(draw(st.sampled_from(['device="meta"', 'device="cpu"',
                                            "requires_grad=True"])))
    kw = "".join(", " + k for k in kwargs)
    if kind in ("zeros", "ones", "empty", "randn", "rand"):
        return f"torch.{kind}({shape_text(parts, style)}{kw})", shape, dtype or "float32"
    if kind == "full":
        fill = draw(scalars(huge))
        style = "tuple" if style == "varargs" else style
        return f"torch.full({shape_text(parts, style)}, {fill}{kw})", shape, dtype
    if kind == "arange":
        args = draw(st.lists(st.one_of(small_ints(-4, 8), floats(), *(
            [st.sampled_from(HUGE)] if huge else [])), min_size=1, max_size=3))
        return f"torch.arange({', '.join(args)}{kw})", None, dtype
    if kind == "tensor":
        data, shape = draw(tensor_data(huge))
        return f"torch.tensor({data}{kw})", shape, dtype
    if kind == "randint":
        high = draw(st.one_of(small_ints(1, 9), *([st.sampled_from(HUGE)] if huge else [])))
        low = draw(st.sampled_from(["", "-3, ", "0, ", "5, "]))
        style = "tuple" if style in ("varargs", "kw") else style
        return (f"torch.randint({low}{high}, {shape_text(parts, style)}{kw})", shape,
                dtype or "int64")
    if kind == "empty_strided":
        stride = st.one_of(st.integers(0, 4).map(str), st.integers(-1, 4).map(str),
                           *([st.sampled_from(HUGE)] if huge else []))
        strides = draw(st.lists(stride, min_size=len(parts), max_size=len(parts))
                       if draw(st.integers(0, 4)) else st.lists(stride, max_size=3))
        return (f"torch.empty_strided({shape_text(parts, 'tuple')}, "
                f"{shape_text(strides, 'tuple')}{kw})", shape, dtype or "float32")
    if kind == "eye":
        n = draw(st.one_of(small_ints(-1, 4), *([st.sampled_from(HUGE)] if huge else [])))
        m = draw(st.sampled_from(["", ", 2", ", 0"]))
        return f"torch.eye({n}{m}{kw})", None, dtype or "float32"
    if kind == "randperm":
        n = draw(st.one_of(small_ints(-1, 6), *([st.sampled_from(HUGE)] if huge else [])))
        return f"torch.randperm({n}{kw})", None, dtype or "int64"
    if kind == "scalar_tensor":
        return f"torch.scalar_tensor({draw(scalars(huge))}{kw})", (), dtype or "float32"
    # the _like factories take another tensor's shape
    src = draw(tensor_name(env))
    like = draw(st.sampled_from(["zeros_like", "ones_like", "empty_like", "rand_like",
                                 "randn_like", "full_like", "randint_like"]))
    args = {"full_like": f", {draw(scalars(huge))}", "randint_like": ", 5"}.get(like, "")
    return f"torch.{like}({src}{args}{kw})", env.tensors[src][0], dtype


def _slice_part(size, huge):
    return st.one_of(st.just(""), st.just(""), index_in(size), index_in(size),
                     *([st.sampled_from(HUGE)] if huge else []))


@st.composite
def slice_text(draw, size=None, huge: bool = True):
    start, stop = draw(_slice_part(size, huge)), draw(_slice_part(size, huge))
    step = draw(st.one_of(st.just(None), st.just(None), st.sampled_from(["1", "2", "3"]),
                          st.sampled_from(["1", "2", "3"]),
                          st.sampled_from(["0", "-1", "2**63", "10**12", "2**63 - 1"])))
    return f"{start}:{stop}" + (f":{step}" if step is not None else "")


@st.composite
def index_item(draw, env: Env, size=None, huge: bool = True, allow_ellipsis: bool = True):
    """One index of every kind torch takes (and a few it refuses)."""
    kinds = ["int", "int", "neg", "slice", "slice", "slice", "none", "bool", "long_tensor",
             "bool_tensor", "int_list", "bool_list", "nested", "name", "zero_dim"]
    if allow_ellipsis:
        kinds.append("ellipsis")
    kind = draw(st.sampled_from(kinds))
    if draw(st.integers(0, 9)) == 0:
        kind = "huge" if huge and draw(st.booleans()) else "wrong"
    n = 3 if size is None else size
    if kind == "int":
        return draw(index_in(size))
    if kind == "neg":
        return str(-draw(st.integers(1, n + 1)))
    if kind == "slice":
        return draw(slice_text(size, huge))
    if kind == "none":
        return "None"
    if kind == "ellipsis":
        return draw(st.sampled_from(["...", "...", "...", "Ellipsis"]))
    if kind == "bool":
        return draw(st.sampled_from(["True", "False"]))
    if kind == "long_tensor":
        values = draw(st.lists(st.integers(-n, n), min_size=0, max_size=4))
        dtype = draw(st.sampled_from(["", ", dtype=torch.long", ", dtype=torch.int32",
                                      ", dtype=torch.uint8", ", dtype=torch.int8"]))
        return f"torch.tensor({values}{dtype})"
    if kind == "bool_tensor":
        values = draw(st.lists(st.booleans(), min_size=0, max_size=4))
        return f"torch.tensor({values}, dtype=torch.bool)"
    if kind == "int_list":
        return str(draw(st.lists(st.integers(-n, n), min_size=0, max_size=4)))
    if kind == "bool_list":
        return str(draw(st.lists(st.booleans(), min_size=1, max_size=4)))
    if kind == "nested":
        leaf = draw(st.sampled_from(["int", "bool"]))
        shape = tuple(draw(st.lists(st.integers(1, 2), min_size=2, max_size=3)))
        leaves = index_in(size) if leaf == "int" else st.sampled_from(["True", "False"])
        return draw(rectangular(leaves, shape))
    if kind == "name":
        return draw(st.sampled_from(sorted(env.tensors)))
    if kind == "zero_dim":
        return draw(st.sampled_from(["torch.tensor(1)", "torch.tensor(-1)",
                                     "torch.tensor(True)", "torch.tensor(False)",
                                     "torch.tensor(1.0)", "torch.tensor(0, dtype=torch.uint8)"]))
    if kind == "huge":
        return draw(st.sampled_from(HUGE))
    return draw(st.one_of(strings(), floats(), st.sampled_from(["()", "[]", "[[]]",
                                                                "[1, [2]]", "(1, [2])"])))


@st.composite
def index_text(draw, env: Env, name: str, huge: bool = True) -> str:
    """The text between the brackets: one index, or a tuple of 1-3 (at most one
    Ellipsis: with two, PyTorch's C++ reads past its sizes array)."""
    shape = env.tensors.get(name, (None, None))[0]
    fits = max(1, min(3, len(shape))) if shape is not None else 2
    count = draw(st.one_of(st.integers(1, fits), st.integers(1, fits), st.integers(1, 3)))
    items, ellipsis = [], False
    for k in range(count):
        size = shape[k] if shape is not None and k < len(shape) else None
        item = draw(index_item(env, size, huge, allow_ellipsis=not ellipsis))
        ellipsis = ellipsis or item in ("...", "Ellipsis")
        items.append(item)
    if count == 1 and draw(st.booleans()):
        return items[0]
    if count == 1:
        return items[0] + ","
    return ", ".join(items)


@st.composite
def view_call(draw, env: Env, name: str, hazards: bool = False):
    """A view (or copy) method of ``name``: (text, shape or None, dtype or None)."""
    shape, dtype = env.tensors[name]
    n = len(shape) if shape is not None else 2
    kind = draw(st.sampled_from(["view", "reshape", "transpose", "permute", "t", "expand",
                                 "narrow", "select", "unsqueeze", "squeeze", "flip",
                                 "slice", "flatten", "contiguous", "clone", "to", "unbind",
                                 "as_strided", "view_dtype", "detach_"]))
    d = dim_for(shape)
    if kind in ("view", "reshape"):
        parts = draw(st.lists(st.sampled_from(["-1", "1", "2", "3", "4", "6", "9", "0"]),
                              min_size=0, max_size=3))
        style = draw(st.sampled_from(["varargs", "tuple", "list"]))
        return f"{name}.{kind}({shape_text(parts, style)})", None, dtype
    if kind == "transpose":
        d0, d1 = draw(d), draw(d)
        new = None
        if shape is not None and all(-n <= int(v) < n for v in (d0, d1)):
            s = list(shape)
            i, j = int(d0) % n, int(d1) % n
            s[i], s[j] = s[j], s[i]
            new = tuple(s)
        return f"{name}.transpose({d0}, {d1})", new, dtype
    if kind == "permute":
        perm = draw(st.permutations(range(n))) if draw(st.integers(0, 3)) else draw(
            st.lists(st.integers(-n, n), max_size=n + 1))
        style = draw(st.sampled_from(["varargs", "tuple", "list"]))
        return f"{name}.permute({shape_text(perm, style)})", None, dtype
    if kind == "t":
        new = tuple(reversed(shape)) if shape is not None and len(shape) <= 2 else None
        return f"{name}.t()", new, dtype
    if kind == "expand":
        size_item = st.one_of(st.integers(1, 4).map(str), st.just("-1"), *(
            [st.sampled_from(HUGE)] if hazards else []))
        parts = draw(st.lists(size_item, min_size=0, max_size=n + 1))
        return f"{name}.expand({shape_text(parts, 'varargs')})", None, dtype
    if kind == "narrow":
        return (f"{name}.narrow({draw(d)}, {draw(ints())}, {draw(small_ints(-1, 3))})",
                None, dtype)
    if kind == "select":
        return f"{name}.select({draw(d)}, {draw(ints())})", None, dtype
    if kind == "unsqueeze":
        return f"{name}.unsqueeze({draw(dim_for(shape, extra=2))})", None, dtype
    if kind == "squeeze":
        arg = draw(st.one_of(st.just(""), d, st.lists(d, max_size=2).map(
            lambda ds: "(" + ", ".join(ds) + ("," if len(ds) == 1 else "") + ")")))
        return f"{name}.squeeze({arg})", None, dtype
    if kind == "flip":
        dims = draw(st.lists(d, min_size=0, max_size=3))
        style = draw(st.sampled_from(["varargs", "tuple", "list"]))
        return f"{name}.flip({shape_text(dims, style)})", shape, dtype
    if kind == "slice":
        sl = [draw(slice_text(s, huge=True)) for s in (shape or (3,))[:2]]
        return f"{name}[{', '.join(sl)}]", None, dtype
    if kind == "flatten":
        return f"{name}.flatten({draw(st.sampled_from(['', '0', '1', '0, -1', '-1, 0']))})", \
            None, dtype
    if kind in ("contiguous", "clone"):
        return f"{name}.{kind}()", shape, dtype
    if kind == "to":
        new = draw(st.sampled_from(DTYPES))
        return f"{name}.to(torch.{new})", shape, new
    if kind == "unbind":
        return f"{name}.unbind({draw(d)})", None, "tuple"
    if kind == "as_strided":
        size_item = st.one_of(st.integers(0, 3).map(str), *(
            [st.sampled_from(HUGE)] if hazards else []))
        size = draw(st.lists(size_item, max_size=3))
        stride = draw(st.lists(st.integers(-1, 3).map(str), min_size=len(size),
                               max_size=len(size))) if draw(st.integers(0, 4)) else draw(
            st.lists(st.integers(0, 3).map(str), max_size=3))
        off = draw(st.sampled_from(["", ", 0", ", 1", ", 4", ", -1"]))
        return (f"{name}.as_strided({shape_text(size, 'tuple')}, "
                f"{shape_text(stride, 'tuple')}{off})", None, dtype)
    if kind == "view_dtype":
        new = draw(st.sampled_from(DTYPES))
        return f"{name}.view(torch.{new})", None, new
    return f"{name}.detach_()", shape, dtype


@st.composite
def operator_call(draw, env: Env, name: str):
    """An operator of ``name`` that makes a new tensor (or tuple of them)."""
    shape, dtype = env.tensors[name]
    other = draw(st.one_of(tensor_name(env), scalars(huge=False)))
    d = draw(dim_for(shape))
    idx = draw(tensor_name(env))
    kind = draw(st.sampled_from([
        "binop", "binop", "rbinop", "unary", "compare", "add", "sub", "mul", "div",
        "bitwise", "sum", "where", "masked_select", "nonzero", "gather", "scatter",
        "index_select", "take", "masked_fill", "index_put", "neg"]))
    if kind == "binop":
        op = draw(st.sampled_from(["+", "-", "*", "/", "&", "|"]))
        return f"{name} {op} {other}"
    if kind == "rbinop":
        op = draw(st.sampled_from(["+", "-", "*", "/", "&", "|"]))
        return f"{draw(scalars(huge=False))} {op} {name}"
    if kind == "unary":
        return f"{draw(st.sampled_from(['-', '~']))}{name}"
    if kind == "compare":
        op = draw(st.sampled_from([">", ">=", "<", "<=", "==", "!="]))
        return f"{name} {op} {other}" if draw(st.booleans()) else f"{other} {op} {name}"
    if kind in ("add", "sub", "mul"):
        alpha = draw(st.sampled_from(["", ", alpha=2", ", alpha=0.5"])) if kind != "mul" else ""
        form = draw(st.booleans())
        return f"torch.{kind}({name}, {other}{alpha})" if form else \
            f"{name}.{kind}({other}{alpha})"
    if kind == "div":
        mode = draw(st.sampled_from(["", ', rounding_mode="floor"', ', rounding_mode="trunc"',
                                     ', rounding_mode="x"']))
        return f"{name}.div({other}{mode})"
    if kind == "bitwise":
        fn = draw(st.sampled_from(["bitwise_and", "bitwise_or"]))
        return f"{name}.{fn}({other})" if draw(st.booleans()) else f"{name}.bitwise_not()"
    if kind == "sum":
        args = draw(st.sampled_from(["", f"{d}", f"{d}, keepdim=True", f"dim=({d},)",
                                     "dtype=torch.float64", "dtype=torch.bool", "()"]))
        return f"{name}.sum({args})"
    if kind == "where":
        return draw(st.sampled_from([f"torch.where({name} > 2, {name}, {other})",
                                     f"torch.where({name})", f"{name}.where({idx}, 0)",
                                     f"torch.where({idx}, {other}, {name})"]))
    if kind == "masked_select":
        return f"{name}.masked_select({draw(st.sampled_from([f'{name} > 1', idx]))})"
    if kind == "nonzero":
        return f"{name}.nonzero({draw(st.sampled_from(['', 'as_tuple=True']))})"
    if kind == "gather":
        return f"{name}.gather({d}, {idx})"
    if kind == "scatter":
        fn = draw(st.sampled_from(["scatter", "scatter_add", "scatter_", "scatter_add_"]))
        src = draw(st.sampled_from([name, "1", "2.5"])) if fn.startswith("scatter") else name
        if fn.startswith("scatter_add"):
            src = name
        return f"{name}.{fn}({d}, {idx}, {src})"
    if kind == "index_select":
        return f"{name}.index_select({d}, {idx})"
    if kind == "take":
        return f"{name}.take({idx})"
    if kind == "masked_fill":
        return f"{name}.masked_fill({draw(st.sampled_from([f'{name} > 1', idx]))}, {other})"
    if kind == "index_put":
        acc = draw(st.sampled_from(["", ", True", ", accumulate=True"]))
        return f"{name}.index_put(({idx},), {other}{acc})"
    return f"{name}.neg()" if draw(st.booleans()) else f"torch.neg({name})"


@st.composite
def inplace_call(draw, env: Env, name: str):
    shape, dtype = env.tensors[name]
    other = draw(st.one_of(tensor_name(env), scalars()))
    idx = draw(tensor_name(env))
    kind = draw(st.sampled_from(["fill_", "zero_", "index_put_", "masked_fill_", "copy_",
                                 "resize_", "normal_", "uniform_", "random_", "as_strided_",
                                 "unbound", "requires_grad"]))
    if kind == "fill_":
        return f"{name}.fill_({draw(st.one_of(scalars(), st.just('torch.tensor(7)')))})"
    if kind == "zero_":
        return f"{name}.zero_()"
    if kind == "index_put_":
        acc = draw(st.sampled_from(["", ", True", ", accumulate=True"]))
        return f"{name}.index_put_(({idx},), {other}{acc})"
    if kind == "masked_fill_":
        return f"{name}.masked_fill_({name} > 2, {other})"
    if kind == "copy_":
        return f"{name}.copy_({draw(tensor_name(env))})"
    if kind == "resize_":
        parts = draw(shape_tuples(max_dims=2))
        return f"{name}.resize_({shape_text(parts, 'tuple')})"
    if kind == "normal_":
        return f"{name}.normal_({draw(st.sampled_from(['', '0, 1', '2.0, 0.5', '0, -1']))})"
    if kind == "uniform_":
        return f"{name}.uniform_({draw(st.sampled_from(['', '0, 1', '-1, 1', '2, 1']))})"
    if kind == "random_":
        return f"{name}.random_({draw(st.sampled_from(['', '5', '2, 9', '0, 2**63', '-1']))})"
    if kind == "as_strided_":
        return f"{name}.as_strided_((2,), ({draw(st.integers(0, 2))},))"
    if kind == "unbound":
        return f"{name}.{draw(st.sampled_from(UNBOUND_METHODS))}({other})"
    return f"{name}.requires_grad"


@st.composite
def fact(draw, env: Env, name: str):
    """A method or attribute whose result is not a tensor."""
    shape, _ = env.tensors[name]
    d = draw(dim_for(shape))
    return draw(st.sampled_from([
        f"{name}.stride()", f"{name}.stride({d})", f"{name}.shape", f"{name}.size()",
        f"{name}.size({d})", f"len({name})", f"{name}.dtype", f"{name}.is_contiguous()",
        f"{name}.storage_offset()", f"{name}.tolist()", f"{name}.item()", f"{name}.numel()",
        f"{name}.dim()", f"{name}.ndim", f"{name}.element_size()",
        f"{name}.is_floating_point()", f"{name}.device", f"{name}.requires_grad",
        f"{name}.is_meta", f"{name}.untyped_storage().nbytes()", f"{name}.dtype.itemsize",
        f"{name}.dtype.is_floating_point", f"{name}.shape[0]", f"{name}.shape + (1,)",
        f"{name}.shape[1:]", f"{name}.size()[-1]", f"{name}.stride()[0]",
        f"{name}.is_contiguous(memory_format=torch.channels_last)",
        f"{name}.shape * 2", f"{name}.stride({d}) + 1", f"{name}.shape[{d}]",
        f"print({name})", f"print({name}.shape)",
        f"{name}.size({draw(strings())})", f"{name}.stride(None)",
    ]))


@st.composite
def wrong_call(draw, env: Env, name: str):
    """A list, a string, None or a number where a tensor (or an int) goes."""
    lst = draw(st.sampled_from(["[[0]]", "[0, 1]", "[True]", "[True, False, True]", "[]",
                                "(0,)", '"a"', "None", "1", "1.5"]))
    return draw(st.sampled_from([
        f"{name}.gather(0, {lst})", f"{name}.index_select(0, {lst})",
        f"{name}.masked_fill({lst}, 1)", f"{name}.take({lst})",
        f"{name}.index_put_({lst}, {lst})", f"{name}.index_put_(({lst},), 1)",
        f"{name}.copy_({lst})", f"{name}.view({lst})", f"{name}.select({lst}, 0)",
        f"{name}.expand({lst})", f"{name}.where({lst}, 1)", f"{name}.scatter(0, {lst}, 1)",
        f"torch.zeros({lst})", f"torch.zeros(2, dtype={lst})", f"{name}.sum(dim={lst})",
        f"{name}.to({lst})", f"{name}.masked_select({lst})", f"{name}.fill_({lst})",
        f"{name}.add({lst})", f"{name} + {lst}", f"{name}.flip({lst})",
        f"{name}.permute({lst})", f"{name}.transpose({lst}, 0)", f"torch.take({name}, {lst})",
        f"torch.tensor({lst}, dtype={lst})", f"{name}.narrow(0, {lst}, 1)",
        f"{name}.unsqueeze({lst})", f"{name}.squeeze({lst})",
    ]))


def any_argument(env: Env):
    return st.one_of(
        small_ints(), st.sampled_from(HUGE), floats(), st.sampled_from(["True", "False",
                                                                        "None"]),
        strings(), dtypes(), tensor_name(env),
        st.lists(small_ints(-2, 3), max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(small_ints(-2, 3), max_size=3).map(
            lambda xs: "(" + ", ".join(xs) + ("," if len(xs) == 1 else "") + ")"),
        st.sampled_from(["[True, False]", "[[0, 1], [1, 0]]", "torch.tensor([0, 1])",
                         "torch.tensor([True, False, True])", "torch.tensor(2)"]))


KEYWORDS = ("dim", "dtype", "keepdim", "out", "index", "value", "other", "alpha", "size",
            "accumulate", "memory_format", "device", "requires_grad", "generator", "bogus")


@st.composite
def generic_call(draw, env: Env, name: str):
    """Any method tidx binds, or any torch.* function, with arguments from the pool."""
    args = draw(st.lists(any_argument(env), max_size=3))
    if draw(st.integers(0, 3)) == 0:
        key = draw(st.sampled_from(KEYWORDS))
        args.append(f"{key}={draw(any_argument(env))}")
    if draw(st.booleans()):
        method = draw(st.sampled_from(sorted(PUBLIC)))
        return f"{name}.{method}({', '.join(args)})"
    fn = draw(st.sampled_from(sorted(FUNCTIONS)))
    if fn == "manual_seed":
        return draw(st.sampled_from(["torch.manual_seed(0)", "torch.manual_seed(2**63)",
                                     "torch.manual_seed(-1)", 'torch.manual_seed("a")']))
    first = [name] if draw(st.booleans()) else []
    return f"torch.{fn}({', '.join(first + args)})"


@st.composite
def setitem_value(draw, env: Env):
    return draw(st.one_of(
        scalars(), tensor_name(env), st.sampled_from([
            "torch.tensor(5)", "torch.tensor([1, 2])", "torch.tensor([1.5, 2.5, 3.5])",
            "torch.zeros(2)", "torch.tensor(True)", "[1, 2, 3]", "None", '"a"',
            "torch.tensor([[1], [2], [3]])", "torch.ones(3, 3, dtype=torch.bool)"])))


# -- statements and programs ---------------------------------------------------------------
@st.composite
def statement(draw, env: Env, hazards: bool = False) -> str:
    name = draw(tensor_name(env))
    # most statements are ones PyTorch runs (an error ends the program); arguments of the
    # wrong type, any-call-any-argument and pypto come now and then
    kind = draw(st.sampled_from(
        ["assign_factory"] * 3 + ["assign_view"] * 3 + ["assign_index"] * 2 +
        ["assign_op"] * 2 + ["view"] * 2 + ["index"] * 2 + ["setitem"] * 3 +
        ["inplace"] * 2 + ["fact"] * 3 + ["assign_fact", "value_use", "op", "wrong",
                                          "generic", "augmented", "unpack"]))
    if kind == "generic" and draw(st.integers(0, 4)) == 0:
        kind = "pypto"
    if kind == "value_use" and not env.values:
        kind = "fact"
    if kind == "assign_factory":
        text, shape, dtype = draw(factory(env))
        target = env.fresh()
        env.bind_tensor(target, shape, dtype)
        return f"{target} = {text}"
    if kind in ("assign_view", "view"):
        text, shape, dtype = draw(view_call(env, name, hazards))
        if kind == "view":
            return text
        target = env.fresh()
        if dtype == "tuple":  # unbind: a tuple of tensors
            env.bind_value(target, "tuple")
        else:
            env.bind_tensor(target, shape, dtype)
        return f"{target} = {text}"
    if kind in ("assign_index", "index"):
        text = f"{name}[{draw(index_text(env, name))}]"
        if kind == "index":
            return text
        target = env.fresh()
        env.bind_tensor(target, None, env.tensors[name][1])
        return f"{target} = {text}"
    if kind in ("assign_op", "op"):
        text = draw(operator_call(env, name))
        if kind == "op":
            return text
        target = env.fresh()
        env.bind_tensor(target, None, None)
        return f"{target} = {text}"
    if kind == "setitem":
        return f"{name}[{draw(index_text(env, name))}] = {draw(setitem_value(env))}"
    if kind == "inplace":
        return draw(inplace_call(env, name))
    if kind == "fact":
        return draw(fact(env, name))
    if kind == "assign_fact":
        text = draw(fact(env, name))
        if text.startswith("print("):
            return text
        target = env.fresh()
        env.bind_value(target, "value")
        return f"{target} = {text}"
    if kind == "wrong":
        return draw(wrong_call(env, name))
    if kind == "generic":
        return draw(generic_call(env, name))
    if kind == "pypto":
        return draw(st.sampled_from(PYPTO_STATEMENTS))
    if kind == "augmented":
        # t += x (Tensor.__iadd__, in place) or t[i] *= x (getitem, __imul__, setitem)
        op = draw(st.sampled_from(AUGMENTED))
        other = draw(st.one_of(tensor_name(env), scalars(huge=False)))
        if draw(st.booleans()):
            return f"{name}[{draw(index_text(env, name, huge=False))}] {op}= {other}"
        return f"{name} {op}= {other}"      # in place: name keeps its shape and dtype
    if kind == "unpack":
        # a, b = t.chunk(2) / a, *rest = t: a tensor unpacks through unbind(0)
        first, rest = env.fresh(), env.fresh()
        source = draw(st.sampled_from([f"{name}.chunk(2)", f"{name}.split(1)", name,
                                       f"{name}.unbind(-1)", f"{name}.shape"]))
        env.bind_value(rest, "value")
        if source.endswith(".shape"):
            env.bind_value(first, "value")
        else:
            env.bind_tensor(first, None, env.tensors[name][1])
        star = draw(st.booleans())
        return f"{first}, {'*' if star else ''}{rest} = {source}"
    # a non-tensor name used again: indexed, added to, passed as a shape
    value = draw(st.sampled_from(sorted(env.values)))
    return draw(st.sampled_from([
        f"{value}", f"{value}[0]", f"{value} + (1,)", f"torch.zeros({value})",
        f"{name}.view({value})", f"{value} * 2", f"len({value})", f"{name}[{value}]",
        f"{value}[-1]", f"torch.tensor({value})", f"{name}.expand({value})"]))


@st.composite
def programs(draw, max_statements: int = 4, hazards: bool = False) -> Program:
    env = Env()
    n = draw(st.integers(1, max_statements))
    return Program(tuple(draw(statement(env, hazards)) for _ in range(n)))
