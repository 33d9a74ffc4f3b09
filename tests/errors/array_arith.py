# expect: TypeError: operator '+': unsupported operand types (array(dtype=float32, ndim=1), array(dtype=float32, ndim=1)) (the operator does not apply to these types)
# line: 9
import treadle as wp


@wp.kernel
def array_arith(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    z = x + y
