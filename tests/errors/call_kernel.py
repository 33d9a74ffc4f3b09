# expect: TypeError: call_kernel(): cannot call kernel 'other' from a kernel or function (only @wp.func functions can be called)
# line: 15
import treadle as wp


@wp.kernel
def other(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = 1.0


@wp.kernel
def call_kernel(x: wp.array(dtype=float)):
    i = wp.tid()
    other(x)
