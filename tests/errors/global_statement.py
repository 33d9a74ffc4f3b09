# expect: SyntaxError: global_statement(): 'global' and 'nonlocal' are not supported in kernels
# line: 11
import treadle as wp


counter = 0


@wp.kernel
def global_statement(x: wp.array(dtype=float)):
    global counter
    i = wp.tid()
    x[i] = 1.0
