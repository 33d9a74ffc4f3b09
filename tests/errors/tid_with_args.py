# expect: TypeError: tid(): takes no arguments
# line: 8
import treadle as wp


@wp.kernel
def tid_with_args(x: wp.array(dtype=float)):
    i = wp.tid(0)
    x[i] = 1.0
