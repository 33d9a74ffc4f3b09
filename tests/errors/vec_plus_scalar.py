# expect: TypeError: operator '+': unsupported operand types (vec3f, float literal) (the operands must have the same type)
# line: 9
import treadle as wp


@wp.kernel
def vec_plus_scalar(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = x[i] + 1.0
