# expect: TypeError: anonymous_vector_mixed(): vector(): the components (int32, float32) have no common scalar type; give dtype=
# line: 8
import treadle as wp


@wp.kernel
def anonymous_vector_mixed(out: wp.array(dtype=float)):
    v = wp.types.vector(wp.int32(1), wp.float32(2.0))
    out[0] = v[1]
