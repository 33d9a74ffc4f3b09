# expect: TypeError: vec3f(): cannot construct from (float literal, float literal) (expected nothing, one float32, 3 components)
# line: 9
import treadle as wp


@wp.kernel
def vec_wrong_count(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = wp.vec3(1.0, 2.0)
