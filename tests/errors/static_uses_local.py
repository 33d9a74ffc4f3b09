# expect: TypeError: static_uses_local(): wp.static() cannot use the local variable 'n': its expression is evaluated at compile time, in the function's globals and closure
# line: 10
import treadle as wp


@wp.kernel
def static_uses_local(out: wp.array(dtype=int)):
    i = wp.tid()
    n = i * 2
    out[i] = wp.static(n + 1)
