"""PyTorch's error messages explained in Chinese: the same patterns as
:mod:`tracer.i18n.en_errors`, with the vocabulary of :mod:`tracer.i18n.zh`.

Plain data, no logic (:mod:`tracer.i18n.explain` fills the templates; the message itself
is never translated).  Besides torch's messages, this table explains the
PythonArgParser's (``engine/binding/arg_parser.py``), whose English is plain already.
"""

from __future__ import annotations

from tracer.i18n.en_errors import EXPANDED_RX, INDEX_RX, SIZES_RX

#: a Latin name is set off by spaces; Chinese runs on: "张量 t 的", "该张量的"
SUBJECT = "张量 {expr} "
NO_SUBJECT = "该张量"

ERRORS: list[tuple] = [
    (INDEX_RX + r"0\b",
     "索引越界:{subject}的第 {dim} 维大小为 0,没有任何合法的索引,{index} 也不例外。"),
    (r"^" + INDEX_RX + r"(?P<size>\d+)",
     "索引越界:{subject}的第 {dim} 维大小是 {size},合法的索引是 {size_neg} 到 "
     "{size_last},而这里是 {index}。", {"type": "IndexError"}),
    (INDEX_RX + r"(?P<size>\d+)",
     "索引越界:{subject}的第 {dim} 维大小是 {size},{call} 的 index 只能取 0 到 "
     "{size_last}(这里不支持负索引),而这里有 {index}。", {"type": "RuntimeError"}),
    (r"index_copy_\(\): " + INDEX_RX + r"(?P<size>\d+)",
     "索引越界:{subject}的第 {dim} 维大小是 {size},index_copy_ 的 index 只能取 0 到 "
     "{size_last}(这里不支持负索引),而这里有 {index}。"),
    (INDEX_RX + r"(?P<size>\d+)",
     "索引越界:第 {dim} 维的大小是 {size},合法的索引是 0 到 {size_last}(支持负索引时也可以是 "
     "{size_neg} 到 -1),而这里是 {index}。"),
    (r"index is out of bounds for dimension with size 0",
     "索引越界:被索引的维大小为 0,没有任何合法的索引。"),
    (r"select\(\): index (?P<index>-?\d+) out of range for tensor of size "
     r"(?P<shape>" + SIZES_RX + r") at dimension (?P<shape_at>\d+)",
     "索引越界:尺寸为 {shape} 的张量第 {shape_at} 维大小是 {shape_size},select 的索引只能是 "
     "{shape_size_neg} 到 {shape_size_last},而这里是 {index}。"),
    (r"index out of range in self",
     "索引越界:传给 {call} 的 index {arg_index} 中有值超出了{subject}第 {arg_dim} 维的范围"
     "(只能取 0 到该维大小减 1,不支持负索引)。"),
    (r"index out of range in self", "索引越界:index 中有值超出了 self 在该维上的大小。"),
    (r"out of range: tried to access index (?P<index>-?\d+) on a tensor of "
     r"(?P<numel>\d+) elements",
     "索引越界:take 把{subject}的 {numel} 个元素看成一维,索引只能取 {numel_neg} 到 "
     "{numel_last},而这里是 {index}。"),
    (r"too many indices for tensor of dimension (?P<ndim>\d+)",
     "索引过多:{subject}只有 {ndim} 维,而 {indexed} 的索引要用 {arg_specified_dims} 维;"
     "每个整数、切片或张量索引都要消耗一维(布尔掩码消耗它自己的维数,None 和 ... 除外)。"),
    (r"too many indices for tensor of dimension (?P<ndim>\d+)",
     "索引过多:张量只有 {ndim} 维,而每个整数、切片或张量索引都要消耗一维(None 和 ... 除外),"
     "给出的索引超过了 {ndim} 个。"),
    (r"invalid index of a 0-dim tensor",
     "0 维张量不能再用整数索引;用 tensor.item() 取出它的值。"),
    (r"only integers, slices \(`:`\), ellipsis \(`...`\), None and long or byte Variables "
     r"are valid indices \(got (?P<got>\w+)\)",
     "索引类型错误:索引只能是整数、切片、...、None,或整数/布尔张量,{got} 不行;数字请先用 int(...)。"),
    (r"step must be greater than zero",
     "张量的切片不能倒着走(PyTorch 中视图的步长不能为负);要反转请用 .flip(dim),它会复制。"),
    (r"Boolean value of Tensor with more than one value is ambiguous",
     "if、and、or、not 和 bool() 需要一个 True 或 False,而{subject}有多个值;用 .any() 或 .all() 说明你的意思。"),
    (r"expected sequence of length (?P<want>\d+) at dim (?P<dim>\d+) \(got (?P<got>\d+)\)",
     "张量必须是规则的:第 {dim} 层的每个列表长度都要相同,第一个是 {want},这里有一个是 {got}。"),
    (r"normal expects std >= 0\.0, but found std (?P<std>\S+)",
     "标准差不能为负,这里是 {std}。"),
    (r"shape mismatch: value tensor of shape (?P<value>" + SIZES_RX + r") cannot be "
     r"broadcast to indexing result of shape (?P<result>" + SIZES_RX + r")",
     "形状不匹配:要写入的值形状为 {value},无法广播到索引结果的形状 {result}。"),
    (r"shape mismatch: indexing tensors could not be broadcast together with shapes "
     r"(?P<shapes>.+)",
     "形状不匹配:这些索引张量的形状 {shapes} 无法广播到同一个形状。"),
    (r"The shape of the mask (?P<mask>" + SIZES_RX + r") at index (?P<mask_at>\d+) does not "
     r"match the shape of the indexed tensor (?P<tensor>" + SIZES_RX + r") at index "
     r"(?P<tensor_at>\d+)",
     "掩码形状不匹配:布尔掩码 {mask} 的第 {mask_at} 维大小是 {mask_size},而它对应的是被索引张量 "
     "{tensor} 的第 {tensor_at} 维,大小是 {tensor_size};两者必须相同。"),
    (r"The size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) "
     r"at non-singleton dimension (?P<dim>\d+)",
     "无法广播:两个张量在第 {dim} 维的大小分别是 {a} 和 {b},既不相等,也没有一个是 1。"),
    (EXPANDED_RX,
     "无法 expand:尺寸从最后一维对齐,{have} 中与目标尺寸 {want} 第 {dim} 维对应的大小是 {old}(不是 1),"
     "只能保持 {old},不能扩展成 {new}。"),
    (r"The expanded size of the tensor \((?P<new>-?\d+)\) must match the existing size "
     r"\((?P<old>\d+)\) at non-singleton dimension (?P<dim>\d+)",
     "无法 expand:第 {dim} 维现有的大小是 {old}(不是 1),只能保持 {old},不能扩展成 {new}。"),
    (r"the number of sizes provided \((?P<given>\d+)\) must be greater or equal to the "
     r"number of dimensions in the tensor \((?P<ndim>\d+)\)",
     "无法 expand:{subject}有 {ndim} 维,每一维都要给出大小,这里只给了 {given} 个。"),
    (r"output with shape (?P<out>" + SIZES_RX + r") doesn't match the broadcast shape "
     r"(?P<shape>" + SIZES_RX + r")",
     "形状不匹配:原地操作的输出形状 {out} 与广播后的形状 {shape} 不同,原地操作不能改变 self 的形状。"),
    (r"view size is not compatible with input tensor's size and stride",
     "view 无法表达新形状:现有内存布局的步长表示不了它(有一维跨越了两段连续内存);"
     "改用 .reshape(...),必要时它会复制;或者先 .contiguous() 再 view。"),
    (r"shape '(?P<shape>" + SIZES_RX + r")' is invalid for input of size (?P<numel>\d+)",
     "形状不合法:形状 {shape} 共有 {shape_numel} 个元素,而{subject}有 {numel} 个;"
     "各维大小之积必须等于 {numel}(可以有一维写 -1 由它推算)。"),
    (r"shape '(?P<shape>" + SIZES_RX + r")' is invalid for input of size (?P<numel>\d+)",
     "形状不合法:{subject}有 {numel} 个元素,形状 {shape} 中 -1 以外的大小之积是 {shape_known},"
     "{numel} 不是它的倍数,-1 处填什么都不行。"),
    (r"shape '(?P<shape>" + SIZES_RX + r")' is invalid for input of size (?P<numel>\d+)",
     "形状不合法:形状 {shape} 的元素个数与输入的 {numel} 个元素不一致。"),
    (r"only one dimension can be inferred",
     "形状中的 -1 表示“剩下的大小”,只能出现一次。"),
    (r"unflatten: Provided sizes (?P<sizes>" + SIZES_RX + r") don't multiply up to the size "
     r"of dim (?P<dim>\d+) \((?P<size>\d+)\)",
     "unflatten 把第 {dim} 维(大小 {size})拆成 {sizes},这些大小之积必须等于 {size}。"),
    (r"Index tensor must have the same number of dimensions as input tensor",
     "gather / scatter 的 index 必须与{subject}的维数相同(可以用 unsqueeze 补上缺的维)。"),
    (r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
     r"but got (?P<got>-?\d+)\)",
     "维度越界:{call} 的 dim 必须在 [{lo}, {hi}] 之间(负数从末尾数起,-1 是最后一维),这里是 {got}。"),
    (r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
     r"but got (?P<got>-?\d+)\)",
     "维度越界:dim 必须在 [{lo}, {hi}] 之间,这里是 {got}。"),
    (r"start \((?P<start>\d+)\) \+ length \((?P<length>\d+)\) exceeds dimension size "
     r"\((?P<size>\d+)\)",
     "narrow 越界:从位置 {start} 起取 {length} 个元素,但这一维大小只有 {size}(位置 0 到 {size_last})。"),
    (r"Number of dimensions of repeat dims can not be smaller than number of dimensions of "
     r"tensor",
     "repeat 必须为{subject}的每一维都给出重复次数(多给的会在前面添加新维)。"),
    (r"number of dimensions in the tensor input does not match the length of the desired "
     r"ordering of dimensions i\.e\. input\.dim\(\) = (?P<ndim>\d+) is not equal to "
     r"len\(dims\) = (?P<given>\d+)",
     "permute 必须把{subject}的 {ndim} 个维各列出一次,这里给了 {given} 个。"),
    (r"permute\(\): duplicate dims are not allowed",
     "permute 必须把每一维各列出一次,这里有一维出现了两次。"),
    (r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size "
     r"(?P<want>\d+) but got size (?P<got>\d+) for tensor number (?P<n>\d+) in the list",
     "cat 沿第 {dim} 维拼接,其余各维的大小必须都相同:列表中第 {n} 个张量是 {got},而第一个是 {want}。"),
    (r"Tensors must have same number of dimensions: got (?P<a>\d+) and (?P<b>\d+)",
     "cat 只能拼接维数相同的张量,这里是 {a} 维和 {b} 维(先用 unsqueeze 或 reshape 调整)。"),
    (r"stack expects each tensor to be equal size, but got (?P<a>" + SIZES_RX + r") at entry "
     r"(?P<i>\d+) and (?P<b>" + SIZES_RX + r") at entry (?P<j>\d+)",
     "stack 沿一个新维把张量并排放在一起,所以它们的形状必须相同:第 {i} 个是 {a},第 {j} 个是 {b}。"),
    (r"tensors used as indices must be long, int, byte or bool tensors",
     "索引张量的 dtype 必须是 long、int、byte 或 bool;浮点索引请先用 .long() 转换。"),
    (r"index_select\(\): Expected dtype int32 or int64 for index",
     "index_select 的 index 必须是整数(int64 或 int32);请先用 .long() 转换。"),
    (r"result type (?P<res>\w+) can't be cast to the desired output type (?P<out>\w+)",
     "dtype 不匹配:结果按 {res_torch} 计算,却要原地写回 {out_torch} 的张量,PyTorch 不会悄悄向下转换;"
     "写成新张量(t = t + 1.5)或先转换 dtype。"),
    (r"Index put requires the source and destination dtypes match, got (?P<dst>\w+) for "
     r"the destination and (?P<src>\w+) for the source",
     ("dtype 不匹配:index_put_ 要求值与被写入的张量 dtype 相同,这里目标是 {dst},值是 {src};"
      "先用 .to({dst_torch}) 转换值的 dtype。")),
    (r"value cannot be converted to type (?P<ctype>\w+) without overflow",
     "数值溢出:写入的数放不进 {ctype}(张量的元素类型):它太大,或者是整数张量存不下的 nan / inf。"),
    (r"masked_fill_? only supports boolean masks",
     "掩码必须是 bool 张量:用比较(t > 0)得到,或用 .bool() 转换。"),
    (r"(?P<op>\w+)\(\): could not infer output dtype\. Input dtype must be either a "
     r"floating point or complex dtype\. Got: (?P<dtype>\w+)",
     "{op} 不接受 {dtype_torch} 这样的整数 dtype:先用 .float() 转换,或传入 dtype=torch.float32。"),
    (r"a Tensor with (?P<numel>\d+) elements cannot be converted to Scalar",
     ".item() 只返回一个 Python 数,张量必须恰好有一个元素,这里有 {numel} 个;先索引出一个元素,或用 .tolist()。"),
    (r"only one element tensors can be converted to Python scalars",
     "int()、float()、bool() 只能作用于恰好有一个元素的张量;先索引出一个元素,或用 .tolist()。"),
    (r"cannot convert float NaN to integer",
     "nan(非数)没有对应的整数值,在 Python 里 int(nan) 同样会失败。"),
    (r"Storage size calculation overflowed with sizes=(?P<shape>" + SIZES_RX + r")",
     ("存储大小计算溢出:尺寸 {shape} 的元素个数乘以每个元素的字节数,超出了 64 位整数能表示的范围,"
     "这样的张量无法分配。")),
    (r"Trying to create tensor with negative dimension (?P<size>-\d+)",
     "负数维度:尺寸 {size} 小于 0,张量的每个尺寸都必须 >= 0。"),
    (r"upper bound and lower bound inconsistent with step sign",
     "arange 从 start 按 step 走向 end:end > start 时 step 必须为正,end < start 时必须为负。"),
    (r"refusing to allocate (?P<size>.+?) \((?P<bytes>\d+) bytes\): above tidx's memory "
     r"limit of (?P<limit>[^;]+);",
     ("超出内存上限:这条语句要分配 {size},超过了 tidx 的内存上限 {limit}。"
     "上限在分配之前检查,所以什么都没有运行;可以用 --max-bytes 调高上限。")),
    (r"required rank 4 tensor to use channels_last format",
     "channels_last 只适用于 4 维(NCHW)张量。"),
    # PythonArgParser (engine/binding/arg_parser.py)
    # -- 自动求导(issue #27)
    (r"modified by an inplace operation: \[torch\.\w+ (?P<shape>" + SIZES_RX + r")\], which "
     r"is output (?P<nr>\d+) of (?P<node>\w+), is at version (?P<now>\d+); expected version "
     r"(?P<saved>\d+)",
     "保存的张量被原地修改:计算图中的一个节点为反向公式保存了形状为 {shape} 的张量(版本 "
     "{saved}),之后的原地写入把它变成了版本 {now},公式需要的值已经没有了。计算图的图示给出了"
     "节点、张量和修改它的语句;请改为非原地写法(y = y + 1)或写入副本。"),
    (r"^a leaf Variable that requires grad is being used in an in-place operation",
     "叶子张量不能原地修改:需要梯度的叶子张量是 .grad 的求导对象,autograd 不允许原地改变它。"
     "请在 torch.no_grad() 中写入(优化器的更新就是这样),或写入副本。"),
    (r"^a view of a leaf Variable that requires grad is being used in an in-place operation",
     "叶子张量的视图不能原地修改:写入这个视图会原地改变需要梯度的叶子张量。请在 "
     "torch.no_grad() 中写入,或写入副本。"),
    (r"Trying to backward through the graph a second time",
     "计算图已被释放:第一次 backward() 释放了各节点保存的张量;要再次反向传播,请在前一次 "
     "backward() 中传入 retain_graph=True。"),
    (r"grad can be implicitly created only for scalar outputs",
     "只有标量输出能省略梯度:不带梯度的 backward() 从 1.0 开始,只有一个元素的输出才行;请先归约"
     "(y.sum().backward()),或传入与输出同形的 backward(gradient)。"),
    (r"element 0 of tensors does not require grad and does not have a grad_fn",
     "没有计算历史:调用 backward() 的张量不是由需要梯度的张量算出的(或是在 torch.no_grad() "
     "中算出的)。请先用 requires_grad=True 创建叶子张量。"),
    (r"'NoneType' object has no attribute '(?P<attr>\w+)'",
     "值为 None:.{attr} 前面的值是 None;例如张量的 .grad 在反向传播到达它之前一直是 None"
     "(非叶子张量除非调用了 retain_grad(),否则也一直是 None);请先检查是否为 None。"),
    (r"Inference tensors cannot be saved for backward",
     "推理张量不能进入计算图:它是在 torch.inference_mode() 中创建的;请使用在块外创建的副本,"
     "或改用 torch.no_grad()。"),
    (r"Inplace update to inference tensor outside InferenceMode",
     "推理张量只能在推理模式中原地修改:它没有版本计数器(写入已经发生,检查在写入之后);请写入"
     "副本。"),
    (r"(?:A view was created|is a view of a view which was created) in "
     r"(?P<mode>no_grad|inference) mode and",
     "视图的创建与原地写入不在同一模式:视图是在 autograd 关闭时({mode} 模式)创建的,"
     "它或它的基张量却在 autograd 打开时被原地写入,autograd 无法判断是否要记录这次写入。"
     "请把视图和写入都放在块内,或都放在块外。"),
    (r"is a view and (?:is being|its base or another view of its base has been) modified "
     r"inplace\. This view is the output of a function that returns multiple views",
     "多输出视图不能原地修改:unbind、split、chunk 一次返回多个视图,其中一个(或它们的基张量)"
     "被原地写入时,autograd 无法逐个重建它们的历史;请写入视图的副本,或改用非原地运算。"),
    (r"(\w+)\(\) got an unexpected keyword argument '(\w+)'",
     "参数错误:{0}() 没有名为 {1} 的关键字参数。"),
    (r"(\w+)\(\) missing \d+ required positional arguments?: (.+)",
     "缺少参数:{0}() 必须给出 {1}。"),
    (r"(\w+)\(\) takes (?:from \d+ to )?\d+ positional arguments? but (\d+) were given",
     "位置参数过多:{0}() 收到了 {1} 个位置参数;多出的参数请用关键字给出,或检查括号。"),
    (r"(\w+)\(\) got multiple values for argument '(\w+)'",
     "参数重复:{1} 既按位置又按关键字给出了。"),
    (r"argument '(\w+)' failed to unpack the object at pos (\d+)",
     "类型错误:参数 {0} 的第 {1} 个元素不是整数,尺寸只能由整数组成。"),
    (r"(\w+)\(\) received an invalid combination of arguments",
     "参数组合无效:这些参数匹配不上 {0}() 的任何一个签名,下面列出了全部签名。"),
    (r"argument '(\w+)' (?:\(position \d+\) )?must be ([\w. ]+?), (?:not|but found)",
     "类型错误:参数 {0} 必须是 {1}。"),
]
