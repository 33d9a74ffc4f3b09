# expect: SyntaxError: assignment expressions (':=') are not supported
# line: 9
import treadle as wp


@wp.kernel
def walrus(x: wp.array(dtype=float)):
    i = wp.tid()
    if (v := x[i]) > 0.0:
        x[i] = v
