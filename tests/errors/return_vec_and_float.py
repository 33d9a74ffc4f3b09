# expect: TypeError: pick(): returns a value of type float32 here but vec3f elsewhere
# line: 10
import treadle as wp


@wp.func
def pick(a: float):
    if a > 0.0:
        return wp.vec3(a, a, a)
    return a


@wp.kernel
def return_vec_and_float(x: wp.array(dtype=float)):
    i = wp.tid()
    v = pick(x[i])
