# expect: RuntimeError: vec_wrong_count(): incompatible number of values given (2) when constructing a vector of length 3
# line: 9
import treadle as wp


@wp.kernel
def vec_wrong_count(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = wp.vec3(1.0, 2.0)
