# expect: TypeError: helper(): takes 2 arguments but 3 were given
# line: 14
import treadle as wp


@wp.func
def helper(a: float, b: float):
    return a * b


@wp.kernel
def wrong_arg_count(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = helper(x[i], 1.0, 2.0)
