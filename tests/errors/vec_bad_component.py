# expect: TypeError: vec_bad_component(): 'vec3f' has no component 'w'
# line: 10
import treadle as wp


@wp.kernel
def vec_bad_component(x: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    x[i] = v.w
