# expect: TypeError: int_array_float_store(): cannot store a value of type float literal into an array of int32
# line: 9
import treadle as wp


@wp.kernel
def int_array_float_store(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = 1.5
