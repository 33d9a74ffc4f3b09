# expect: TypeError: sin(): unexpected argument 'y' (the signature is sin(x: Float) -> Float)
# line: 9
import treadle as wp


@wp.kernel
def builtin_unknown_keyword(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.sin(y=1.0)
