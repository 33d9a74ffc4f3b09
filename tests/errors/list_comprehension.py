# expect: SyntaxError: list comprehensions are not supported
# line: 9
import treadle as wp


@wp.kernel
def list_comprehension(x: wp.array(dtype=float)):
    i = wp.tid()
    s = [x[j] for j in range(3)]
    x[i] = 0.0
