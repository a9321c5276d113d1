"""Seed 003: pypto.index_select on an Ascend NPU, emulated: every constraint, and the tiling of the result."""
import pypto

# The seed's example input (3x4 float32) and index [0, 2].
x = pypto.tensor([3, 4], pypto.DT_FP32, data=[[0.1427, 0.0231, -0.5414, -1.0009], [-0.4664, 0.2647, -0.1228, -1.1068], [-1.1734, -0.6571, 0.7230, -0.6004]])
indices = pypto.tensor([2], pypto.DT_INT32, data=[0, 2])

# The TileShape has the result's rank and must fit the unified buffer.
pypto.set_vec_tile_shapes(2, 4)
out1 = pypto.index_select(x, 0, indices)
print(out1)

pypto.set_vec_tile_shapes(3, 2)
out2 = pypto.index_select(x, 1, indices)
print(out2)
