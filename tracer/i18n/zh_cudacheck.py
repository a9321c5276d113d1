"""设备检查与模拟 CUDA 设备的 --verify 的中文文本(issue 16)。由 :data:`tracer.i18n.zh.TEXT`
合并。纯数据,无逻辑;约定同 zh.py。
"""

from __future__ import annotations

from tracer.i18n.en_cudacheck import INDEX_RX, ITER_RX, WRAPPER_RX

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

#: PyTorch 混用设备的错误的解释(追加到 tracer.i18n.zh.ERRORS 末尾)。
ERRORS: list[tuple] = [
    (WRAPPER_RX.replace(r"(?P<arg>\w+)", r"(?P<arg>tensors)"),
     "{arg} 中有一个张量在 {device} 上,在它之前的在 {common} 上:内核只在一个设备上运行,只读该设备"
     "的内存,torch 不会替你搬动它。先搬过去:.to('{common}')。"),
    (WRAPPER_RX,
     "参数 {arg} 在 {device} 上,而在它之前检查的张量在 {common} 上:内核只在一个设备上运行,只读"
     "该设备的内存,torch 不会替你搬动 {arg}。先搬过去:.to('{common}')。"),
    (ITER_RX,
     "有一个操作数在 {device} 上,其余在 {common} 上:逐元素内核只在一个设备上运行,只有 0 维的 "
     "CPU 张量(一个数)可以和 {common} 上的张量一起算。先搬过去:.to('{common}')。"),
    (INDEX_RX,
     "索引张量与{subject}不在同一设备上({subject}在 {device} 上):索引只能在 CPU 上,或在被"
     "索引张量的设备上。把它搬过去:.to('{device}')。"),
    (INDEX_RX,
     "索引张量与被索引的张量({device})不在同一设备上:索引只能在 CPU 上,或在被索引张量的设备"
     "上。把它搬过去:.to('{device}')。"),
]
