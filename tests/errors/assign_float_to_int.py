# expect: TypeError: assign_float_to_int(): cannot assign a value of type float32 to 'n', which has type int32 (a local cannot change type)
# line: 10
import treadle as wp


@wp.kernel
def assign_float_to_int(x: wp.array(dtype=float)):
    i = wp.tid()
    n = 1
    n = x[i]
