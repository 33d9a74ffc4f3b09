# expect: TypeError: array_slice(): slices are not supported in kernels
# line: 9
import treadle as wp


@wp.kernel
def array_slice(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y = x[1:3]
