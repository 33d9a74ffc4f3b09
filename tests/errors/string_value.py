# expect: TypeError: string_value(): strings can only be used with print() and printf()
# line: 9
import treadle as wp


@wp.kernel
def string_value(x: wp.array(dtype=float)):
    i = wp.tid()
    s = "hello"
    x[i] = 0.0
