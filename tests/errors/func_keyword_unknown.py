# expect: TypeError: scale(): got an unexpected keyword argument 'c'
# line: 14
import treadle as wp


@wp.func
def scale(a: float, b: float):
    return a * b


@wp.kernel
def func_keyword_unknown(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = scale(x[i], c=2.0)
