# expect: TypeError: struct_field_wrong_type(): cannot assign a value of type vec3f to field 'mass' of 'Particle', which has type float32
# line: 16
import treadle as wp


@wp.struct
class Particle:
    pos: wp.vec3
    mass: float


@wp.kernel
def struct_field_wrong_type(out: wp.array(dtype=Particle)):
    i = wp.tid()
    p = Particle()
    p.mass = wp.vec3(1.0, 2.0, 3.0)
    out[i] = p
