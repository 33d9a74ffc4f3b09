# expect: TypeError: printf(): the format has 2 conversions but 1 argument was given
# line: 9
import treadle as wp


@wp.kernel
def printf_too_few_args(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%d %d", x)
