# expect: TypeError: range_too_many_args(): range() takes 1 to 3 positional arguments
# line: 8
import treadle as wp


@wp.kernel
def range_too_many_args(x: wp.array(dtype=float)):
    for j in range(0, 4, 1, 2):
        x[0] = 1.0
