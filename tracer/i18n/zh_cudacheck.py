"""设备检查与模拟 CUDA 设备的 --verify 的中文文本(issue 16)。由 :data:`tracer.i18n.zh.TEXT`
合并。纯数据,无逻辑;约定同 zh.py。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.verify.cuda_on_cpu":
        "在 CPU 上比较(这里没有 GPU):形状、步长、dtype、确定性算子的数值",
    "ui.verify.cuda_random":
        "在 CPU 上比较(这里没有 GPU):形状、步长、dtype;不比较数值:CUDA 生成器(Philox)"
        "抽出的数与 CPU 的(mt19937)不同",
    "ui.verify.after_cuda_random":
        "不比较数值:CPU 上的运行用 CPU 生成器抽了 CUDA 语句的数,而 tidx 的 CUDA 生成器不动它",
    "ui.verify.cuda_device_value":
        "在 CPU 上比较(这里没有 GPU):形状、步长、dtype;不比较设备本身的值(x.device、x.is_cuda),"
        "那里是 CPU",
}
