# expect: TypeError: pong(): recursion is not supported (ping() calls itself, directly or through other functions)
# line: 15
import treadle as wp


@wp.func
def ping(n: int) -> int:
    if n <= 0:
        return 0
    return pong(n - 1)


@wp.func
def pong(n: int) -> int:
    return ping(n - 1)


@wp.kernel
def mutual_recursion(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = ping(x[i])
