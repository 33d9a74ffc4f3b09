# expect: RuntimeError: expect_neq_types(): Can't test equality for objects with different types
# line: 8
import treadle as wp


@wp.kernel
def expect_neq_types():
    wp.expect_neq(wp.vec3f(0.0, 0.0, 0.0), wp.vec2f(0.0, 0.0))
