# expect: TypeError: condition_on_vec(): a condition must be a scalar, got vec3f
# line: 9
import treadle as wp


@wp.kernel
def condition_on_vec(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if x[i]:
        x[i] = wp.vec3()
