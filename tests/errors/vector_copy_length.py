# expect: RuntimeError: vector_copy_length(): incompatible vector of length 3 given when copy constructing a vector of length 2
# line: 8
import treadle as wp


@wp.kernel
def vector_copy_length(out: wp.array(dtype=wp.vec3)):
    out[0] = wp.vec3(wp.vec2(1.0, 2.0))
