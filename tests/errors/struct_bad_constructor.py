# expect: TypeError: Particle(): 'Particle' has no field 'speed'
# line: 15
import treadle as wp


@wp.struct
class Particle:
    pos: wp.vec3
    mass: float


@wp.kernel
def struct_bad_constructor(out: wp.array(dtype=Particle)):
    i = wp.tid()
    out[i] = Particle(mass=1.0, speed=2.0)
