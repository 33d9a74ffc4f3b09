"""Vectors and matrices of bool, vectors of no components and long vectors: host values, arrays,
kernel parameters, construction (also Warp's anonymous wp.types.vector(...) / matrix(...)),
indexing, comparison and len(), on every device."""

from typing import Any

import numpy as np
import pytest

import treadle as wp

vec3bool = wp.types.vector(length=3, dtype=wp.bool)
mat22bool = wp.types.matrix((2, 2), dtype=bool)
selector = wp.constant(vec3bool([True, False, True]))
mselector = wp.constant(mat22bool([True, False, False, True]))


def test_bool_vectors_on_the_host():
    assert vec3bool is wp.types.vector(3, bool)
    assert vec3bool.__name__ == "vector(length=3, dtype=bool)"
    assert tuple(vec3bool()) == (False, False, False)
    assert tuple(vec3bool(True)) == (True, True, True)
    v = vec3bool(True, False, True)
    assert tuple(v) == (True, False, True)
    v[0] = False
    assert tuple(v) == (False, False, True) and v.z
    assert tuple(mat22bool(True, False, True, False)) == ((True, False), (True, False))
    assert mat22bool(True)[1, 1] is True
    with pytest.raises(TypeError):  # no generic placeholder takes bool
        wp.types.vector(length=Any, dtype=wp.bool)


@wp.kernel
def bool_kernel(vin: vec3bool, arr: wp.array(dtype=vec3bool), out: wp.array(dtype=wp.int32)):
    v = vec3bool(True, False, True)
    v[0] = False
    v[-1] = True
    if v == wp.types.vector(False, False, True):
        out[0] = 1
    if selector[2] and not selector[1]:
        out[1] = 1
    if mselector[1, 1] and not mselector[0, 1]:
        out[2] = 1
    if mat22bool(True) == wp.types.matrix(True, True, True, True, shape=(2, 2)):
        out[3] = 1
    if vin[1]:
        out[4] = 1
    arr[1] = arr[0]
    if vec3bool() == wp.types.vector(False, False, False):
        out[5] = 1
    m = wp.types.matrix(vin, v)  # rows
    if m[0, 1] and m[1, 2]:
        out[6] = 1


def test_bool_vectors_in_kernels(device):
    out = wp.zeros(7, dtype=wp.int32, device=device)
    arr = wp.array([vec3bool(True, False, True), vec3bool()], dtype=vec3bool, device=device)
    assert arr.numpy().dtype == np.bool_ and arr.numpy().shape == (2, 3)
    wp.launch(bool_kernel, 1, inputs=[vec3bool(False, True, False), arr, out], device=device)
    assert out.numpy().tolist() == [1] * 7
    np.testing.assert_array_equal(arr.numpy(), [[True, False, True], [True, False, True]])
    assert arr.list()[1] == vec3bool(True, False, True)


@wp.kernel
def anonymous(out: wp.array(dtype=wp.float32), iout: wp.array(dtype=wp.int32)):
    v = wp.types.vector(1.0, 2.0, 3.0)  # float32 from the literals
    w = wp.types.vector(length=4, dtype=wp.float64)
    z = wp.types.vector(wp.int16(2), wp.int16(3))
    m = wp.types.matrix(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, shape=(2, 3))
    f = wp.types.vector(2.5, length=3)
    out[0] = v[2] + float(len(w)) + m[1, 0] + f[1]
    iout[0] = int(z[0] * z[1]) + len(m)


def test_anonymous_construction(device):
    out = wp.zeros(1, dtype=wp.float32, device=device)
    iout = wp.zeros(1, dtype=wp.int32, device=device)
    wp.launch(anonymous, 1, inputs=[out, iout], device=device)
    assert out.list() == [3.0 + 4.0 + 4.0 + 2.5] and iout.list() == [8]


vec0 = wp.types.vector(0, float)
vec123h = wp.types.vector(123, dtype=wp.float16)


def test_zero_and_long_vectors_on_the_host():
    assert len(vec0()) == 0 and list(vec0()) == [] and vec0() == vec0()
    assert vec0._type.size == 4  # one unused component, as the native vec_t<0, T>
    v = vec123h(*[float(i % 7) for i in range(123)])
    assert len(v) == 123 and v[122] == 122 % 7
    assert vec123h._type.name == "vector(length=123, dtype=float16)"
    assert wp.types.vector(1024, wp.int8)._type.length == 1024
    with pytest.raises(ValueError):
        wp.types.vector(1025, wp.int8)
    with pytest.raises(ValueError):
        wp.types.vector(-1, float)
    with pytest.raises(TypeError, match="has no components"):
        wp.zeros(3, dtype=vec0)


@wp.kernel(enable_backward=False)
def lengths(v3: wp.types.vector(Any, float), v: vec123h, m: wp.mat33, q: wp.quat,
            t: wp.transform, out: wp.array(dtype=int), f: wp.array(dtype=float)):
    out[0] = len(v3)
    out[1] = wp.static(len(v))
    out[2] = len(v) + wp.static(len(v3) * 2)
    z = vec0()
    if z == vec0():
        out[3] = 1
    out[4] = len(z)
    out[5] = len(m) * 100 + len(q) * 10 + len(t)
    s = float(0.0)
    for i in range(len(v)):
        s += float(v[i])
    f[0] = s
    w = v * wp.float16(2.0)
    f[1] = float(w[122])


def test_zero_and_long_vectors_in_kernels(device):
    out = wp.zeros(6, dtype=int, device=device)
    f = wp.zeros(2, dtype=float, device=device)
    values = [float(i % 7) for i in range(123)]
    for v in (vec123h(*values), values, tuple(values), np.array(values, dtype=np.float16)):
        wp.launch(lengths, 1, inputs=[wp.vec4(), v, wp.mat33(), wp.quat(), wp.transform(), out,
                                      f], device=device)
        assert out.list() == [4, 123, 131, 1, 0, 347]
        assert f.list() == [sum(values), 2.0 * values[122]]
    with pytest.raises(TypeError, match=r"\(123 components\), got 124 values"):
        wp.launch(lengths, 1, inputs=[wp.vec4(), values + [1.0], wp.mat33(), wp.quat(),
                                      wp.transform(), out, f], device=device)


@wp.kernel
def long_array(a: wp.array(dtype=vec123h), out: wp.array(dtype=float)):
    i = wp.tid()
    v = a[i]
    out[i] = float(v[0] + v[122])
    a[i] = v * wp.float16(2.0)


def test_arrays_of_long_vectors(device):
    data = np.arange(2 * 123, dtype=np.float16).reshape(2, 123) % 16
    a = wp.array(data, dtype=vec123h, device=device)
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(long_array, 2, inputs=[a, out], device=device)
    assert out.list() == [float(data[0, 0] + data[0, 122]), float(data[1, 0] + data[1, 122])]
    np.testing.assert_array_equal(a.numpy(), data * 2)
