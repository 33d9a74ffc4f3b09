# expect: TypeError: operator '@': unsupported operand types (float32, float literal) ('@' multiplies vectors and matrices)
# line: 9
import treadle as wp


@wp.kernel
def matmul_scalar(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] @ 2.0
