# expect: TypeError: too_many_indices(): assigning to an element of a 1-D array needs 1 index, got 2
# line: 9
import treadle as wp


@wp.kernel
def too_many_indices(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i, 0] = 1.0
