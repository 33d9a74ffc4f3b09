# expect: TypeError: too_many_indices_read(): too many indices for a 2-D array (3)
# line: 9
import treadle as wp


@wp.kernel
def too_many_indices_read(x: wp.array2d(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i, 0, 1]
