# expect: SyntaxError: 'with' statements are not supported
# line: 9
import treadle as wp


@wp.kernel
def with_statement(x: wp.array(dtype=float)):
    i = wp.tid()
    with open("f") as f:
        x[i] = 1.0
