# expect: TypeError: store_array_in_array(): cannot store a value of type array(dtype=float32, ndim=1) into an array of float32
# line: 9
import treadle as wp


@wp.kernel
def store_array_in_array(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x
