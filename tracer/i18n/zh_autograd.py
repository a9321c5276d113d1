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
    "grad_mode.inference":
        "c10::InferenceMode({enabled}):关闭梯度模式,排除 autograd 键;在其中创建的张量是推理张量(没有版本计数器,也没有 autograd 键:永远不能进入计算图)",
    "grad_mode.read_inference":
        "InferenceMode::is_enabled():本次运行是否在 torch.inference_mode() 之中",
    "grad_mode.is_inference":
        "TensorImpl::is_inference():在推理模式中创建(或是这样的张量的视图):它的键集合没有 Autograd 与 ADInplaceOrView 键",
    "softmax.backward":
        "softmax 的梯度:沿该维计算 (g - sum(g * y)) * y,求和顺序与 torch 相同(其向量累加器与通道折叠):每步都正确舍入,因此对同样的 softmax 输出与 torch 逐位一致(该输出本身带有前向给出的误差界)",
    "softmax.backward_bound":
        "log_softmax 的梯度:沿该维计算 g - exp(y) * sum(g),求和顺序与 torch 相同;torch 的 exp 使用 {library},因此每个元素与 torch 的最多相差 {eps} * eps * max(1, |g|)",
    "nll.backward":
        "nll_loss 的梯度:先全为 0,再在每行的目标类别处写入 -weight * grad(mean 时再除以总权重);被忽略的目标所在行保持为 0",
    "embedding.backward":
        "embedding 的梯度:先是与权重行数相同的全 0,再按顺序把每个索引的梯度行加到它选中的行上(被选中两次的行会累加);padding_idx 那一行保持为 0",
    "grad_mode.read": "GradMode::is_enabled():本次运行的梯度模式",
    "autograd.tensor_backward":
        "Tensor.backward(torch/_tensor.py)把张量和它的梯"
        "度交给 torch.autograd.backward",
    "autograd.make_grads":
        "_make_grads:没有给梯度的标量输出得到 "
        "torch.ones_like(output);给出的梯度须与输出同形;然后运行"
        " C++ 引擎(retain_graph 默认等于 create_graph)",
    "autograd.run_backward":
        "THPEngine_run_backward:每个根的梯度边(它的 "
        "grad_fn,或叶子的 AccumulateGrad)交给 "
        "Engine::execute",
    "autograd.execute":
        "Engine::execute:为这次调用建一个 "
        "GraphTask;反向传播在本线程运行,梯度模式设为 "
        "create_graph(关闭:公式不记录计算图)",
    "autograd.dependencies":
        "compute_dependencies:从根可达的每个节点有几条边指向它;所有"
        "边都送来梯度后该节点才运行",
    "autograd.evaluate":
        "就绪队列给出序号最大的节点(最后创建的;AccumulateGrad "
        "最先);它的梯度经检查后沿边传下去",
    "autograd.apply":
        "节点的反向公式(derivatives.yaml),用普通算子计算:每个需要梯度"
        "的输入一个梯度",
    "autograd.accumulate_grad":
        "AccumulateGrad:叶子把梯度存进 .grad",
    "autograd.buffer_accumulate":
        "同一个输入的第二个梯度:InputBuffer::accumulate "
        "把它们相加;没有别处引用第一个时原地加进去,否则加到新张量",
    "autograd.sum_to":
        "该输入在前向时被广播:at::sum_to 沿广播出来的维把梯度加起来",
    "autograd.cast":
        "梯度被转换为输入的 dtype",
    "autograd.retain_grad":
        "retain_grad() "
        "的钩子:节点运行前,流入这个非叶子张量的梯度复制一份(连续布局)成为它的 "
        ".grad(与已有的相加)",
    "autograd.steal":
        "第一个梯度,没有别处引用,步长与叶子相同:.grad "
        "直接接过它(detach,不复制)",
    "autograd.copy_held":
        "第一个梯度,但别处仍引用它(调用者给的梯度、另一个输入缓冲区):.grad "
        "得到一份按叶子布局的副本",
    "autograd.copy_layout":
        "第一个梯度,但步长与叶子不同(广播或转置的视图):.grad "
        "得到一份按叶子布局的副本(new_empty_strided + copy_)",
    "autograd.add_inplace":
        ".grad 已有梯度:新梯度原地加进去(多次 backward "
        "的梯度会累加,直到清零)",
    "ui.graph.title":
        "自动求导图(backward() 将从各张量的 grad_fn 出发走过的图):",
    "ui.graph.more":
        "……还有 {n} 个节点",
    "ui.graph.again":
        "(已在上面画出)",
    "ui.graph.saved":
        "保存 {name}={tensor},版本 {version}",
    "ui.graph.freed":
        "(已被 backward 释放)",
    "ui.graph.changed_by":
        "现为版本 {version},被 `{statement}` 修改:backward 将报错",
    "ui.graph.changed":
        "现为版本 {version}:backward 将报错",
    "autograd.add":
        ".grad 已有梯度:create_graph=True "
        "时求和被记录进计算图,是一个新张量",
    "autograd.create_graph_warning":
        "UserWarning:backward(create_graph=True) "
        "在参数和它的梯度之间形成引用环(梯度的计算图引用参数);torch 建议用 "
        "autograd.grad",
    "autograd.grad":
        "torch.autograd.grad:同一个引擎,告诉它在哪些输入处停下:只运"
        "行通往它们的节点,梯度作为结果返回,不加进 .grad",
    "autograd.register_hook":
        "register_hook:函数保存在张量的节点上(叶子:它的 "
        "AccumulateGrad),节点运行前以流入的梯度调用",
    "autograd.tensor_hook":
        "调用 register_hook 注册的函数;它返回的张量替换梯度",
}
