# expect: TypeError: printf(): the format ends inside a conversion ('%')
# line: 9
import treadle as wp


@wp.kernel
def printf_unfinished(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%")
