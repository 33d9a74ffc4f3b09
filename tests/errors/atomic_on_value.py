# expect: TypeError: atomic_add(): the first argument must be an array
# line: 10
import treadle as wp


@wp.kernel
def atomic_on_value(x: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    wp.atomic_add(v, 0, 1.0)
