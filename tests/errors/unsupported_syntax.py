# expect: SyntaxError: unsupported_syntax(): nested function definitions are not supported in kernels
# line: 9
import treadle as wp


@wp.kernel
def unsupported_syntax(x: wp.array(dtype=float)):
    i = wp.tid()
    def inner():
        return 1.0
    x[i] = 0.0
