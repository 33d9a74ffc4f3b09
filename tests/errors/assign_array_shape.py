# expect: TypeError: assign_array_shape(): cannot assign to attribute 'shape'
# line: 9
import treadle as wp


@wp.kernel
def assign_array_shape(x: wp.array(dtype=float)):
    i = wp.tid()
    x.shape = 3
