# expect: TypeError: float_index_2d(): array index must be an integer, got float literal
# line: 9
import treadle as wp


@wp.kernel
def float_index_2d(x: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x[i, 0.5] = 1.0
