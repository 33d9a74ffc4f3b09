# expect: TypeError: sin(): no overload accepts (int32) (signature: sin(x: Float) -> Float)
# line: 9
import treadle as wp


@wp.kernel
def bad_builtin_args(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = int(wp.sin(x[i]))
