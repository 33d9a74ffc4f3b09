# expect: TypeError: starred_args(): Starred expressions are only supported for vectors, quaternions, matrices (their rows), tuples and constant slices of these and of arrays
# line: 14
import treadle as wp


@wp.func
def add3(a: float, b: float, c: float):
    return a + b + c


@wp.kernel
def starred_args(x: wp.array(dtype=float), s: float):
    i = wp.tid()
    x[i] = add3(*s)
