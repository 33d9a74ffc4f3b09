"""Sorts inside CUDA graph captures: the scratch memory of wp.utils.radix_sort_pairs comes from
a per-stream buffer allocated outside the graph, so sorts work inside conditional bodies (which
cannot allocate), graphs keep their buffers when later sorts grow them, and a buffer allocated
during a capture is freed with its graph. Runs on CUDA devices only."""

import gc

import numpy as np
import pytest

import treadle as wp
from treadle._src.context import runtime

CUDA = wp.is_cuda_available()
pytestmark = pytest.mark.skipif(not CUDA, reason="needs a CUDA device")
DEVICE = "cuda:0"


def make(n, seed):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 1 << 30, n, dtype=np.int32)
    values = np.arange(n, dtype=np.int32)
    k = wp.zeros(2 * n, dtype=wp.int32, device=DEVICE)
    v = wp.zeros(2 * n, dtype=wp.int32, device=DEVICE)
    return keys, values, k, v


def upload(keys, values, k, v):
    n = keys.size
    k[:n].assign(keys)
    v[:n].assign(values)


def check(keys, values, k, v):
    n = keys.size
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(k.numpy()[:n], keys[order])
    np.testing.assert_array_equal(v.numpy()[:n], values[order])


@wp.kernel
def count_down(c: wp.array(dtype=wp.int32)):
    c[0] = c[0] - 1


def test_sort_in_a_while_body():
    if not wp.is_conditional_graph_supported():
        pytest.skip("no conditional graph nodes here")
    keys, values, k, v = make(50000, 1)
    counter = wp.zeros(1, dtype=wp.int32, device=DEVICE)
    wp.load_module(device=DEVICE)

    def body():
        wp.utils.radix_sort_pairs(k, v, keys.size)
        wp.launch(count_down, dim=1, inputs=[counter], device=DEVICE)

    with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
        counter.fill_(1)
        wp.capture_while(counter, while_body=body)
    for _ in range(2):
        upload(keys, values, k, v)
        wp.capture_launch(capture.graph)
        check(keys, values, k, v)


def test_graphs_keep_their_scratch_when_later_sorts_grow_it():
    small = make(3000, 2)
    large = make(200000, 3)
    with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
        wp.utils.radix_sort_pairs(small[2], small[3], small[0].size)
        wp.utils.radix_sort_pairs(large[2], large[3], large[0].size)  # grows mid-capture
    huge = make(800000, 4)
    upload(*huge)
    wp.utils.radix_sort_pairs(huge[2], huge[3], huge[0].size)  # grows outside
    check(*huge)
    for _ in range(2):
        upload(*small)
        upload(*large)
        wp.capture_launch(capture.graph)
        check(*small)
        check(*large)


def test_scratch_allocated_in_a_capture_goes_with_its_graph():
    keys, values, k, v = make(400000, 5)
    stream = wp.Stream(DEVICE)  # a fresh stream: its scratch is allocated in the capture
    wp.synchronize_device(DEVICE)
    core = runtime.core
    core.wp_alloc_tracker_enable(1)
    try:
        core.wp_alloc_tracker_reset()
        with wp.ScopedStream(stream):
            with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
                wp.utils.radix_sort_pairs(k, v, keys.size)
        assert core.wp_alloc_tracker_get_live_count() >= 1
        upload(keys, values, k, v)
        with wp.ScopedStream(stream):
            wp.capture_launch(capture.graph)
        wp.synchronize_device(DEVICE)
        check(keys, values, k, v)
        del capture
        gc.collect()
        wp.synchronize_device(DEVICE)
        assert core.wp_alloc_tracker_get_live_count() == 0
    finally:
        core.wp_alloc_tracker_enable(0)


def test_sorts_on_a_forked_stream_inside_an_if_body():
    if not wp.is_conditional_graph_supported():
        pytest.skip("no conditional graph nodes here")
    a = make(30000, 6)
    b = make(30000, 7)
    main = wp.Stream(DEVICE)
    forked = wp.Stream(DEVICE)
    condition = wp.ones(1, dtype=wp.int32, device=DEVICE)
    wp.load_module(device=DEVICE)

    def body():  # the body runs with `main` current and capturing it
        assert wp.get_stream(DEVICE) == main and main.is_capturing
        forked.wait_stream(main)
        with wp.ScopedStream(forked):
            wp.utils.radix_sort_pairs(a[2], a[3], a[0].size)
        wp.utils.radix_sort_pairs(b[2], b[3], b[0].size)
        main.wait_stream(forked)

    with wp.ScopedCapture(DEVICE, stream=main, force_module_load=False) as capture:
        wp.capture_if(condition, on_true=body, stream=main)
    for _ in range(2):
        upload(*a)
        upload(*b)
        with wp.ScopedStream(main):
            wp.capture_launch(capture.graph)
        wp.synchronize_device(DEVICE)
        check(*a)
        check(*b)
