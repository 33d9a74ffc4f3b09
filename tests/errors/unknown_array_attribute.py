# expect: TypeError: unknown_array_attribute(): arrays have no attribute 'lenght' in kernels
# line: 9
import treadle as wp


@wp.kernel
def unknown_array_attribute(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = float(x.lenght)
