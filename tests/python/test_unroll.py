"""Static unrolling of constant range loops (Warp's rule: at most 16 trips, no break/continue)."""

import numpy as np

import treadle as wp

N_SMALL = 3


@wp.kernel
def unrolled(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    for j in range(N_SMALL):
        for k in range(4, 0, -2):
            s += m[i, j] * float(k)
        last = j
    out[i] = s + float(last) * 1000.0


@wp.kernel
def dynamic(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    for j in range(17):
        s += m[i, j % 3]
    for j in range(3):
        if j == 2:
            break
        s += 100.0
    out[i] = s


@wp.kernel
def early_exit(out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = -1
    for j in range(8):
        if j == i:
            out[i] = j * 10
            return


def test_unrolled_loops_compute_the_same(device):
    mv = np.random.default_rng(7).standard_normal((5, 3)).astype(np.float32)
    m = wp.array(mv, device=device)
    out = wp.zeros(5, dtype=wp.float32, device=device)
    wp.launch(unrolled, dim=5, inputs=[m, out], device=device)
    np.testing.assert_allclose(out.numpy(), mv.sum(1) * 6.0 + 2000.0, rtol=1e-5)
    wp.launch(dynamic, dim=5, inputs=[m, out], device=device)
    expected = mv[:, [j % 3 for j in range(17)]].sum(1) + 200.0
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5)
    r = wp.zeros(10, dtype=wp.int32, device=device)
    wp.launch(early_exit, dim=10, inputs=[r], device=device)
    np.testing.assert_array_equal(r.numpy(), [0, 10, 20, 30, 40, 50, 60, 70, -1, -1])


def test_which_loops_are_unrolled():
    # the CPU entry point has one loop over the launch range; kernel loops come on top
    assert unrolled._compile("cpu").source.count("for (") == 1
    source = dynamic._compile("cpu").source
    assert source.count("for (") == 3  # 17 trips, and a loop with break, stay loops
