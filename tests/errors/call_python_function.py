# expect: TypeError: call_python_function(): 'plain_python' is a Python function, which kernels cannot use
# line: 13
import treadle as wp


def plain_python(a):
    return a * 2.0


@wp.kernel
def call_python_function(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = plain_python(x[i])
