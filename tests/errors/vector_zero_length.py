# expect: RuntimeError: vector_zero_length(): the `length` argument must be specified when zero-initializing a vector
# line: 8
import treadle as wp


@wp.kernel
def vector_zero_length():
    v = wp.types.vector()
