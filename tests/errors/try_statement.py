# expect: SyntaxError: 'try' statements are not supported
# line: 9
import treadle as wp


@wp.kernel
def try_statement(x: wp.array(dtype=float)):
    i = wp.tid()
    try:
        x[i] = 1.0
    except Exception:
        pass
