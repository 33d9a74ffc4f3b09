# expect: TypeError: vec_const_index_oob(): index 3 is out of range for vec3f (size 3)
# line: 10
import treadle as wp


@wp.kernel
def vec_const_index_oob(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = x[i]
    x[i] = wp.vec3(v[3], 0.0, 0.0)
