# expect: TypeError: scale(): argument 'v' has type float literal but the parameter is vec3f
# line: 14
import treadle as wp


@wp.func
def scale(a: float, v: wp.vec3):
    return a * v[0]


@wp.kernel
def func_wrong_arg_type(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = scale(x[i], 2.0)
