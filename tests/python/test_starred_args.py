"""`f(*x)` in kernels: vectors, quaternions, matrix rows, tuples and constant slices unpack into
positional arguments, evaluated once; bad slices are clear errors at their line."""

import re

import numpy as np
import pytest

import treadle as wp


@wp.func
def add3(a: float, b: float, c: float):
    return a + b + c


@wp.func
def counted(calls: wp.array(dtype=int)):
    wp.atomic_add(calls, 0, 1)
    return wp.vec3(1.0, 2.0, 3.0)


@wp.kernel
def unpack_all(arr: wp.array(dtype=int), calls: wp.array(dtype=int),
               out: wp.array(dtype=float), outv: wp.array(dtype=wp.vec4)):
    v = wp.vec3(1.0, 2.0, 3.0)
    out[0] = add3(*v)
    out[1] = float(wp.max(*arr[:2]))
    v3 = wp.vec3i(*arr[2:5])
    v2 = wp.vec2i(*arr[0:4:2])
    out[2] = float(v3[0] + v3[1] + v3[2] + v2[1])
    out[3] = add3(*counted(calls))  # the call runs once
    outv[0] = wp.vec4(*v, 4.0)
    outv[1] = wp.vec4(1.0, *v[1:], 9.0)
    q = wp.quat(0.1, 0.2, 0.3, 0.4)
    outv[2] = wp.vec4(*q)
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    rows = wp.matrix_from_rows(*m)
    outv[3] = wp.vec4(*v[-2:], *rows[1])
    outv[4] = wp.vec4(*v[::-1], 0.0)


def test_starred_arguments_unpack(device):
    arr = wp.array(np.arange(10, dtype=np.int32) * 10, device=device)
    calls = wp.zeros(1, dtype=int, device=device)
    out = wp.zeros(4, dtype=float, device=device)
    outv = wp.zeros(5, dtype=wp.vec4, device=device)
    wp.launch(unpack_all, dim=1, inputs=[arr, calls, out, outv], device=device)
    np.testing.assert_allclose(out.numpy(), [6.0, 10.0, 20 + 30 + 40 + 20, 6.0])
    np.testing.assert_allclose(outv.numpy(), [[1, 2, 3, 4], [1, 2, 3, 9], [0.1, 0.2, 0.3, 0.4],
                                              [2, 3, 3, 4], [3, 2, 1, 0]], rtol=1e-6)
    assert calls.numpy()[0] == 1


def _fails(source_kernel, error, message):
    a = wp.zeros(10, dtype=int, device="cpu")
    with pytest.raises(error, match=re.escape(message)):
        wp.launch(source_kernel, dim=1, inputs=[a, 3], device="cpu")


def test_starred_slice_errors():
    @wp.kernel(module="unique")
    def non_constant(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(*arr[:n])  # noqa: F841

    @wp.kernel(module="unique")
    def no_stop(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(*arr[0:])  # noqa: F841

    @wp.kernel(module="unique")
    def negative(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(*arr[:-3])  # noqa: F841

    @wp.kernel(module="unique")
    def backwards(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(*arr[5:2:-1])  # noqa: F841

    @wp.kernel(module="unique")
    def scalar(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(*n)  # noqa: F841

    _fails(non_constant, wp.WarpCodegenValueError,
           "non_constant(): Slice component must be a compile-time constant")
    _fails(no_stop, ValueError, "no_stop(): a starred slice of an array requires explicit upper bound")
    _fails(negative, ValueError, "slice bounds cannot be negative for arrays")
    _fails(backwards, ValueError, "slice step cannot be negative for arrays")
    _fails(scalar, wp.WarpCodegenTypeError, "scalar(): Starred expressions are only supported for")


def test_starred_error_points_at_the_argument():
    @wp.kernel(module="unique")
    def at_line(arr: wp.array(dtype=int), n: int):
        v = wp.vec3i(1, *n)  # noqa: F841

    with pytest.raises(TypeError) as info:
        wp.launch(at_line, dim=1, inputs=[wp.zeros(1, dtype=int, device="cpu"), 3], device="cpu")
    line = at_line.func.__code__.co_firstlineno + 2
    assert f"test_starred_args.py:{line}:25:" in str(info.value)
