# expect: SyntaxError: argument unpacking with '*' or '**' is not supported
# line: 14
import treadle as wp


@wp.func
def add3(a: float, b: float, c: float):
    return a + b + c


@wp.kernel
def starred_args(x: wp.array(dtype=float), v: wp.vec3):
    i = wp.tid()
    x[i] = add3(*v)
