# expect: TypeError: rebind_in_branch(): cannot assign a value of type vec3f to 'v', which has type float32 (a local cannot change type)
# line: 11
import treadle as wp


@wp.kernel
def rebind_in_branch(x: wp.array(dtype=float)):
    i = wp.tid()
    v = 0.0
    if i > 2:
        v = wp.vec3(1.0, 2.0, 3.0)
    x[i] = 0.0
