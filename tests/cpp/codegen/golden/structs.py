import treadle as wp


@wp.struct
class Inner:
    v: wp.vec3
    count: int


@wp.struct
class State:
    inner: Inner
    values: wp.array(dtype=float)
    default: wp.float64


@wp.func
def bump(s: Inner) -> Inner:
    r = s
    r.count += 1
    return r


@wp.kernel
def structs(state: State, items: wp.array(dtype=Inner)):
    i = wp.tid()
    a = Inner(count=i)
    a.v.y = state.values[i]
    items[i] = bump(a)
    items[i].v = state.inner.v
    state.values[i] = float(state.default)
