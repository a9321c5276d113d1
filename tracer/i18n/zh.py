"""The Chinese table of :mod:`tracer.i18n`: the same ids as :mod:`tracer.i18n.en`.

Plain data, no logic.  The vocabulary is that of the project's two Chinese source
articles (seeds 000 and 002): 张量, 步长, 存储, 视图, 算子, 分发, 内核, 高级索引, 广播.
C++ and PyTorch names (``applySelect``, ``TensorIndex``, ``aten::select``,
``DispatchKeySet`` ...) stay exactly as they are in the English text, and each template
has the same ``{name}`` fields as its English one.

* :data:`TEXT` — id -> Chinese template (notes, where a default name comes from, the
  renderers' headings and labels).  Seed 003's constraint notes (``pypto.check.*``) are
  the seed's own wording; torch's own warning (``binding.wrapTuple.sequenceWarning``) is
  quoted as torch prints it.
* :data:`ERRORS` — explanations of PyTorch's error messages (:mod:`tracer.i18n.zh_errors`,
  filled by :mod:`tracer.i18n.explain`); the message itself is never translated.
"""

from __future__ import annotations

from tracer.i18n.zh_cuda import TEXT as CUDA_TEXT
from tracer.i18n.zh_cudart import TEXT as CUDART_TEXT
from tracer.i18n.zh_cudaindex import TEXT as CUDAINDEX_TEXT
from tracer.i18n.zh_cudacheck import ERRORS as CUDACHECK_ERRORS
from tracer.i18n.zh_cudacheck import TEXT as CUDACHECK_TEXT
from tracer.i18n.zh_cudacopy import TEXT as CUDACOPY_TEXT
from tracer.i18n.zh_errors import ERRORS as ZH_ERRORS
from tracer.i18n.zh_errors import NO_SUBJECT as ZH_NO_SUBJECT
from tracer.i18n.zh_errors import SUBJECT as ZH_SUBJECT
from tracer.i18n.zh_gif import TEXT as GIF_TEXT
from tracer.i18n.zh_lecture import TEXT as LECTURE_TEXT
from tracer.i18n.zh_autograd import TEXT as AUTOGRAD_TEXT
from tracer.i18n.zh_numpy import TEXT as NUMPY_TEXT
from tracer.i18n.zh_operators import TEXT as OPERATOR_TEXT
from tracer.i18n.zh_picture import TEXT as PICTURE_TEXT
from tracer.i18n.zh_rng import TEXT as RNG_TEXT
from tracer.i18n.zh_stepper import TEXT as STEPPER_TEXT
from tracer.i18n.zh_exports import TEXT as EXPORT_TEXT

TEXT: dict[str, str] = {
    # -- factories and the default dtype: linspace, logspace, range, new_*, asarray ------
    "factory.linspace":
        "linspace = empty(steps) + linspace_out:从 start 到 end 等间隔取 steps 个值,两端都包含",
    "factory.logspace":
        "logspace = empty(steps) + logspace_out:base ** (linspace 给出的那些值)",
    "factory.range":
        "torch.range(已弃用):与 arange 类似但包含终点;empty + range_out",
    "factory.asarray":
        "asarray 直接共享张量的内存,除非要求复制或 dtype/设备不同而必须复制;其他数据复制成新张量",
    "factory.new_tensor":
        "new_tensor:相当于 torch.tensor,但默认 dtype 和设备取自 self",
    "factory.new_empty": "new_empty = empty,未给出时 dtype 和设备取自 self",
    "factory.new_empty_strided":
        "new_empty_strided = empty_strided,未给出时 dtype 和设备取自 self",
    "factory.new_zeros": "new_zeros = new_empty + zero_:新张量全部置零",
    "factory.new_ones": "new_ones = new_empty + fill_(1):新张量全部填 1",
    "factory.new_full": "new_full = new_empty + fill_(value):dtype 取自 self,而不是取自填充值",
    "factory.new_options":
        "self.options().merge_in(options):dtype {dtype},设备 {device}(未给出的取自 self)",
    "linspace.factory":
        "{op}:先检查 steps >= 0,再分配结果:{steps} 个 {dtype} 元素",
    "linspace.kernel":
        "step = (end - start) / (steps - 1),用 {step_type} 计算;{steps} 个值中前 {halfway} 个为 "
        "start + step * i,其余为 end - step * (steps - 1 - i),因此两端都是精确值",
    "logspace.kernel":
        "x = start + step * i(前半)或 end - step * (steps - 1 - i)(后半),用 double 计算;"
        "{steps} 个值各为 pow({base}, x) 再转换为 dtype",
    "range.size":
        "size = (end - start) / step + 1,用累加类型计算后截断:包含终点",
    "range.kernel": "第 i 个值 = start + i * step,用累加类型计算",
    "random.normal.check_tensor_std":
        "CHECK_NORMAL_TENSOR_STD:std.min().ge(0).item() —— 每个 std 都必须 >= 0,"
        "结果作为 bool 读回 CPU",
    "random.normal.kernel_direct":
        "直接调用正态分布内核(它本身没有 aten::normal_):把 N(0, {std}) 抽样写入输出,"
        "然后平移(add_ mean);若 std 是张量,则先缩放(mul_ std)",
    "random.bernoulli_kernel":
        "按循环顺序逐个元素抽一个均匀随机数:u 来自 {draw}({bits} 位),元素值为 u < p"
        "(以概率 p 为 1),按输出的 dtype 存储",
    "random.bernoulli_scalar_kernel":
        "在此 CPU 上(不是 Intel,Intel 上运行 MKL 的生成器)p 为浮点数:按内存顺序逐个元素"
        "抽一个 random64(),取低 53 位得 u,元素值为 u < p",
    "binding.user_warning": "Python 警告(UserWarning):{message}",
    "binding.asarray.tensor":
        "是张量:原样共享;若 copy=True 或 dtype/设备不同,则转换或克隆",
    "binding.legacy.pynew":
        "torch.Tensor(...) 调用这个类:THPVariable_pynew,即使用默认 dtype 的旧式构造函数"
        "(张量参数保留它自己的 dtype)",
    "binding.legacy.type_new":
        "{type}(...) 是旧式张量类型:它的构造函数生成 {dtype} 的 CPU 张量",
    "binding.legacy.empty": "没有参数:一个空张量,empty({{0}})",
    "binding.legacy.alias":
        "参数是张量:alias() —— 同一存储上的新张量,不复制任何数据",
    "binding.legacy.sizes":
        "整数(或 torch.Size)是形状:empty(sizes),内存未初始化"
        "(分配器的字节原来是什么就是什么),不同于 torch.zeros",
    "binding.legacy.data":
        "列表或元组是数据:像 torch.tensor 一样复制,但使用该类型的 dtype"
        "(不做类型推断:[1, 2] 变成浮点数)",
    "binding.legacy.refused": "这些参数不符合 torch 接受的任何形式",
    "binding.asarray.data":
        "不是张量:复制成新张量(未给出 dtype 时自动推断);copy=False 会报错",
    "default_dtype.get": "本次运行的默认 dtype(torch.get_default_dtype())",
    "default_dtype.set":
        "把默认 dtype 设为 {dtype}:此后 Python 浮点数和浮点工厂函数都使用它",
    "default_dtype.check": "只有浮点 dtype 可以作为默认类型",
    "detach.alias": "同一存储上的新张量,没有自动求导历史",
    "resize.restride":
        "resize_(memory_format={memory_format}):调整大小之后,改用该内存格式的步长",
    # -- end of factories --------------------------------------------------------------
    # -- python / binding: t[...] and t[...] = v ---------------------------------------
    "python.getitem": "对张量执行 t[...] 会调用 C++ 映射槽 THPVariable_getitem",
    "python.setitem": "对张量执行 t[...] = v 会调用 C++ 映射槽 THPVariable_setitem",
    "binding.THPVariable_getitem": "简单索引走快速路径;其余的经过 applySlicing",
    "binding.THPVariable_setitem":
        "先把值包装成张量,再通过视图写入(copy_to);有张量索引时通过 index_put_ 写入",
    "binding.valueToTensor":
        "右侧的值变成张量;Python 数字采用 self 的 dtype(scalarToTensor -> scalar_tensor_static)"
        ",然后 lift_fresh",
    "binding.valueToTensor.tensor": "已经是张量:原样使用",
    "binding.wrapTuple": "索引被包装成 tuple:每个被索引的位置一项",
    # torch's own UserWarning, quoted as torch prints it
    "binding.wrapTuple.sequenceWarning":
        "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
        "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
        "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
        "error or a different result",
    # torch's own UserWarning, quoted: every language shows it as torch prints it
    "binding.clip_val.warning":
        "Truncating the start/stop/step of slice. This is likely because of saved old "
        "models when the start/stop/step were larger.",
    "binding.count_specified_dimensions":
        "统计索引要消耗的维数:None、... 和 bool 不消耗维度,bool/byte 掩码消耗它自己的 ndim 维",
    "binding.sequenceToVariable": "索引里的列表变成张量(元素是 bool 时为 bool,否则为 int64)",
    "binding.applySlicing":
        "从左到右逐个处理索引,每个都经过 handleDimInMultiDimIndexing;dim 记录到目前为止消耗了 "
        "self 的多少维",
    "binding.TensorIndex": "Python 索引被转换为对应的 C++ TensorIndex",
    "binding.THPVariable_Wrap": "C++ 张量得到它的 Python 对象(TensorImpl 是共享的,不复制)",
    # -- python / binding: torch.* functions -------------------------------------------
    "binding.PythonArgParser":
        "PythonArgParser 把参数与各个签名逐一匹配,构造 TensorOptions(dtype、layout strided、"
        "device、pin_memory),然后调用 aten 算子",
    "binding.data_ptr":
        "存储的数据指针加上 storage_offset() x element_size():视图的 data_ptr() 是其基张量的"
        "地址移动其偏移的字节数。tidx 的地址是模拟的(每次运行都相同);torch 显示进程中真实的地址",
    "binding.storage.data_ptr":
        "存储第一个字节的地址,它的所有视图共享(tidx 模拟,每次运行都相同;torch 显示真实地址)",
    "binding.storage.nbytes":
        "StorageImpl 保存的字节数(不运行任何 aten 算子)",
    "binding.storage.typed":
        "Python:张量的整个存储,从第 0 个字节起,按它的 dtype 读成元素"
        "(TypedStorage:张量的偏移和步长不起作用)",
    "binding.storage.deprecated":
        "torch 每个进程警告一次 TypedStorage 将被移除:untyped_storage() 才是 torch 保存的"
        "存储,只有字节,没有 dtype",
    "binding.storage.untyped":
        "张量持有的 StorageImpl 作为 UntypedStorage 交给 Python(不复制,不运行 aten 算子)",
    "binding.getter.op":
        "一个 Python 属性,它的 C++ getter 调用一个 aten 算子",
    "complex.view_as_real":
        "每个复数元素是两个浮点数(先实部后虚部):尺寸末尾多一维大小为 2,每个步长和偏移都翻倍,"
        "新维步长为 1 个浮点数;存储不变",
    "complex.view_as_complex":
        "每两个浮点数读作一个复数元素:去掉末尾大小为 2(步长 1)的维,其余步长和偏移减半;"
        "存储不变",
    "complex.set_conj": "别名带上共轭位:其元素读作所存元素的共轭;不复制任何数据",
    "complex.conj_kernel": "每个虚部取负写入输出(只改变符号位)",
    "real.self":
        "不是复数张量:real 就是张量本身(不创建视图)",
    "binding.to_type":
        "t.float() 这类转换:dispatch_to 调用 self.to({dtype})——已经是 {dtype} 时返回张量本身,"
        "否则返回转换后的副本",
    "roll.pieces":
        "沿第 {dim} 维滚动:后 {size} - {start} 个元素在前(从 {start} 开始 narrow),前 {start} 个"
        "在后(从 0 开始 narrow);cat 把两段拼成新张量",
    "where.kernel":
        "where_kernel:条件为 True 处取 self 的元素,为 False 处取 other 的元素(三者广播;结果为 {dtype})",
    "binding.readsTensorImpl":
        "不运行任何 aten 算子:绑定直接从 TensorImpl 读取 {reads}",
    "python.iter":
        "迭代张量(a, b = t;for row in t)是 torch/_tensor.py 里的 Python 代码:0 维张量无法迭代,"
        "否则为 iter(t.unbind(0)),每行一个视图",
    "python.len":
        "len(t) 是 torch/_tensor.py 里的 Python 代码:0 维张量没有长度,否则为 shape[0]",
    "binding.tensor_to_list":
        "tensor_to_list:先 resolve_conj 和 resolve_neg(没有共轭或取负标志时直接返回 self),再把元素变成嵌套的 Python 列表",
    "binding.recursive_to_list":
        "按 sizes 和 strides 遍历,把每个元素变成 Python 数字",
    "binding.item":
        "调度 item(),把 Scalar 作为 Python 数字交给 Python",
    "binding.bool_scalar":
        "bool(t) 调用 is_nonzero:必须恰好一个元素,与零比较",
    "binding.make_variable":
        "requires_grad=True:张量成为 autograd 叶子节点;之后对它的运算会经过 AutogradCPU "
        "并记录计算图",
    "binding.internal_new_from_data":
        "从嵌套列表推断尺寸和 dtype,用 empty 分配,存入 Python 数值,然后 to() 和 lift_fresh",
    "binding.internal_new_from_data.meta":
        "device='meta':只创建空的 meta 张量,数值被丢弃(meta 张量没有内存)",
    "binding.recursive_store": "按行优先顺序,把每个 Python 数字复制进新的存储",
    "factory.randn": "randn 就是 empty + normal_(0, 1):来自 CPU 生成器的标准正态分布随机数",
    "factory.rand": "rand 就是 empty + uniform_(0, 1)",
    "factory.zeros": "zeros 就是 empty + zero_",
    "factory.ones": "ones 就是 empty + fill_(1)",
    "factory.empty": "未初始化的内存:分配器返回的是什么字节,内容就是什么",
    "factory.full": "full 就是 empty + fill_(value);int 值得到 int64,bool 值得到 bool",
    "factory.empty_strided": "按给定步长确定大小的内存,未初始化",
    "factory.randint": "randint 就是 empty + random_(low, high)",
    "factory.randperm": "randperm 就是 empty + 对 0..n-1 做 Fisher-Yates 洗牌",
    "factory.arange":
        "arange 就是 empty + arange_out:大小为 ceil((end - start) / step),第 i 个值为 start + "
        "i * step",
    "factory.eye": "eye 就是 empty + resize_ + zero_,再在对角线上写 1",
    "factory.empty_like": "一个形状与输入相同、未初始化的新张量(输入稠密时保留它的步长)",
    "factory.zeros_like": "就是 empty_like + zero_",
    "factory.ones_like": "就是 empty_like + fill_(1)",
    "factory.full_like": "就是 empty_like + fill_(value)",
    "factory.rand_like": "就是 empty_like + uniform_(0, 1)",
    "factory.randn_like": "就是 empty_like + normal_(0, 1)",
    "factory.randint_like": "就是 empty_like + random_(low, high)",
    "factory.tensor":
        "torch.tensor 把 Python 数据复制进一个新张量,然后 detach_ 让它没有 autograd 历史",
    "function.where":
        "torch.where(condition) 就是把 nonzero(condition) 按维拆开,每维一个索引张量",
    "function.manual_seed": "重新设置默认 CPU 生成器的种子",
    "function.from_numpy": "张量与数组共享内存:不复制",
    "rng.manual_seed": "用种子的低 32 位重新初始化 mt19937 状态;清空缓存的正态分布随机数",
    "scalar.scalar_tensor_static":
        "直接调用 empty_cpu({{}}) + scalar_fill:不经过 Dispatcher,也没有 aten 算子",
    "scalar.wrapped_number":
        "与张量一起出现的 Python 数字变成一个标记为 wrapped number 的 0 维张量:"
        "在类型提升中只按其种类(bool、整数、浮点)参与",
    "scalar.scalar_fill": "存入这唯一的一个值",
    # -- TensorIndexing ------------------------------------------------------------------
    "indexing.singleIndex": "只有一个简单索引:直接处理,不经过 applySlicing",
    "indexing.applySlice": "切片保留该维:slice() 生成一个带步长的视图",
    "indexing.applySlice.whole":
        "start 为 0、stop 超过末尾、step 为 1:切片就是整个维,所以直接返回 self,不运行任何算子",
    "indexing.applySelect": "整数索引会去掉该维:先检查边界,再 select",
    "indexing.boolToIndexingTensor":
        "True 对新增的大小为 1 的维索引一次(tensor([0]));False 索引零次(空索引)",
    "indexing.recordTensorIndex":
        "张量索引此刻不动张量本身:它被存入 outIndices,留给之后的高级索引算子",
    "indexing.handleDim.integer": "第 {position} 个索引是整数:select,该维消失",
    "indexing.handleDim.slice": "第 {position} 个索引是切片:带步长的视图,该维保留",
    "indexing.handleDim.ellipsis": "第 {position} 个索引是省略号(...):跳过其他索引没有指定的维",
    "indexing.handleDim.none":
        "第 {position} 个索引是空索引 None:unsqueeze 出一个大小为 1 的新维",
    "indexing.handleDim.boolean":
        "第 {position} 个索引是布尔值:先 unsqueeze,再用张量索引这个新维",
    "indexing.handleDim.tensor": "第 {position} 个索引是张量:记录下来,留给高级索引",
    "indexing.slicePrefix1sSize": "在 index_put_ 之前,去掉值开头那些大小为 1 的维",
    "indexing.copy_to": "没有张量索引:直接写入切片得到的视图",
    "indexing.expand_inplace": "把值广播到目标的形状(步长为 0 的维)",
    "indexing.dispatch_index": "去掉末尾未定义的位置,然后运行 Tensor::index",
    "indexing.dispatch_index_put_": "去掉末尾未定义的位置,然后运行 Tensor::index_put_",
    "indexing.typeConvertIndices":
        "std::vector<Tensor> -> c10::List<std::optional<Tensor>>:未定义的位置变成 nullopt",
    # -- memory ----------------------------------------------------------------------------
    "memory.empty_generic.cpu":
        "empty_cpu -> empty_generic:所有工厂函数获取内存时共用的同一条代码路径",
    "memory.empty_generic.meta": "empty_meta:所有工厂函数获取内存时共用的同一条代码路径",
    "memory.check_size_nonnegative": "每个尺寸都必须 >= 0",
    "memory.computeStorageNbytesContiguous":
        "numel x itemsize,用带溢出检查的无符号 64 位算术计算",
    "memory.MetaAllocator": "meta 张量得到大小正确的存储,但没有内存:data_ptr 为空",
    "memory.posix_memalign":
        "posix_memalign: {nbytes} 字节,按 {alignment} 字节对齐,这样 SIMD 加载永远不会跨越缓存行",
    "memory.StorageImpl": "存储拥有这些字节;这些字节的每个视图都共享这个存储",
    "memory.TensorImpl": "张量:在存储之上加一个 dtype 和一个 DispatchKeySet;尺寸初始为 [0]",
    "memory.generic_set_sizes_contiguous":
        "stride[i] = sizes[i+1:] 的乘积:行优先,最后一维变化最快",
    "memory.channels_last": "channels_last 保留 NCHW 的尺寸,但内存按 NHWC 排列",
    "memory.empty_strided_generic": "存储的大小按步长能到达的最高元素来确定",
    # -- kernels: views --------------------------------------------------------------------
    "as_strided.setStrided":
        "新建一个共享存储的 TensorImpl:只有尺寸、步长和偏移是新的,一个字节也不复制",
    "select.geometry": "去掉第 {dim} 维;偏移移动 {index} x 步长 {stride} = {moved} 个元素",
    "slice.geometry":
        "第 {dim} 维:start 截到 {start},end 截到 {end};大小为 ceil({length}/{step}),步长 "
        "x{step}",
    "unsqueeze.geometry": "在第 {dim} 维插入一个大小为 1 的维(步长 {stride}:它从来不会被跨过)",
    "expand.geometry": "被广播的维步长为 0:同一个元素被读取多次,什么都不复制",
    "view.computeStride": "新形状可以按现有的内存布局直接复用这块内存",
    "reshape.view": "self 是连续的:reshape 就是一个视图",
    "reshape.alias":
        "不连续,但 computeStride 为新形状找到了步长:得到一个别名(alias),仍然不复制",
    "reshape.copy": "在这块内存上,没有任何步长能表达新形状:先复制成一个连续张量",
    "transpose.geometry": "交换第 {dim0} 维和第 {dim1} 维:它们的尺寸和步长互换",
    "squeeze.geometry": "去掉大小为 1 的维:它们从不移动偏移",
    "flip.copy": "没有哪个要翻转的维多于一个元素:直接复制",
    "flip.kernel":
        "从第 {start} 个元素(第 {dims} 维的另一端)开始读 self,这些维的步长取反:"
        "out[i] = self[size - 1 - i]",
    # -- kernels: copies and fills ---------------------------------------------------------
    "copy.TensorIterator": "src 被广播到 dst 的形状;dst 的大小从不改变",
    "copy.same_dtype": "dtype 相同:逐元素直接复制",
    "copy.cast": "复制时把 {src} 转换为 {dst}",
    "copy.complex_to_real": "UserWarning:把复数转换为实数会丢弃虚部(torch 的警告原文:"
                            "Casting complex values to real discards the imaginary part)",
    "fill.tensor": "值是同一设备上的 0 维张量:fill 就是把这一个元素广播后 copy_ 过去",
    "fill.scalar_fill": "只有一个元素:直接写入 {value},不经过 TensorIterator",
    "fill.fill_kernel": "把 {value} 写入每个元素",
    "zero.meta": "meta 张量没有内存:无需清零",
    "zero.memset": "稠密且元素少于 GRAIN_SIZE:一次 memset 清零全部字节,不经过 TensorIterator",
    "zero.no_elements": "没有元素:data_ptr() 为空,所以不做 memset",
    "zero.parallel": "{numel} 个元素 >= GRAIN_SIZE({grain_size}):并行填充",
    "zero.not_dense": "不是一整块稠密内存(有步长或重叠):memset 做不到",
    "contiguous.clone": "内存不是按该格式布局的:clone 到一个按该格式布局的新张量",
    "lift_fresh.identity": "为 functionalization 标记刚创建的张量;在普通 CPU 上原样返回输入",
    "detach_.history": "切断张量与任何 autograd 历史的联系",
    "to.same": "dtype 和 device 已经一致:直接返回 self,不复制",
    # -- kernels: factories ----------------------------------------------------------------
    "factory.meta_no_fill":
        "Meta 内核在 empty 之后就停下:{fill} 会写入 meta 张量并不拥有的内存",
    "empty_like.dense": "输入是稠密的:新张量完全照搬它的步长",
    "empty_like.gaps":
        "输入中有空隙:infer_dense_strides 保留各维在内存中的顺序,但把元素紧密排列",
    "resize.resize_impl_cpu_": "元素个数相同:只改变尺寸和步长;元素更多:存储变大",
    "arange.size": "size = ceil((end - start) / step),用 double 计算",
    "arange.kernel":
        "第 i 个值 = start + i * step,用累加类型计算(float 用 double),一次算一个向量的元素",
    "eye.diagonal": "每隔 stride(0) + stride(1) 个元素写一个 1:这就是对角线",
    # -- kernels: random -------------------------------------------------------------------
    "random.precision_warning":
        "{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
        "{dtype} can support discrete uniform distribution only within this range. This "
        "warning will become an error in version 1.7 release, please fix the code in advance",
    "random.generator":
        "默认的 CPU 生成器:所有随机算子共享一条 mt19937 随机数流;每个算子从上一个停下的地方继续",
    "random.meta": "meta 张量没有内存:无需填充,也不抽取随机数",
    "random.normal_kernel":
        "numel >= 16 且连续时走 normal_fill(以 16 个元素为一块做 Box-Muller);"
        "否则每两个元素做一次 Box-Muller,串行生成",
    "random.uniform_kernel":
        "每个元素抽取一次原始随机数(float32 取 24 位,float64 取 53 位),缩放到 [from, to)",
    "random.random_from_to_kernel":
        "value = low + draw % (high - low);范围达到 2**28 或更大时抽取 64 位随机数",
    "random.randn": "randn 先用 empty 分配,再原地填充 N(0, 1)",
    "random.randperm":
        "Fisher-Yates 洗牌:对 i = 0..n-2,把 r[i] 与 r[i + random() % (n - i)] 交换",
    # -- kernels: advanced indexing --------------------------------------------------------
    "index.expandTensors": "布尔掩码的每一维变成一个 long 索引:即 nonzero(mask) 的各列",
    "index.make_info":
        "准备高级索引:掩码 -> long 索引,把它们广播,并重设 self 的步长,"
        "让一个内核就能遍历所有元素",
    "index.checkIndexTensorTypes": "索引张量必须是 long、int、byte 或 bool",
    "index.expand_outplace": "把所有索引张量广播到同一形状",
    "index.transposeToFront":
        "被索引的维不相邻:把它们换到最前面,结果中被索引的维排在最前(与 numpy 相同)",
    "index.restride_src":
        "把 self 被索引的维换成索引的形状、步长设为 0:由内核自己加上 index * stride",
    "index.reshape_indexer": "给索引补上大小为 1 的维,使它能与重设步长后的 self 广播",
    "index.set_output":
        "结构化内核自己分配输出(empty_cpu / empty_strided_cpu,不经过 Dispatcher):"
        "高级索引总是复制。TensorIterator 按输入的内存顺序排布输出",
    "index.cpu_index_kernel":
        "对每个输出元素:offset = base + sum(index_j * stride_j);读取那个元素",
    "index_put.canDispatchToMaskedFill":
        "只有一个布尔掩码、值只有一个元素时,masked_fill_ 做得更快",
    "index_put.make_index_put_iterator": "值必须能广播到索引结果的形状,且 dtype 与 self 相同",
    "index_put.write": "对每个元素:offset = base + sum(index_j * stride_j);把值写到那里",
    "index_put.accumulate": "对每个元素:offset = base + sum(index_j * stride_j);把值累加到那里",
    "masked_fill.kernel":
        "TensorIterator 把掩码广播到 self 上(不调用 expand 算子);掩码为 True 的位置都写入该值",
    "nonzero.kernel":
        "先数出非零元素,再写出它们的坐标;结果是列优先的(步长 [1, n]),每一列就是一个索引",
    # -- kernels: gather, scatter, take, reductions ----------------------------------------
    "index_select.rows":
        "每个索引复制一个切片:self.select(dim, 0) 和 result.select(dim, 0) 给出切片的形状;"
        "第 i 次复制从 self 中 index[i] * stride(dim) 处开始",
    "index_select.dim1": "沿第 1 维写入连续的结果:先把 self 变为连续,再对每个外层下标用 memcpy 复制数据块",
    "index_select.kernel": "结果沿 dim 的第 i 个切片 = self 的第 index[i] 个切片",
    "gather.kernel":
        "out[i][j] = self[i][index[i][j]](dim 为 1 时):除 dim 之外各维都用 arange 的花式索引",
    "scatter.kernel": "self[i][index[i][j]] = src[i][j](dim 为 1 时)",
    "scatter_add.kernel": "self[i][index[i][j]] += src[i][j](dim 为 1 时)",
    "take.kernel": "把 self 看成一个按行优先展平的向量:out[k] = flat(self)[index[k]]",
    "overlap.check": "写入之前,内核检查被写张量没有两个元素共用同一位置,且它与要读取的张量不重叠(MemoryOverlap.cpp)",
    "overlap.check_inputs": "写入之前,内核检查被写张量与它要读取的张量不重叠(MemoryOverlap.cpp)",
    "overlap.expanded_warning":
        "Use of {op} on expanded tensors is deprecated. Please clone() the tensor before "
        "performing this operation. This also applies to advanced indexing e.g. {tail}",
    "sum.make_reduction":
        "把结果看成在每个被归约的维度上补回大小 1、步长 0 的视图;TensorIterator 把它广播到输入上,于是同一归约组的元素都落在同一个结果元素上",
    "sum.two_pass": "{threads} 个线程各自把自己那一份加到缓冲区的一行里(缓冲区先复制单位元 0),最后把各行加到结果中",
    # 归约(engine/ops/reduce.py、engine/ops/sum_kernel.py)
    "sum.integer": "整数按任何顺序相加都得到相同的位(按该 dtype 回绕),所以每个结果元素就是它那一组的和",
    "sum.cascade":
        "{dtype} 的级联求和,{lanes} 个 SIMD 通道:迭代器的每个二维块按 16 个或更多元素一组、最多四级的部分和相加(只让大小相近的数相加),各块的和再加到结果上;这个顺序决定了最后几位",
    "stub.build":
        "{stub} 运行它的 {capability} 版本:{bytes} 字节的向量,每个装 {lanes} 个 {dtype} 值,"
        "a * b + c 舍入两次(不用融合乘加);向量宽度决定循环怎样切分工作,所以其他版本的最后几位可能不同",
    "stub.avx2_only":
        "{stub} 运行它的 {capability} 版本,AVX512 CPU 也运行这个版本(torch 2.13 没有为它编译 AVX512 版本):"
        "{bytes} 字节的向量,每个装 {lanes} 个 {dtype} 值,a * b + c 融合为一次舍入(FMA);"
        "向量宽度决定循环怎样切分工作,所以 DEFAULT 版本的最后几位可能不同",
    "amax.kernel": "保留每个归约组中最大(amax)或最小(amin)的值;NaN 优先",
    "max_all.kernel": "整个张量中最大(max)或最小(min)的元素;由 fill_ 写入 0 维结果",
    "argmax.kernel": "每组中第一个最大(argmax)或最小(argmin)元素的下标;第一个 NaN 优先",
    "max_dim.kernel": "沿该维逐行扫描,保留第一个最大(max)或最小(min)的值及其下标;遇到第一个 NaN 即停止",
    "cumsum.kernel": "沿第 {dim} 维按顺序逐行扫描,累加到一个 {acc} 累加器中,并把每个累加和按结果的 dtype 舍入后写出",
    "prod.kernel": "按 binary_kernel_reduce_vec 的顺序把每组元素乘到结果上(结果从 1 开始):连续的行用四个向量累加器,连续的列每列一个通道,否则逐个元素相乘;在 {dtype} 中计算",
    "equal.alias": "两者是同一块内存中的同一组元素:相等,除非其中有浮点 NaN",
    "equal.kernel": "在公共 dtype 中逐个元素比较;NaN 与任何值都不相等",
    "mean.div": "把每个和原地除以它所加的元素个数(这个个数是包装数,先转换成结果的 dtype)",
    "allany.kernel": "每个结果元素表示它那一组的元素是否全部(all)或任一(any)非零",
    "masked_select.prefix_sum":
        "不连续:对掩码求前缀和,为每个选中的元素确定输出位置,这样内核可以按任意顺序运行",
    "masked_select.kernel": "按逻辑顺序遍历 self;掩码为 True 的元素依次写入下一个输出位置",
    # -- kernels: pointwise ----------------------------------------------------------------
    "pointwise.TensorIterator":
        "广播到 {shape};公共 dtype 为 {dtype}:其他 dtype 的输入先被复制转换成它",
    "pointwise.binary_kernel": "对广播后的元素做一次向量化循环",
    "pointwise.unary_kernel": "一次向量化循环",
    "pointwise.temporary_output":
        "self 是 {out},但循环在 {dtype} 中计算:先写入一个 {dtype} 的临时张量,最后再复制回 self",
    "pointwise.div_trunc": "向零取整的除法 trunc(a / b);整数除数为 0 时抛出 ZeroDivisionError",
    "pointwise.div_floor":
        "按 c10::div_floor_floating 做向下取整除法:(a - fmod(a, b)) / b,符号不同时减一,再取 "
        "floor;整数除数为 0 时抛出 ZeroDivisionError",
    "pointwise.remainder": "余数:fmod(a, b),余数与 b 符号相反时再加上 b(Python 的 %,符号随除数)",
    "pointwise.fmod": "fmod:截断除法的余数,符号随被除数",
    "pointwise.pow_shortcut": "指数为 {exponent}:不计算 pow,输出直接填 1(指数 0)或复制底数(指数 1)",
    "pointwise.resize_warning":
        "UserWarning:out= 张量含有元素但形状是 {old} 而不是 {new}:它被调整大小(已弃用:以后 torch "
        "只会调整空的 out= 张量)",
    "pointwise.pow_kernel":
        "以 {exponent} 为指数的 pow:整数用平方-乘法(像 C 一样回绕),浮点数用该指数的精确特例"
        "(sqrt、1/sqrt、1/x、x*x、x*x*x)",
    # -- seed 003 (pypto) ------------------------------------------------------------------
    "pypto.index_select":
        "seed 003 (pypto.index_select):沿 dim 取出 input 中由 index 选中的切片,在 Unified "
        "Buffer(UB)中逐个 tile 计算",
    "pypto.constraint_checks":
        "seed 003 (pypto.index_select):参数说明与约束说明,每条约束一个子步骤",
    "pypto.tiling":
        "seed 003 (pypto.index_select):TileShape 切分 result;input 的第 {dim} 维不切分(约束 3),"
        "它只是按 index 取数的来源",
    "pypto.tile":
        "result[offsets : offsets + extents] = 按列出的 index 条目沿 dim 从 input 中取出的数据",
    "pypto.more_tiles": "第 {first} 到第 {last} 个 tile 不再逐一列出",
    "pypto.gather": "np.take(input, index, axis=dim):一次算完上面所有的 tile",
    # seed 003's constraints in the seed's own words (its 参数说明 and 约束说明)
    "pypto.check.input_dtype":
        "Tensor支持的数据类型为:DT_FP32,DT_FP16,DT_BF16,DT_INT16,DT_INT8,DT_INT32。",
    "pypto.check.input_rank": "Shape仅支持2-4维。",
    "pypto.check.input_not_empty": "不支持空Tensor。",
    "pypto.check.input_shape_size": "Shape Size不大于2147483647(即INT32_MAX)。",
    "pypto.check.dim_range":
        "dim为int类型,取值范围:-input.dim <= dim < input.dim。支持负数,负值会被解释为 dim + "
        "input.dim;",
    "pypto.check.index_dtype": "index必须是整数类型(DT_INT32 或 DT_INT64)。",
    "pypto.check.index_rank": "Shape只支持1-2维。",
    "pypto.check.index_not_empty": "不支持空 Tensor。",
    "pypto.check.index_shape_size": "Shape Size不大于2147483647(即INT32_MAX)。",
    "pypto.check.input_viewshape":
        "input.shape 的 dim 轴 viewshape 不可切,要求viewshape[dim]>=input.shape[dim]。",
    "pypto.check.tile_shape_set":
        "调用该operation接口前,应通过set_vec_tile_shapes设置TileShape。",
    "pypto.check.tile_shape_rank": "TileShape的维度与result相同,用于切分result。",
    "pypto.check.ub_size":
        "Tile 内存占用须满足约束 b1·t1·d1·sizeof(output) < UBSize;TileShape 设置需保证 result "
        "不超过UB大小。",
    "pypto.check.index_values": "值为合法索引,即不能超出 input.shape[dim]。",

    # -- where a default name comes from ---------------------------------------------------
    "origin.seed": "seed {seed}",
    "origin.seed_004_randn": "seed 004(一个 3x2x2 张量;原文用 randn 填充)",

    # -- the renderers' headings and labels ------------------------------------------------
    "ui.default_names_used": "用到的默认名称",
    "ui.default_name": "默认名称",
    "ui.layers": "层",
    "ui.outside_statement": "(在语句之外记录的步骤)",
    "ui.raises": "抛出",
    "ui.random_seed": "随机种子 {seed}(torch.manual_seed({seed}) 可以复现)",
    "ui.page.random_seed":
        "随机种子 {seed}:在 PyTorch 中用 `torch.manual_seed({seed})` 可以复现这些随机数。",
    "ui.page.made_by": "由 tidx {version} 生成 — 每一步都对应 PyTorch {tag} 的源码。",
    # layer titles (tracer.events.LAYERS)
    "ui.layer.python": "Python 层",
    "ui.layer.binding": "C++ 绑定层",
    "ui.layer.indexing": "TensorIndexing",
    "ui.layer.dispatcher": "分发器",
    "ui.layer.kernel": "内核",
    "ui.layer.memory": "内存",
    "ui.layer.rng": "随机数生成器",
    # tidx step
    "ui.step.position": "第 {number}/{total} 步",
    "ui.step.none": "(这条语句没有记录任何步骤)",
    "ui.step.keys": "n/空格/回车:下一步   p/b:上一步   g + 编号 + 回车:跳到该步   q:退出",
    # the storage picture
    "ui.storage.title": "存储 {storage}: {size} 个 {dtype} 元素 ({nbytes} 字节)",
    "ui.storage.offset": "偏移",
    "ui.storage.more": "... 还有 {count} 个元素",
    "ui.storage.geometry": "尺寸 sizes ({sizes}) 步长 strides ({strides}) 偏移 offset {offset}",
    # tidx compare
    "ui.compare.view_or_copy": "视图还是副本",
    "ui.compare.value": "值",
    "ui.compare.bytes_allocated": "分配的字节数",
    "ui.compare.steps": "步骤数",
    "ui.compare.aten_operators": "aten 算子",
    "ui.compare.none": "(无)",
    "ui.compare.raises": "抛出 {error}",
    "ui.compare.no_tensor": "没有产生张量",
    "ui.compare.the_result": "结果",
    "ui.compare.view_of": "{name}: {others} 的视图",
    "ui.compare.others_more": "{names} 以及另外 {count} 个",
    "ui.compare.in_place": "{name}: 原地写入(存储不变)",
    "ui.compare.copy": "{name}: 副本(新的存储)",
    "ui.compare.same_steps": "两者走的步骤完全相同。",
    "ui.compare.paths_part": "共同走过 {count} 步之后,两条路径分开:",
    # --verify
    "ui.verify.title": "tidx 与 PyTorch {version} 对照,两者都用 {capability} CPU 能力",
    "ui.verify.simulated": "--verify:{why};没有比较任何内容。",
    "ui.cpu.chosen": "内核按 {capability} CPU 能力的版本运行({source})",
    "ui.cpu.simulated": "内核按 {capability} CPU 能力的版本运行({source}),模拟:这台 CPU 最多支持 {cpu}",
    "ui.verify.statement": "语句",
    "ui.verify.values": "数值",
    "ui.verify.shape": "形状",
    "ui.verify.strides": "步长",
    "ui.verify.offset": "偏移",
    "ui.verify.dtype": "dtype",
    "ui.verify.error": "错误",
    "ui.verify.aten_ops": "aten 算子",
    "ui.verify.match": "一致",
    "ui.verify.differ": "不同",
    "ui.verify.not_compared": "{count} 条语句未与 PyTorch 比较(见上)。",
    "ui.verify.agree": "tidx 与 PyTorch 在每一项检查上都一致。",
    "ui.verify.disagree":
        "tidx 与 PyTorch 不一致:上面的追踪不是 PyTorch 实际做的事(tidx 的 bug)。",
}
#: the operator families added for breadth (issue 14): one table, two files
TEXT.update(OPERATOR_TEXT)
TEXT.update(NUMPY_TEXT)
TEXT.update(AUTOGRAD_TEXT)
TEXT.update(LECTURE_TEXT)
#: the simulated CUDA device (issue 16): its own table, two files
TEXT.update(CUDA_TEXT)
TEXT.update(CUDART_TEXT)
TEXT.update(CUDAINDEX_TEXT)
#: --verify of CUDA statements, compared on the CPU (issue 16)
TEXT.update(CUDACHECK_TEXT)
#: Copy.cu's full copy path on the simulated CUDA device (issue 16)
TEXT.update(CUDACOPY_TEXT)
#: the storage picture and the step timeline (issue 15): one table, two files
TEXT.update(PICTURE_TEXT)
#: random numbers to the element, bytes allocated, compare (issue 15)
TEXT.update(RNG_TEXT)
#: the HTML stepper's labels (issue 15): one table, two files
TEXT.update(STEPPER_TEXT)
#: the GIF animation's labels (issue 15)
TEXT.update(GIF_TEXT)
#: the exported images and the export command (issue 15)
TEXT.update(EXPORT_TEXT)

#: PyTorch's error messages, explained (tracer/i18n/zh_errors.py)
ERRORS: list[tuple] = ZH_ERRORS + CUDACHECK_ERRORS  # + mixed devices
SUBJECT, NO_SUBJECT = ZH_SUBJECT, ZH_NO_SUBJECT
