"""Streams, events, graph capture and memory pools (Warp's API); CUDA tests skip without a GPU."""

import numpy as np
import pytest

import treadle as wp

needs_cuda = pytest.mark.skipif(not wp.is_cuda_available(), reason="needs a CUDA device")
needs_capture = pytest.mark.skipif(
    not wp.is_cuda_available() or not wp._treadle.cuda_graph_capture_supported(),
    reason="needs a CUDA device and a driver with graph capture",
)

DEV = "cuda:0"
N = 1 << 16  # small enough that float32 holds every index plus the loop count exactly
ITERS = 4000  # makes slow_fill take long enough that missing dependencies would show


@wp.kernel
def slow_fill(a: wp.array(dtype=float), iters: int):
    i = wp.tid()
    x = float(0.0)  # noqa: UP018 - a dynamic variable, as Warp wants before a loop
    for _k in range(iters):
        x = x + 1.0
    a[i] = float(i) + x


@wp.kernel
def scale_into(src: wp.array(dtype=float), dst: wp.array(dtype=float), s: float):
    i = wp.tid()
    dst[i] = src[i] * s


@wp.kernel
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


@pytest.fixture(autouse=True)
def _cuda_is_the_current_device():
    """Launches and events without a device go to cuda:0 (when there is one)."""
    if wp.is_cuda_available():
        with wp.ScopedDevice(DEV):
            yield
    else:
        yield


def _arange():
    return np.arange(N, dtype=np.float32)


def _warm_up(device):
    """Compiles the kernels for `device` outside any capture."""
    a = wp.zeros(4, dtype=float, device=device)
    b = wp.zeros(4, dtype=float, device=device)
    wp.launch(slow_fill, dim=4, inputs=[a, 1], device=device)
    wp.launch(scale_into, dim=4, inputs=[a, b, 1.0], device=device)
    wp.launch(add_one, dim=4, inputs=[a], device=device)
    wp.synchronize_device(device)


# --- the CPU device: clear errors, or no-ops where Warp has them ----------------------------


def test_cpu_has_no_streams_or_events():
    with pytest.raises(RuntimeError, match="not a CUDA device"):
        wp.Stream("cpu")
    with pytest.raises(RuntimeError, match="not a CUDA device"):
        wp.get_stream("cpu")
    with pytest.raises(RuntimeError, match="not a CUDA device"):
        wp.Event("cpu")
    with pytest.raises(RuntimeError, match="not a CUDA device"):
        wp.get_device("cpu").stream  # noqa: B018
    wp.synchronize_stream("cpu")  # nothing to wait for, as wp.synchronize_device("cpu")
    assert wp.get_device("cpu").is_capturing is False  # CPU captures: test_cpu_capture.py


def test_cpu_scoped_stream_of_none_and_mempool_queries():
    with wp.ScopedStream(None) as s:
        assert s is None
    assert wp.is_mempool_enabled("cpu") is False
    assert wp.is_mempool_supported("cpu") is False
    wp.set_mempool_enabled("cpu", False)  # a no-op, as in Warp
    with pytest.raises(ValueError, match="CUDA devices"):
        wp.set_mempool_enabled("cpu", True)
    with pytest.raises(ValueError, match="CUDA devices"):
        wp.set_mempool_release_threshold("cpu", 1 << 20)
    with pytest.raises(ValueError, match="CUDA devices"):
        wp.get_mempool_release_threshold("cpu")


def test_cpu_launch_and_copy_without_stream_still_work():
    a = wp.array(_arange()[:8], device="cpu")
    wp.launch(add_one, dim=8, inputs=[a], device="cpu", stream=None)
    b = wp.zeros(8, dtype=float, device="cpu")
    wp.copy(b, a, stream=None)
    np.testing.assert_array_equal(b.numpy(), _arange()[:8] + 1)


def test_api_names_exist():
    for name in (
        "Stream",
        "Event",
        "Graph",
        "ScopedStream",
        "ScopedCapture",
        "ScopedMempool",
        "get_stream",
        "set_stream",
        "wait_stream",
        "synchronize_stream",
        "record_event",
        "wait_event",
        "synchronize_event",
        "get_event_elapsed_time",
        "capture_begin",
        "capture_end",
        "capture_launch",
        "is_mempool_enabled",
        "set_mempool_enabled",
        "set_mempool_release_threshold",
        "get_mempool_release_threshold",
    ):
        assert hasattr(wp, name), name
    assert wp.config.enable_graph_capture_module_load_by_default is True


# --- streams and events -----------------------------------------------------------------------


@needs_cuda
def test_default_stream_is_current_blocking_and_stable():
    s = wp.get_stream(DEV)
    assert s is wp.get_stream(DEV)
    assert s.device == DEV and s.cuda_stream not in (0, 1)
    assert s.is_blocking
    assert wp.get_device(DEV).stream is s
    other = wp.Stream(DEV, priority=-1)
    assert other != s and other.cuda_stream != s.cuda_stream
    lo, hi = wp._treadle.cuda_stream_priority_range(0)
    assert other.priority == max(hi, min(lo, -1))
    assert not wp.Stream(DEV, blocking=False).is_blocking
    with pytest.raises(TypeError):
        wp.Stream(DEV, priority=0.5)


@needs_cuda
def test_two_streams_with_an_event_dependency():
    _warm_up(DEV)
    a = wp.zeros(N, dtype=float, device=DEV)
    b = wp.zeros(N, dtype=float, device=DEV)
    s1, s2 = wp.Stream(DEV), wp.Stream(DEV)
    for s in (s1, s2):  # the arrays were zeroed on the default stream
        s.wait_stream(wp.get_stream(DEV))
    wp.launch(slow_fill, dim=N, inputs=[a, ITERS], stream=s1)
    done = s1.record_event()
    s2.wait_event(done)
    wp.launch(scale_into, dim=N, inputs=[a, b, 2.0], stream=s2)
    wp.synchronize_stream(s2)
    assert s2.is_complete and done.is_complete
    np.testing.assert_array_equal(b.numpy(), 2.0 * (_arange() + ITERS))


@needs_cuda
def test_scoped_stream_sets_the_current_stream_and_orders_work():
    _warm_up(DEV)
    default = wp.get_stream(DEV)
    s = wp.Stream(DEV)
    a = wp.zeros(N, dtype=float, device=DEV)
    with wp.ScopedStream(s, sync_exit=True) as current:
        assert current is s and wp.get_stream(DEV) is s and wp.get_stream() is s
        wp.launch(slow_fill, dim=N, inputs=[a, ITERS])  # no stream: the current one, s
        b = wp.zeros(N, dtype=float)  # allocated and zeroed on s
        wp.launch(scale_into, dim=N, inputs=[a, b, 0.5])
    assert wp.get_stream(DEV) is default
    np.testing.assert_array_equal(b.numpy(), 0.5 * (_arange() + ITERS))  # default waited


@needs_cuda
def test_set_stream_and_wait_stream():
    _warm_up(DEV)
    default = wp.get_stream(DEV)
    s = wp.Stream(DEV)
    a = wp.zeros(N, dtype=float, device=DEV)
    wp.set_stream(s, sync=True)
    try:
        assert wp.get_stream(DEV) is s
        wp.launch(slow_fill, dim=N, inputs=[a, ITERS], device=DEV)
    finally:
        wp.set_stream(default)
    with wp.ScopedDevice(DEV):
        wp.wait_stream(s)  # the current (default) stream waits for s
    b = wp.clone(a)
    np.testing.assert_array_equal(b.numpy(), _arange() + ITERS)
    wp.get_device(DEV).stream = s
    assert wp.get_stream(DEV) is s
    wp.get_device(DEV).stream = default
    with pytest.raises(RuntimeError, match="not a CUDA device"):
        wp.set_stream(s, device="cpu")
    assert wp.get_stream(DEV) is default


@needs_cuda
def test_event_timing_and_synchronisation():
    _warm_up(DEV)
    a = wp.zeros(N, dtype=float, device=DEV)
    start = wp.Event(DEV, enable_timing=True)
    end = wp.Event(DEV, enable_timing=True)
    with wp.ScopedDevice(DEV):
        wp.record_event(start)
        wp.launch(slow_fill, dim=N, inputs=[a, ITERS])
        assert wp.record_event(end) is end
        ms = wp.get_event_elapsed_time(start, end)
        assert ms > 0.0
        wp.synchronize_event(end)
        assert end.is_complete
        plain = wp.record_event()  # a new event without timing
        wp.wait_event(plain)
    with pytest.raises(ValueError, match="timing"):
        wp.get_event_elapsed_time(start, plain)


@needs_cuda
def test_copy_on_a_stream():
    src = wp.array(_arange(), device=DEV)
    dst = wp.zeros(N, dtype=float, device=DEV)
    s = wp.Stream(DEV)
    s.wait_stream(wp.get_stream(DEV))
    wp.copy(dst, src, stream=s)
    assert wp.get_stream(DEV) is not s  # only current for the copy
    wp.synchronize_stream(s)
    np.testing.assert_array_equal(dst.numpy(), _arange())


# --- graph capture ----------------------------------------------------------------------------


@needs_capture
def test_capture_replays_launches_a_copy_and_allocations():
    _warm_up(DEV)
    a = wp.array(_arange(), device=DEV)
    b = wp.zeros(N, dtype=float, device=DEV)
    with wp.ScopedCapture(DEV, force_module_load=False) as capture:
        assert wp.get_device(DEV).is_capturing
        tmp = wp.zeros(N, dtype=float, device=DEV)  # an allocation and a memset in the graph
        wp.launch(add_one, dim=N, inputs=[a])
        wp.launch(scale_into, dim=N, inputs=[a, tmp, 2.0])
        wp.copy(b, tmp)
        out = wp.empty(N, dtype=float, device=DEV)  # outlives the capture
        wp.launch(scale_into, dim=N, inputs=[b, out, 0.5])
    assert not wp.get_device(DEV).is_capturing
    assert capture.graph is not None and capture.graph.graph_exec
    np.testing.assert_array_equal(a.numpy(), _arange())  # captured, not run
    for k in range(1, 61):
        wp.capture_launch(capture.graph)
        if k % 20 == 0 or k == 1:
            np.testing.assert_array_equal(a.numpy(), _arange() + k)
            np.testing.assert_array_equal(b.numpy(), 2.0 * (_arange() + k))
            np.testing.assert_array_equal(out.numpy(), _arange() + k)
    del tmp  # graph memory: the graph keeps it while it lives
    s = wp.Stream(DEV)
    s.wait_stream(wp.get_stream(DEV))
    wp.capture_launch(capture.graph, stream=s)
    wp.synchronize_stream(s)
    np.testing.assert_array_equal(out.numpy(), _arange() + 61)
    graph = capture.graph
    del capture
    del graph  # frees the graph; `out` keeps its memory
    np.testing.assert_array_equal(out.numpy(), _arange() + 61)
    del out
    wp.synchronize_device(DEV)


@needs_capture
def test_capture_begin_end_on_a_chosen_stream():
    _warm_up(DEV)
    s = wp.Stream(DEV)
    a = wp.array(_arange(), device=DEV)
    s.wait_stream(wp.get_stream(DEV))
    wp.capture_begin(stream=s, force_module_load=False)
    assert s.is_capturing and not wp.get_stream(DEV).is_capturing
    wp.launch(add_one, dim=N, inputs=[a], stream=s)
    wp.launch(add_one, dim=N, inputs=[a], stream=s)
    graph = wp.capture_end(stream=s)
    assert not s.is_capturing
    for _ in range(10):
        wp.capture_launch(graph, stream=s)
    wp.synchronize_stream(s)
    np.testing.assert_array_equal(a.numpy(), _arange() + 20)
    with pytest.raises(RuntimeError, match="no graph capture"):
        wp.capture_end(stream=s)


@needs_capture
def test_a_capture_that_raises_leaves_capture_usable():
    _warm_up(DEV)
    a = wp.array(_arange(), device=DEV)
    with pytest.raises(ValueError, match="boom"), wp.ScopedCapture(DEV, force_module_load=False):
        tmp = wp.zeros(N, dtype=float, device=DEV)
        wp.launch(add_one, dim=N, inputs=[a])
        raise ValueError("boom")
    assert not wp.get_device(DEV).is_capturing
    del tmp
    # An operation capture forbids (a copy to the host synchronises) invalidates it.
    with pytest.raises(RuntimeError), wp.ScopedCapture(DEV, force_module_load=False):
        wp.launch(add_one, dim=N, inputs=[a])
        a.numpy()
    assert not wp.get_device(DEV).is_capturing
    np.testing.assert_array_equal(a.numpy(), _arange())  # nothing captured ever ran
    with wp.ScopedCapture(DEV, force_module_load=False) as capture:
        wp.launch(add_one, dim=N, inputs=[a])
    for _ in range(3):
        wp.capture_launch(capture.graph)
    np.testing.assert_array_equal(a.numpy(), _arange() + 3)
    with (
        pytest.raises(RuntimeError, match="already in progress"),
        wp.ScopedCapture(DEV, force_module_load=False),
    ):
        wp.capture_begin(DEV, force_module_load=False)
    assert not wp.get_device(DEV).is_capturing


@needs_capture
def test_recapturing_under_one_name_drops_the_old_graph_after_the_new_capture():
    _warm_up(DEV)
    a = wp.array(_arange(), device=DEV)
    for _ in range(3):
        # `as capture` rebinds once the new capture has begun: the old graph is destroyed
        # during it, which must wait until the capture ends.
        with wp.ScopedCapture(DEV, force_module_load=False) as capture:
            wp.launch(add_one, dim=N, inputs=[a])
        wp.capture_launch(capture.graph)
    np.testing.assert_array_equal(a.numpy(), _arange() + 3)


@needs_capture
def test_frees_during_capture_are_put_off_and_memory_is_reused():
    _warm_up(DEV)
    before = wp.zeros(N, dtype=float, device=DEV)
    a = wp.array(_arange(), device=DEV)
    with wp.ScopedCapture(DEV, force_module_load=False) as capture:
        del before  # freed once the capture ends, not inside the graph
        wp.launch(add_one, dim=N, inputs=[a])
    for _ in range(5):
        wp.capture_launch(capture.graph)
    np.testing.assert_array_equal(a.numpy(), _arange() + 5)
    for _ in range(20):  # graphs that allocate, made and dropped: no leak, no double free
        with wp.ScopedCapture(DEV, force_module_load=False) as c:
            t = wp.zeros(N, dtype=float, device=DEV)
            wp.launch(scale_into, dim=N, inputs=[a, t, 1.0])
        wp.capture_launch(c.graph)
        np.testing.assert_array_equal(t.numpy(), _arange() + 5)
        del c, t
    wp.synchronize_device(DEV)


@needs_capture
def test_memory_freed_on_a_forked_stream_during_capture_outlives_that_streams_work():
    _warm_up(DEV)
    main, side = wp.get_stream(DEV), wp.Stream(DEV)
    out = wp.zeros(N, dtype=float, device=DEV)
    other = wp.zeros(N, dtype=float, device=DEV)
    with wp.ScopedCapture(DEV, force_module_load=False) as capture:
        side.wait_stream(main)
        with wp.ScopedStream(side):
            tmp = wp.empty(N, dtype=float, device=DEV)
            wp.launch(slow_fill, dim=N, inputs=[tmp, ITERS])
            wp.launch(scale_into, dim=N, inputs=[tmp, out, 1.0])
            del tmp  # its free node follows the side stream's launches
        # Main-stream memory of the same size, free to reuse what the graph freed before it.
        reuse = wp.zeros(N, dtype=float, device=DEV)
        wp.launch(add_one, dim=N, inputs=[reuse])
        wp.launch(scale_into, dim=N, inputs=[reuse, other, 1.0])
        del reuse
        main.wait_stream(side)
    for _ in range(3):
        wp.capture_launch(capture.graph)
        np.testing.assert_array_equal(out.numpy(), _arange() + ITERS)
        np.testing.assert_array_equal(other.numpy(), np.ones(N, np.float32))


# --- memory pools -----------------------------------------------------------------------------


@needs_cuda
def test_mempool_settings_and_plain_allocation():
    dev = wp.get_device(DEV)
    if not dev.is_mempool_supported:
        assert not wp.is_mempool_enabled(DEV)
        with pytest.raises(RuntimeError, match="does not support"):
            wp.set_mempool_enabled(DEV, True)
        return
    assert wp.is_mempool_enabled(DEV) and dev.is_mempool_enabled
    saved = wp.get_mempool_release_threshold(DEV)
    wp.set_mempool_release_threshold(DEV, 1 << 20)
    assert wp.get_mempool_release_threshold(DEV) == 1 << 20
    wp.set_mempool_release_threshold(DEV, saved)
    pooled = wp.array(_arange(), device=DEV)
    with wp.ScopedMempool(DEV, False):
        assert not wp.is_mempool_enabled(DEV)
        plain = wp.array(_arange(), device=DEV)  # cuMemAlloc
        del pooled  # pool memory is still freed the pool's way
        if wp._treadle.cuda_graph_capture_supported():
            with (
                pytest.raises(RuntimeError, match="memory pool"),
                wp.ScopedCapture(DEV, force_module_load=False),
            ):
                wp.zeros(N, dtype=float, device=DEV)
            assert not dev.is_capturing
    assert wp.is_mempool_enabled(DEV)
    np.testing.assert_array_equal(plain.numpy(), _arange())
    del plain  # plain memory is freed with cuMemFree after the pool is back on
    wp.synchronize_device(DEV)
