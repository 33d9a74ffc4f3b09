# expect: RuntimeError: anonymous_vector_mixed(): all values given when constructing a vector must have the same type
# line: 8
import treadle as wp


@wp.kernel
def anonymous_vector_mixed(out: wp.array(dtype=float)):
    v = wp.types.vector(wp.int32(1), wp.float32(2.0))
    out[0] = v[1]
