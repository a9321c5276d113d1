"""导出图像的中文文本（用 Graphviz 画的存储图、export 命令的消息）：并入
:data:`tracer.i18n.zh.TEXT`。只有数据，没有逻辑；约定同 zh.py。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.export.wrote": "已写入 {path}({fmt})",
    "ui.export.wrote_pages": "已写入 {path}({fmt}，{count} 页)",
    "ui.export.wrote_files": "已写入 {count} 个文件，每页一个:{first} ... {last}({fmt})",
    "ui.export.progress.render": "正在渲染 {fmt}",
    "ui.export.progress.run": "正在运行语句",
    "ui.export.progress.verify": "正在用 PyTorch 运行",
}
