# expect: SyntaxError: import_stmt(): import statements are not supported in kernels
# line: 8
import treadle as wp


@wp.kernel
def import_stmt(x: wp.array(dtype=float)):
    import math
    x[0] = 1.0
