# expect: TypeError: svd3(): output 'sigma' has type mat33f, expected vec3f
# line: 12
import treadle as wp


@wp.kernel
def svd3_output_type(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    U = wp.mat33()
    sigma = wp.mat33()
    V = wp.mat33()
    wp.svd3(a[i], U, sigma, V)
