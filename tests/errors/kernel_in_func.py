# expect: TypeError: helper(): cannot call kernel 'other' from a kernel or function (only @wp.func functions can be called)
# line: 14
import treadle as wp


@wp.kernel
def other(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = 1.0


@wp.func
def helper(x: wp.array(dtype=float)):
    other(x)


@wp.kernel
def kernel_in_func(x: wp.array(dtype=float)):
    helper(x)
