"""atomic_exch and atomic_cas on every device: exchanges, a CAS-loop counter, 2-D indices."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def exchange_f32(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.atomic_exch(a, 0, float(i + 1))


@wp.kernel
def exchange_i64(a: wp.array(dtype=wp.int64), out: wp.array(dtype=wp.int64)):
    i = wp.tid()
    out[i] = wp.atomic_exch(a, 0, wp.int64(i + 1))


@pytest.mark.parametrize("kernel,dtype", [(exchange_f32, wp.float32), (exchange_i64, wp.int64)])
def test_exchange_hands_every_value_on_once(device, kernel, dtype):
    n = 1000
    a = wp.zeros(1, dtype=dtype, device=device)
    out = wp.zeros(n, dtype=dtype, device=device)
    wp.launch(kernel, n, inputs=[a, out], device=device)
    seen = sorted(np.concatenate([out.numpy(), a.numpy()]).tolist())
    assert seen == list(range(n + 1))


@wp.kernel
def cas_counter(counter: wp.array(dtype=wp.int32), grid: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    while True:
        old = counter[0]
        if wp.atomic_cas(counter, 0, old, old + 1) == old:
            break
    # claim a cell of the grid once: only the first thread to find it empty succeeds
    wp.atomic_cas(grid, i % 4, i % 3, wp.uint32(0), wp.uint32(i + 1))


@wp.kernel
def cas_float(a: wp.array(dtype=wp.float64), hits: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if wp.atomic_cas(a, 0, wp.float64(1.5), wp.float64(2.5)) == wp.float64(1.5):
        wp.atomic_add(hits, 0, 1)


def test_compare_and_swap(device):
    n = 500
    counter = wp.zeros(1, dtype=wp.int32, device=device)
    grid = wp.zeros((4, 3), dtype=wp.uint32, device=device)
    wp.launch(cas_counter, n, inputs=[counter, grid], device=device)
    assert counter.numpy()[0] == n
    g = grid.numpy()
    for r in range(4):
        for c in range(3):
            if g[r, c]:
                i = int(g[r, c]) - 1
                assert i % 4 == r and i % 3 == c
    assert np.count_nonzero(g) == 12
    a = wp.array(np.array([1.5]), dtype=wp.float64, device=device)
    hits = wp.zeros(1, dtype=wp.int32, device=device)
    wp.launch(cas_float, 64, inputs=[a, hits], device=device)
    assert a.numpy()[0] == 2.5 and hits.numpy()[0] == 1


def test_exchange_and_cas_errors():
    @wp.kernel
    def cas_half(a: wp.array(dtype=wp.float16)):
        wp.atomic_cas(a, 0, wp.float16(0.0), wp.float16(1.0))

    with pytest.raises(TypeError, match=r"atomic_cas\(\): takes arrays of 4- or 8-byte scalars, not float16"):
        wp.launch(cas_half, 1, inputs=[wp.zeros(1, dtype=wp.float16)], device="cpu")

    @wp.kernel
    def cas_missing(a: wp.array(dtype=int)):
        wp.atomic_cas(a, 0, 1)

    with pytest.raises(TypeError, match=r"atomic_cas\(\): takes an array, its indices and a compare value and a value"):
        wp.launch(cas_missing, 1, inputs=[wp.zeros(1, dtype=int)], device="cpu")


@wp.kernel
def exch_grad(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_exch(y, i, x[i] * 3.0)


def test_exchange_gradient_is_a_store(device):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(exch_grad, 2, inputs=[x, y], device=device)
    tape.backward(grads={y: wp.array(np.array([1.0, 10.0]), dtype=wp.float64, device=device)})
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 30.0])


@wp.kernel
def cas_store(a: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64)):
    wp.atomic_cas(a, 0, wp.float64(1.5), v[0])


def test_cas_on_floats_has_no_gradient(device):
    x = wp.array(np.array([1.5]), dtype=wp.float64, device=device, requires_grad=True)
    v = wp.array(np.array([2.5]), dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cas_store, 1, inputs=[x, v], device=device)
    with pytest.raises(Exception, match=r"cas_store\(\): cannot differentiate atomic_cas on an array of floats"):
        tape.backward(grads={x: wp.array(np.ones(1), dtype=wp.float64, device=device)})
