"""自动求导的说明(issue #27):梯度模式(engine/binding/grad_mode.py)与 VariableType
记录的节点(engine/dispatch/autograd_key.py)。由 :data:`tracer.i18n.zh.TEXT` 合并。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "grad_mode.set":
        "GradMode::set_enabled({enabled}):梯度模式关闭时 Autograd 键不记录计算图"
        "(由需要梯度的张量算出的结果不再需要梯度),也允许对叶子张量做原地写入",
    "autograd.node":
        "VariableType 把 {node} 记录为结果的 grad_fn:它求梯度的每个输入各一条边"
        "({edges}),反向传播时沿这些边走",
    "grad_mode.read": "GradMode::is_enabled():本次运行的梯度模式",
}
