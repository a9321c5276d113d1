"""The Chinese notes of the operator families: part of :data:`tracer.i18n.zh.TEXT`, which
merges this table in.  Plain data, no logic; the same vocabulary and conventions as
zh.py (the same ids and ``{name}`` fields as the English table).
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "matmul.ger_deprecated":
        "UserWarning:torch.ger 已弃用,将在未来的 PyTorch 版本中移除。请改用 torch.outer。",
    "bmm.split":
        "矩阵对朴素循环来说太大,而 BLAS 又不能一次批量处理(某个矩阵既非行主序也非列主序、结果不连续,或是整数):对 select() 出的矩阵逐批做矩阵乘,共 {batches} 批",
    "bmm.addbmm":
        "addbmm 把 {batches} 批乘积加到同一个矩阵:每批一次 addmm_,只有第一批用 beta,所以逐批求和",
    "einsum.python":
        "torch/functional.py:方程与操作数交给 _VF.einsum;此处 torch 旁未安装 opt_einsum,所以不给收缩路径,Linear.cpp 从左到右收缩",
    "einsum.parse":
        "操作数 {operands}:输出维为 {output},其后被求和消去的维为 {summed}(省略号覆盖 {ellipsis} 维);每个操作数都按此顺序对齐",
    "einsum.align":
        "操作数 {operand}:重复的标签变为对角线,缺少的标签变为 unsqueeze 出的大小为 1 的维,一次 permute 把各维排成对齐的顺序",
    "einsum.contract":
        "收缩操作数 {left} 与 {right}(之后剩 {remaining} 个):只有其中一个拥有、且后面的操作数都没有的维先求和;乘积放回最前面",
    "einsum.pair_mul":
        "sumproduct_pair:这两个之间没有要求和的维,所以是一次广播的 mul",
    "einsum.pair_bmm":
        "sumproduct_pair:permute 并 reshape 为 ({batch}, {rows}, {k}) 与 ({batch}, {k}, {cols}),一次 bmm,再 view 并 permute 回来:被求和的维是 bmm 的内维 {k}",
    "tensordot.python":
        "torch/functional.py:dims 变为两个列表(整数 n:a 的最后 n 维与 b 的前 n 维)交给 _VF.tensordot",
    "tensordot.kernel":
        "tensordot:把 a permute 为(保留,收缩),b 为(收缩,保留),都 reshape 为矩阵({rows}x{k} 与 {k}x{cols}),一次 mm,再 reshape 为结果的形状",
    # -- 逐元素数学
    "ui.verify.within_ulps":
        "数值按 {ulps} ulp 以内比较:torch 使用 {library},tidx 不重现其最后几位(docs/fidelity-math.md)",
    "ui.verify.from_bounded":
        "数值不逐位比较:它们由 {names} 算出,而那些值与 torch 的相差几个 ulp 以内,本语句的运算会把差异传下去",
    "statistics.all_cpu":
        "整个张量用 double 计算:均值 {mean},再按迭代器顺序逐个累加 (x - mean)^2(每次循环调用、每个线程各自求和),"
        "除以 n - correction;std 再开平方;最后舍入到张量的 dtype",
    "statistics.welford":
        "每个输出用 double 按顺序对被归约元素做 Welford 更新:delta = x - mean,mean += delta / n,"
        "m2 += delta * (x - mean),每步各自舍入;再算 m2 / (n - correction),std 再开平方",
    "statistics.dof":
        "{op}():自由度 <= 0。correction 应严格小于归约因子(输入元素数除以输出元素数)。",
    "cumprod.kernel": "沿第 {dim} 维按顺序逐行扫描,乘到一个 {acc} 累加器中,并把每个累积乘积按结果的 dtype 舍入后写出",
    "cummin.kernel":
        "沿第 {dim} 维逐行遍历:不大于当前最小值的元素(或一个 NaN,之后一直保留)接替它,其下标写在旁边;"
        "相等时下标移到后面的元素",
    "statistics.trace":
        "把对角线元素逐个累加(第 i 个在 i * (stride0 + stride1) 处),累加器为 double(half 为 float,整数为 int64)",
    "statistics.nansum": "torch 的级联求和,每个 NaN 按 0 载入",
    "statistics.logsumexp":
        "max = amax(x, dims, keepdim=True)(无穷大的 max 按 0 计),然后 "
        "log(sum(exp(x - max))) + max,每一步都是一个算子",
    "statistics.quantile":
        "对数值排序(展平,或把该维移到最后),每个 q 的秩为 q * (n - 1)"
        "(含 NaN 的行取最后一个下标;nanquantile 只数非 NaN 的值),然后取秩下方和上方的值并用 lerp 插值,每一步都是一个算子",
    "statistics.histc":
        "[min, max] 内的每个元素计入其线程那一行的第 (x - min) * bins / (max - min) 个桶(截断),"
        "以输入的 dtype 计算(最右的边界归入最后一个桶;NaN 和范围外的元素跳过);计数也是输入的 dtype",
    "cross.kernel":
        "沿该维对每个三维向量:r0 = a1*b2 - a2*b1,r1 = a2*b0 - a0*b2,r2 = a0*b1 - a1*b0"
        "(AVX2 构建中每行一次融合乘加,DEFAULT 中两次舍入)",
    "cross.default_dim":
        "不指定 dim 使用 torch.cross 已被弃用。\n请显式传入 dim,或直接使用 torch.linalg.cross。\n"
        "dim 的默认值将在未来版本中改为与 linalg.cross 一致。",
    "statistics.logsumexp_bound":
        "{op}:torch 使用 {library},tidx 无法重现;其余按 torch 的顺序计算,因此每个元素与 torch 的"
        "最多相差 {eps} * eps * max(1, |y|),此处为 {bound}(docs/fidelity-math.md)",
    "math.lerp":
        "|w| < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w),half 在 float 中计算;作为一次融合乘加:{fused}"
        "(AVX2/AVX512 版本融合,DEFAULT 舍入两次)",
    "math.rounding_exact": "把每个元素舍入为整数值(round 为四舍六入五取偶);结果精确,位与 torch 相同",
    "math.round_decimals":
        "以浮点运算计算 nearbyint(x * 10^{decimals}) / 10^{decimals}(10^d 本身也被舍入):"
        "不是计算器式的十进制舍入",
    "math.frac": "x - trunc(x):精确,符号与 x 相同;无穷大得到 NaN",
    "angle.real": "实数的辐角:大于等于 0 的数(包括 -0.0)为 0,负数为舍入到 {dtype} 的 π,NaN 仍为 NaN(angle_impl)",
    "pad.reflect": "每个输出元素都取自一个输入元素:沿最后 {dims} 个维度,位置 j 读取 j 减去左侧填充后、以边缘元素为镜面反射的位置(边缘元素不重复);值原样复制",
    "pad.replicate": "每个输出元素都取自一个输入元素:沿最后 {dims} 个维度,位置 j 读取 j 减去左侧填充后、截断到边缘元素的位置;值原样复制",
    "math.float_exact": "对每个元素求 {op}(整数张量先转为默认浮点类型);实测与 torch 逐位相同",
    "math.within_ulps":
        "对每个元素求 {op}:torch 使用 {library},tidx 无法重现;tidx 的值来自 numpy,"
        "与 torch 最多相差 {ulps} ulp(实测:docs/fidelity-math.md)",
    "softmax.log_bound":
        "沿该维求 {op}:x - max - log(exp(x - max) 之和),按 torch 的顺序求和;torch 使用 {library},"
        "因此每个元素与 torch 的最多相差 {eps} * eps * max(1, |y|),此处为 {bound}(实测:docs/fidelity-math.md)",
    "ui.verify.abs_bound":
        "数值在 {bound} 以内比较:{op} 步骤给出此界,因为 torch 在此运行的库函数无法重现(docs/fidelity-math.md)",
    "ui.verify.blas_bound":
        "数值与 torch 的相差在 {bound} 以内:MKL 的求和顺序 tidx 无法重现,matmul 步骤给出了此界",
    "matmul.addmm":
        "addmm_impl_cpu_:{m}x{k} 乘 {k}x{n},一次 BLAS gemm 调用;先把结果、再把每个操作数当作 BLAS 可直接读取的列主序矩阵",
    "matmul.as_is":
        "操作数 {operand}(步长 {strides})已是 BLAS 读取的列主序矩阵:标志 '{flag}',不复制",
    "matmul.transposed":
        "操作数 {operand}(步长 {strides})是转置矩阵:以标志 '{flag}' 告知 BLAS,直接读取该视图,不复制",
    "matmul.copied":
        "操作数 {operand}(步长 {strides})既非行主序也非列主序:先克隆为连续张量,再以标志 '{flag}' 传入",
    "matmul.exact":
        "这些 {k} 项和的每个乘积与部分和都是该格式能精确表示的整数(至多 {worst}),任何求和顺序(包括 MKL 的)都得到相同的位",
    "matmul.bound":
        "torch 把它交给 MKL,其求和顺序 tidx 无法重现:tidx 以 {dtype} 按 k 递增求 {k} 项之和;MKL 的结果与之相差至多 2*gamma_k*sum|a_ik*b_kj|,此处至多 {bound}",
    "matmul.naive":
        "baddbmm_cpu_kernel:每个矩阵少于 400 次乘加,用朴素的 i, j, k 循环按顺序求 {k} 项之和,与 tidx 相同:位相同",
    "matmul.dispatch":
        "_matmul_impl 按秩选择内核({left}D @ {right}D):1x1 dot,2x1 mv,1x2 对扩展的行做 mm,2x2 mm,否则把批维折叠进 mm/mv 或扩展后用 bmm",
    "cummax.kernel":
        "沿第 {dim} 维逐行遍历:不小于当前最大值的元素(或一个 NaN,之后一直保留)接替它,其下标写在旁边;"
        "相等时下标移到后面的元素",
    "pointwise.nan_to_num": "NaN 变为 {nan},+inf 变为 {posinf},-inf 变为 {neginf};其余元素原样复制",
    "pointwise.logaddexp":
        "不溢出地计算 log(exp(a) + exp(b)):max(a, b) + log1p(exp(-|a - b|));两个相等的无穷大得到其自身",
    "repeat.interleave_index":
        "{total} 个输出位置各自复制的下标:元素 i 填满 cumsum[i] - repeats[i] 到 cumsum[i]",
    "repeat.target":
        "self 前面补 1 成为 {padded},每维重复 {repeats} 次:结果形状为 {target}",
    # -- triangles and diagonals (tril/triu, tril_indices/triu_indices, diagonal, diag,
    # diag_embed, diagflat, fill_diagonal_, the *_scatter ops)
    "triangle.meta": "{op} 需要矩阵:至少 2 维;输出的尺寸与 self 相同",
    "triangle.restride": "是连续的,但某个大小为 1 的维步长不寻常:通过默认步长的视图来遍历",
    "triangle.batch_copy":
        "第 {dim} 维步长为 {stride} 而不是 {expected}:矩阵之间不是首尾相接,内核改在连续副本上计算",
    "triangle.empty": "没有元素:无需写 0",
    "triangle.kernel": "每个矩阵中满足 {keep} 的元素 (i, j) 保留,其余写 0",
    "triangle.kernel_inplace": "原地:不满足 {keep} 的位置写 0;保留的元素不被触碰",
    "triangle.indices_args": "row 和 col 不能为负",
    "triangle.indices_size": "{op}:共 {size} 个 (行, 列) 对;结果是 2 x {size}",
    "triangle.indices_fill": "逐行遍历矩阵,把每个位置的行号写入第 0 行、列号写入第 1 行(offset {offset})",
    "diagonal.geometry":
        "去掉第 {dim1} 和第 {dim2} 维,末尾追加一个长 {size} 的维:一步同时跨一行和一列,"
        "步长 {stride1} + {stride2} = {step}",
    "diagonal.copy": "diagonal_copy:先取对角线视图,再把它克隆成连续张量",
    "diag.embed": "一维输入:diag_embed 把它放到新矩阵的对角线上",
    "diag.copy": "二维输入:diagonal_copy 把对角线作为新张量返回",
    "diag_embed.sizes":
        "最后一维({n} 个元素)变成第 {dim1} 和第 {dim2} 维,各长 {n} + {k} = {length};"
        "先建全 0 张量,取其对角线视图,再 copy_",
    "diagflat.flatten": "把输入展平(连续张量的视图),再调用 diag",
    "fill_diagonal.geometry": "建一个 {size} 个元素的视图,步长是所有步长之和({strides} = {step}),再 fill_",
    "fill_diagonal.wrap":
        "wrap=True 且矩阵高大于宽:对角线每隔 {rows} 行重新开始:从存储偏移 {offset} 起再填 {size} 个元素",
    "view_scatter.clone_overlap": "self 有共享内存的元素(expand 而来):直接 clone,不保留步长",
    "view_scatter.clone_storage":
        "把 self 下面的整个存储({numel} 个元素,作为一个扁平视图)克隆,再按 self 的尺寸、步长和偏移查看克隆",
    "view_scatter.copy": "src 的尺寸与视图相同:把它 copy_ 进克隆的视图",
    # -- joining and splitting: cat, stack, *stack, split, chunk, tensor_split -------------
    "cat.meta":
        "检查 {n} 个输入(不能有 0 维的;除拼接维外尺寸相同),提升它们的 dtype,跳过旧式的尺寸为 "
        "[0] 的输入,并分配输出:cat 总是复制",
    "cat.empty": "输出没有元素:无需复制",
    "cat.fast_dim0": "全部连续、dtype 相同、沿第 0 维拼接:每个输入的字节一次 memcpy,首尾相接",
    "cat.serial": "全部连续、同一浮点 dtype、规模小:串行内核把每个输入的行复制到位",
    "cat.same_layout":
        "每个输入的尺寸和步长都相同:一个 TensorIterator 作用在长度为 {length} 的窗口上,"
        "每个输入把窗口沿输出移动 {length} x 步长 {stride}",
    "cat.slice": "把这个输入复制到输出中属于它的窗口(偏移 {offset})",
    "cat.cast": "输入是 {src},输出是 {dst}:先复制到输入 dtype 的临时张量,再由 copy_ 转换后写入窗口",
    "stack.view": "先用 cat 沿已有的第 {dim} 维拼接,再用 view 把这一维拆成两维:不需要 unsqueeze",
    "stack.unsqueeze": "新的最后一维(第 {dim} 维)无法由 cat 结果的视图得到:先对每个输入 unsqueeze,再 cat",
    "stack.atleast": "让每个输入至少有 {n} 维(0 维的 reshape,1 维的 unsqueeze)",
    "split.plan": "沿第 {dim} 维切成 {n} 块,每块 {size} 个(最后一块 {last} 个);每块都是 narrow:视图,不复制",
    "split.with_sizes": "沿第 {dim} 维切成大小为 {sizes} 的块,每块是 self 的一个切片:视图,不复制",
    "split.chunk": "{n} 块:按 ceil(尺寸 / {n}) = {size} 的大小 split",
    "split.chunk_empty": "这一维是空的:split_with_sizes 保留全部 {n} 个(空)块,split 只会返回一块",
    "split.sections": "{n} 段:每段 {small} 个元素,前 {extra} 段各多一个;每段都是切片(视图)",
    "split.indices": "在下标 {indices} 前切开:第 i 块是两刀之间的切片(视图)",
    "split.python_method":
        "torch/_tensor.py:整数(或单元素张量)大小调用 _VF.split,列表调用 _VF.split_with_sizes",
    "split.python_function": "torch/functional.py:torch.split 就是 tensor.split",
    "shape.warn_once":
        "{what}:torch 在此发出警告(TORCH_WARN_ONCE:每个进程只一次,所以在一个 Python 会话里只有"
        "第一次出现)",
    "shape.numpy_T": "x.T 把所有维倒序:permute({dims})",
    "shape.swap_last": "交换最后两维({dim0} 和 {dim1}):transpose(-2, -1)",
    "shape.movedim": "维 {src} 移到位置 {dst};其余的维按原顺序填入剩下的位置:permute({order})",
    "shape.transpose_": "原地:维 {dim0} 和 {dim1} 在 self 自身的几何里交换尺寸和步长(as_strided_),不产生新张量",
    "shape.unfold":
        "沿维 {dim} 取长度 {size} 的窗口,每隔 {step} 取一个:维 {dim} 现在数的是 {windows} 个窗口"
        "(步长 {jump} = step * 原步长),新的最后一维在一个窗口内移动(步长 {stride})",
    "reshaping.unflatten": "大小为 {size} 的维 {dim} 被拆成 {sizes},然后 view",
    "reshaping.ravel": "已经连续:ravel 就是 view(-1),不复制",
    "reshaping.ravel_copy": "不连续:ravel 先复制成连续张量,再 view(-1)",
    "reshaping.view_dtype":
        "同样的字节按 {dtype} 读:{old} 字节的元素变成 {new} 字节的元素,最后一维和每个步长按比例"
        "换算;不调用 as_strided,不复制",
    "reshaping.broadcast":
        "所有张量广播到的形状 {shape}:已经是这个形状的张量原样返回,其余的用 expand(被广播的维步长为 0)",
    "functional.nn": "torch/nn/functional.py:调用 torch 自身的函数或 Tensor 方法的 Python 代码(F.softmax 不给 dim= 时会警告并自选一维),本身不运行算子",
    "loss.cross_entropy_bound":
        "损失是 log_softmax 各值的均值或和,每个值与 torch 的相差不超过其声明的界(torch 使用 {library}):因此损失与 torch 的相差在 {bound} 以内(docs/fidelity-math.md)",
    "loss.reduction": "torch.nn.functional 的 reduction 字符串对应 at::Reduction 的编号:'none' 为 0,'mean' 为 1,'sum' 为 2",
    "activation.log_sigmoid_bound":
        "逐元素计算 min(x, 0) - log1p(exp(-|x|)):torch 使用 {library},tidx 无法重现;每个值与 torch 的相差不超过 {eps} * eps * max(1, |y|),此处至多 {bound}(实测:engine/ops/log_sigmoid.py)",
    "loss.bce_bound":
        "损失由 log_sigmoid 的值乘以权重构成,每个值与 torch 的相差不超过其声明的界(torch 使用 {library}):因此损失与 torch 的相差在 {bound} 以内",
    "dispatch.no_kernel":
        "分发器找不到该后端的内核;torch 的报错信息随后还会为每个分发键列出一行,指明 torch 构建中注册该内核的文件和行号(以及 torch 的安装路径),tidx 省略了这些行",
    "warn.once_again":
        "TORCH_WARN_ONCE:torch 已在本进程(本次运行)中较早显示过这条警告,它的只显示一次的标志使它这次保持沉默:不显示任何内容",
    "activation.gelu_bound":
        "torch 使用 {library},tidx 无法重现;在 1 + erf 相消处没有 ulp 界,因此每个元素与 torch 的相差不超过 {eps} * eps * |x|,此处至多 {bound}(实测:docs/fidelity-math.md)",
    "activation.backward_bound":
        "{op}:torch 使用 {library},tidx 无法重现;导数过零处两项相消,没有 ulp 界:每个元素与 torch 的相差不超过 {eps} * eps * |grad| * max(1, |x|),此处至多 {bound}(activation_backward_bounded.py)",
    "functional.varargs": "torch/functional.py:逐个给出的张量被打包成一个元组传下去",
    "functional.atleast": "torch/functional.py:一个参数原样传下去,多个参数打包成一个元组",
    "functional.broadcast_shapes": "纯 Python 计算形状:不创建张量,也不运行任何算子",
    "functional.refs_broadcast_shapes": "形状右对齐;1 取另一方的长度,其他不一致就报错",
    "binding.view_property": "属性的 getter 分发 {op}",
    "binding.dim_order": "torch/_tensor.py:按步长把维从内存最外层到最内层排序(纯 Python,不运行算子)",
    "binding.unflatten": "torch/_tensor.py 检查 sizes 非空,然后调用绑定",
    "rot90.turns":
        "k = {k} 即在维 {dim0}、{dim1} 的平面里转 {turns} 个四分之一圈:一圈先翻转 dim1 再原地转置,"
        "两圈翻转两维,三圈先翻转 dim0 再转置,零圈是一次连续的 clone",
    "repeat.interleave":
        "在维 {dim} 之后插入大小为 1 的新维并 expand 到 {repeats}(步长 0,还没有复制);连续的 clone "
        "把重复写出来,然后把这两维 flatten 成一维",
    "empty_permuted.strides":
        "按物理顺序的连续分配,步长为 {physical};每个逻辑维取它在 {layout} 中位置的步长:{strides}",
    # -- 排序与成员:sort、argsort、msort、topk(engine/ops/sorting.py) -----------------
    "sort.outputs_like_input": "values 和 indices 按输入的步长 {strides} 分配(输入不重叠且稠密)",
    "sort.outputs_dense": "输入有重叠或空洞:values 和 indices 取同样维度顺序的稠密步长 {strides}",
    "sort.fill_indices":
        "沿第 {dim} 维的 indices = 0..{n}-1:arange 经 as_strided 重排步长(其余维步长为 0),"
        "再由 copy_ 广播写入",
    "sort.stride0": "第 {dim} 维步长为 0:每个切片的元素都是同一个,本就有序",
    "sort.stable_sort":
        "沿第 {dim} 维对每个切片做 std::stable_sort(descending={descending}):相等元素保持原顺序;"
        "NaN 大于一切数,-0.0 等于 0.0",
    "sort.introsort":
        "沿第 {dim} 维对每个切片做 std::sort(内省排序,descending={descending}):超过 16 个元素时不稳定,"
        "相等元素停在快速排序的交换留下的位置;NaN 大于一切数,-0.0 等于 0.0",
    "sort.radix": "一维整数、升序、至少 32768 个元素:fbgemm 的基数排序,它是稳定的",
    "topk.partial_sort": "k * 64 <= {n}:std::partial_sort 把前 {k} 个元素(largest={largest})按顺序放在最前",
    "topk.nth_element_sorted":
        "std::nth_element 把第 {k} 个元素(largest={largest})放到位置 {k}-1,再用 std::sort 排好它前面的元素",
    "topk.nth_element":
        "sorted=False:std::nth_element 把第 {k} 个元素(largest={largest})放到位置 {k}-1,"
        "它前面的元素保持划分后的顺序",
    # -- 顺序统计:median、nanmedian、mode(engine/ops/order_stats.py) -------------------
    "order.median_all":
        "{name} 对全部 {n} 个元素:std::nth_element 在副本上把中间的第 (n - 1) / 2 个放到位"
        "({name}:不计 NaNs;median:有 NaN 就得 NaN)",
    "order.median_dim":
        "{name} 沿 dim {dim}(每行 {n} 个元素):std::nth_element 作用于行的下标,"
        "相等的值按下标排序,靠前的在前",
    "order.mode":
        "mode 沿 dim {dim}(每行 {n} 个元素):std::sort 按值排序(不稳定),取第一段最长的相等值;"
        "下标是这段在排序结果中的最后一个",
    "counting.bincount":
        "{n} 个元素计入 {nbins} 个桶(weighted={weighted}):逐个元素,把 1 或它的权重加到它的桶上",
    # -- 范数(engine/ops/norms.py、engine/binding/linalg.py) ---------------------------
    "norm.python_function":
        "torch.norm 是 Python(torch/functional.py):'fro' 和所有数值阶交给 "
        "torch.linalg.vector_norm,其他字符串交给 torch.linalg.matrix_norm",
    "norm.python_method":
        "Tensor.norm 是 Python(torch/_tensor.py):它调用 torch.norm",
    "norm.lastdim":
        "p=2 沿一个连续的最内维:每行按 {lanes} 个 SIMD 通道平方并累加(先乘后加),"
        "通道依次相加,再逐个处理尾部(fused multiply-add:{fma}),最后 sqrt",
    "norm.reduce":
        "binary_kernel_reduce,p={p}:每个输出的元素按迭代器顺序依次在 {acc} 中累加,然后投影",
    # -- 采样器(engine/ops/samplers.py) --------------------------------------------------
    "random.exponential_kernel":
        "按内存顺序每个元素抽一次:u 取 random64() 的 53 位,"
        "在 double 中算 -1 / {lambd} * log1p(-u),再转成 dtype",
    "random.multinomial":
        "每行:{categories} 个概率的累加和除以总和;每个样本({n} 个)抽一个 u"
        "(random64() 的 53 位),二分查找累计概率不小于 u 的第一个位置",
    "random.geometric_kernel":
        "按内存顺序每个元素抽一次:u 取 random64() 的 53 位,"
        "在 double 中算 ceil(log(u) / log1p(-{p})),再转成 dtype",
    "random.cauchy_kernel":
        "按内存顺序每个元素抽一次:u 取 random64() 的 53 位,"
        "在 double 中算 {median} + {sigma} * tan(pi * (u - 0.5)),再转成 dtype",
    "random.poisson":
        "按顺序对每个速率在 double 中执行 sample_poisson:小于 10 时连乘均匀抽样"
        "(每次取 random64() 的 53 位)直到不大于 exp(-rate);不小于 10 时用 Hoermann 的"
        "变换拒绝法,每次尝试抽两次",
    "random.log_normal_kernel":
        "按内存顺序每个元素抽一次:normal_distribution<double>({mean}, {std}) 的 exp"
        "(Box-Muller 成对,先用生成器缓存的值),再转成 dtype",
    "random.random_kernel":
        "按内存顺序每个元素抽一次:{draw} 对 {modulus} 取模(dtype 的范围;"
        "浮点 dtype 则是它能精确表示的所有整数),再转成 dtype",
    "searchsorted.common_dtype": "boundaries 与 values 的 dtype 不同:两者都按结果类型 {dtype} 比较",
    "searchsorted.left":
        "side='left':在每个值所在行的 {n} 个边界中二分查找第一个 >= 该值的位置(NaN 落在所有边界之后)",
    "searchsorted.right": "side='right':在每个值所在行的 {n} 个边界中二分查找第一个 > 该值的位置",
    "isin.default": "测试元素很少:每个元素与 {n} 个测试元素逐一比较(invert={invert})",
    "isin.scalar": "只有一个测试元素:isin 就是 {op}(elements, test_element)",
    "unique.bool": "bool 输入:数出 True({trues} 个)和 False({falses} 个);False 在前",
    "unique.sorted": "先对 {n} 个元素排序,再保留与前一个不同(!=)的元素:共 {count} 个(每个 NaN 都单独算,-0.0 等于 0.0)",
    "unique.consecutive": "按原顺序保留 {n} 个元素中与前一个不同(!=)的元素:保留 {count} 个",
    "function.unique":
        "torch.unique 是 Python 函数(torch/functional.py):return_inverse 与 return_counts "
        "决定返回什么;它调用 _unique2(给出 dim 时调用 unique_dim)",
    "function.unique_consecutive":
        "torch.unique_consecutive 是 Python 函数(torch/functional.py):调用 unique_consecutive "
        "算子,按标志返回结果",
    # -- indexed writes and index-producing operators (index_add, index_copy, ...) --
    "index_ops.set_output":
        "structured kernel 的输出:一个与 self 同形状的新连续张量,接着把 self 复制进去",
    "index_add.scatter_add":
        "dim {dim} 是第一个或最后一个维度且 alpha 为 1:index 在其他维度上以步长 0 展开,"
        "由 scatter_add_ 完成相加",
    "index_add.slices":
        "每个 index 元素 i 做一次 add_:self.select({dim}, index[i]) += alpha * "
        "source.select({dim}, i),按 index 的顺序",
    "index_add.serial":
        "至多一维:self[index[i]] += alpha * source[i],逐个元素依次相加",
    "index_copy.kernel":
        "沿 dim {dim} 的每个元素写到 offset + index[i] * {stride};重复的 index 保留最后一次写入",
    "index_fill.kernel":
        "沿 dim {dim} 位于 index[i] 的所有元素(offset + index[i] * {stride})被填成该值;"
        "负的 index 会回绕",
    "masked_scatter.uint8_warning":
        "masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
        "deprecated,please use a mask with dtype torch.bool instead.(PyTorch 的原话:"
        "uint8 掩码已弃用,请用 bool 掩码)",
    "masked_scatter.kernel":
        "按行优先顺序遍历 self;掩码为真的元素依次取 source 的 {count} 个元素中的下一个",
    "put.kernel":
        "把 self 看作一维(行优先,{numel} 个元素):self.flat[index[i]] = source[i];"
        "负的 index 从末尾数",
    "put.accumulate":
        "把 self 看作一维(行优先,{numel} 个元素):self.flat[index[i]] += source[i],逐个相加",
    "scatter_reduce.kernel":
        "对 index 的每个位置:self[..index[..i..]..] = {op}(原值, src[..i..]),沿 dim {dim},"
        "按 index 的顺序逐个进行",
    "scatter_reduce.expanded":
        "index 只在第一维变化、其余维度是展开的:一个 kernel 把它(稳定地)排序后按整行做 {op},"
        "include_self 与 'mean' 都在内部处理",
    "scatter_reduce.exclude_self":
        "include_self=False:index 触及的每个元素先被置为 {op} 的单位元(用 scatter_ 写入)",
    "scatter.reduce_deprecated":
        "torch.scatter 在 src 为张量时的 reduce 参数已弃用,将在未来的 PyTorch 版本中移除;"
        "请改用 torch.scatter_reduce,它支持更多归约方式。",
    "index_reduce.beta": "index_reduce() 仍是 beta,API 随时可能改变。",
    "index_reduce.slices":
        "每个 index 元素 i 做一次 {op}:self.select({dim}, index[i]) = {op}(原值, "
        "source.select({dim}, i)),按 index 的顺序",
    "index_reduce.serial":
        "至多一维:self[index[i]] = {op}(self[index[i]], source[i]),逐个元素依次进行",
    "nonzero_static.pad":
        "nonzero 找到 {found} 行;复制前 min({found}, {size}) 行,{size} 行中剩下的填为 {fill}",
    "count_nonzero.kernel": "数出 {numel} 个元素中不为零的个数,存入一个 int64(全量归约)",
}
