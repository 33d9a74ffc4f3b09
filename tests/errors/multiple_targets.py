# expect: SyntaxError: multiple_targets(): multiple assignment targets (a = b = c) are not supported; assign each name separately
# line: 9
import treadle as wp


@wp.kernel
def multiple_targets(x: wp.array(dtype=float)):
    i = wp.tid()
    a = b = x[i]
    x[i] = a + b
