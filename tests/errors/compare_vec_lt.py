# expect: TypeError: operator '<': cannot order (vec3f, vec3f) (only == and != compare vec3f values)
# line: 9
import treadle as wp


@wp.kernel
def compare_vec_lt(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=int)):
    i = wp.tid()
    if x[i] < x[0]:
        y[i] = 1
