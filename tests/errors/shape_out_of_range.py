# expect: TypeError: shape_out_of_range(): array.shape index must be a constant from 0 to 3
# line: 9
import treadle as wp


@wp.kernel
def shape_out_of_range(x: wp.array(dtype=float), y: wp.array(dtype=int)):
    i = wp.tid()
    y[i] = x.shape[4]
