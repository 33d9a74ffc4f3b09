# expect: TypeError: sin(): no overload accepts (float32, float literal) (signature: sin(x: Float) -> Float)
# line: 9
import treadle as wp


@wp.kernel
def builtin_too_many_args(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.sin(x[i], 2.0)
