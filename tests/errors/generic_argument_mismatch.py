# expect: TypeError: halve(): argument 'x' has type int32 but the parameter is Float
# line: 15
import treadle as wp


@wp.func
def halve(x: wp.Float):
    return x * 0.5


@wp.kernel
def generic_argument_mismatch(a: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    n = a[i]
    out[i] = float(halve(n))
