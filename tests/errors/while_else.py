# expect: SyntaxError: while_else(): an 'else' clause on a loop is not supported in kernels
# line: 9
import treadle as wp


@wp.kernel
def while_else(x: wp.array(dtype=float)):
    i = wp.tid()
    while i < 3:
        i += 1
    else:
        x[0] = 1.0
