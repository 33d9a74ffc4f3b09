"""Tiles: values a thread block holds together (tile_load/store, arithmetic, reductions,
products), their gradients, wp.launch_tiled, and the CUDA source they compile to."""

import numpy as np
import pytest

import treadle
import treadle as wp
import treadle.autograd
from treadle import _treadle

TM, TN, TK = 4, 8, 6


@pytest.fixture(autouse=True)
def _arrays_on_the_cpu(request):
    """The CPU tests make their arrays on the CPU even where CUDA is the default device."""
    if "cuda" in request.node.name:
        yield
        return
    with wp.ScopedDevice("cpu"):
        yield


@wp.kernel
def scale_add(a: wp.array2d[float], b: wp.array2d[float], out: wp.array2d[float],
              total: wp.array[float]):
    i, j = wp.tid()
    ta = wp.tile_load(a, shape=(TM, TN), offset=(i * TM, j * TN))
    tb = wp.tile_load(b, shape=(TM, TN), offset=(i * TM, j * TN))
    c = ta * 2.0 + tb - wp.tile_ones(shape=(TM, TN), dtype=float)
    wp.tile_store(out, c, offset=(i * TM, j * TN))
    wp.tile_atomic_add(total, wp.tile_sum(c))


@wp.kernel
def matmul(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(TM, TK))
    tb = wp.tile_load(b, shape=(TK, TN))
    wp.tile_store(c, wp.tile_matmul(ta, tb))


@wp.kernel
def matmul_acc(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(TM, TK))
    tb = wp.tile_load(b, shape=(TK, TN))
    acc = wp.tile_full(shape=(TM, TN), value=1.0, dtype=float)
    wp.tile_matmul(ta, tb, acc, alpha=2.0, beta=0.5)
    wp.tile_store(c, acc)


@wp.kernel
def extract_all(src: wp.array2d[float], out: wp.array2d[float]):
    i, j = wp.tid()
    t = wp.tile_load(src, shape=(3, 5))
    out[i, j] = t[i, j] * t[i, j]


@wp.kernel
def reductions(src: wp.array[float], out: wp.array[float], where: wp.array[int]):
    t = wp.tile_load(src, shape=7)
    wp.tile_store(out, wp.tile_max(t), offset=0)
    wp.tile_store(out, wp.tile_min(t), offset=1)
    wp.tile_store(where, wp.tile_argmax(t), offset=0)
    wp.tile_store(where, wp.tile_argmin(t), offset=1)


@wp.kernel
def shapes(src: wp.array2d[float], row: wp.array[float], out_t: wp.array2d[float],
           out_b: wp.array2d[float]):
    t = wp.tile_load(src, shape=(2, 3))
    wp.tile_store(out_t, wp.tile_transpose(t))
    r = wp.tile_load(row, shape=3)
    wp.tile_store(out_b, wp.tile_broadcast(r, shape=(4, 3)) + wp.tile_zeros(shape=(4, 3), dtype=float))


@wp.kernel
def per_thread(x: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    t = wp.tile(x[i] * 3.0)
    s = wp.tile_sum(t)
    out[i] = wp.untile(t) + s[0] * 0.0 + wp.tile_arange(0, 4, 2, dtype=float)[1]


def test_tiled_launch_arithmetic_and_sum():
    rng = np.random.default_rng(3)
    A = rng.random((8, 16)).astype(np.float32)
    B = rng.random((8, 16)).astype(np.float32)
    a, b = wp.array(A, requires_grad=True), wp.array(B, requires_grad=True)
    out = wp.zeros((8, 16), dtype=float, requires_grad=True)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(scale_add, dim=(2, 2), inputs=[a, b, out, total], block_dim=64,
                        device="cpu")
    ref = 2 * A + B - 1
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(total.numpy()[0], ref.sum(), rtol=1e-5)
    total.grad = wp.array([1.0], dtype=float)
    tape.backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.full((8, 16), 2.0, np.float32))
    np.testing.assert_array_equal(b.grad.numpy(), np.ones((8, 16), np.float32))


def test_partial_tiles_read_zero_and_skip_stores():
    src = wp.array(np.arange(10, dtype=np.float32).reshape(2, 5), dtype=float)
    out = wp.full((2, 5), -1.0, dtype=float)
    total = wp.zeros(1, dtype=float)

    # tiles of 4x8 over a 2x5 array: everything past the array reads 0 and is not written
    wp.launch_tiled(scale_add, dim=(1, 1), inputs=[src, src, out, total], block_dim=32,
                    device="cpu")
    S = src.numpy()
    np.testing.assert_allclose(out.numpy(), 3 * S - 1)
    # the sum covers the whole tile: the 27 elements outside the array are 0 * 3 - 1
    np.testing.assert_allclose(total.numpy()[0], (3 * S - 1).sum() - 22.0, rtol=1e-6)


def test_matmul_and_its_gradient():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((TM, TK)).astype(np.float32)
    B = rng.standard_normal((TK, TN)).astype(np.float32)
    a, b = wp.array(A, requires_grad=True), wp.array(B, requires_grad=True)
    c = wp.zeros((TM, TN), dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(matmul, dim=1, inputs=[a, b, c], block_dim=16, device="cpu")
    np.testing.assert_allclose(c.numpy(), A @ B, rtol=1e-5, atol=1e-6)
    G = rng.standard_normal((TM, TN)).astype(np.float32)
    c.grad = wp.array(G, dtype=float)
    tape.backward()
    np.testing.assert_allclose(a.grad.numpy(), G @ B.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), A.T @ G, rtol=1e-5, atol=1e-5)


def test_matmul_accumulates_into_out():
    rng = np.random.default_rng(6)
    A = rng.standard_normal((TM, TK)).astype(np.float32)
    B = rng.standard_normal((TK, TN)).astype(np.float32)
    c = wp.zeros((TM, TN), dtype=float)
    wp.launch_tiled(matmul_acc, dim=1, inputs=[wp.array(A), wp.array(B), c], block_dim=8,
                    device="cpu")
    np.testing.assert_allclose(c.numpy(), 2 * (A @ B) + 0.5, rtol=1e-5, atol=1e-5)


def test_extract_reads_any_element_and_its_gradient():
    rng = np.random.default_rng(7)
    S = rng.random((3, 5)).astype(np.float32)
    src = wp.array(S, requires_grad=True)
    out = wp.zeros((3, 5), dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch(extract_all, dim=(3, 5), inputs=[src, out], device="cpu")
    np.testing.assert_allclose(out.numpy(), S * S, rtol=1e-6)
    out.grad = wp.ones_like(out)
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), 2 * S, rtol=1e-6)


def test_reductions():
    x = np.array([3.0, -1.0, 7.0, 7.0, -4.0, 2.0, -4.0], dtype=np.float32)
    out = wp.zeros(2, dtype=float)
    where = wp.zeros(2, dtype=int)
    wp.launch_tiled(reductions, dim=1, inputs=[wp.array(x), out, where], block_dim=8,
                    device="cpu")
    np.testing.assert_array_equal(out.numpy(), [7.0, -4.0])
    np.testing.assert_array_equal(where.numpy(), [2, 4])  # the first of equal ones


def test_transpose_and_broadcast():
    S = np.arange(6, dtype=np.float32).reshape(2, 3)
    row = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    out_t = wp.zeros((3, 2), dtype=float)
    out_b = wp.zeros((4, 3), dtype=float)
    wp.launch_tiled(shapes, dim=1, inputs=[wp.array(S), wp.array(row), out_t, out_b],
                    block_dim=4, device="cpu")
    np.testing.assert_array_equal(out_t.numpy(), S.T)
    np.testing.assert_array_equal(out_b.numpy(), np.broadcast_to(row, (4, 3)))


def test_tile_of_per_thread_values_on_the_cpu():
    # on the CPU a block is one thread: tile(x) has shape (1,), and untile gives x back
    x = wp.array(np.array([1.0, 2.0, 5.0], dtype=np.float32))
    out = wp.zeros(3, dtype=float)
    wp.launch(per_thread, dim=3, inputs=[x, out], device="cpu")
    np.testing.assert_allclose(out.numpy(), [5.0, 8.0, 17.0])


mat23 = wp.types.matrix(shape=(2, 3), dtype=float)


@wp.kernel
def matrix_components(x: wp.array[mat23], out: wp.array3d[float], back: wp.array[mat23]):
    i = wp.tid()
    t = wp.tile(x[i] * 2.0)  # (2, 3, block_dim) of the matrix elements
    wp.tile_store(out, t, offset=(0, 0, i))
    back[i] = wp.untile(t + wp.tile_ones(shape=(2, 3, 1), dtype=float))


def test_tile_of_matrices_expands_their_elements():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((3, 2, 3)).astype(np.float32)
    x = wp.array(X, dtype=mat23, requires_grad=True)
    out = wp.zeros((2, 3, 3), dtype=float, requires_grad=True)
    back = wp.zeros(3, dtype=mat23, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch(matrix_components, dim=3, inputs=[x, out, back], device="cpu")
    np.testing.assert_allclose(out.numpy(), 2.0 * X.transpose(1, 2, 0), rtol=1e-6)
    np.testing.assert_allclose(back.numpy(), 2.0 * X + 1.0, rtol=1e-6)
    G = rng.standard_normal((2, 3, 3)).astype(np.float32)
    H = rng.standard_normal((3, 2, 3)).astype(np.float32)
    out.grad = wp.array(G)
    back.grad = wp.array(H, dtype=mat23)
    tape.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * (G.transpose(2, 0, 1) + H), rtol=1e-5)


def test_build_records_the_block_size():
    handle = scale_add._compile("cpu")
    assert handle.tile_block_dim == 1
    assert extract_all._compile("cpu").tile_block_dim == 1


def _compile_error(kernel):
    with pytest.raises(Exception) as info:
        kernel._compile("cpu")
    return str(info.value)


def test_errors_name_the_argument():
    @wp.kernel
    def bad_shape(a: wp.array2d[float]):
        n = 3
        wp.tile_load(a, shape=(n + wp.tid(), 2))

    assert "tile_load(): shape must be a constant int or tuple of ints" in _compile_error(bad_shape)

    @wp.kernel
    def bad_dims(a: wp.array2d[float]):
        wp.tile_load(a, shape=8)

    assert "the shape has 1 dimensions but the array has 2" in _compile_error(bad_dims)

    @wp.kernel
    def bad_store(a: wp.array[int]):
        wp.tile_store(a, wp.tile_zeros(shape=4, dtype=float))

    assert "cannot be stored in an array(dtype=int32, ndim=1)" in _compile_error(bad_store)

    @wp.kernel
    def bad_matmul(a: wp.array2d[float]):
        x = wp.tile_load(a, shape=(2, 3))
        wp.tile_matmul(x, x)

    assert "tile_matmul(): expects an (M, K) and a (K, N) tile" in _compile_error(bad_matmul)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("kernel", ["scale_add", "matmul", "matmul_acc", "extract_all",
                                    "reductions", "shapes", "per_thread", "composite", "views",
                                    "factor_and_solve", "transforms"])
def test_cuda_source_compiles(kernel):
    kernel = globals()[kernel]
    for adjoint in (False, True):
        ok, log = _treadle.check_cuda_compile(kernel._function_source(), 90, adjoint=adjoint)
        assert ok, log


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
def test_tiles_on_cuda():
    device = "cuda:0"
    rng = np.random.default_rng(9)
    A = rng.standard_normal((TM, TK)).astype(np.float32)
    B = rng.standard_normal((TK, TN)).astype(np.float32)
    a = wp.array(A, requires_grad=True, device=device)
    b = wp.array(B, requires_grad=True, device=device)
    c = wp.zeros((TM, TN), dtype=float, requires_grad=True, device=device)
    for block_dim in (32, 64, 256):
        a.grad.zero_()
        b.grad.zero_()
        with wp.Tape() as tape:
            wp.launch_tiled(matmul, dim=1, inputs=[a, b, c], block_dim=block_dim, device=device)
        np.testing.assert_allclose(c.numpy(), A @ B, rtol=1e-5, atol=1e-5)
        c.grad = wp.ones_like(c)
        tape.backward()
        np.testing.assert_allclose(a.grad.numpy(), np.ones((TM, TN)) @ B.T, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(b.grad.numpy(), A.T @ np.ones((TM, TN)), rtol=1e-5,
                                   atol=1e-5)
    S = rng.random((3, 5)).astype(np.float32)
    src = wp.array(S, device=device)
    out = wp.zeros((3, 5), dtype=float, device=device)
    wp.launch(extract_all, dim=(3, 5), inputs=[src, out], block_dim=512, device=device)
    np.testing.assert_allclose(out.numpy(), S * S, rtol=1e-6)
    x = wp.array(np.arange(64, dtype=np.float32), device=device)
    o = wp.zeros(64, dtype=float, device=device)
    wp.launch(per_thread, dim=64, inputs=[x, o], block_dim=64, device=device)
    np.testing.assert_allclose(o.numpy(), 3 * np.arange(64) + 2.0)


@wp.func
def smooth_max(a: float, b: float):
    return wp.log(wp.exp(a) + wp.exp(b))


@wp.kernel
def composite(x: wp.array2d[float], w: wp.array[float], out: wp.array[float]):
    t = wp.tile_load(x, shape=(3, 4))
    row = wp.tile_load(w, shape=4)
    scaled = t * wp.tile_broadcast(row, shape=(3, 4))
    s = wp.tile_map(wp.sin, scaled) + wp.tile_transpose(wp.tile_transpose(t))
    col = wp.tile_sum(s, axis=1)
    tot = wp.tile_reduce(smooth_max, col)
    m = wp.tile_max(t)
    v = wp.tile_view(s, offset=(1,))
    out[0] = tot[0] + m[0] * 0.5 + v[2] * t[2, 1] + wp.tile_sum(wp.tile_matmul(t, wp.tile_transpose(t)))[0] * 0.1


def test_tile_gradients_match_finite_differences():
    rng = np.random.default_rng(11)
    x = wp.array(rng.standard_normal((3, 4)).astype(np.float64).astype(np.float32),
                 requires_grad=True, device="cpu")
    w = wp.array(rng.standard_normal(4).astype(np.float32), requires_grad=True, device="cpu")
    out = wp.zeros(1, dtype=float, requires_grad=True, device="cpu")
    ad = treadle.autograd.jacobian(composite, 1, inputs=[x, w], outputs=[out], device="cpu")
    fd = treadle.autograd.jacobian_fd(composite, 1, inputs=[x, w], outputs=[out], device="cpu",
                                 eps=1e-3)
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=2e-2, atol=2e-2, err_msg=str(key))


@wp.kernel
def views(src: wp.array2d[float], out_row: wp.array[float], out_block: wp.array2d[float],
          out_put: wp.array2d[float], sums: wp.array[float], prod: wp.array[float]):
    t = wp.tile_load(src, shape=(4, 6))
    wp.tile_store(out_row, t[2])
    wp.tile_store(out_block, t[1:3, ::2])
    t[0] = wp.tile_zeros(shape=6, dtype=float)
    t[1:3, 4:] = wp.tile_ones(shape=(2, 2), dtype=float)
    wp.tile_store(out_put, t)
    wp.tile_store(sums, wp.tile_sum(t, axis=0))
    wp.tile_store(prod, wp.tile_reduce(wp.mul, wp.tile_view(t, offset=(3,))))


def test_subscripts_views_and_axis_reductions():
    S = np.arange(24, dtype=np.float32).reshape(4, 6) / 10.0
    out_row = wp.zeros(6, dtype=float)
    out_block = wp.zeros((2, 3), dtype=float)
    out_put = wp.zeros((4, 6), dtype=float)
    sums = wp.zeros(6, dtype=float)
    prod = wp.zeros(1, dtype=float)
    wp.launch_tiled(views, dim=1, inputs=[wp.array(S), out_row, out_block, out_put, sums, prod],
                    block_dim=8, device="cpu")
    np.testing.assert_allclose(out_row.numpy(), S[2])
    np.testing.assert_allclose(out_block.numpy(), S[1:3, ::2])
    P = S.copy()
    P[0] = 0.0
    P[1:3, 4:] = 1.0
    np.testing.assert_allclose(out_put.numpy(), P)
    np.testing.assert_allclose(sums.numpy(), P.sum(axis=0), rtol=1e-6)
    np.testing.assert_allclose(prod.numpy()[0], np.prod(P[3]), rtol=1e-5)


CN = 5


@wp.kernel
def factor_and_solve(a: wp.array2d[float], y: wp.array[float], s: wp.array[float],
                     out: wp.array2d[float], x: wp.array[float], up: wp.array2d[float],
                     xu: wp.array[float]):
    A = wp.tile_load(a, shape=(CN, CN))
    L = wp.tile_cholesky(A)
    wp.tile_store(out, L)
    b = wp.tile_load(y, shape=CN)
    wp.tile_store(x, wp.tile_cholesky_solve(L, b))
    U = wp.tile_cholesky(A, fill_mode="upper")
    wp.tile_store(up, U)
    two_ways = wp.tile_upper_solve(U, wp.tile_lower_solve(wp.tile_transpose(U), b))
    wp.tile_store(xu, (two_ways + wp.tile_cholesky_solve(U, b, fill_mode="upper")) * 0.5)
    z = wp.tile_lower_solve(L, b)
    s[0] = wp.tile_sum(z * z)[0] + wp.tile_sum(L)[0]


def test_cholesky_solves_and_their_gradients():
    rng = np.random.default_rng(2)
    M = rng.standard_normal((CN, CN))
    A = (M @ M.T + CN * np.eye(CN)).astype(np.float32)
    Y = rng.standard_normal(CN).astype(np.float32)
    a, y = wp.array(A, requires_grad=True), wp.array(Y, requires_grad=True)
    s = wp.zeros(1, dtype=float, requires_grad=True)
    out, up = wp.zeros((CN, CN), dtype=float), wp.zeros((CN, CN), dtype=float)
    x, xu = wp.zeros(CN, dtype=float), wp.zeros(CN, dtype=float)
    args = [a, y, s, out, x, up, xu]
    wp.launch_tiled(factor_and_solve, dim=1, inputs=args, block_dim=8, device="cpu")
    L = np.linalg.cholesky(A.astype(np.float64))
    np.testing.assert_allclose(out.numpy(), L, atol=1e-5)
    np.testing.assert_allclose(up.numpy(), L.T, atol=1e-5)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(A, Y), atol=1e-4)
    np.testing.assert_allclose(xu.numpy(), np.linalg.solve(A, Y), atol=1e-4)
    ad = treadle.autograd.jacobian(factor_and_solve, 1, inputs=[a, y], outputs=args[2:],
                                   device="cpu")
    fd = treadle.autograd.jacobian_fd(factor_and_solve, 1, inputs=[a, y], outputs=args[2:],
                                      device="cpu", eps=1e-3)
    lower = np.tril(np.ones((CN, CN))).reshape(1, -1)  # the factor reads A's lower triangle
    np.testing.assert_allclose(ad[(0, 0)] * (1 - lower), 0.0)
    np.testing.assert_allclose(ad[(0, 0)] * lower, fd[(0, 0)] * lower, atol=5e-3, rtol=1e-2)
    np.testing.assert_allclose(ad[(1, 0)], fd[(1, 0)], atol=2e-3, rtol=1e-2)


@wp.kernel
def transforms(x: wp.array2d[wp.vec2f], w: wp.array2d[wp.vec2f], y: wp.array2d[wp.vec2f],
               z: wp.array2d[wp.vec2f], s: wp.array[float]):
    t = wp.tile_load(x, shape=(2, 8))
    wp.tile_fft(t)
    wp.tile_store(y, t)
    u = wp.tile_load(x, shape=(2, 6))  # not a power of two: the direct sum
    wp.tile_ifft(u)
    wp.tile_store(z, u)
    s[0] = wp.tile_dot(t, wp.tile_load(w, shape=(2, 8)))[0]


def test_fft_matches_numpy_and_its_gradient():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((2, 8, 2)).astype(np.float32)
    W = rng.standard_normal((2, 8, 2)).astype(np.float32)
    x = wp.array(X, dtype=wp.vec2f, requires_grad=True, device="cpu")
    w = wp.array(W, dtype=wp.vec2f, device="cpu")
    y = wp.zeros((2, 8), dtype=wp.vec2f, device="cpu")
    z = wp.zeros((2, 8), dtype=wp.vec2f, device="cpu")
    s = wp.zeros(1, dtype=float, requires_grad=True, device="cpu")
    with wp.Tape() as tape:
        wp.launch_tiled(transforms, dim=1, inputs=[x, w, y, z, s], block_dim=4, device="cpu")
    c = X[..., 0] + 1j * X[..., 1]
    f = np.fft.fft(c, axis=1)
    np.testing.assert_allclose(y.numpy()[..., 0] + 1j * y.numpy()[..., 1], f, atol=1e-4)
    g = np.fft.ifft(c[:, :6], axis=1) * 6  # unnormalised
    np.testing.assert_allclose(z.numpy()[:, :6, 0] + 1j * z.numpy()[:, :6, 1], g, atol=1e-4)
    s.grad = wp.array([1.0], dtype=float, device="cpu")
    tape.backward()
    # s = Re(sum conj-free dot of f with w): ds/dx = F^T applied to w, as reals
    wc = W[..., 0] + 1j * W[..., 1]
    grad = np.fft.ifft(wc, axis=1) * 8  # F^H w for the real pairing <Fx, w>
    got = x.grad.numpy()
    np.testing.assert_allclose(got[..., 0], grad.real, atol=1e-4)
    np.testing.assert_allclose(got[..., 1], grad.imag, atol=1e-4)


@wp.kernel
def rows_in_a_loop(src: wp.array2d[float], dst: wp.array2d[float]):
    a = wp.tile_load(src, shape=(4, 3))
    b = wp.tile_zeros(dtype=float, shape=(4, 3))
    for i in range(src.shape[0]):  # a run-time loop: b is carried through the view
        row = b[i]
        wp.tile_assign(row, a[i] * 2.0)
    wp.tile_store(dst, b)


def test_view_written_in_a_loop_updates_its_parent():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    d = wp.zeros((4, 3))
    wp.launch_tiled(rows_in_a_loop, dim=[1], inputs=[wp.array(x), d], block_dim=8)
    np.testing.assert_array_equal(d.numpy(), 2 * x)


def test_shared_memory_shortfall_clause():
    from treadle._src.context import _smem_shortfall_clause

    assert _smem_shortfall_clause(block_dim=64, requested=1000, static=-1, device_max=2000) is None
    assert _smem_shortfall_clause(block_dim=64, requested=1744, static=256, device_max=2000) is None
    assert _smem_shortfall_clause(block_dim=64, requested=1745, static=256, device_max=2000) == (
        "but only 1744 bytes are available at block_dim=64 (device limit 2000 bytes, minus 256 "
        "bytes of static shared memory this kernel reserves)")


@wp.func
def add_scaled_in_place(t: wp.tile[float, 4, 3], s: float):
    t += wp.tile_ones(dtype=float, shape=(4, 3)) * s


@wp.func
def set_corner(t: wp.tile[float, 4, 3], v: float) -> float:
    t[0, 0] = v * v
    if v > 100.0:
        return 1.0
    return 2.0


@wp.kernel
def updates_in_functions(src: wp.array2d[float], out: wp.array2d[float], r: wp.array[float]):
    t = wp.tile_load(src, shape=(4, 3))
    add_scaled_in_place(t, 5.0)
    tmp = t * 1.0
    add_scaled_in_place(tmp * 2.0, 100.0)  # a temporary: its update goes nowhere
    r[0] = set_corner(t, src[1, 1])
    wp.tile_store(out, t * t)


def test_functions_update_tile_arguments_in_place():
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    src = wp.array(x, requires_grad=True)
    out = wp.zeros((4, 3), requires_grad=True)
    r = wp.zeros(1)
    with wp.Tape() as tape:
        wp.launch_tiled(updates_in_functions, dim=[1], inputs=[src, out, r], block_dim=8)
    want = x + 5.0
    want[0, 0] = x[1, 1] ** 2
    np.testing.assert_allclose(out.numpy(), want * want)
    assert r.numpy()[0] == 2.0
    out.grad = wp.ones_like(out)
    tape.backward()
    # d/dx of (x + 5)^2 everywhere but the corner, which is (x11^2)^2: 4 x11^3 goes to x11
    g = 2.0 * (x + 5.0)
    g[0, 0] = 0.0
    g[1, 1] += 4.0 * x[1, 1] ** 3
    np.testing.assert_allclose(src.grad.numpy(), g, rtol=1e-5)


@wp.func_native("""
    auto v = tile_extract(t, 1, 2);
    out[0] = v;
    """)
def read_tile_native(t: wp.tile[float, 2, 3], out: wp.array[float]): ...


@wp.kernel(enable_backward=False)
def native_tile_reader(src: wp.array2d[float], out: wp.array[float]):
    t = wp.tile_load(src, shape=(2, 3))
    read_tile_native(t, out)


def test_native_functions_extract_tile_elements_by_coordinates():
    # native snippets write Warp's tile_extract(t, i, j) with one integer per dimension
    src = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = wp.zeros(1, dtype=float)
    wp.launch_tiled(native_tile_reader, dim=[1], inputs=[src, out], block_dim=1, device="cpu")
    assert out.numpy()[0] == 5.0
    if _treadle.nvrtc_available():
        ok, log = _treadle.check_cuda_compile(native_tile_reader._function_source(), 90)
        assert ok, log
