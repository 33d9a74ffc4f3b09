# expect: TypeError: retype_local(): cannot assign a value of type int32 to 'v', which has type float32 (a local cannot change type)
# line: 10
import treadle as wp


@wp.kernel
def retype_local(x: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    v = i
    x[i] = v
