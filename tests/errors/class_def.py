# expect: SyntaxError: class_def(): class definitions are not supported in kernels
# line: 8
import treadle as wp


@wp.kernel
def class_def(x: wp.array(dtype=float)):
    class A:
        pass
    x[0] = 1.0
