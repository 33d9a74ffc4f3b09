# expect: TypeError: operator '+': unsupported operand types (int32, float32) (the operands must have the same type)
# line: 11
import treadle as wp


@wp.kernel
def int_accumulates_float(x: wp.array(dtype=float), n: int):
    i = wp.tid()
    s = 0
    for j in range(n):
        s = s + x[j]
    x[i] = 0.0
