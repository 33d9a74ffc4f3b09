# expect: SyntaxError: lambda expressions are not supported
# line: 9
import treadle as wp


@wp.kernel
def lambda_expr(x: wp.array(dtype=float)):
    i = wp.tid()
    f = lambda a: a * 2.0
    x[i] = 0.0
