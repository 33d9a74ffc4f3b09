# expect: TypeError: range_float(): range() arguments must be integers of one type, got (float literal)
# line: 8
import treadle as wp


@wp.kernel
def range_float(x: wp.array(dtype=float)):
    for j in range(2.5):
        x[0] = 1.0
