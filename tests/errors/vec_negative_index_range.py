# expect: TypeError: vec_negative_index_range(): index -4 is out of range for vec3f (size 3)
# line: 9
import treadle as wp


@wp.kernel
def vec_negative_index_range(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    y = v[-4]
