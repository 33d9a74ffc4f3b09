"""treadle.sparse (Warp's warp.sparse): BSR matrices built, copied, transposed, added and
multiplied, compared with dense numpy; padded and masked topologies; gradients through the
value kernels; the exact error messages."""

import re

import numpy as np
import pytest

import treadle as wp
import treadle.sparse as sp

SHAPES = [(1, 1), (2, 3), (3, 3)]
SCALARS = [wp.float32, wp.float64]


def block_type(shape, scalar):
    return scalar if shape == (1, 1) else wp.types.matrix(shape=shape, dtype=scalar)


def dense(m):
    """The dense numpy matrix of the active blocks of ``m`` (duplicates added)."""
    br, bc = m.block_shape
    out = np.zeros(m.shape)
    offsets = m.offsets.numpy()
    counts = None if m.row_counts is None else m.row_counts.numpy()
    columns = m.columns.numpy()
    values = m.values.numpy().reshape(-1, br, bc)
    for row in range(m.nrow):
        end = offsets[row + 1] if counts is None else offsets[row] + counts[row]
        for b in range(offsets[row], end):
            c = columns[b]
            out[row * br:(row + 1) * br, c * bc:(c + 1) * bc] += values[b]
    return out


def triplets_dense(shape, block, rows, cols, values):
    out = np.zeros((shape[0] * block[0], shape[1] * block[1]))
    for r, c, v in zip(rows, cols, values):
        if 0 <= r < shape[0] and 0 <= c < shape[1]:
            out[r * block[0]:(r + 1) * block[0], c * block[1]:(c + 1) * block[1]] += v
    return out


def random_matrix(rng, nrow, ncol, shape, scalar, device, n=12):
    rows = rng.integers(0, nrow, size=n)
    cols = rng.integers(0, ncol, size=n)
    values = rng.random(size=(n, *shape))
    m = sp.bsr_from_triplets(nrow, ncol, wp.array(rows, dtype=int, device=device),
                             wp.array(cols, dtype=int, device=device),
                             wp.array(values, dtype=scalar, device=device))
    return m, triplets_dense((nrow, ncol), shape, rows, cols, values)


def active_columns(m):
    offsets, columns = m.offsets.numpy(), m.columns.numpy()
    counts = None if m.row_counts is None else m.row_counts.numpy()
    ends = [offsets[r + 1] if counts is None else offsets[r] + counts[r] for r in range(m.nrow)]
    return [list(columns[offsets[r]:ends[r]]) for r in range(m.nrow)]


def tolerance(scalar):
    return 1e-5 if scalar is wp.float32 else 1e-12


# --- construction ------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scalar", SCALARS)
def test_from_triplets_sums_duplicates_and_sorts(device, shape, scalar):
    rng = np.random.default_rng(1)
    m, want = random_matrix(rng, 4, 5, shape, scalar, device, n=40)
    assert m.nnz == 40  # a bound until nnz_sync
    nnz = m.nnz_sync()
    assert nnz <= 20 and m.block_shape == shape and m.scalar_type is scalar
    assert m.row_counts is None
    for row in active_columns(m):
        assert row == sorted(set(row))
    np.testing.assert_allclose(dense(m), want, atol=tolerance(scalar))
    rows = m.uncompress_rows().numpy()
    assert list(rows[:nnz]) == sorted(rows[:nnz]) and (rows[nnz:] == -1).all()


def test_from_triplets_prunes_ignores_and_counts(device):
    rows = wp.array([0, 1, 5, -1, 1, 0], dtype=int, device=device)
    cols = wp.array([0, 1, 0, 0, 1, 2], dtype=int, device=device)
    values = wp.array([1.0, 0.0, 3.0, 4.0, 2.0, 0.0], dtype=float, device=device)
    m = sp.bsr_from_triplets(2, 3, rows, cols, values)
    assert m.nnz_sync() == 2 and active_columns(m) == [[0], [1]]
    kept = sp.bsr_from_triplets(2, 3, rows, cols, values, prune_numerical_zeros=False)
    assert active_columns(kept) == [[0, 2], [1]]
    np.testing.assert_allclose(dense(kept), [[1, 0, 0], [0, 2, 0]])
    limited = sp.bsr_zeros(2, 3, float, device=device)
    sp.bsr_set_from_triplets(limited, rows, cols, values,
                             count=wp.array([2], dtype=int, device=device))
    assert active_columns(limited) == [[0], []]
    topology = sp.bsr_zeros(2, 3, float, device=device)
    sp.bsr_set_from_triplets(topology, rows, cols)
    assert active_columns(topology) == [[0, 2], [1]]


def test_from_triplets_masked_keeps_topology(device):
    m = sp.bsr_diag(wp.array([1.0, 1.0, 1.0], dtype=float, device=device))
    rows = wp.array([0, 0, 2, 2, 1], dtype=int, device=device)
    cols = wp.array([0, 1, 2, 2, 2], dtype=int, device=device)
    values = wp.array([5.0, 6.0, 1.0, 2.0, 7.0], dtype=float, device=device)
    sp.bsr_set_from_triplets(m, rows, cols, values, topology="masked")
    np.testing.assert_allclose(dense(m), np.diag([5.0, 0.0, 3.0]))
    with pytest.warns(DeprecationWarning):
        sp.bsr_set_from_triplets(m, rows, cols, values, masked=True)


def test_zeros_padded_capacity_and_overflow(device):
    m = sp.bsr_zeros(3, 4, float, device=device, row_capacity=2)
    np.testing.assert_array_equal(m.offsets.numpy(), [0, 2, 4, 6])
    assert m.nnz == 6 and list(m.row_counts.numpy()) == [0, 0, 0]
    rows = wp.array([2, 0, 2, 0], dtype=int, device=device)
    cols = wp.array([3, 1, 0, 1], dtype=int, device=device)
    values = wp.array([1.0, 2.0, 3.0, 4.0], dtype=float, device=device)
    sp.bsr_set_from_triplets(m, rows, cols, values, topology="padded")
    assert active_columns(m) == [[1], [], [0, 3]]
    np.testing.assert_allclose(dense(m)[0], [0, 6, 0, 0])
    assert m.status_sync() == sp.BSR_STATUS_SUCCESS and m.status_message() == "success"
    small = sp.bsr_zeros(3, 4, float, device=device,
                         row_capacity=wp.array([1, 0, 1], dtype=int, device=device))
    assert small.nnz_sync() == 2
    sp.bsr_set_from_triplets(small, rows, cols, values, topology="padded")
    assert small.status_sync() == sp.BSR_STATUS_ROW_CAPACITY_EXCEEDED
    assert small.status_message() == "row capacity exceeded"
    assert active_columns(small) == [[1], [], []]
    small.clear_status()
    assert small.status_sync() == sp.BSR_STATUS_SUCCESS
    sp.bsr_set_zero(m, topology="padded")
    assert m.nnz == 6 and active_columns(m) == [[], [], []]
    sp.bsr_set_zero(m)
    assert m.nnz == 0 and m.row_counts is None and m.nnz_sync() == 0


def test_notify_nnz_changed(device):
    m = sp.bsr_zeros(3, 4, float, device=device)
    m.notify_nnz_changed(10)
    assert m.nnz == 10 and m.columns.size >= 10 and m.nnz_sync() == 0
    m.offsets.assign(wp.array([0, 1, 1, 3], dtype=int, device=device))
    m.notify_nnz_changed()
    assert m.nnz == 3


# --- copies, transposes, diagonals -------------------------------------------------------------


@pytest.mark.parametrize("src_shape,dest_shape", [((2, 2), (1, 1)), ((2, 2), (4, 2)),
                                                  ((4, 2), (2, 2)), ((1, 2), (4, 4))])
def test_copy_reblocks_and_casts(device, src_shape, dest_shape):
    rng = np.random.default_rng(2)
    m, want = random_matrix(rng, 8, 4, src_shape, wp.float32, device)
    copied = sp.bsr_copy(m, scalar_type=wp.float64, block_shape=dest_shape)
    assert copied.block_shape == dest_shape and copied.scalar_type is wp.float64
    np.testing.assert_allclose(dense(copied), want, atol=1e-6)
    padded = sp.bsr_copy(2.0 * m, block_shape=dest_shape, topology="padded")
    assert padded.row_counts is not None
    np.testing.assert_allclose(dense(padded), 2.0 * want, atol=1e-5)


def test_copy_masked_assign_and_structure(device):
    rng = np.random.default_rng(3)
    m, want = random_matrix(rng, 4, 4, (1, 1), wp.float32, device, n=16)
    diag = sp.bsr_diag(rows_of_blocks=4, block_type=wp.float32, device=device)
    sp.bsr_assign(diag, m, topology="masked")
    np.testing.assert_allclose(dense(diag), np.diag(np.diag(want)), atol=1e-6)
    structure = sp.bsr_copy(m, structure_only=True)
    assert active_columns(structure) == active_columns(m)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scalar", SCALARS)
def test_transpose(device, shape, scalar):
    rng = np.random.default_rng(4)
    m, want = random_matrix(rng, 4, 5, shape, scalar, device)
    t = sp.bsr_transposed(m)
    assert t.block_shape == shape[::-1] and (t.nrow, t.ncol) == (5, 4)
    np.testing.assert_allclose(dense(t), want.T, atol=tolerance(scalar))
    np.testing.assert_allclose(dense((3.0 * m).transpose().eval()), 3.0 * want.T,
                               atol=10 * tolerance(scalar))
    masked = sp.bsr_copy(t)
    sp.bsr_set_transpose(masked, 2.0 * m, topology="masked")
    np.testing.assert_allclose(dense(masked), 2.0 * want.T, atol=10 * tolerance(scalar))
    padded = sp.bsr_zeros(5, 4, t.values.dtype, device=device, row_capacity=4)
    sp.bsr_set_transpose(padded, m, topology="padded")
    np.testing.assert_allclose(dense(padded), want.T, atol=tolerance(scalar))


def test_diagonals(device):
    values = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    m = sp.bsr_diag(wp.array(values, dtype=wp.mat22, device=device))
    np.testing.assert_allclose(sp.bsr_get_diag(m).numpy(), values)
    np.testing.assert_allclose(sp.bsr_get_diag(-m).numpy(), -values)
    uniform = sp.bsr_diag(wp.mat22(1.0, 2.0, 3.0, 4.0), rows_of_blocks=2, cols_of_blocks=3)
    np.testing.assert_allclose(dense(uniform)[:, :4], np.kron(np.eye(2), [[1, 2], [3, 4]]))
    identity = sp.bsr_identity(3, wp.mat33d, device=device)
    np.testing.assert_allclose(dense(identity), np.eye(9))
    sp.bsr_set_identity(identity, rows_of_blocks=2)
    assert identity.nrow == 2 and identity.nnz_sync() == 2


# --- sums, products ----------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scalar", SCALARS)
def test_axpy(device, shape, scalar):
    rng = np.random.default_rng(5)
    x, dx = random_matrix(rng, 3, 4, shape, scalar, device)
    y, dy = random_matrix(rng, 3, 4, shape, scalar, device)
    work = sp.bsr_axpy_work_arrays()
    for alpha, beta in ((2.0, -1.0), (0.0, 3.0), (1.5, 0.0)):
        want = alpha * dx + beta * dy
        sp.bsr_axpy(x, y, alpha, beta, work_arrays=work)
        np.testing.assert_allclose(dense(y), want, atol=10 * tolerance(scalar))
        dy = want
    np.testing.assert_allclose(dense(x + y), dx + dy, atol=10 * tolerance(scalar))
    np.testing.assert_allclose(dense(2.0 * x - y), 2.0 * dx - dy, atol=10 * tolerance(scalar))
    y += y * 2.0
    np.testing.assert_allclose(dense(y), 3.0 * dy, atol=10 * tolerance(scalar))
    mask = sp.bsr_diag(rows_of_blocks=3, cols_of_blocks=4, block_type=y.values.dtype,
                       device=device)
    sp.bsr_set_zero(mask, topology="masked")
    sp.bsr_axpy(x, mask, alpha=-1.0, topology="masked")
    np.testing.assert_allclose(dense(mask), -dx * np.kron(np.eye(3, 4), np.ones(shape)),
                               atol=10 * tolerance(scalar))
    padded = sp.bsr_zeros(3, 4, y.values.dtype, device=device, row_capacity=4)
    sp.bsr_axpy(x, padded, topology="padded")
    sp.bsr_axpy(x, padded, alpha=1.0, beta=2.0, topology="padded")
    np.testing.assert_allclose(dense(padded), 3.0 * dx, atol=10 * tolerance(scalar))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scalar", SCALARS)
def test_mm(device, shape, scalar):
    rng = np.random.default_rng(6)
    x, dx = random_matrix(rng, 3, 4, shape, scalar, device)
    y, dy = random_matrix(rng, 4, 2, shape[::-1], scalar, device)
    z, dz = random_matrix(rng, 3, 2, (shape[0], shape[0]), scalar, device)
    tol = 100 * tolerance(scalar)
    work = sp.bsr_mm_work_arrays()
    for alpha, beta in ((1.0, 2.0), (-1.0, 0.0)):
        want = alpha * dx @ dy + beta * dz
        sp.bsr_mm(x, y, z, alpha, beta, work_arrays=work)
        np.testing.assert_allclose(dense(z), want, atol=tol)
        dz = want
    sp.bsr_mm(x, y, z, 3.0, 0.0, work_arrays=work, reuse_topology=True)
    np.testing.assert_allclose(dense(z), 3.0 * dx @ dy, atol=tol)
    np.testing.assert_allclose(dense(x @ (2.0 * y)), 2.0 * dx @ dy, atol=tol)
    square = sp.bsr_mm(x, sp.bsr_transposed(x))
    d_square = dx @ dx.T
    sp.bsr_mm(square, square, square, 1.0, 1.0)  # every operand is the result
    np.testing.assert_allclose(dense(square), d_square @ d_square + d_square, atol=10 * tol)
    mask = sp.bsr_diag(rows_of_blocks=3, cols_of_blocks=2, block_type=z.values.dtype,
                       device=device)
    sp.bsr_mm(x, y, mask, topology="masked")
    np.testing.assert_allclose(dense(mask), (dx @ dy) * np.kron(np.eye(3, 2), np.ones(
        (shape[0], shape[0]))), atol=tol)
    padded = sp.bsr_zeros(3, 2, z.values.dtype, device=device, row_capacity=2)
    sp.bsr_mm(x, y, padded, topology="padded")
    np.testing.assert_allclose(dense(padded), dx @ dy, atol=tol)


def test_mm_deep_rows_and_max_new_nnz(device):
    rng = np.random.default_rng(7)
    x, dx = random_matrix(rng, 2, 60, (2, 2), wp.float64, device, n=200)
    xt = sp.bsr_transposed(x)
    np.testing.assert_allclose(dense(sp.bsr_mm(x, xt)), dx @ dx.T, atol=1e-10)
    np.testing.assert_allclose(dense(sp.bsr_mm(xt, x)), dx.T @ dx, atol=1e-10)
    bounded = sp.bsr_mm(x, xt, max_new_nnz=4)
    assert bounded.nnz == 4
    np.testing.assert_allclose(dense(bounded), dx @ dx.T, atol=1e-10)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("scalar", SCALARS)
def test_mv(device, shape, scalar):
    rng = np.random.default_rng(8)
    a, da = random_matrix(rng, 3, 4, shape, scalar, device)
    vx = scalar if shape[1] == 1 else wp.types.vector(length=shape[1], dtype=scalar)
    vy = scalar if shape[0] == 1 else wp.types.vector(length=shape[0], dtype=scalar)
    x_np, y_np = rng.random(4 * shape[1]), rng.random(3 * shape[0])
    x = wp.array(x_np.reshape(4, -1).squeeze(-1) if shape[1] == 1 else x_np.reshape(4, -1),
                 dtype=vx, device=device)
    y = wp.array(y_np.reshape(3, -1).squeeze(-1) if shape[0] == 1 else y_np.reshape(3, -1),
                 dtype=vy, device=device)
    tol = 10 * tolerance(scalar)
    sp.bsr_mv(a, x, y, alpha=2.0, beta=-1.0)
    np.testing.assert_allclose(y.numpy().ravel(), 2.0 * da @ x_np - y_np, atol=tol)
    np.testing.assert_allclose((a @ x).numpy().ravel(), da @ x_np, atol=tol)
    np.testing.assert_allclose((y @ (3.0 * a)).numpy().ravel(), 3.0 * y.numpy().ravel() @ da,
                               atol=tol)
    flat = wp.array(x_np, dtype=scalar, device=device)  # any layout with the right scalar count
    np.testing.assert_allclose(sp.bsr_mv(a, flat).numpy().ravel(), da @ x_np, atol=tol)
    square = sp.bsr_mm(a, sp.bsr_transposed(a))
    before = y.numpy().ravel().copy()
    sp.bsr_mv(square, y, y, alpha=1.0, beta=1.0)  # x and y alias
    np.testing.assert_allclose(y.numpy().ravel(), dense(square) @ before + before, atol=10 * tol)


def test_padded_rows_in_products(device):
    a = sp.bsr_zeros(2, 3, float, device=device, row_capacity=3)
    sp.bsr_set_from_triplets(a, wp.array([0, 0, 1, 1], dtype=int, device=device),
                             wp.array([0, 2, 1, 2], dtype=int, device=device),
                             wp.array([1.0, 2.0, 3.0, 4.0], dtype=float, device=device),
                             topology="padded")
    np.testing.assert_array_equal(a.uncompress_rows().numpy(), [0, 0, -1, 1, 1, -1])
    want = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]])
    x = wp.array([5.0, 7.0, 11.0], dtype=float, device=device)
    np.testing.assert_allclose(sp.bsr_mv(a, x).numpy(), want @ [5, 7, 11])
    np.testing.assert_allclose(dense(sp.bsr_mm(a, sp.bsr_transposed(a))), want @ want.T)
    np.testing.assert_allclose(sp.bsr_get_diag(a).numpy(), [1.0, 3.0])
    np.testing.assert_allclose(dense(a + a), 2 * want)


def test_compress(device):
    m = sp.bsr_zeros(2, 3, float, device=device, row_capacity=wp.array([4, 3], dtype=int,
                                                                       device=device))
    m.row_counts = wp.array([4, 2], dtype=int, device=device)
    m.columns = wp.array([2, 0, 2, 1, 1, 2, 0], dtype=int, device=device)
    m.values = wp.array([5.0, 2.0, -1.0, 0.0, 4.0, 8.0, 9.0], dtype=float, device=device)
    padded = sp.bsr_copy(m, topology="padded")
    sp.bsr_compress(m)
    assert m.row_counts is None and m.nnz_sync() == 4 and active_columns(m) == [[0, 2], [1, 2]]
    np.testing.assert_allclose(dense(m), [[2, 0, 4], [0, 4, 8]])
    sp.bsr_compress(padded, prune_numerical_zeros=False, topology="padded")
    np.testing.assert_array_equal(padded.offsets.numpy(), [0, 4, 7])
    assert active_columns(padded) == [[0, 1, 2], [1, 2]]
    np.testing.assert_allclose(dense(padded), [[2, 0, 4], [0, 4, 8]])


def test_half_precision_blocks(device):
    m = sp.bsr_from_triplets(2, 2, wp.array([0, 1, 1], dtype=int, device=device),
                             wp.array([1, 0, 0], dtype=int, device=device),
                             wp.array([1.0, 2.0, 0.5], dtype=wp.float16, device=device))
    np.testing.assert_allclose(dense(m), [[0, 1], [2.5, 0]])
    x = wp.array([1.0, 2.0], dtype=wp.float16, device=device)
    np.testing.assert_allclose(sp.bsr_mv(m, x).numpy(), [2.0, 2.5])


# --- gradients ---------------------------------------------------------------------------------


def test_gradients_through_value_kernels(device):
    rows = wp.array([1, 0, 0, 1], dtype=int, device=device)
    cols = wp.array([0, 1, 0, 0], dtype=int, device=device)
    values = wp.array(np.arange(4.0) + 1.0, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        a = sp.bsr_from_triplets(2, 2, rows, cols, values)
        b = sp.bsr_copy(a, scalar_type=wp.float64)
        c = sp.bsr_transposed(a)
        sp.bsr_axpy(a, c, alpha=2.0, beta=1.0)
        padded = sp.bsr_zeros(2, 2, float, device=device, row_capacity=2)
        padded.values.requires_grad = True
        sp.bsr_set_from_triplets(padded, rows, cols, values, topology="padded")
    assert b.requires_grad and c.requires_grad
    c.values.grad.fill_(1.0)
    tape.backward()
    np.testing.assert_allclose(values.grad.numpy(), [3.0, 3.0, 3.0, 3.0])
    tape.zero()
    c.values.grad[0:1].fill_(1.0)  # block (0, 0) of c = 2 a[0, 0] + a[0, 0]: triplet 2
    tape.backward()
    np.testing.assert_allclose(values.grad.numpy(), [0.0, 0.0, 3.0, 0.0])
    tape.zero()
    padded.values.grad[2:3].fill_(1.0)  # row 1's first block: triplets 0 and 3
    tape.backward()
    np.testing.assert_allclose(values.grad.numpy(), [1.0, 0.0, 0.0, 1.0])


# --- kernels and errors ------------------------------------------------------------------------


@wp.kernel
def _read_matrix(a: sp.bsr_matrix_t(wp.mat22), out: wp.array(dtype=float)):
    b = wp.tid()
    out[b] = a.values[b][0, 1] + float(a.columns[b] + a.nrow)


def test_matrix_struct_in_kernels(device):
    values = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    m = sp.bsr_diag(wp.array(values, dtype=wp.mat22, device=device))
    out = wp.zeros(3, dtype=float, device=device)
    wp.launch(_read_matrix, dim=3, inputs=[m, out], device=device)
    np.testing.assert_allclose(out.numpy(), values[:, 0, 1] + np.arange(3) + 3)
    assert isinstance(m, sp.BsrMatrix) and type(m) is sp.bsr_matrix_t(wp.mat22)


def _message(error):
    return "^" + re.escape(error) + "$"


def test_error_messages(device):
    m = sp.bsr_zeros(2, 2, wp.mat22, device=device)
    floats = wp.zeros(3, dtype=float, device=device)
    with pytest.raises(TypeError, match=_message(
            "bsr_set_from_triplets(): Rows and columns arrays must be of type int32")):
        sp.bsr_set_from_triplets(m, floats, floats)
    with pytest.raises(ValueError, match=_message(
            "bsr_matrix_t(): BsrMatrix block type must be either warp matrix or scalar "
            "(got vec3f)")):
        sp.bsr_zeros(2, 2, wp.vec3)
    with pytest.raises(ValueError, match=_message(
            "bsr_zeros(): Unsupported topology policy 'dense' (expected 'compact' or "
            "'padded')")):
        sp.bsr_zeros(2, 2, float, topology="dense")
    with pytest.raises(ValueError, match=_message(
            "bsr_copy(): Incompatible dest and src block shapes; block rows must evenly divide "
            "one another (got 3 and 2)")):
        sp.bsr_copy(m, block_shape=(3, 2))
    with pytest.raises(ValueError, match=_message(
            "bsr_copy(): The requested block shape (8, 8) does not evenly divide the source "
            "matrix of total size (4, 4)")):
        sp.bsr_copy(m, block_shape=(8, 8))
    with pytest.raises(ValueError, match=_message(
            "bsr_set_transpose(): Destination block shape must be (2, 2), got (1, 1)")):
        sp.bsr_set_transpose(sp.bsr_zeros(2, 2, float, device=device), m)
    other = sp.bsr_identity(3, wp.mat22, device=device)
    with pytest.raises(ValueError, match=_message(
            "bsr_axpy(): Matrices must have the same number of rows and columns (got (3, 3) "
            "and (2, 2))")):
        sp.bsr_axpy(other, sp.bsr_identity(2, wp.mat22, device=device))
    with pytest.raises(ValueError, match=_message(
            "bsr_mm(): Incompatible number of rows/columns for matrix multiplication (got "
            "(3, 3), (2, 2) and (3, 2))")):
        sp.bsr_mm(other, sp.bsr_identity(2, wp.mat22, device=device))
    with pytest.raises(ValueError, match=re.escape(
            "bsr_mm(): Incompatible block sizes for matrix multiplication (got (2, 2), (1, 1) "
            "and (2, 1))")):
        sp.bsr_mm(other, sp.bsr_identity(3, float, device=device))
    with pytest.raises(ValueError, match=_message(
            "bsr_mv(): Incompatible 'x' vector (expected 6 scalars, got 3)")):
        sp.bsr_mv(other, floats)
    with pytest.raises(ValueError, match=_message(
            "bsr_compress(): requires a concrete BsrMatrix (got BsrScalingExpression)")):
        sp.bsr_compress(2.0 * other)
