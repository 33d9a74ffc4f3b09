# expect: TypeError: tid(): unpacked into 1 index here but into 2 indices elsewhere in this kernel
# line: 9
import treadle as wp


@wp.kernel
def tid_unpack_launch(x: wp.array2d(dtype=float)):
    i, j = wp.tid()
    k = wp.tid()
    x[i, j] = float(k)
