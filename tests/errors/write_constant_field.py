# expect: TypeError: write_constant_field(): cannot assign to a component of 'ORIGIN', which is not a local variable (a global or constant is read-only in kernels; copy it to a local first)
# line: 12
import treadle as wp


ORIGIN = wp.constant(wp.vec3(0.0, 0.0, 0.0))


@wp.kernel
def write_constant_field(x: wp.array(dtype=float)):
    i = wp.tid()
    ORIGIN.x = 1.0
