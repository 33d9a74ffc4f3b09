# expect: KeyError: undefined_name(): Referencing undefined symbol: z
# line: 10
import treadle as wp


@wp.kernel
def undefined_name(x: wp.array(dtype=float)):
    i = wp.tid()
    y = 2.0
    x[i] = y + z
