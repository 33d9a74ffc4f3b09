# expect: TypeError: vec_too_many_indices(): too many indices for vec3f
# line: 10
import treadle as wp


@wp.kernel
def vec_too_many_indices(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = x[i]
    x[i] = wp.vec3(v[0, 1], 0.0, 0.0)
