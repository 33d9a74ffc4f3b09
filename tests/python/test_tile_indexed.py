"""Tiles addressed through index tiles: tile_load_indexed, tile_store_indexed,
tile_atomic_add_indexed, gathers of tiles (t[idx, :], t[:, idx], tile_slice_indexed), their
gradients, the errors they raise, and the CUDA source they compile to."""

import numpy as np
import pytest

import treadle
import treadle as wp
import treadle.autograd
from treadle import _treadle

M, N, H = 8, 6, 4


@pytest.fixture(autouse=True)
def _arrays_on_the_cpu(request):
    """The CPU tests make their arrays on the CPU even where CUDA is the default device."""
    if "cuda" in request.node.name:
        yield
        return
    with wp.ScopedDevice("cpu"):
        yield


def _line(marker):
    """The line of this file that holds `marker` (in a kernel) and no call of _line."""
    with open(__file__) as f:
        for number, text in enumerate(f, 1):
            if marker in text and "_line(" not in text:
                return number
    raise AssertionError(marker)


# ---- arrays ------------------------------------------------------------------------------


@wp.kernel
def load_rows_and_cols(x: wp.array2d[float], rows: wp.array[int], cols: wp.array[int],
                       by_row: wp.array2d[float], by_col: wp.array2d[float]):
    i = wp.tid()
    r = wp.tile_load(rows, shape=H)
    c = wp.tile_load(cols, shape=3)
    a = wp.tile_load_indexed(x, indices=r, shape=(H, N), offset=(i * 2, 0), axis=0)
    wp.tile_store(by_row, a * a)
    b = wp.tile_load_indexed(x, wp.tile_ones(3, dtype=int), (M, 3), axis=-1, storage="shared", offset=(0, 0))
    wp.tile_store(by_col, b + wp.tile_load_indexed(x, c, shape=(M, 3), axis=1))


def test_load_indexed_along_either_axis_and_its_gradient():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((M, N)).astype(np.float32)
    rows = np.array([5, 0, 5, -1], dtype=np.int32)  # -1 + the offset 0 is outside: zero
    cols = np.array([4, 1, 9], dtype=np.int32)  # 9 is past the end: zero
    x = wp.array(X, requires_grad=True)
    by_row = wp.zeros((H, N), dtype=float, requires_grad=True)
    by_col = wp.zeros((M, 3), dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(load_rows_and_cols, dim=1, inputs=[x, wp.array(rows), wp.array(cols)],
                        outputs=[by_row, by_col], block_dim=16)
    A = np.zeros((H, N), np.float32)
    A[:3] = X[[5, 0, 5]]
    np.testing.assert_allclose(by_row.numpy(), A * A, rtol=1e-6)
    B = np.zeros((M, 3), np.float32)
    B[:, :2] = X[:, [4, 1]]
    np.testing.assert_allclose(by_col.numpy(), X[:, [1, 1, 1]] + B, rtol=1e-6)
    G = rng.standard_normal((H, N)).astype(np.float32)
    by_row.grad = wp.array(G)
    by_col.grad = wp.ones_like(by_col)
    tape.backward()
    expect = np.zeros((M, N), np.float32)
    np.add.at(expect, [5, 0, 5], 2 * A[:3] * G[:3])  # repeated rows add up
    expect[:, 1] += 3.0
    expect[:, [4, 1]] += 1.0
    np.testing.assert_allclose(x.grad.numpy(), expect, rtol=1e-5, atol=1e-6)


@wp.kernel
def store_and_add_indexed(x: wp.array2d[float], rows: wp.array[int], stored: wp.array2d[float],
                          summed: wp.array2d[float], before: wp.array2d[float]):
    t = wp.tile_load(x, shape=(H, N))
    r = wp.tile_load(rows, shape=H)
    wp.tile_store_indexed(stored, indices=r, t=t * 2.0, offset=(1, 0))
    old = wp.tile_atomic_add_indexed(summed, wp.tile_full(H, value=2, dtype=int), t, axis=0)
    wp.tile_store(before, old)


def test_store_and_atomic_add_indexed_and_their_gradients():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((H, N)).astype(np.float32)
    rows = np.array([3, 0, 6, 9], dtype=np.int32)  # 9 + 1 is past the end: not written
    x = wp.array(X, requires_grad=True)
    stored = wp.zeros((M, N), dtype=float, requires_grad=True)
    summed = wp.full((M, N), 1.0, dtype=float, requires_grad=True)
    before = wp.zeros((H, N), dtype=float)
    with wp.Tape() as tape:
        wp.launch_tiled(store_and_add_indexed, dim=1, inputs=[x, wp.array(rows)],
                        outputs=[stored, summed, before], block_dim=8)
    S = np.zeros((M, N), np.float32)
    S[[4, 1, 7]] = 2 * X[:3]
    np.testing.assert_allclose(stored.numpy(), S, rtol=1e-6)
    T = np.ones((M, N), np.float32)
    T[2] += X.sum(axis=0)
    np.testing.assert_allclose(summed.numpy(), T, rtol=1e-5)
    # each element of row 2 held 1 and then the partial sums of the rows added before it
    np.testing.assert_allclose(before.numpy(), 1.0 + np.cumsum(X, axis=0) - X, rtol=1e-5)
    GS = rng.standard_normal((M, N)).astype(np.float32)
    GT = rng.standard_normal((M, N)).astype(np.float32)
    stored.grad = wp.array(GS)
    summed.grad = wp.array(GT)
    tape.backward()
    expect = np.broadcast_to(GT[2], (H, N)).copy()
    expect[:3] += 2 * GS[[4, 1, 7]]
    np.testing.assert_allclose(x.grad.numpy(), expect, rtol=1e-5, atol=1e-6)


@wp.struct
class Particle:
    mass: float
    vel: wp.vec3


@wp.func
def particle_energy(p: Particle) -> float:
    return p.mass * wp.dot(p.vel, p.vel)


@wp.kernel
def struct_load_indexed(ps: wp.array[Particle], order: wp.array[int], out: wp.array[float],
                        copy: wp.array[Particle]):
    o = wp.tile_load(order, shape=H)
    t = wp.tile_load_indexed(ps, indices=o, shape=(H,))
    wp.tile_store(out, wp.tile_sum(wp.tile_map(particle_energy, t)))
    wp.tile_store_indexed(copy, o, t)


def test_struct_tiles_load_store_and_gradient():
    rng = np.random.default_rng(3)
    mass = rng.random(H).astype(np.float32) + 0.5
    vel = rng.standard_normal((H, 3)).astype(np.float32)
    data = np.zeros(H, dtype=[("mass", np.float32), ("vel", np.float32, 3)])
    data["mass"], data["vel"] = mass, vel
    ps = wp.array(data, dtype=Particle, requires_grad=True)
    order = np.array([2, 2, 0, 3], dtype=np.int32)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    copy = wp.zeros(H, dtype=Particle)
    with wp.Tape() as tape:
        wp.launch_tiled(struct_load_indexed, dim=1, inputs=[ps, wp.array(order)],
                        outputs=[out, copy], block_dim=4)
    energy = mass * (vel * vel).sum(axis=1)
    np.testing.assert_allclose(out.numpy()[0], energy[order].sum(), rtol=1e-5)
    np.testing.assert_array_equal(copy.numpy()["mass"], [mass[0], 0.0, mass[2], mass[3]])
    out.grad = wp.ones_like(out)
    tape.backward()
    count = np.bincount(order, minlength=H).astype(np.float32)
    g = ps.grad.numpy()
    np.testing.assert_allclose(g["mass"], count * (vel * vel).sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(g["vel"], (count * 2 * mass)[:, None] * vel, rtol=1e-5)


# ---- gathers of tiles --------------------------------------------------------------------


@wp.func
def reversed_indices(i: wp.tile[int, H]) -> wp.tile[int, H]:
    return i[::-1]


@wp.kernel
def gathers(src: wp.array2d[float], idx: wp.array[int], rows: wp.array2d[float],
            cols: wp.array2d[float], chained: wp.array2d[float], element: wp.array[float],
            by_builtin: wp.array2d[float], flat: wp.array[float]):
    t = wp.tile_load(src, shape=(M, N))
    i = wp.tile_load(idx, shape=H)
    wp.tile_store(rows, t[i, :] * 2.0)
    wp.tile_store(cols, t[:, i])
    wp.tile_store(chained, t[reversed_indices(i)][:, 1:3])
    wp.tile_store(element, t[i][1])
    wp.tile_store(by_builtin, wp.tile_slice_indexed(t, (i,)) + wp.tile_slice_indexed(t, i))
    wp.tile_store(flat, t[2][i] + t[::2, 0][wp.tile_ones(H, dtype=int)])


def test_gathers_read_numpy_rows_and_columns():
    rng = np.random.default_rng(4)
    S = rng.standard_normal((M, N)).astype(np.float32)
    idx = np.array([3, -1, 0, 3], dtype=np.int32)  # -1 wraps to the last row / column
    rows = wp.zeros((H, N), dtype=float)
    cols = wp.zeros((M, H), dtype=float)
    chained = wp.zeros((H, 2), dtype=float)
    element = wp.zeros(N, dtype=float)
    by_builtin = wp.zeros((H, N), dtype=float)
    flat = wp.zeros(H, dtype=float)
    wp.launch_tiled(gathers, dim=1, inputs=[wp.array(S), wp.array(idx)],
                    outputs=[rows, cols, chained, element, by_builtin, flat], block_dim=32)
    np.testing.assert_allclose(rows.numpy(), 2 * S[idx], rtol=1e-6)
    np.testing.assert_allclose(cols.numpy(), S[:, idx], rtol=1e-6)
    np.testing.assert_allclose(chained.numpy(), S[idx[::-1]][:, 1:3], rtol=1e-6)
    np.testing.assert_allclose(element.numpy(), S[idx][1], rtol=1e-6)
    np.testing.assert_allclose(by_builtin.numpy(), 2 * S[idx], rtol=1e-6)
    np.testing.assert_allclose(flat.numpy(), S[2][idx] + S[2, 0], rtol=1e-6)


@wp.kernel
def gather_rows(src: wp.array2d[float], idx: wp.array[int], out: wp.array2d[float]):
    t = wp.tile_load(src, shape=(M, N))
    i = wp.tile_load(idx, shape=H)
    wp.tile_store(out, t[i])


def test_gather_gradient_adds_up_repeated_and_wrapped_indices():
    rng = np.random.default_rng(5)
    S = rng.standard_normal((M, N)).astype(np.float32)
    idx = np.array([1, 1, -M, 0], dtype=np.int32)  # -M wraps to 0
    src = wp.array(S, requires_grad=True)
    out = wp.zeros((H, N), dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(gather_rows, dim=1, inputs=[src, wp.array(idx)], outputs=[out],
                        block_dim=32)
    np.testing.assert_allclose(out.numpy(), S[idx], rtol=1e-6)
    G = rng.standard_normal((H, N)).astype(np.float32)
    out.grad = wp.array(G)
    tape.backward()
    expect = np.zeros_like(S)
    np.add.at(expect, idx % M, G)
    np.testing.assert_allclose(src.grad.numpy(), expect, rtol=1e-6)


@wp.kernel
def gather_composite(x: wp.array2d[float], idx: wp.array[int], out: wp.array[float]):
    t = wp.tile_load(x, shape=(M, N))
    i = wp.tile_load(idx, shape=H)
    g = wp.tile_map(wp.sin, t[i, :])[:, 0:H] * t[:, i][i, :][:, 0:N:1]
    r = wp.tile_load_indexed(x, i, shape=(H, N))
    out[0] = wp.tile_sum(g * r[:, 1:5])[0]


def test_gather_gradients_match_finite_differences():
    rng = np.random.default_rng(6)
    x = wp.array(rng.standard_normal((M, N)).astype(np.float32), requires_grad=True)
    idx = wp.array(np.array([2, 0, 2, -3], dtype=np.int32))
    out = wp.zeros(1, dtype=float, requires_grad=True)
    ad = treadle.autograd.jacobian(gather_composite, 1, inputs=[x, idx], outputs=[out],
                                   device="cpu")
    fd = treadle.autograd.jacobian_fd(gather_composite, 1, inputs=[x, idx], outputs=[out],
                                      device="cpu", eps=1e-3)
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=2e-2, atol=2e-2, err_msg=str(key))


# ---- errors ------------------------------------------------------------------------------


def _compile_error(kernel):
    with pytest.raises(Exception) as info:
        kernel._compile("cpu")
    return str(info.value)


def test_gather_errors_are_warps():
    @wp.kernel
    def float_indices():
        t = wp.tile_ones(shape=(M, N), dtype=float)
        f = wp.tile_arange(0.0, 4.0, 1.0, dtype=float)
        rows = t[f, :]  # float index tile

    assert _compile_error(float_indices).startswith(
        f"{__file__}:{_line('# float index tile')}:")
    assert ("float_indices(): Tile indexing requires an integer index tile, got dtype float32."
            in _compile_error(float_indices))

    @wp.kernel
    def part_of_the_other_axis():
        t = wp.tile_ones(shape=(M, N), dtype=float)
        i = wp.tile_arange(0, 4, dtype=int)
        rows = t[i, 1:5]  # not a full slice

    message = _compile_error(part_of_the_other_axis)
    assert message.startswith(f"{__file__}:{_line('# not a full slice')}:")
    assert ("part_of_the_other_axis(): Tile indexing with an integer index tile requires ':' on "
            "all other axes, e.g. `t[indices, :]`.") in message

    @wp.kernel
    def two_index_tiles():
        t = wp.tile_ones(shape=(M, N), dtype=float)
        i = wp.tile_arange(0, 4, dtype=int)
        rows = t[i, i]  # two index tiles

    message = _compile_error(two_index_tiles)
    assert message.startswith(f"{__file__}:{_line('# two index tiles')}:")
    assert "two_index_tiles(): Tile indexing supports exactly one 1D integer index tile." in message

    @wp.kernel
    def index_and_tile():
        t = wp.tile_ones(shape=(M, N), dtype=float)
        i = wp.tile_arange(0, 4, dtype=int)
        rows = t[1, i]  # an integer beside an index tile

    assert ("index_and_tile(): Tile indexing entries must be a 1D integer index tile or full "
            "slices ':'.") in _compile_error(index_and_tile)

    @wp.kernel
    def square_indices():
        t = wp.tile_ones(shape=(M, N), dtype=float)
        i = wp.tile_zeros(shape=(2, 2), dtype=int)
        rows = t[i]  # a 2-D index tile

    assert ("square_indices(): Tile indexing requires a 1D integer index tile, got 2 dimensions."
            in _compile_error(square_indices))


def test_indexed_memory_errors():
    @wp.kernel
    def wrong_count(a: wp.array2d[float]):
        i = wp.tile_arange(0, 3, dtype=int)
        t = wp.tile_load_indexed(a, i, shape=(4, 2))  # three indices, four rows

    message = _compile_error(wrong_count)
    assert message.startswith(f"{__file__}:{_line('# three indices, four rows')}:")
    assert ("tile_load_indexed(): the number of elements in the 1D indices tile (3) must match "
            "the output tile shape along the specified axis (4)") in message

    @wp.kernel
    def bad_axis(a: wp.array2d[float]):
        i = wp.tile_arange(0, 2, dtype=int)
        wp.tile_store_indexed(a, i, wp.tile_zeros(shape=(2, 2), dtype=float), axis=2)

    assert ("tile_store_indexed(): axis argument must be valid axis of array "
            "array(dtype=float32, ndim=2) (a constant from -2 to 1)") in _compile_error(bad_axis)

    @wp.kernel
    def float_index_tile(a: wp.array[float]):
        f = wp.tile_zeros(shape=2, dtype=float)
        wp.tile_atomic_add_indexed(a, f, wp.tile_zeros(shape=2, dtype=float))

    assert ("tile_atomic_add_indexed(): indices must be a tile of integers, got a "
            "tile(dtype=float32, shape=(2,))") in _compile_error(float_index_tile)

    @wp.kernel
    def wrong_dtype(a: wp.array[float]):
        i = wp.tile_arange(0, 2, dtype=int)
        wp.tile_store_indexed(a, i, wp.tile_zeros(shape=2, dtype=int))

    assert ("tile_store_indexed(): a tile(dtype=int32, shape=(2,)) cannot be stored in an "
            "array(dtype=float32, ndim=1)") in _compile_error(wrong_dtype)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("kernel", ["load_rows_and_cols", "store_and_add_indexed",
                                    "struct_load_indexed", "gathers", "gather_rows",
                                    "gather_composite"])
def test_cuda_source_compiles(kernel):
    kernel = globals()[kernel]
    for adjoint in (False, True):
        ok, log = _treadle.check_cuda_compile(kernel._function_source(), 90, adjoint=adjoint)
        assert ok, log


def _run(kernel, inputs, out_shapes, device, block_dim, seed=0):
    """The outputs of a tiled launch of `kernel` and, after a backward pass from seeded random
    output gradients, the gradients of its float inputs."""
    rng = np.random.default_rng(seed)
    ins = [wp.array(x, requires_grad=x.dtype.kind == "f", device=device) for x in inputs]
    outs = [wp.zeros(s, dtype=float, requires_grad=True, device=device) for s in out_shapes]
    with wp.Tape() as tape:
        wp.launch_tiled(kernel, dim=1, inputs=ins, outputs=outs, block_dim=block_dim,
                        device=device)
    values = [o.numpy() for o in outs]
    for o, s in zip(outs, out_shapes):
        o.grad = wp.array(rng.standard_normal(s).astype(np.float32), device=device)
    tape.backward()
    return values + [x.grad.numpy() for x in ins if x.requires_grad]


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
@pytest.mark.parametrize("block_dim", [32, 64])
def test_indexed_tiles_on_cuda_match_the_cpu(block_dim):
    rng = np.random.default_rng(8)
    X = rng.standard_normal((M, N)).astype(np.float32)
    idx = np.array([3, -1, 0, 3], dtype=np.int32)
    cases = [
        (load_rows_and_cols, [X, np.array([5, 0, 5, -1], np.int32), np.array([4, 1, 9], np.int32)],
         [(H, N), (M, 3)]),
        (gathers, [X, idx], [(H, N), (M, H), (H, 2), (N,), (H, N), (H,)]),
        (gather_rows, [X, np.array([1, 1, -M, 0], np.int32)], [(H, N)]),
        (gather_composite, [X, np.array([2, 0, 2, -3], np.int32)], [(1,)]),
    ]
    for kernel, inputs, shapes in cases:
        cpu = _run(kernel, inputs, shapes, "cpu", block_dim)
        gpu = _run(kernel, inputs, shapes, "cuda:0", block_dim)
        for k, (c, g) in enumerate(zip(cpu, gpu)):
            np.testing.assert_allclose(g, c, rtol=1e-5, atol=1e-5, err_msg=f"{kernel} {k}")
    # the stores and sums (the values read before the atomic adds depend on their order)
    rows = np.array([3, 0, 6, 9], np.int32)
    cpu = _run(store_and_add_indexed, [X[:H], rows], [(M, N), (M, N), (H, N)], "cpu", block_dim)
    gpu = _run(store_and_add_indexed, [X[:H], rows], [(M, N), (M, N), (H, N)], "cuda:0",
               block_dim)
    for k in (0, 1, 3):
        np.testing.assert_allclose(gpu[k], cpu[k], rtol=1e-5, atol=1e-5, err_msg=str(k))
