"""交互式 HTML 步进页 (``tidx export ... -o lesson.html``) 及其存储图的中文标签:
:data:`tracer.i18n.zh.TEXT` 的一部分, 与 en_stepper.py 的 id 一一对应。纯数据。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.stepper.prev": "上一步",
    "ui.stepper.lesson": "共 {count} 条语句的一课",
    "ui.stepper.next": "下一步",
    "ui.stepper.step": "步骤",
    "ui.stepper.keys": "← → 或翻页笔:前后翻步 · Home/End:第一步/最后一步 · 点击列表中的步骤可直接跳转",
    "ui.stepper.statement": "第 {number} 条语句(共 {total} 条)",
    "ui.stepper.folded": "另有 {count} 个与本课无关的步骤折叠在这一步里;--full 可逐个查看",
    "ui.stepper.storage_now": "这一步时的存储",
    "ui.stepper.no_storage": "暂时没有可画的:到这一步为止,这条语句还没有创建、读取或写入任何存储。",
    "ui.stepper.returns": "返回",
    "ui.stepper.outcome": "语句执行之后",
    "ui.stepper.diagram": "时序图",
    "ui.stepper.diagram_script": "时序图以压缩形式保存,由页面脚本绘制在这里。",
    "ui.stepper.steps": "全部步骤",
    "ui.stepper.legend.earlier": "之前的步骤写入",
}
