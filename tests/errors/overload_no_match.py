# expect: TypeError: pick(): no overload accepts (vec2f) (overloads: pick(x: float32); pick(x: int32))
# line: 20
import treadle as wp


@wp.func
def pick(x: float):
    return x


@wp.func
def pick(x: int):  # noqa: F811
    return float(x)


@wp.kernel
def overload_no_match(out: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec2(1.0, 2.0)
    out[i] = pick(v)
