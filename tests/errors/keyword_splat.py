# expect: SyntaxError: argument unpacking with '**' is not supported
# line: 14
import treadle as wp


@wp.func
def add2(a: float, b: float):
    return a + b


@wp.kernel
def keyword_splat(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = add2(**{"a": 1.0, "b": 2.0})
