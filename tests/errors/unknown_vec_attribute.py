# expect: TypeError: unknown_vec_attribute(): 'vec3f' has no component 'w'
# line: 9
import treadle as wp


@wp.kernel
def unknown_vec_attribute(x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = wp.vec3(x[i].w, 0.0, 0.0)
