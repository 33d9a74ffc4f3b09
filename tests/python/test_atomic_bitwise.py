"""Bitwise atomics (wp.atomic_and/or/xor and a[i] &= v, |=, ^=) on arrays of integer scalars,
vectors and matrices, and the bitwise operators on integer vectors and matrices: results
against numpy, old values returned, Warp's type errors, and their CUDA source through NVRTC."""

import re

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

mat22ui = wp.types.matrix((2, 2), dtype=wp.uint32)


@wp.kernel
def scalar_bits(a: wp.array(dtype=wp.uint32), b: wp.array(dtype=wp.uint32),
                olds: wp.array(dtype=wp.uint32), op: int):
    i = wp.tid()
    word = i // 32
    mask = wp.uint32(1) << wp.uint32(i % 32)
    if op == 0:
        a[word] &= (b[word] & mask) | ~mask
    elif op == 1:
        a[word] |= b[word] & mask
    elif op == 2:
        a[word] ^= b[word] & mask
    elif op == 3:
        wp.atomic_and(a, word, (b[word] & mask) | ~mask)
    elif op == 4:
        wp.atomic_or(a, word, b[word] & mask)
    else:
        olds[i] = wp.atomic_xor(a, word, b[word] & mask)


@pytest.mark.parametrize("op", range(6))
def test_scalar_atomics_combine_every_bit(device, op):
    rng = np.random.default_rng(op)
    a = rng.integers(0, 2**32 - 1, size=8, dtype=np.uint32)
    b = rng.integers(0, 2**32 - 1, size=8, dtype=np.uint32)
    wa = wp.array(a, dtype=wp.uint32, device=device)
    olds = wp.zeros(8 * 32, dtype=wp.uint32, device=device)
    wp.launch(scalar_bits, 8 * 32, inputs=[wa, wp.array(b, dtype=wp.uint32, device=device), olds,
                                           op], device=device)
    want = [a & b, a | b, a ^ b][op % 3]
    np.testing.assert_array_equal(wa.numpy(), want)
    if op == 5:  # the first of a word's 32 updates returned the word's first value
        assert int(a[0]) in olds.numpy()[:32].tolist()


@wp.kernel
def composite_bits(v: wp.array(dtype=wp.vec3i), w: wp.array(dtype=wp.vec3i),
                   m: wp.array(dtype=mat22ui), n: wp.array(dtype=mat22ui),
                   out_v: wp.array(dtype=wp.vec3i), out_m: wp.array(dtype=mat22ui)):
    x = v[0]
    y = w[0]
    out_v[0] = (x & y) | (~x ^ (y << wp.vec3i(1, 2, 3)))
    out_v[1] = x >> wp.vec3i(1, 1, 1)
    out_v[2] = wp.atomic_or(v, 0, y)
    w[0] ^= x
    p = m[0]
    q = n[0]
    out_m[0] = (p ^ q) & ~(p << mat22ui(wp.uint32(4)))
    wp.atomic_and(m, 0, q)
    n[0] |= p


def test_vector_and_matrix_bits(device):
    x = np.array([[5, -7, 1 << 30]], dtype=np.int32)
    y = np.array([[3, 12, -1]], dtype=np.int32)
    p = np.array([[[0xF0F0F0F0, 1], [2, 0xFFFFFFFF]]], dtype=np.uint32)
    q = np.array([[[0x0FF00FF0, 3], [6, 0x12345678]]], dtype=np.uint32)
    v = wp.array(x, dtype=wp.vec3i, device=device)
    w = wp.array(y, dtype=wp.vec3i, device=device)
    m = wp.array(p, dtype=mat22ui, device=device)
    n = wp.array(q, dtype=mat22ui, device=device)
    out_v = wp.zeros(3, dtype=wp.vec3i, device=device)
    out_m = wp.zeros(1, dtype=mat22ui, device=device)
    wp.launch(composite_bits, 1, inputs=[v, w, m, n, out_v, out_m], device=device)
    x0, y0, p0, q0 = x[0], y[0], p[0], q[0]
    np.testing.assert_array_equal(out_v.numpy()[0], (x0 & y0) | (~x0 ^ (y0 << [1, 2, 3])))
    np.testing.assert_array_equal(out_v.numpy()[1], x0 >> 1)
    np.testing.assert_array_equal(out_v.numpy()[2], x0)  # the old value
    np.testing.assert_array_equal(v.numpy()[0], x0 | y0)
    np.testing.assert_array_equal(w.numpy()[0], y0 ^ x0)
    np.testing.assert_array_equal(out_m.numpy()[0], (p0 ^ q0) & ~(p0 << np.uint32(4)))
    np.testing.assert_array_equal(m.numpy()[0], p0 & q0)
    np.testing.assert_array_equal(n.numpy()[0], q0 | p0)


@wp.kernel(module="unique")
def float_or(a: wp.array(dtype=float)):
    wp.atomic_or(a, 0, 1.0)


@wp.kernel(module="unique")
def int8_and(a: wp.array(dtype=wp.int8)):
    a[0] &= wp.int8(1)


def test_bitwise_atomics_need_word_integers():
    with pytest.raises(RuntimeError, match=re.escape(
            "atomic_or() operations only work on arrays with [u]int32 or [u]int64 as the "
            "underlying scalar types, but got float32 (with scalar type float32)")):
        wp.launch(float_or, 1, inputs=[wp.zeros(1, dtype=float, device="cpu")], device="cpu")
    with pytest.raises(RuntimeError, match=re.escape(
            "atomic_and() operations only work on arrays with [u]int32 or [u]int64 as the "
            "underlying scalar types, but got int8 (with scalar type int8)")):
        wp.launch(int8_and, 1, inputs=[wp.zeros(1, dtype=wp.int8, device="cpu")], device="cpu")


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("k", [scalar_bits, composite_bits])
def test_cuda_source_compiles(k):
    ok, log = _treadle.check_cuda_compile(k._function_source(), 90)
    assert ok, log
