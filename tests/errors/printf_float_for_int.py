# expect: TypeError: printf(): '%f' needs a float argument, got int32
# line: 9
import treadle as wp


@wp.kernel
def printf_float_for_int(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%f", x)
