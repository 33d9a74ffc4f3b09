# expect: TypeError: length(): no overload accepts (float32) (signature: length(a: Vector) -> Float)
# line: 9
import treadle as wp


@wp.kernel
def builtin_wrong_type(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.length(x[i])
