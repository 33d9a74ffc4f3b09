"""treadle.optim.linear: CG, CR, BiCGSTAB and GMRES against numpy.linalg.solve on SPD,
nonsymmetric and indefinite systems (dense, diagonal and BSR operators, float32/float64, with
and without preconditioners), batched systems with inactive tails, the device-checked loop,
callbacks, reusable states, TiledDot's three reduction plans, the error messages, and that
every kernel compiles for CUDA."""

import re

import numpy as np
import pytest

import treadle as wp
import treadle.optim.linear as linear
import treadle.sparse as sparse
from treadle import _treadle
from treadle.optim.linear import (
    CG,
    CR,
    GMRES,
    BiCGSTAB,
    LinearOperator,
    aslinearoperator,
    bicgstab,
    cg,
    cr,
    gmres,
    preconditioner,
)
from treadle.optim.linear import dots, gmres_solver, loops, operators, updates
from treadle.optim.linear.dots import TiledDot

NP = {wp.float32: np.float32, wp.float64: np.float64}
# relative error allowed on x against numpy.linalg.solve, per scalar type
X_TOLERANCE = {wp.float32: 2e-3, wp.float64: 1e-7}


def _spd(rng, n):
    C = rng.uniform(-1.0, 1.0, (n, n))
    return C @ C.T + 0.5 * n * np.eye(n)


def _nonsymmetric(rng, n):
    return _spd(rng, n) @ np.diag(rng.uniform(0.5, 4.0, n)) + 0.3 * rng.uniform(-1, 1, (n, n))


def _indefinite(rng, n):
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    eig = rng.uniform(1.0, 4.0, n) * np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return Q @ np.diag(eig) @ Q.T


def _system(kind, n, dtype, device, seed=0):
    rng = np.random.default_rng(seed)
    A_np = {"spd": _spd, "nonsymmetric": _nonsymmetric, "indefinite": _indefinite}[kind](rng, n)
    b_np = rng.uniform(-1.0, 1.0, n)
    A = wp.array(A_np.astype(NP[dtype]), dtype=dtype, device=device)
    b = wp.array(b_np.astype(NP[dtype]), dtype=dtype, device=device)
    return A, b, A.numpy().astype(np.float64), b.numpy().astype(np.float64)


def _check_solution(x, A_np, b_np, dtype):
    expected = np.linalg.solve(A_np, b_np)
    error = np.linalg.norm(x.numpy().astype(np.float64) - expected) / np.linalg.norm(expected)
    assert error < X_TOLERANCE[dtype]


SOLVERS = {
    "cg": (cg, "spd", {}),
    "cr": (cr, "spd", {}),
    "cg_restarted": (cg, "spd", {"restart": 8}),
    "cr_restarted": (cr, "spd", {"restart": 8}),
    "bicgstab": (bicgstab, "nonsymmetric", {}),
    "bicgstab_left": (bicgstab, "nonsymmetric", {"is_left_preconditioner": True}),
    "gmres": (gmres, "nonsymmetric", {"restart": 12}),
    "gmres_left": (gmres, "nonsymmetric", {"restart": 12, "is_left_preconditioner": True}),
    "bicgstab_indefinite": (bicgstab, "indefinite", {}),
    "gmres_indefinite": (gmres, "indefinite", {"restart": 24}),
    "cr_indefinite": (cr, "indefinite", {}),
}


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize("dtype", [wp.float32, wp.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("precondition", [False, True], ids=["plain", "jacobi"])
def test_dense_solves_match_numpy(device, name, dtype, precondition):
    solver, kind, kwargs = SOLVERS[name]
    n = 24
    A, b, A_np, b_np = _system(kind, n, dtype, device, seed=len(name))
    if precondition and name == "cr_indefinite":
        pytest.skip("preconditioned CR needs z.Az > 0, which an indefinite A breaks (as in Warp)")
    # Jacobi with signed diagonals can stall BiCGSTAB on indefinite systems (as in Warp)
    ptype = "diag_abs" if kind == "indefinite" else "diag"
    M = preconditioner(A, ptype) if precondition else None
    x = wp.zeros_like(b)
    tol = 1e-5 if dtype == wp.float32 else 1e-10
    niter, err, atol = solver(A, b, x, tol=tol, maxiter=400, M=M, **kwargs)
    assert err <= atol
    assert 0 < niter <= 400
    assert np.isclose(atol, tol * np.linalg.norm(b_np), rtol=1e-4)
    _check_solution(x, A_np, b_np, dtype)


def test_conjugate_gradients_need_at_most_n_iterations_in_float64():
    A, b, A_np, b_np = _system("spd", 12, wp.float64, "cpu")
    for solver in (cg, cr):
        x = wp.zeros_like(b)
        niter, _, _ = solver(A, b, x, tol=1e-10, check_every=1)
        assert niter <= 13
        _check_solution(x, A_np, b_np, wp.float64)
    x = wp.zeros_like(b)
    niter, _, _ = gmres(A, b, x, tol=1e-10, restart=12, check_every=1)
    assert niter == 12  # one full cycle: the Krylov space is the whole space
    _check_solution(x, A_np, b_np, wp.float64)


def test_warm_start_is_already_converged():
    A, b, _, _ = _system("spd", 10, wp.float64, "cpu")
    for solver in (cg, cr, bicgstab, gmres):
        x = wp.zeros_like(b)
        solver(A, b, x, tol=1e-10)
        niter, err, atol = solver(A, b, x, tol=1e-10)
        assert niter == 0 and err <= atol


def _block_diagonal_bsr(rng, blocks, size, dtype, device):
    """A BSR matrix of `blocks` x `blocks` blocks of size x size (block tridiagonal, SPD) and
    its dense numpy copy."""
    dense = np.zeros((blocks * size, blocks * size))
    rows, cols, values = [], [], []
    for i in range(blocks):
        for j in (i - 1, i, i + 1):
            if 0 <= j < blocks:
                block = rng.uniform(-0.3, 0.3, (size, size))
                if i == j:
                    block = block @ block.T + 4.0 * np.eye(size)
                rows.append(i)
                cols.append(j)
                values.append(block)
                dense[i * size:(i + 1) * size, j * size:(j + 1) * size] = block
    dense = 0.5 * (dense + dense.T)
    for k, (i, j) in enumerate(zip(rows, cols)):
        values[k] = dense[i * size:(i + 1) * size, j * size:(j + 1) * size]
    values = np.array(values).astype(NP[dtype])
    if size == 1:
        values_arr = wp.array(values.reshape(-1), dtype=dtype, device=device)
    else:
        values_arr = wp.array(values, dtype=wp.types.matrix((size, size), dtype), device=device)
    A = sparse.bsr_from_triplets(blocks, blocks, wp.array(rows, dtype=int, device=device),
                                 wp.array(cols, dtype=int, device=device), values_arr)
    return A, values.astype(np.float64), dense


@pytest.mark.parametrize("size", [1, 2])
@pytest.mark.parametrize("dtype", [wp.float32, wp.float64], ids=["f32", "f64"])
def test_bsr_operator_solves_match_numpy(device, size, dtype):
    rng = np.random.default_rng(size)
    blocks = 20
    A, _, dense = _block_diagonal_bsr(rng, blocks, size, dtype, device)
    dense = dense.astype(NP[dtype]).astype(np.float64)
    b_np = rng.uniform(-1, 1, blocks * size)
    vec = dtype if size == 1 else wp.types.vector(size, dtype)
    b = wp.array(b_np.astype(NP[dtype]).reshape(blocks, -1).squeeze(), dtype=vec, device=device)
    M = preconditioner(A, "diag")
    assert M.dtype == vec
    tol = 1e-5 if dtype == wp.float32 else 1e-10
    for solver in (cg, cr, bicgstab, gmres):
        for m in (None, M):
            x = wp.zeros_like(b)
            niter, err, atol = solver(A, b, x, tol=tol, maxiter=200, M=m)
            assert err <= atol and niter > 0
            x_np = x.numpy().reshape(-1).astype(np.float64)
            expected = np.linalg.solve(dense, b.numpy().reshape(-1).astype(np.float64))
            assert np.linalg.norm(x_np - expected) / np.linalg.norm(expected) < X_TOLERANCE[dtype]


def test_preconditioners():
    A_np = np.array([[2.0, 1.0, 0.0], [1.0, -4.0, 0.0], [0.0, 0.0, 0.0]])
    A = wp.array(A_np, dtype=wp.float64)
    x = wp.array([1.0, 1.0, 1.0], dtype=wp.float64)
    z = wp.zeros(3, dtype=wp.float64)
    preconditioner(A, "diag").matvec(x, z, z, 1.0, 0.0)
    np.testing.assert_allclose(z.numpy(), [0.5, -0.25, 1.0])
    preconditioner(A, "diag_abs").matvec(x, z, z, 1.0, 0.0)
    np.testing.assert_allclose(z.numpy(), [0.5, 0.25, 1.0])
    assert preconditioner(A, "id") is None
    with pytest.raises(ValueError, match=re.escape(
            "preconditioner(): unsupported preconditioner type 'ilu' (expected 'diag', "
            "'diag_abs' or 'id')")):
        preconditioner(A, "ilu")
    with pytest.raises(ValueError, match=re.escape(
            "preconditioner(): cannot build a diagonal preconditioner from array (expected a "
            "BsrMatrix or a 2-D array)")):
        preconditioner(x, "diag")
    rng = np.random.default_rng(3)
    B, values, dense = _block_diagonal_bsr(rng, 4, 3, wp.float64, "cpu")
    inverse = preconditioner(B, "diag_abs")
    y = wp.zeros(4, dtype=wp.vec3d)
    inverse.matvec(wp.array(np.ones((4, 3)), dtype=wp.vec3d), y, y, 2.0, 0.0)
    np.testing.assert_allclose(y.numpy().reshape(-1), 2.0 / np.abs(np.diag(dense)))


def test_operator_products():
    rng = np.random.default_rng(5)
    A_np = rng.standard_normal((7, 5))
    A = aslinearoperator(wp.array(A_np, dtype=wp.float64))
    assert A.shape == (7, 5) and A.dtype == wp.float64 and A.scalar_type == wp.float64
    assert A.batch_count == 1 and A.batch_offsets is None and A.max_batch_length is None
    x = wp.array(rng.standard_normal(5), dtype=wp.float64)
    y = wp.array(rng.standard_normal(7), dtype=wp.float64)
    z = wp.zeros(7, dtype=wp.float64)
    A.matvec(x, y, z, 2.0, -0.5)
    np.testing.assert_allclose(z.numpy(), 2.0 * A_np @ x.numpy() - 0.5 * y.numpy())
    A.matvec(x, z, z, 1.0, 0.0)  # beta = 0: z is not read
    np.testing.assert_allclose(z.numpy(), A_np @ x.numpy())
    d = aslinearoperator(wp.array([[1.0, 2.0], [3.0, 4.0]], dtype=wp.vec2d))
    v = wp.zeros(2, dtype=wp.vec2d)
    d.matvec(wp.array([[1.0, 1.0], [2.0, 2.0]], dtype=wp.vec2d), v, v, 1.0, 0.0)
    np.testing.assert_allclose(v.numpy(), [[1.0, 2.0], [6.0, 8.0]])
    assert aslinearoperator(A) is A and aslinearoperator(None) is None


def _batched_system(sizes, dtype, tail, seed=0):
    rng = np.random.default_rng(seed)
    total = sum(sizes) + tail
    A_np = np.zeros((total, total))
    start = 0
    for n in sizes:
        A_np[start:start + n, start:start + n] = _spd(rng, n)
        start += n
    A_np[start:, :] = rng.uniform(-1, 1, (tail, total))  # tail rows couple to everything
    b_np = rng.uniform(-1.0, 1.0, total)
    b_np[:4] *= 1e3  # batches have very different right-hand-side norms
    offsets = wp.array(np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32), dtype=int)
    A = aslinearoperator(wp.array(A_np, dtype=dtype), batch_offsets=offsets,
                         max_batch_length=max(sizes))
    return A, wp.array(b_np, dtype=dtype), A_np, b_np


@pytest.mark.parametrize("solver", [cg, cr, bicgstab, gmres], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [wp.float32, wp.float64], ids=["f32", "f64"])
def test_batched_solves_with_inactive_tail(solver, dtype):
    sizes = [6, 0, 9, 4]
    A, b, A_np, b_np = _batched_system(sizes, dtype, tail=3)
    assert A.batch_count == 4 and A.max_batch_length == 9
    initial = np.full(b_np.shape, 5.0)
    x = wp.array(initial, dtype=dtype)
    tol = 1e-5 if dtype == wp.float32 else 1e-10
    kwargs = {"restart": 9} if solver is gmres else {}
    niter, err, atol = solver(A, b, x, tol=tol, maxiter=100, check_every=1, **kwargs)
    assert err <= atol and niter > 0
    x_np = x.numpy().astype(np.float64)
    start = 0
    for n in sizes:
        sl = slice(start, start + n)
        if n:
            expected = np.linalg.solve(A_np[sl, sl], b_np[sl])
            error = np.linalg.norm(x_np[sl] - expected) / np.linalg.norm(expected)
            assert error < X_TOLERANCE[dtype]
        start += n
    np.testing.assert_array_equal(x_np[start:], initial[start:])  # the tail is untouched


def test_batches_stop_on_their_own_tolerance():
    """A batch that converges stops moving while the others go on."""
    d = wp.array([2.0, 4.0, 1.0, 3.0, 5.0, 7.0], dtype=wp.float64)
    offsets = wp.array([0, 2, 6], dtype=int)
    A = aslinearoperator(d, batch_offsets=offsets)
    b = wp.array([2.0, 4.0, 1.0, 1.0, 1.0, 1.0], dtype=wp.float64)
    x = wp.array([1.0, 1.0, 0.0, 0.0, 0.0, 0.0], dtype=wp.float64)  # batch 0 already solved
    niter, err, atol = cg(A, b, x, tol=1e-12, maxiter=10, check_every=1)
    assert err <= atol and niter >= 3
    np.testing.assert_array_equal(x.numpy()[:2], [1.0, 1.0])
    np.testing.assert_allclose(x.numpy()[2:], [1.0, 1 / 3, 1 / 5, 1 / 7], rtol=1e-10)


@pytest.mark.parametrize("solver", [cg, cr, bicgstab, gmres], ids=lambda f: f.__name__)
def test_device_checked_loop_returns_arrays(solver):
    A, b, A_np, b_np = _system("spd", 8, wp.float64, "cpu")
    x = wp.zeros_like(b)
    kwargs = {"restart": 4} if solver is gmres else {}
    niter, err_sq, atol_sq = solver(A, b, x, maxiter=40, tol=1e-10, check_every=0, **kwargs)
    assert isinstance(niter, wp.array) and niter.dtype == wp.int32
    # without conditional graphs every cycle up to maxiter runs (converged batches stay put)
    assert niter.numpy()[0] == 40
    assert err_sq.numpy()[0] <= atol_sq.numpy()[0]
    _check_solution(x, A_np, b_np, wp.float64)


def test_callbacks_see_every_check():
    A, b, _, _ = _system("spd", 10, wp.float64, "cpu")
    seen = []
    niter, err, atol = cg(A, b, wp.zeros_like(b), tol=1e-10, check_every=2,
                          callback=lambda i, e, t: seen.append((i, e, t)))
    assert seen[0][0] == 0 and seen[-1] == (niter, err, atol)
    assert all(i % 2 == 0 for i, _, _ in seen[:-1]) and all(t == atol for _, _, t in seen)
    seen.clear()
    niter, _, _ = gmres(A, b, wp.zeros_like(b), tol=1e-10, restart=3, check_every=1,
                        callback=lambda i, e, t: seen.append(i))
    assert seen[0] == 0 and seen[-1] == niter and all(i % 3 == 0 for i in seen)


def test_states_are_reusable_and_checked():
    A, b, A_np, b_np = _system("nonsymmetric", 10, wp.float64, "cpu")
    A2, b2, A2_np, b2_np = _system("nonsymmetric", 10, wp.float64, "cpu", seed=7)
    for state_type in (BiCGSTAB, GMRES):
        x = wp.zeros_like(b)
        state = state_type(A, b, x, tol=1e-10)
        state()
        _check_solution(x, A_np, b_np, wp.float64)
        x2 = wp.zeros_like(b2)
        state(A=A2, b=b2, x=x2)
        _check_solution(x2, A2_np, b2_np, wp.float64)
    state = CG(A, b, x, maxiter=5)
    with pytest.raises(ValueError, match=re.escape(
            "CG(): b.shape must be (10,) as at construction (got (4,))")):
        state(b=wp.zeros(4, dtype=wp.float64))
    with pytest.raises(ValueError, match=re.escape(
            "CG(): x.dtype must be float64 as at construction (got float32)")):
        state(x=wp.zeros(10, dtype=wp.float32))
    with pytest.raises(ValueError, match=re.escape(
            "CG(): A.shape must be (10, 10) as at construction (got (4, 4))")):
        state(A=wp.zeros((4, 4), dtype=wp.float64))
    with pytest.raises(ValueError, match=re.escape(
            "CG(): A.batch_offsets must be the array the solver was made with")):
        state(A=aslinearoperator(A, batch_offsets=wp.array([0, 10], dtype=int)))
    offsets = wp.array([0, 5, 10], dtype=int)
    batched = CR(aslinearoperator(A, offsets, 5), b, x)
    with pytest.raises(ValueError, match=re.escape(
            "CR(): A.max_batch_length must be 5 as at construction (got 6)")):
        batched(A=aslinearoperator(A, offsets, 6))
    plain = bicgstab(A, b, x, run=False)
    assert isinstance(plain, BiCGSTAB)
    with pytest.raises(ValueError, match=re.escape(
            "BiCGSTAB(): the solver was made without a preconditioner M, so every call must be "
            "without one too")):
        plain(M=preconditioner(A))
    with pytest.raises(ValueError, match=re.escape(
            "GMRES(): x and b must have the same shape and dtype (got (3,) float64 and (10,) "
            "float64)")):
        GMRES(A, b, wp.zeros(3, dtype=wp.float64))


def test_argument_errors():
    A, b, _, _ = _system("spd", 4, wp.float64, "cpu")
    x = wp.zeros_like(b)
    with pytest.raises(TypeError, match=re.escape(
            "CG(): restart must be an integer or None (got a bool)")):
        cg(A, b, x, restart=True)
    with pytest.raises(TypeError, match=re.escape(
            "CR(): restart must be an integer or None (got float)")):
        cr(A, b, x, restart=1.5)
    with pytest.raises(ValueError, match=re.escape("CG(): restart must be positive (got 0)")):
        cg(A, b, x, restart=0)
    with pytest.raises(ValueError, match=re.escape("GMRES(): restart must be positive (got 0)")):
        gmres(A, b, x, restart=0)
    assert isinstance(cg(A, b, x, run=False, restart=np.int64(2)), CG)
    with pytest.raises(ValueError, match=re.escape(
            "LinearOperator(): max_batch_length requires batch_offsets")):
        aslinearoperator(A, max_batch_length=3)
    with pytest.raises(ValueError, match=re.escape(
            "LinearOperator(): max_batch_length must be non-negative (got -1)")):
        aslinearoperator(A, batch_offsets=wp.array([0, 4], dtype=int), max_batch_length=-1)
    with pytest.raises(ValueError, match=re.escape(
            "LinearOperator(): batch_offsets must be a 1-D int32 array with at least one entry")):
        aslinearoperator(A, batch_offsets=wp.array([0.0, 4.0], dtype=float))
    with pytest.raises(ValueError, match=re.escape(
            "aslinearoperator(): cannot make a LinearOperator from list (expected a BsrMatrix, "
            "a 1-D or 2-D array, or a LinearOperator)")):
        aslinearoperator([[1.0]])
    with pytest.raises(TypeError, match=re.escape(
            "LinearSolverState(): use CG, CR, BiCGSTAB or GMRES (or cg, cr, bicgstab, gmres "
            "with run=False)")):
        linear.LinearSolverState(A, b, x)


def test_custom_operator():
    """A LinearOperator from a Python product (here the dense kernel under another name)."""
    A, b, A_np, b_np = _system("spd", 6, wp.float64, "cpu")
    dense = aslinearoperator(A)
    calls = []

    def matvec(x, y, z, alpha, beta):
        calls.append(1)
        dense.matvec(x, y, z, alpha, beta)

    op = LinearOperator((6, 6), wp.float64, A.device, matvec)
    x = wp.zeros_like(b)
    cg(op, b, x, tol=1e-10)
    assert calls
    _check_solution(x, A_np, b_np, wp.float64)


def test_tiled_dot_plans():
    rng = np.random.default_rng(11)
    values = rng.standard_normal((3, 2000))
    a = wp.array(values, dtype=wp.float64)
    chunked = TiledDot(2000, wp.float64, tile_size=8, max_column_count=4)
    assert chunked.rounds == 3  # 250, 32, 4, 1 blocks
    chunked.compute(a, a, col_offset=1)
    np.testing.assert_allclose(chunked.cols(3, 1).numpy()[:, 0], (values**2).sum(axis=1))
    sizes = [0, 1, 7, 8, 9, 70]
    offsets_np = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    offsets = wp.array(offsets_np, dtype=int)
    expected = [values[0, s:e] @ values[1, s:e] for s, e in zip(offsets_np, offsets_np[1:])]
    batched = TiledDot(2000, wp.float64, batch_offsets=offsets)
    assert batched.rounds == 0 and batched.batch_dot_launch is not None
    batched.compute(a[0], a[1])
    np.testing.assert_allclose(batched.col().numpy(), expected)
    # the segmented tree of CUDA, planned here on the CPU with chunks of 4
    segmented = TiledDot(2000, wp.float64, batch_offsets=offsets)
    segmented.batch_dot_launch, segmented.tile_size = None, 4
    segmented._plan_segments()
    counts = sizes
    for level in segmented.segmented_offsets[1:]:
        counts = [max(1, -(-c // 4)) for c in counts]
        np.testing.assert_array_equal(level.numpy(), np.concatenate([[0], np.cumsum(counts)]))
    segmented.compute(a[0], a[1])
    np.testing.assert_allclose(segmented.col().numpy(), expected)
    with pytest.raises(ValueError, match=re.escape(
            "TiledDot.compute(): the operands have different shapes ((1, 2000) and (1, 1999) "
            "scalars)")):
        batched.compute(a[0], a[1, 1:])
    with pytest.raises(ValueError, match=re.escape(
            "TiledDot(): max_batch_length requires batch_offsets")):
        TiledDot(10, wp.float32, max_batch_length=4)


def test_tolerances():
    assert loops.resolved_tolerances(wp.float64, None, None) == (1e-12, 1e-12)
    assert loops.resolved_tolerances(wp.float32, 1e-3, None) == (1e-3, 1e-3)
    assert loops.resolved_tolerances(wp.float32, None, 0.0) == (0.0, pytest.approx(1e-18))


def _kernels_with_types(s, v):
    a1, a2, a3 = (lambda t: wp.array(dtype=t)), (lambda t: wp.array2d(dtype=t)), \
        (lambda t: wp.array3d(dtype=t))
    ints = wp.array(dtype=int)
    plan, segment_dot, segment_sum = dots._create_segmented_tiled_dot_kernels(256)
    g = gmres_solver
    return [
        (dots._chunk_dot, [a2(s)] * 3 + [int]), (dots._chunk_sum, [a2(s), int, a2(s), int]),
        (dots._batch_dot, [a2(s)] * 3 + [ints]), (plan, None),
        (segment_dot, [a2(s)] * 3 + [ints, ints]), (segment_sum, [a2(s)] * 2 + [ints, ints]),
        (operators._dense_matvec, [a2(s), a1(s), a1(s), a1(s), s, s]),
        (operators._diagonal_matvec, [a1(s)] * 4 + [s, s]),
        (operators._invert_dense_diagonal, [a2(s), a1(s), int]),
        (operators._invert_block_diagonals, [a3(s), a2(s), int]),
        (loops._squared_tolerances, [s, s, a1(s), a1(s)]),
        (loops._advance_condition, [int, int, ints, a1(s), a1(s), ints]),
        (updates.cg_step, [a1(s)] * 4 + [a1(v)] * 4 + [ints, int]),
        (updates.cr_step, [a1(s)] * 4 + [a1(v)] * 6 + [ints, int]),
        (updates.cr_direction, [a1(s)] * 4 + [a1(v)] * 4 + [ints, int]),
        (updates.bicgstab_direction, [a1(s)] * 6 + [a1(v)] * 3 + [ints, int]),
        (g._normalize_into, [a1(v), a1(v), a1(s), ints, int]),
        (g._orthogonalize, [int, a2(v), a1(v), a3(s), ints, int]),
        (g._solve_least_squares, [int, s, a1(s), a3(s), a2(s)]),
        (g._combine_basis, [int, s, a2(s), a2(v), a1(v), ints, int]),
    ]


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("types", [(wp.float32, wp.float32), (wp.float64, wp.vec3d)],
                         ids=["f32", "f64_vec3d"])
def test_kernels_compile_for_cuda(types):
    for k, arg_types in _kernels_with_types(*types):
        specialised = k if arg_types is None else wp.overload(k, arg_types)
        ok, log = _treadle.check_cuda_compile(specialised._function_source(), 90, block_dim=256)
        assert ok, f"{k.key}: {log}"
