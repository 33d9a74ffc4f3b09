# expect: TypeError: float_index(): array index must be an integer, got float32
# line: 10
import treadle as wp


@wp.kernel
def float_index(x: wp.array(dtype=float)):
    i = wp.tid()
    f = float(i)
    x[f] = 1.0
