# expect: SyntaxError: dict_literal(): dict and set displays are not supported in kernels (only inside wp.static())
# line: 9
import treadle as wp


@wp.kernel
def dict_literal(x: wp.array(dtype=float)):
    i = wp.tid()
    d = {"a": 1.0}
    x[i] = 0.0
