# expect: TypeError: condition_on_vector(): a condition must be a scalar, got vec3f
# line: 9
import treadle as wp


@wp.kernel
def condition_on_vector(x: wp.array(dtype=float)):
    v = wp.vec3(x[0], 0.0, 0.0)
    if v:
        x[0] = 1.0
