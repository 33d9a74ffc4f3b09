# expect: TypeError: operator '+': unsupported operand types (bool, float literal) (the operands must have the same type)
# line: 10
import treadle as wp


@wp.kernel
def bool_plus(x: wp.array(dtype=float)):
    i = wp.tid()
    b = x[i] > 0.0
    x[i] = b + 1.0
