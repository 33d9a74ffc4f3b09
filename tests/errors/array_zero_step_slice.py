# expect: ValueError: array_zero_step_slice(): Slice step cannot be zero
# line: 9
import treadle as wp


@wp.kernel
def array_zero_step_slice(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[1:3:0][0]
