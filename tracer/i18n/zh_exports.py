"""导出图像的中文文本（用 Graphviz 画的存储图、export 命令的消息）：并入
:data:`tracer.i18n.zh.TEXT`。只有数据，没有逻辑；约定同 zh.py。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.export.legend.written": "语句写入了这个元素",
    "ui.export.legend.read": "语句读取了这个元素",
    "ui.export.legend.view": "视图的一行:存放在该偏移处的元素的下标",
    "ui.export.legend.more": "+{count}:视图还有 {count} 个下标指向这个元素",
    "ui.export.legend.unknown": "·:跟踪没有记录的值",
    "ui.export.wrote": "已写入 {path}({fmt})",
    "ui.export.wrote_pages": "已写入 {path}({fmt}，{count} 页:每条语句一页)",
    "ui.export.wrote_files": "已写入 {count} 个文件，每条语句一个:{first} ... {last}({fmt})",
    "ui.export.progress.render": "正在渲染 {fmt}",
    "ui.export.progress.run": "正在运行语句",
    "ui.export.progress.verify": "正在用 PyTorch 运行",
}
