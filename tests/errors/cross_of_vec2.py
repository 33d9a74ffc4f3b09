# expect: TypeError: cross(): no overload accepts (vec2f, vec2f) (signature: cross(a: vec3, b: vec3) -> vec3)
# line: 10
import treadle as wp


@wp.kernel
def cross_of_vec2(x: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.vec2(1.0, 2.0)
    c = wp.cross(a, a)
