# expect: TypeError: vector_too_long(): vector(): sizes must be constants from 0 to 1024
# line: 8
import treadle as wp


@wp.kernel
def vector_too_long(out: wp.array(dtype=float)):
    v = wp.types.vector(length=2000, dtype=float)
    out[0] = v[0]
