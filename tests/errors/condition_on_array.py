# expect: TypeError: condition_on_array(): a condition must be a scalar, got array(dtype=float32, ndim=1)
# line: 8
import treadle as wp


@wp.kernel
def condition_on_array(x: wp.array(dtype=float)):
    if x:
        x[0] = 1.0
