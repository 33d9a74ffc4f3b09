# expect: WarpCodegenError: static_uses_local(): Error evaluating static expression: name 'n' is not defined. Make sure all variables used in the static expression are constant. ('n' is a local variable; wp.static() evaluates its expression at compile time, in the function's globals and closure)
# line: 10
import treadle as wp


@wp.kernel
def static_uses_local(out: wp.array(dtype=int)):
    i = wp.tid()
    n = i * 2
    out[i] = wp.static(n + 1)
