# expect: TypeError: printf(): '%s' is not supported (strings can only be part of the format)
# line: 9
import treadle as wp


@wp.kernel
def printf_string_no_arg(x: int, y: float):
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.printf("%s\n")
