# expect: TypeError: pick(): returns a value of type int32 here but float32 elsewhere
# line: 10
import treadle as wp


@wp.func
def pick(a: float, flag: int):
    if flag > 0:
        return a
    return flag


@wp.kernel
def return_types_differ(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = pick(x[i], i)
