# expect: TypeError: operator '*': unsupported operand types (int32, float literal) (the operands must have the same type)
# line: 9
import treadle as wp


@wp.kernel
def float_literal_to_int(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = i * 2.5
