# expect: SyntaxError: 'yield' is not supported
# line: 9
import treadle as wp


@wp.kernel
def yield_statement(x: wp.array(dtype=float)):
    i = wp.tid()
    yield i
