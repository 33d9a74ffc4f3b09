# expect: TypeError: operator '+': unsupported operand types (float32, float64) (the operands must have the same type)
# line: 9
import treadle as wp


@wp.kernel
def mixed_types(x: wp.array(dtype=float), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x[i] = x[i] + y[i]
