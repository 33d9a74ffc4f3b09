# expect: TypeError: store_to_view(): assigning to an element of a 2-D array needs 2 indices, got 1
# line: 9
import treadle as wp


@wp.kernel
def store_to_view(x: wp.array2d(dtype=float)):
    i = wp.tid()
    x[i] = 1.0
