# expect: SyntaxError: set_literal(): dict and set displays are not supported in kernels (only inside wp.static())
# line: 9
import treadle as wp


@wp.kernel
def set_literal(x: wp.array(dtype=float)):
    i = wp.tid()
    d = {1.0, 2.0}
    x[i] = 0.0
