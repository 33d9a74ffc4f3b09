# expect: TypeError: atomic_add(): index must be an integer, got float literal
# line: 9
import treadle as wp


@wp.kernel
def atomic_float_index(x: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(x, 1.5, 1.0)
