"""The English of the random numbers worked out to the element (the words mt19937 gave,
their uniforms, Box-Muller, the modulo), of the bytes a statement allocated, and of
``tidx compare``'s rows: part of :data:`tracer.i18n.en.TEXT`, which merges this table
in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- the first element of a random kernel (engine/rng/explain.py) --------------------
    "rng.first":
        "the first number the kernel draws (stored at offset {offset}), worked out from "
        "the generator's words",
    "rng.words": "mt19937's next 32-bit words, in order: {words}",
    "rng.words_fill":
        "normal_fill makes every element a uniform first; element 0 pairs data[0] (word "
        "{first} of the stream) with data[8] (word {second}): {words}",
    "rng.uniform_float":
        "u = (w & (2^24 - 1)) * 2^-24: the low 24 bits of random(), a float's precision: "
        "{values}",
    "rng.uniform_double":
        "u = (((w1 << 32) | w2) & (2^53 - 1)) * 2^-53: 53 bits of random64(), a double's "
        "precision: {values}",
    "rng.box_muller":
        "Box-Muller: radius = sqrt(-2 ln(1 - u2)) = {radius}, theta = 2 pi u1 = {theta}, "
        "z = radius cos(theta) = {z}; radius sin(theta) = {other} is kept for the next "
        "number",
    "rng.cached":
        "the second number of the last Box-Muller pair, kept by the generator: z = {z}; "
        "no new words",
    "rng.normal_fill16":
        "u1 = 1 - data[0] = {u1}, u2 = data[8] = {u2}; radius = sqrt(-2 ln(u1)) = "
        "{radius}, theta = 2 pi u2 = {theta}, cos(theta) = {cos} (ln and cos by {how}), "
        "z = radius cos(theta) = {z}",
    "rng.to_normal": "x = z * std + mean = {z} * {std} + {mean} = {x}; as {dtype}: {stored}",
    "rng.uniform_range":
        "x = u * (to - from) + from = {u} * ({high} - {low}) + {low} = {x}",
    "rng.randint": "x = val % range + from = {val} % {range} + {low} = {value}",
    "rng.randperm_first":
        "r starts as 0, 1, ..., {n} - 1; the first swap exchanges r[0] and r[{word} % {n}] "
        "= r[{j}], and no later swap moves r[0]: it is {j}",
    # -- the bytes a statement allocated (tracer/allocated.py) ----------------------------
    "ui.allocated": "allocated: {what}",
    "ui.allocated.amount": "{amount} in {count}",
    "ui.allocated.byte": "1 byte",
    "ui.allocated.bytes": "{n} bytes",
    "ui.allocated.block": "1 block",
    "ui.allocated.blocks": "{n} blocks",
    # -- tidx compare's rows (tracer/render/compare.py) ---------------------------------
    "ui.compare.shape": "shape",
    "ui.compare.strides": "strides",
    "ui.compare.offset": "storage offset",
    "ui.compare.dtype": "dtype",
    "ui.compare.no_storage": "no storage to draw",
}
