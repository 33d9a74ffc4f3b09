"""Every argument kind through the runtime's one packer: vectors and matrices from treadle
objects, numpy arrays and (nested) tuples, numpy and treadle scalars, and the exact errors."""

import re

import numpy as np
import pytest

import treadle as wp
from treadle import logger


@wp.kernel
def store_vec(v: wp.vec3, out: wp.array(dtype=wp.vec3)):
    out[0] = v


@wp.kernel
def store_vecd(v: wp.vec3d, out: wp.array(dtype=wp.vec3d)):
    out[0] = v


@wp.kernel
def store_veci(v: wp.vec3i, out: wp.array(dtype=wp.vec3i)):
    out[0] = v


@wp.kernel
def store_mat(m: wp.mat33, out: wp.array(dtype=wp.mat33)):
    out[0] = m


@wp.kernel
def store_quat_transform(q: wp.quat, t: wp.transform, oq: wp.array(dtype=wp.quat),
                         ot: wp.array(dtype=wp.transform)):
    oq[0] = q
    ot[0] = t


@wp.kernel
def store_scalars(a: wp.float64, b: wp.int64, c: wp.uint8, d: bool, e: wp.float16,
                  out: wp.array(dtype=wp.float64)):
    out[0] = a
    out[1] = wp.float64(b)
    out[2] = wp.float64(c)
    out[3] = wp.where(d, wp.float64(1.0), wp.float64(0.0))
    out[4] = wp.float64(e)


def vec_of(kernel, value, dtype, device):
    out = wp.zeros(1, dtype=dtype, device=device)
    wp.launch(kernel, dim=1, inputs=[value, out], device=device)
    return out.numpy()[0]


def test_vectors_from_every_source(device):
    want = [1.5, -2.0, 3.25]
    for value in (wp.vec3(*want), wp.vec3d(*want), (1.5, -2.0, 3.25), [1.5, -2, 3.25],
                  np.array(want, dtype=np.float64), np.array(want, dtype=np.float32),
                  np.array(want + [9.0])[:3], np.array([want, want]).T[:, 0],
                  (np.float32(1.5), wp.float32(-2.0), 3.25), wp.vec3h(*want)):
        np.testing.assert_array_equal(vec_of(store_vec, value, wp.vec3, device), want)
        np.testing.assert_array_equal(vec_of(store_vecd, value, wp.vec3d, device), want)


def test_integer_vectors_convert_like_c(device):
    np.testing.assert_array_equal(vec_of(store_veci, np.array([7, -8, 2**31 + 5]), wp.vec3i,
                                         device), [7, -8, -(2**31) + 5])
    np.testing.assert_array_equal(vec_of(store_veci, (1.9, -1.9, 3.0), wp.vec3i, device),
                                  [1, -1, 3])
    np.testing.assert_array_equal(vec_of(store_vec, wp.vec3i(1, 2, 3), wp.vec3, device),
                                  [1.0, 2.0, 3.0])


def test_matrices_from_every_source(device):
    rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]]
    for value in (wp.mat33(*[x for r in rows for x in r]), wp.mat33d(*[x for r in rows for x in r]),
                  rows, tuple(tuple(r) for r in rows), np.array(rows),
                  np.array(rows, dtype=np.float32).T.T, np.array(rows).T.copy().T,
                  [wp.vec3(*r) for r in rows], [np.array(r) for r in rows],
                  [x for r in rows for x in r]):
        np.testing.assert_array_equal(vec_of(store_mat, value, wp.mat33, device), rows)


def test_quaternions_and_transforms(device):
    oq = wp.zeros(1, dtype=wp.quat, device=device)
    ot = wp.zeros(1, dtype=wp.transform, device=device)
    t = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(0.0, 0.0, 0.6, 0.8))
    wp.launch(store_quat_transform, dim=1, inputs=[wp.quat(0.0, 0.6, 0.0, 0.8), t, oq, ot],
              device=device)
    np.testing.assert_allclose(oq.numpy()[0], [0.0, 0.6, 0.0, 0.8], rtol=1e-7)
    np.testing.assert_allclose(ot.numpy()[0], [1.0, 2.0, 3.0, 0.0, 0.0, 0.6, 0.8], rtol=1e-7)


def test_scalars_from_python_numpy_and_treadle(device):
    out = wp.zeros(5, dtype=wp.float64, device=device)
    wp.launch(store_scalars, dim=1, inputs=[0.1, 2**40, 255, True, 0.1, out], device=device)
    np.testing.assert_array_equal(out.numpy(), [0.1, 2.0**40, 255.0, 1.0, np.float16(0.1)])
    with pytest.raises(OverflowError, match="argument 'c' is 300, out of the range of uint8"):
        wp.launch(store_scalars, dim=1, inputs=[0.1, 2**40, 300, True, 0.1, out], device=device)
    wp.launch(store_scalars, dim=1,
              inputs=[np.float32(0.5), np.int64(-3), np.uint8(7), False, wp.float16(2.0),
                      out],
              device=device)
    np.testing.assert_array_equal(out.numpy(), [0.5, -3.0, 7.0, 0.0, 2.0])
    wp.launch(store_scalars, dim=1, inputs=[wp.float64(1.25), wp.int64(5), 1, 0, 3, out],
              device=device)
    np.testing.assert_array_equal(out.numpy(), [1.25, 5.0, 1.0, 0.0, 3.0])


def test_argument_errors_are_exact(device):
    out = wp.zeros(1, dtype=wp.vec3, device=device)
    outm = wp.zeros(1, dtype=wp.mat33, device=device)
    outf = wp.zeros(5, dtype=wp.float64, device=device)

    def raises(message, kernel, inputs):
        with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
            wp.launch(kernel, dim=1, inputs=inputs, device=device)

    raises("store_vec(): argument 'v' expects vec3f (3 components), got 2 values", store_vec,
           [(1.0, 2.0), out])
    raises("store_vec(): argument 'v' expects vec3f, got str", store_vec, [(1.0, "a", 2.0), out])
    raises("store_mat(): argument 'm' expects mat33f (9 components), got 4 values", store_mat,
           [wp.mat22(1.0, 2.0, 3.0, 4.0), outm])
    raises("store_mat(): argument 'm' expects mat33f (9 components), got 3 values", store_mat,
           [wp.vec3(1.0, 2.0, 3.0), outm])
    raises("store_scalars(): argument 'b' is an integer too large for int64", store_scalars,
           [1.0, 2**70, 1, True, 1.0, outf])
    raises("store_scalars(): argument 'd' expects bool, got int 2", store_scalars,
           [1.0, 1, 1, 2, 1.0, outf])
    raises("store_scalars(): argument 'b' expects int64, got a float", store_scalars,
           [1.0, 1.5, 1, True, 1.0, outf])
    raises("store_scalars(): argument 'out' expects an array of type array(ndim=1, "
           "dtype=float64), but passed value has type float", store_scalars,
           [1.0, 1, 1, True, 1.0, 2.0])
    raises("store_vec(): argument 'out' expects an array of vec3f, got an array of float64",
           store_vec, [(1.0, 2.0, 3.0), outf])


def test_single_value_for_composite_parameter_follows_warp(device):
    out = wp.zeros(1, dtype=wp.vec3, device=device)
    for value, kind in ((123, "int"), (1.5, "float"), (wp.float32(1.5), "float32"),
                        (wp.int32(2), "int32")):
        message = (f"Error launching kernel 'store_vec', argument 'v' expects vec3f but got a "
                   f"single value of type {kind}. Construct the value explicitly, e.g.: "
                   f"vec3f(...).")
        with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
            wp.launch(store_vec, dim=1, inputs=[value, out], device=device)
    with pytest.raises(ValueError, match=r"^Failed to convert argument for param v to vec3f$"):
        wp.launch(store_vec, dim=1, inputs=[None, out], device=device)
    cmd = wp.Launch(store_vec, device)
    with pytest.raises(RuntimeError, match=r"argument 'v' expects vec3f but got a single value"):
        cmd.set_param_by_name("v", 123)
    cmd.set_param_by_name("v", wp.vec3(1.0, 2.0, 3.0))


def test_numpy_scalar_for_composite_parameter_is_widened_with_warning(device, capsys):
    out = wp.zeros(1, dtype=wp.vec3, device=device)
    outm = wp.zeros(1, dtype=wp.mat33, device=device)
    for value in (np.float32(1.5), np.int64(3), True, np.bool_(True)):
        logger._warnings_seen.clear()
        capsys.readouterr()
        wp.launch(store_vec, dim=1, inputs=[value, out], device=device)
        wp.launch(store_mat, dim=1, inputs=[value, outm], device=device)
        err = capsys.readouterr().err
        for name, type_name in (("v", "vec3f"), ("m", "mat33f")):
            assert (f"Implicit conversion from a value of type `{type(value).__name__}` to the "
                    f"composite type `{type_name}` for kernel parameter '{name}' is "
                    f"deprecated") in err
        np.testing.assert_array_equal(out.numpy(), np.full((1, 3), float(value)))
        np.testing.assert_array_equal(outm.numpy(), np.full((1, 3, 3), float(value)))


def test_unset_composite_parameters_of_a_launch_are_all_zero(device):
    oq = wp.full(1, wp.quat(1.0, 1.0, 1.0, 1.0), dtype=wp.quat, device=device)
    ot = wp.full(1, wp.transform((1.0, 1.0, 1.0), (1.0, 1.0, 1.0, 1.0)), dtype=wp.transform,
                 device=device)
    cmd = wp.Launch(store_quat_transform, device)
    cmd.set_param_by_name("oq", oq)
    cmd.set_param_by_name("ot", ot)
    cmd.set_dim(1)
    cmd.launch()
    np.testing.assert_array_equal(oq.numpy(), np.zeros((1, 4)))
    np.testing.assert_array_equal(ot.numpy(), np.zeros((1, 7)))  # not the identity transform
