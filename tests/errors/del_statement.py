# expect: SyntaxError: 'del' statements are not supported
# line: 10
import treadle as wp


@wp.kernel
def del_statement(x: wp.array(dtype=float)):
    i = wp.tid()
    v = 1.0
    del v
