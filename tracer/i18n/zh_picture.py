"""存储图和 ``tidx step`` 时间线的中文:由 :data:`tracer.i18n.zh.TEXT` 合并进来。
纯数据,没有逻辑;约定同 zh.py。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.picture.views": "其上的张量: {names}",
    "ui.picture.strides": "步长 strides ({strides}) 偏移 offset {offset}",
    "ui.picture.base": "基础张量 base",
    "ui.picture.more_views": "... 这块存储还有 {count} 个视图",
    "ui.picture.changed": "改变",
    "ui.picture.change": "偏移 {offset}: {old} -> {new}",
    "ui.picture.unknown": "未记录",
    "ui.picture.more_changes": "另有 {count} 个元素改变 (标记 W)",
    "ui.picture.fresh": "{count} 个元素被写入, 之前没有记录值, 偏移 {offsets}",
    "ui.picture.arithmetic": "偏移 {terms} = {result}",
    "ui.picture.holds": "值为 {value}",
    "ui.picture.legend": "图例",
    "ui.picture.mark.written": "写入: 这一步改变的元素",
    "ui.picture.mark.read": "读取: 这一步读取的元素",
    "ui.picture.mark.selected": "格子下方: 该视图中对应这个存储元素的元素下标",
    "ui.picture.mark.repeated": "同一视图还有 n 个元素也是这个存储元素 (步长为 0)",
    "ui.picture.mark.unrecorded": "追踪没有记录的值",
    "ui.step.before": "这一步之前",
    "ui.step.after": "这一步之后",
    "ui.step.unchanged": "这一步没有改变任何元素",
    "ui.step.lines": "这一步的第 {first}-{last} 行(共 {total} 行):n/空格 继续",
    "ui.step.lines_end": "这一步的第 {first}-{last} 行(共 {total} 行)",
    "ui.step.last": "这是最后一步:p 返回,q 退出",
    "ui.step.jump": "步骤编号: ",
    "ui.step.no_such_step": "没有第 {number} 步: 步骤为 1 到 {total}",
    "ui.step.none_left": "(这条语句没有符合这些筛选条件的步骤)",
}
