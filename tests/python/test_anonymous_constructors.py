"""wp.types.vector / wp.types.matrix in kernels copying a composite (converting its scalar
type), and concrete constructors that restate their shape as a keyword."""

import numpy as np

import treadle as wp

mat32d = wp.types.matrix(shape=(3, 2), dtype=wp.float64)


@wp.kernel
def casts(a: wp.array(dtype=wp.vec3d), m: wp.array(dtype=wp.mat22d),
          v16: wp.array(dtype=wp.vec3h), m32: wp.array(dtype=wp.mat22f),
          filled: wp.array(dtype=mat32d)):
    v16[0] = wp.types.vector(a[0], dtype=wp.float16)
    m32[0] = wp.types.matrix(m[0], dtype=wp.float32)
    same = wp.matrix(m32[0], shape=(2, 2))
    m32[1] = same
    c = mat32d(2.5)
    filled[0] = mat32d(c, shape=(3, 2))


def test_copies_convert_the_scalar_type(device):
    a = wp.array([wp.vec3d(1.25, -2.5, 1.0 / 3.0)], dtype=wp.vec3d, device=device)
    m = wp.array([wp.mat22d(1.0, 2.0, 3.0, 1.0 / 3.0)], dtype=wp.mat22d, device=device)
    v16 = wp.zeros(1, dtype=wp.vec3h, device=device)
    m32 = wp.zeros(2, dtype=wp.mat22f, device=device)
    filled = wp.zeros(1, dtype=mat32d, device=device)
    wp.launch(casts, 1, inputs=[a, m, v16, m32, filled], device=device)
    np.testing.assert_array_equal(v16.numpy()[0], np.float16([1.25, -2.5, 1.0 / 3.0]))
    np.testing.assert_array_equal(m32.numpy()[0], np.float32([[1.0, 2.0], [3.0, 1.0 / 3.0]]))
    np.testing.assert_array_equal(m32.numpy()[1], m32.numpy()[0])
    np.testing.assert_array_equal(filled.numpy()[0], np.full((3, 2), 2.5))


def test_host_matrix_rows_and_columns():
    m = wp.matrix_from_cols(wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0), wp.vec3(7.0, 8.0, 9.0))
    assert m.get_row(0) == wp.vec3(1.0, 4.0, 7.0) and m.get_col(2) == wp.vec3(7.0, 8.0, 9.0)
    m.set_row(1, wp.vec3(0.0, -1.0, -2.0))
    m.set_col(0, wp.vec3(5.0, 5.0, 5.0))
    assert m == wp.mat33(5.0, 4.0, 7.0, 5.0, -1.0, -2.0, 5.0, 6.0, 9.0)
