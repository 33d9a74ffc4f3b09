"""Tests of the memory tracker: counts, bytes, peak, scopes, call sites and the report."""

import gc
import io

import pytest

import treadle as wp
from treadle._src import context as wp_context

core = wp_context.runtime.core


def test_counts_bytes_and_peak():
    with wp.ScopedMemoryTracker("t", print=False):
        core.wp_alloc_tracker_reset()
        a = wp.zeros(1000, dtype=wp.float32, device="cpu")
        b = wp.empty((10, 3), dtype=wp.float64, device="cpu")
        assert core.wp_alloc_tracker_get_total_alloc_count() == 2
        assert core.wp_alloc_tracker_get_total_alloc_bytes() == 4000 + 240
        assert core.wp_alloc_tracker_get_live_count() == 2
        del a
        gc.collect()
        assert core.wp_alloc_tracker_get_live_count() == 1
        assert core.wp_alloc_tracker_get_current_bytes() == 240
        assert core.wp_alloc_tracker_get_peak_bytes() == 4240
    del b


def test_scopes_call_site_and_report():
    with wp.ScopedMemoryTracker("outer", print=False) as tracker:
        core.wp_alloc_tracker_reset()
        with wp.ScopedMemoryTracker("inner", print=False):
            a = wp.zeros(32, dtype=wp.float32, device="cpu")
    buf = io.StringIO()
    tracker.report(file=buf)
    text = buf.getvalue()
    assert "outer/inner: 1 allocations, 128 bytes" in text
    assert "array[float32, 32]" in text
    assert "test_memory_tracker.py:" in text  # the Python line that allocated
    assert "Allocation Tracking Report" in text
    del a


def test_off_by_default_and_report_refused():
    assert not core.wp_alloc_tracker_is_enabled()
    with pytest.raises(RuntimeError, match="not active"):
        wp.print_memory_report()
    core.wp_alloc_tracker_reset()
    a = wp.zeros(8, device="cpu")
    assert core.wp_alloc_tracker_get_total_alloc_count() == 0
    del a


def test_config_track_memory():
    old = wp.config.track_memory
    wp.config.track_memory = True
    try:
        core.wp_alloc_tracker_reset()
        a = wp.array([1.0, 2.0], dtype=wp.float32, device="cpu")
        assert core.wp_alloc_tracker_get_total_alloc_count() == 1
        buf = io.StringIO()
        wp.print_memory_report(file=buf)
        assert "array[float32, 2]" in buf.getvalue()
    finally:
        wp.config.track_memory = old
    del a


def test_cuda_profiler_cpu_is_noop():
    calls = []
    saved = (core.wp_cuda_profiler_start, core.wp_cuda_profiler_stop)
    type(core).wp_cuda_profiler_start = staticmethod(lambda c: calls.append(("start", c)))
    type(core).wp_cuda_profiler_stop = staticmethod(lambda c: calls.append(("stop", c)))
    try:
        wp.cuda_profiler_start(device="cpu")
        with wp.ScopedCudaProfiler(device="cpu"):
            pass
        wp.cuda_profiler_stop(device="cpu")
    finally:
        type(core).wp_cuda_profiler_start = staticmethod(saved[0])
        type(core).wp_cuda_profiler_stop = staticmethod(saved[1])
    assert calls == []


def test_geometry_objects_report_their_native_allocations():
    with wp.ScopedMemoryTracker("geometry", print=False) as tracker:
        core.wp_alloc_tracker_reset()
        grid = wp.HashGrid(4, 4, 4, device="cpu")
        lows = wp.zeros(3, dtype=wp.vec3, device="cpu")
        bvh = wp.Bvh(lows, lows)
        buf = io.StringIO()
        tracker.report(file=buf)
    text = buf.getvalue()
    # the grid's cell ranges (64 int32 each) and the tree, each under its object's name
    assert "256 bytes  array[int32, 64] on cpu  [geometry]  (native:hashgrid)" in text
    assert "bvh on cpu  [geometry]  (native:bvh)" in text
    assert "test_memory_tracker.py:" in text  # the array the test allocated itself
    del grid, bvh
