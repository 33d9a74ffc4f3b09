# expect: TypeError: scale(): missing argument 'b'
# line: 14
import treadle as wp


@wp.func
def scale(a: float, b: float):
    return a * b


@wp.kernel
def func_too_few_args(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = scale(x[i])
