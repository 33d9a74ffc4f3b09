# expect: TypeError: store_wrong_dtype(): cannot store a value of type vec3f into an array of float32
# line: 9
import treadle as wp


@wp.kernel
def store_wrong_dtype(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.vec3(1.0, 2.0, 3.0)
