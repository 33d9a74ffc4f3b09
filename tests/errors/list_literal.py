# expect: TypeError: list_literal(): lists are not supported in kernels
# line: 9
import treadle as wp


@wp.kernel
def list_literal(x: wp.array(dtype=float)):
    i = wp.tid()
    values = [1.0, 2.0]
    x[i] = 0.0
