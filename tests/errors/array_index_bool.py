# expect: TypeError: array_index_bool(): array index must be an integer, got bool
# line: 9
import treadle as wp


@wp.kernel
def array_index_bool(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i > 2] = 1.0
