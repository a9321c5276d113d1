"""The Chinese of :mod:`tracer.i18n.en_rng` (the same ids): part of
:data:`tracer.i18n.zh.TEXT`, which merges this table in.  Plain data, no logic.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- the first element of a random kernel (engine/rng/explain.py) --------------------
    "rng.first": "内核抽取的第一个数(存放在偏移 {offset}),从生成器的字逐步算出",
    "rng.words": "mt19937 接下来的 32 位字,依次为:{words}",
    "rng.words_fill":
        "normal_fill 先把每个元素都填成均匀数;元素 0 把 data[0](流中第 {first} 个字)与 "
        "data[8](第 {second} 个字)配对:{words}",
    "rng.uniform_float": "u = (w & (2^24 - 1)) * 2^-24:取 random() 的低 24 位,即 float 的精度:{values}",
    "rng.uniform_double":
        "u = (((w1 << 32) | w2) & (2^53 - 1)) * 2^-53:取 random64() 的 53 位,即 double 的精度:"
        "{values}",
    "rng.box_muller":
        "Box-Muller 变换:radius = sqrt(-2 ln(1 - u2)) = {radius},theta = 2 pi u1 = {theta},"
        "z = radius cos(theta) = {z};radius sin(theta) = {other} 留给下一个数",
    "rng.cached": "上一对 Box-Muller 的第二个数,由生成器保存:z = {z};不再抽取新的字",
    "rng.normal_fill16":
        "一对 Box-Muller:u1 = 1 - data[0] = {u1},u2 = data[8] = {u2};radius = sqrt(-2 ln(u1)) = {radius},"
        "theta = 2 pi u2 = {theta},cos(theta) = {cos}(ln 与 cos 由 {how} 计算),"
        "z = radius cos(theta) = {z}",
    "rng.to_normal": "x = z * std + mean = {z} * {std} + {mean} = {x};转为 {dtype}:{stored}",
    "rng.uniform_range":
        "把 u 缩放到 [from, to):x = u * (to - from) + from = {u} * ({high} - {low}) + {low} = {x}",
    "rng.randint": "取模再加上 from:x = val % range + from = {val} % {range} + {low} = {value}",
    "rng.randperm_first":
        "r 起初为 0, 1, ..., {n} - 1;第一次交换 r[0] 与 r[{word} % {n}] = r[{j}],"
        "之后的交换不再移动 r[0]:它就是 {j}",
    # -- the bytes a statement allocated (tracer/allocated.py) ----------------------------
    "ui.allocated": "已分配:{what}",
    "ui.allocated.amount": "{amount},共 {count}",
    "ui.allocated.byte": "1 字节",
    "ui.allocated.bytes": "{n} 字节",
    "ui.allocated.block": "1 块",
    "ui.allocated.blocks": "{n} 块",
    # -- tidx compare's rows (tracer/render/compare.py) ---------------------------------
    "ui.compare.shape": "形状",
    "ui.compare.strides": "步长",
    "ui.compare.offset": "存储偏移",
    "ui.compare.dtype": "数据类型",
    "ui.compare.no_storage": "没有可画的存储",
}
