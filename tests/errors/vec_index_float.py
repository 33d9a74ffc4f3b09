# expect: TypeError: vec_index_float(): index must be an integer, got float literal
# line: 10
import treadle as wp


@wp.kernel
def vec_index_float(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = x[i]
    x[i] = wp.vec3(v[1.0], 0.0, 0.0)
