# expect: TypeError: generic_local_annotation(): the generic type Float can only annotate the parameters of functions and kernels
# line: 9
import treadle as wp


@wp.kernel
def generic_local_annotation(out: wp.array(dtype=float)):
    i = wp.tid()
    x: wp.Float = 1.0
    out[i] = x
