# expect: TypeError: fact(): recursion is not supported (fact() calls itself, directly or through other functions)
# line: 10
import treadle as wp


@wp.func
def fact(n: int):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@wp.kernel
def recursion(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = fact(x[i])
