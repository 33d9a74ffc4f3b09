# expect: RuntimeError: matrix_fill_type(): the value used to fill this matrix is expected to be of the type `float16`
# line: 8
import treadle as wp


@wp.kernel
def matrix_fill_type(x: wp.float32):
    m = wp.types.matrix(x, shape=(3, 2), dtype=wp.float16)
