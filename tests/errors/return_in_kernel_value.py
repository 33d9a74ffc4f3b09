# expect: TypeError: return_in_kernel_value(): kernels cannot return a value
# line: 9
import treadle as wp


@wp.kernel
def return_in_kernel_value(x: wp.array(dtype=float)):
    i = wp.tid()
    return 1.0
