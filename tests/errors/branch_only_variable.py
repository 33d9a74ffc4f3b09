# expect: TypeError: branch_only_variable(): name 'v' is not defined
# line: 11
import treadle as wp


@wp.kernel
def branch_only_variable(x: wp.array(dtype=float)):
    i = wp.tid()
    if i > 2:
        v = 1.0
    x[i] = v
