"""tile_matmul over the shapes, element types and block sizes that pick each CUDA product
(tensor cores for float16/bfloat16, the register-blocked float32 product, the generic loop),
compared with numpy on the CPU and, where there is a GPU, on CUDA; and the CUDA source of each
compiled with NVRTC for its block size."""

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

# (element type, M, K, N, block_dim, which CUDA product it takes)
CASES = [
    ("float16", 64, 64, 64, 256, "mma, one warp tile a warp"),
    ("float16", 128, 32, 128, 64, "mma, several warp tiles a warp"),
    ("float16", 32, 48, 16, 128, "mma, idle warps"),
    ("bfloat16", 64, 32, 32, 128, "mma, bfloat16"),
    ("float16", 24, 16, 16, 64, "generic: M not a multiple of 16"),
    ("float32", 64, 64, 64, 256, "ffma 4 x 4"),
    ("float32", 32, 32, 32, 64, "ffma 4 x 4"),
    ("float32", 64, 16, 128, 256, "ffma 8 x 4"),
    ("float32", 16, 8, 16, 128, "generic: two outputs a thread"),
    ("float32", 32, 6, 32, 64, "generic: K not a multiple of 4"),
    ("float64", 16, 16, 16, 64, "generic: float64"),
]
IDS = [f"{c[0]}-{c[1]}x{c[2]}x{c[3]}-b{c[4]}" for c in CASES]
NP_TYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}

_kernels = {}


def product_kernel(dtype_name, m, k, n):
    """c = c + a @ b for one (m, k) @ (k, n) tile, c of float32 (float64 for float64)."""
    key = (dtype_name, m, k, n)
    if key in _kernels:
        return _kernels[key]
    dtype = getattr(wp, dtype_name)
    out_dtype = wp.float64 if dtype_name == "float64" else wp.float32
    tm, tk, tn = wp.constant(m), wp.constant(k), wp.constant(n)

    @wp.kernel(module="unique", enable_backward=False)
    def product(a: wp.array2d(dtype=dtype), b: wp.array2d(dtype=dtype),
                c: wp.array2d(dtype=out_dtype)):
        ta = wp.tile_load(a, shape=(tm, tk))
        tb = wp.tile_load(b, shape=(tk, tn))
        acc = wp.tile_load(c, shape=(tm, tn))
        wp.tile_matmul(ta, tb, acc)
        wp.tile_store(c, acc)

    _kernels[key] = product
    return product


def inputs(dtype_name, m, k, n):
    rng = np.random.default_rng(m * 10000 + k * 100 + n)
    a = rng.standard_normal((m, k))
    b = rng.standard_normal((k, n))
    c = rng.standard_normal((m, n))
    if dtype_name == "bfloat16":  # values bfloat16 holds exactly: 8 significant bits
        a, b = np.round(a * 64) / 64, np.round(b * 64) / 64
    else:
        a = a.astype(NP_TYPES[dtype_name]).astype(np.float64)
        b = b.astype(NP_TYPES[dtype_name]).astype(np.float64)
    return a, b, c


def run_case(case, device):
    dtype_name, m, k, n, block_dim, _ = case
    a, b, c = inputs(dtype_name, m, k, n)
    host = NP_TYPES.get(dtype_name, np.float32)  # bfloat16 arrays convert from float32
    A = wp.array(a.astype(host), dtype=getattr(wp, dtype_name), device=device)
    B = wp.array(b.astype(host), dtype=getattr(wp, dtype_name), device=device)
    out_np = np.float64 if dtype_name == "float64" else np.float32
    C = wp.array(c.astype(out_np), device=device)
    wp.launch_tiled(product_kernel(dtype_name, m, k, n), dim=1, inputs=[A, B, C],
                    block_dim=block_dim, device=device)
    expected = c.astype(out_np).astype(np.float64) + a @ b
    tol = 1e-12 if dtype_name == "float64" else 2e-6 * np.sqrt(k) * 4
    np.testing.assert_allclose(C.numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_product_on_the_cpu(case):
    run_case(case, "cpu")


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_product_on_cuda(case):
    run_case(case, "cuda:0")


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_product_cuda_source_compiles(case):
    dtype_name, m, k, n, block_dim, _ = case
    kernel = product_kernel(dtype_name, m, k, n)
    ok, log = _treadle.check_cuda_compile(kernel._function_source(), 90, block_dim=block_dim)
    assert ok, log


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
def test_half_product_as_a_half_tile_on_cuda():
    """tile_matmul(a, b) of float16 tiles is a float16 tile (the tensor-core sums rounded)."""
    tm = wp.constant(64)

    @wp.kernel(module="unique", enable_backward=False)
    def half_product(a: wp.array2d(dtype=wp.float16), b: wp.array2d(dtype=wp.float16),
                     c: wp.array2d(dtype=wp.float16)):
        ta = wp.tile_load(a, shape=(tm, tm))
        tb = wp.tile_load(b, shape=(tm, tm))
        wp.tile_store(c, wp.tile_matmul(ta, tb))

    rng = np.random.default_rng(3)
    a = (rng.standard_normal((64, 64)) * 0.25).astype(np.float16)
    b = (rng.standard_normal((64, 64)) * 0.25).astype(np.float16)
    A, B = wp.array(a, device="cuda:0"), wp.array(b, device="cuda:0")
    C = wp.zeros((64, 64), dtype=wp.float16, device="cuda:0")
    wp.launch_tiled(half_product, dim=1, inputs=[A, B, C], block_dim=128, device="cuda:0")
    expected = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_allclose(C.numpy().astype(np.float64), expected.astype(np.float64),
                               rtol=2e-3, atol=2e-3)
