# expect: TypeError: len(): needs an array, vector, matrix, quaternion or transform
# line: 9
import treadle as wp


@wp.kernel
def len_of_scalar(x: wp.array(dtype=float), y: wp.array(dtype=int)):
    i = wp.tid()
    y[i] = len(x[i])
