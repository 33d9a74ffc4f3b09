# expect: TypeError: printf(): the format has 1 conversion but 2 arguments were given
# line: 9
import treadle as wp


@wp.kernel
def printf_too_many_args(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%d", x, x)
