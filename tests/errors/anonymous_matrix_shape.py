# expect: RuntimeError: anonymous_matrix_shape(): the `shape` argument must be specified when initializing a matrix by value
# line: 8
import treadle as wp


@wp.kernel
def anonymous_matrix_shape(out: wp.array(dtype=float)):
    m = wp.types.matrix(1.0, 2.0, 3.0, 4.0)
    out[0] = m[0, 0]
