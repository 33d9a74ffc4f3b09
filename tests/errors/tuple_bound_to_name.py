# expect: TypeError: tuple_bound_to_name(): a tuple cannot be used as a single value here
# line: 10
import treadle as wp


@wp.kernel
def tuple_bound_to_name(x: wp.array(dtype=float)):
    i = wp.tid()
    t = (1.0, 2.0)
    t += (1.0,)
