"""讲课视图(:mod:`tracer.lecture`)的中文:折叠起来的步骤。"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.lecture.folded": "… 另有 {count} 步:{names}",
    "ui.lecture.inside": "(内含 {count} 步)",
    "ui.lecture.raised": "抛出 {error}",
    "ui.lecture.hint": "显示了 {total} 步中的 {shown} 步;--full 显示每一步及其说明",
    "ui.lecture.folded_one": "… 另有 1 步:{names}",
    "ui.lecture.inside_one": "(内含 1 步)",
    "ui.lecture.storage": "存储 {storage}:{size} 个 {dtype}({nbytes} 字节),按行存放 {name}",
    "ui.lecture.all_written": ",{count} 个元素全部由这条语句写入",
    "ui.lecture.one_written": ",它唯一的元素由这条语句写入",
}
