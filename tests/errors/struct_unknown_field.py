# expect: AttributeError: `velocity` is not an attribute of 'p' (error_case_struct_unknown_field.Particle)
# line: 17
import treadle as wp


@wp.struct
class Particle:
    pos: wp.vec3
    mass: float


@wp.kernel
def struct_unknown_field(particles: wp.array(dtype=Particle), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = particles[i]
    out[i] = p.pos
    out[i] = p.velocity
