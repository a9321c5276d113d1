"""numpy 值的中文说明(issue #26):tensor_numpy.cpp 的 from_numpy 和 numpy(),以及
torch.tensor / as_tensor 接收数组时。由 :data:`tracer.i18n.zh.TEXT` 合并进来;与
en_numpy.py 的 id 一一对应。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "numpy.tensor_from_numpy":
        "tensor_from_numpy:检查是 ndarray、步长是元素大小的整数倍且非负、本机字节序、torch 支持的 dtype;以字节计的步长换算为以元素计",
    "numpy.from_blob":
        "at::from_blob 把数组自己的字节(它的数据指针)包成张量,删除器持有该数组:不复制,两者是同一块缓冲区的两个视图",
    "numpy.THPVariable_numpy":
        "Tensor.numpy():在张量自己的字节上调用 tensor_to_numpy",
    "numpy.tensor_to_numpy":
        "tensor_to_numpy:须在 CPU 上、不需要梯度、没有共轭或取负标志;然后 detach().cpu().resolve_conj().resolve_neg()(这里都返回同样的字节)",
    "numpy.PyArray_New":
        "在 tensor.data_ptr() 上调用 PyArray_New:numpy 的步长以字节计,等于张量以元素计的步长乘以元素大小;数组的 base 是该张量",
    "binding.internal_new_from_data.numpy":
        "numpy 数组:先用 tensor_from_numpy 包住它的字节,再 to(device, dtype, copy):torch.tensor 复制,torch.as_tensor 在 dtype 和设备不变时不复制",
    "factory.as_tensor":
        "torch.as_tensor:internal_new_from_data,能保留的张量或数组(dtype、设备相同)不复制;列表复制进新张量",
}
