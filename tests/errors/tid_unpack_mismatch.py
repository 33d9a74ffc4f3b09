# expect: TypeError: tid(): launches have at most 4 dimensions, cannot unpack 5 indices
# line: 8
import treadle as wp


@wp.kernel
def tid_unpack_mismatch(x: wp.array(dtype=float)):
    i, j, k, l, m = wp.tid()
    x[i] = 1.0
