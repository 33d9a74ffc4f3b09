"""CUDA streams as Warp defines them: priorities -1/0, the device's null stream, no host
synchronisation during a capture, and external events between two captured graphs."""

import numpy as np
import pytest

import treadle as wp

pytestmark = pytest.mark.skipif(not wp.is_cuda_available(), reason="needs a CUDA device")


@wp.kernel
def inc(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


@wp.kernel
def add(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = a[i] + b[i]


def test_priorities_are_minus_one_or_zero():
    assert wp.Stream("cuda:0").priority == 0
    assert wp.Stream("cuda:0", priority=-100).priority == -1
    assert wp.Stream("cuda:0", priority=100).priority == 0
    with pytest.raises(TypeError):
        wp.Stream("cuda:0", priority=0.5)


def test_null_stream_and_has_stream():
    d = wp.get_device("cuda:0")
    assert d.has_stream and not wp.get_device("cpu").has_stream
    assert d.null_stream.is_blocking
    with pytest.raises(RuntimeError):
        wp.get_device("cpu").null_stream


def test_no_synchronisation_during_capture():
    with wp.ScopedDevice("cuda:0"):
        e = wp.Event()
        for call, what in [(wp.synchronize, "device"), (wp.synchronize_device, "device"),
                           (wp.synchronize_stream, "stream"),
                           (lambda: wp.synchronize_event(e), "event")]:
            with pytest.raises(RuntimeError, match=f"Cannot synchronize {what}"):
                with wp.ScopedCapture():
                    call()
        wp.synchronize()  # and afterwards it works


def test_external_event_orders_two_graphs():
    with wp.ScopedDevice("cuda:0"):
        n = 1 << 16
        a, b, c = (wp.zeros(n, dtype=float) for _ in range(3))
        event = wp.Event()
        wp.load_module(device="cuda:0")
        with wp.ScopedCapture(force_module_load=False) as first:
            wp.launch(inc, dim=n, inputs=[a])
            wp.launch(inc, dim=n, inputs=[b])
            wp.record_event(event, external=True)
        with wp.ScopedCapture(force_module_load=False) as second:
            wp.wait_event(event, external=True)
            wp.launch(add, dim=n, inputs=[a, b, c])
        s1, s2 = wp.Stream(), wp.Stream()
        for _ in range(5):
            wp.capture_launch(first.graph, stream=s1)
            wp.capture_launch(second.graph, stream=s2)
        wp.synchronize()
        np.testing.assert_array_equal(c.numpy(), np.full(n, 10.0, dtype=np.float32))


def test_timing_events_recorded_in_a_graph_time_its_replays():
    with wp.ScopedDevice("cuda:0"):
        stream = wp.get_stream()
        e1, e2 = wp.Event(enable_timing=True), wp.Event(enable_timing=True)
        a = wp.zeros(1 << 20, dtype=float)
        wp.load_module(device="cuda:0")
        with wp.ScopedCapture(force_module_load=False) as cap:
            stream.record_event(e1)
            wp.launch(inc, dim=a.size, inputs=[a])
            stream.record_event(e2)
        wp.capture_launch(cap.graph)
        wp.synchronize()
        assert wp.get_event_elapsed_time(e1, e2) > 0
        assert a.numpy()[0] == 1.0
