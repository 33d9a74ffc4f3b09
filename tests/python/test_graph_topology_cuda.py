"""The shape of CUDA graphs captured across several streams: memory allocated in a capture is
freed by a node after every branch that can use it and after nothing else, side streams left
unjoined are joined when the capture ends, and a paused capture resumes where it stopped.
Checked through the graph queries of treadle._src.native_core (node handles). Runs on CUDA
devices only."""

import numpy as np
import pytest

import treadle as wp
from treadle._src.context import capture_pause, capture_resume, runtime

CUDA = wp.is_cuda_available()
pytestmark = pytest.mark.skipif(not CUDA, reason="needs a CUDA device")

AVAILABLE, FREED, INACCESSIBLE = 0, 1, 2


@pytest.fixture
def device():
    with wp.ScopedDevice("cuda:0") as d:
        yield d


def node(device):
    return runtime.core.wp_cuda_graph_insert_empty_node(device.context)


def alloc(device):
    return runtime.core.wp_cuda_graph_insert_alloc_node(device.context, 16)


def free(device, a):
    return runtime.core.wp_cuda_graph_insert_free_node(device.context, a)


def after(a, b):
    return runtime.core.wp_cuda_graph_node_depends_on(a, b) == 0


def query(a, n):
    return runtime.core.wp_cuda_graph_alloc_query(a, n)


def test_sequential_alloc_free(device):
    with wp.ScopedCapture(force_module_load=False) as capture:
        a1 = alloc(device)
        n1 = node(device)
        f1 = free(device, a1)
        a2 = alloc(device)
        n2 = node(device)
    wp.capture_launch(capture.graph)
    assert query(a1, n1) == AVAILABLE
    assert query(a1, a2) == FREED
    assert query(a2, n1) == INACCESSIBLE
    assert after(f1, n1) and after(a2, f1) and after(n2, a2)
    assert not after(n1, f1)


def test_free_on_main_does_not_serialise_independent_side_streams(device):
    s1, s2 = wp.Stream(device), wp.Stream(device)
    with wp.ScopedCapture(force_module_load=False) as capture:
        with wp.ScopedStream(s1):
            a1 = alloc(device)
            n1 = node(device)
        with wp.ScopedStream(s2):
            a2 = alloc(device)
            n2 = node(device)
        f1 = free(device, a1)
        f2 = free(device, a2)
    wp.capture_launch(capture.graph)  # the unjoined side streams were joined at the end
    assert after(f1, n1) and after(f2, n2)
    for x in (a1, n1, f1):
        for y in (a2, n2, f2):
            assert not after(x, y) and not after(y, x)
    assert query(a1, n2) == INACCESSIBLE and query(a2, n1) == INACCESSIBLE


def test_free_of_forked_memory_waits_for_every_branch(device):
    s1 = wp.Stream(device)
    with wp.ScopedCapture(force_module_load=False) as capture:
        a1 = alloc(device)
        n1 = node(device)
        with wp.ScopedStream(s1):  # forks after n1
            n2 = node(device)
        a2 = alloc(device)
        n3 = node(device)
        with wp.ScopedStream(s1, sync_enter=False):
            n4 = node(device)
            f2 = free(device, a2)  # a2 only reaches n3: s1 is not serialised
            f1 = free(device, a1)  # a1 reaches both branches
    wp.capture_launch(capture.graph)
    assert after(f2, n3) and not after(f2, n4) and not after(n4, f2)
    assert all(after(f1, n) for n in (n1, n2, n3, n4))
    assert query(a1, n4) == AVAILABLE and query(a2, n4) == INACCESSIBLE


@wp.kernel
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


def test_side_stream_arrays_in_a_capture_give_right_results(device):
    out = wp.zeros(1024, dtype=float, device=device)
    wp.load_module(device=device)
    with wp.ScopedCapture(force_module_load=False) as capture:
        with wp.ScopedStream(wp.Stream(device)):
            tmp = wp.zeros(1024, dtype=float, device=device)
            for _ in range(3):
                wp.launch(add_one, dim=1024, inputs=[tmp], device=device)
            wp.copy(out, tmp)
            del tmp
    for _ in range(2):
        wp.capture_launch(capture.graph)
    np.testing.assert_array_equal(out.numpy(), np.full(1024, 3.0, np.float32))


def test_pause_runs_work_at_once_and_resume_continues_the_graph(device):
    a = wp.zeros(8, dtype=float, device=device)
    b = wp.zeros(8, dtype=float, device=device)
    wp.load_module(device=device)
    wp.capture_begin(device, force_module_load=False)
    try:
        wp.launch(add_one, dim=8, inputs=[a], device=device)
        paused = capture_pause(device=device)
        wp.launch(add_one, dim=8, inputs=[b], device=device)  # runs now
        grown = wp.zeros(4, dtype=float, device=device)  # ordinary memory
        capture_resume(paused, device=device)
        wp.launch(add_one, dim=8, inputs=[a], device=device)
    finally:
        graph = wp.capture_end(device)
    np.testing.assert_array_equal(b.numpy(), np.ones(8, np.float32))
    np.testing.assert_array_equal(a.numpy(), np.zeros(8, np.float32))
    wp.capture_launch(graph)
    np.testing.assert_array_equal(a.numpy(), np.full(8, 2.0, np.float32))
    np.testing.assert_array_equal(grown.numpy(), np.zeros(4, np.float32))


def test_capture_end_while_paused_discards_the_capture(device):
    wp.capture_begin(device, force_module_load=False)
    capture_pause(device=device)
    with pytest.raises(RuntimeError, match="was paused .* not resumed; it is discarded"):
        wp.capture_end(device)
    assert not device.is_capturing
    wp.capture_begin(device, force_module_load=False)  # the stream can capture again
    assert wp.capture_end(device) is not None
