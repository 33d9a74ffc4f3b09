# expect: TypeError: unknown_attribute(): module 'wp' has no attribute 'no_such_builtin' usable in kernels
# line: 9
import treadle as wp


@wp.kernel
def unknown_attribute(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.no_such_builtin(1.0)
