# expect: RuntimeError: vector_component_type(): all values used to initialize this vector are expected to be of the type `float32`
# line: 8
import treadle as wp


@wp.kernel
def vector_component_type(x: wp.float64):
    v = wp.vec2(x, x)
