# expect: TypeError: printf(): '%n' is not supported (kernels print numbers only)
# line: 9
import treadle as wp


@wp.kernel
def printf_percent_n(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%n", x)
