# expect: TypeError: kernel_returns_value(): kernels cannot return a value
# line: 9
import treadle as wp


@wp.kernel
def kernel_returns_value(x: wp.array(dtype=float)):
    i = wp.tid()
    return x[i]
