# expect: TypeError: indexed_slice(): slices are only supported on arrays in kernels
# line: 9
import treadle as wp


@wp.kernel
def indexed_slice(x: wp.indexedarray(dtype=float)):
    i = wp.tid()
    y = x[0:2]
