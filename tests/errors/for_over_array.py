# expect: TypeError: for_over_array(): for loops can only iterate over range(...) or reversed(range(...))
# line: 9
import treadle as wp


@wp.kernel
def for_over_array(x: wp.array(dtype=float)):
    s = float(0.0)
    for v in x:
        s += v
