"""Public calls from several Python threads at once: the first launch of one kernel from every
thread, kernels built per thread, tapes, reductions, scoped devices and a kernel-cache clear
while others compile -- every result right, no error (the rule is in the README, 'Threads')."""

import threading

import numpy as np

import treadle as wp


@wp.kernel
def scale_shift(a: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = a[i] * s + float(i)


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


def kernel_for(n):
    @wp.kernel
    def fill(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = float(i * n)

    return fill


def run_threads(target, count):
    errors = []
    barrier = threading.Barrier(count)

    def body(t):
        try:
            barrier.wait()
            target(t)
        except Exception as e:  # noqa: BLE001 -- reported below with its thread
            errors.append(f"thread {t}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=body, args=(t,)) for t in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, "\n".join(errors)


def test_concurrent_launches_builds_and_tapes(device):
    def work(t):
        with wp.ScopedDevice(device):
            for rep in range(2):
                a = wp.ones(1000, dtype=float)
                wp.launch(scale_shift, dim=1000, inputs=[a, 2.0])
                np.testing.assert_array_equal(a.numpy(), 2.0 + np.arange(1000))
                assert wp.utils.array_sum(a) == 2.0 * 1000 + 999 * 1000 / 2
                n = 10 * t + rep
                b = wp.zeros(16, dtype=float)
                wp.launch(kernel_for(n), dim=16, inputs=[b])
                np.testing.assert_array_equal(b.numpy(), np.arange(16) * n)
                x = wp.array(np.arange(5, dtype=np.float32) + t, dtype=float, requires_grad=True)
                y = wp.zeros(5, dtype=float, requires_grad=True)
                tape = wp.Tape()
                with tape:
                    wp.launch(square, dim=5, inputs=[x, y])
                assert len(tape.launches) == 1  # only this thread's launch
                tape.backward(grads={y: wp.ones(5, dtype=float)})
                np.testing.assert_allclose(x.grad.numpy(), 2 * (np.arange(5) + t))
                assert wp.get_device() == wp.get_device(device)

    run_threads(work, 3)


def test_cache_clear_while_other_threads_compile():
    def work(t):
        if t == 0:
            for _ in range(5):
                wp.clear_kernel_cache()
            return
        n = 1000 + t
        b = wp.zeros(8, dtype=float, device="cpu")
        wp.launch(kernel_for(n), dim=8, inputs=[b], device="cpu")
        np.testing.assert_array_equal(b.numpy(), np.arange(8) * n)

    run_threads(work, 3)
