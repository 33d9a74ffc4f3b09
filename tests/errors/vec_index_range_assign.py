# expect: TypeError: vec_index_range_assign(): index 3 is out of range for vec3f (size 3)
# line: 9
import treadle as wp


@wp.kernel
def vec_index_range_assign(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    v[3] = 1.0
