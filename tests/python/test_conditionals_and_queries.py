"""wp.capture_if / wp.capture_while outside a capture, and small runtime queries: NVRTC's
architectures, max_shared_memory_per_block, memory-pool usage errors on the CPU,
synchronize_stream on the CPU, Stream/Event finalisers on unbuilt instances."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def scale(a: wp.array(dtype=float), s: float):
    a[wp.tid()] = a[wp.tid()] * s


@wp.kernel
def double_until(a: wp.array(dtype=float), cond: wp.array(dtype=wp.int32), limit: float):
    i = wp.tid()
    a[i] = a[i] * 2.0
    if a[i] > limit:
        cond[0] = 0


def _times(s):
    return lambda array: wp.launch(scale, array.shape, inputs=[array, s], device=array.device)


def test_capture_if_runs_the_branch_for_the_condition():
    for cond, want in ((0, [3.0, 6.0]), (1, [2.0, 4.0]), (-5, [2.0, 4.0])):
        a = wp.array([1.0, 2.0], dtype=float, device="cpu")
        c = wp.array([cond], dtype=wp.int32, device="cpu")
        wp.capture_if(c, _times(2.0), _times(3.0), array=a)
        np.testing.assert_array_equal(a.numpy(), want)
    a = wp.array([1.0, 2.0], dtype=float, device="cpu")
    wp.capture_if(wp.array([1], dtype=wp.int32, device="cpu"), on_false=_times(5.0), array=a)
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])  # no on_true: nothing runs
    wp.capture_if(wp.array([0], dtype=wp.int32, device="cpu"))  # no branch at all: no-op


def test_capture_while_loops_until_the_body_clears_the_condition():
    for start, want in ((0, [1.0, 3.0]), (1, [64.0, 192.0])):  # 3 * 2**6 > 100
        a = wp.array([1.0, 3.0], dtype=float, device="cpu")
        c = wp.array([start], dtype=wp.int32, device="cpu")

        def body(array, cond, limit):
            wp.launch(double_until, array.shape, inputs=[array, cond, limit], device="cpu")

        wp.capture_while(c, body, array=a, cond=c, limit=100.0)
        np.testing.assert_array_equal(a.numpy(), want)


def test_conditions_are_checked():
    a = wp.array([1.0], dtype=float, device="cpu")
    for bad in (wp.array([1.0], dtype=float, device="cpu"),
                wp.array([1, 1], dtype=wp.int32, device="cpu"), np.array([1], dtype=np.int32)):
        with pytest.raises(TypeError, match=r"capture_if\(\): Condition must be a Warp array of "
                                            "int32 with a single element"):
            wp.capture_if(bad, _times(2.0), array=a)
    with pytest.raises(TypeError, match="while_body must be a Callable or a Graph"):
        wp.capture_while(wp.array([1], dtype=wp.int32, device="cpu"), 42)


def test_runtime_queries_on_this_machine():
    archs = wp.get_cuda_supported_archs()
    assert archs == sorted(set(archs)) and all(isinstance(x, int) and x >= 50 for x in archs)
    assert archs == list(wp._treadle.nvrtc_supported_archs())
    assert (len(archs) > 0) == wp._treadle.nvrtc_available() or not archs
    assert wp.get_device("cpu").max_shared_memory_per_block == 0
    for d in wp.get_cuda_devices():
        assert d.max_shared_memory_per_block >= 48 * 1024
        if d.is_mempool_supported:
            assert wp.get_mempool_used_mem_high(d) >= wp.get_mempool_used_mem_current(d) >= 0
    for query in (wp.get_mempool_used_mem_current, wp.get_mempool_used_mem_high):
        with pytest.raises(ValueError, match="memory pools are only supported on CUDA devices"):
            query("cpu")
    with wp.ScopedDevice("cpu"):
        wp.synchronize_stream()  # the CPU has no streams: nothing to wait for


def test_finalisers_of_unbuilt_streams_and_events():
    wp.Stream.__new__(wp.Stream).__del__()
    wp.Event.__new__(wp.Event).__del__()
