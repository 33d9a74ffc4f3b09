# expect: TypeError: printf(): '%d' needs an integer argument, got float32
# line: 9
import treadle as wp


@wp.kernel
def printf_int_for_float(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%d", y)
