"""The Chinese labels of the GIF animation (:mod:`tracer.render.gif`), merged into
:data:`tracer.i18n.zh.TEXT`.  Plain data."""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.gif.step": "第 {number} / {total} 步",
    "ui.gif.not_allocated": "(尚未分配)",
    "ui.gif.changed": "本步改变",
    "ui.gif.earlier": "本语句中较早改变",
    "ui.gif.soon": "将由其中的步骤写入",
    "ui.gif.read": "本步读取",
    "ui.gif.absent": "尚未分配",
    "ui.gif.unknown": "· 未记录值",
}
