"""Tests of the timeline: CPU kernels recorded between timing_begin/timing_end, Chrome trace JSON."""

import json

import numpy as np

import treadle as wp


@wp.kernel
def _add_one(a: wp.array(dtype=float)):
    a[wp.tid()] += 1.0


def test_cpu_kernels_on_timeline_and_trace(tmp_path):
    a = wp.zeros(100, device="cpu")
    wp.launch(_add_one, dim=100, inputs=[a], device="cpu")
    wp.timing_begin()
    wp.launch(_add_one, dim=100, inputs=[a], device="cpu")
    wp.launch(_add_one, dim=100, inputs=[a], device="cpu")
    results = wp.timing_end()
    np.testing.assert_array_equal(a.numpy(), np.full(100, 3.0, dtype=np.float32))
    assert [r.name for r in results] == ["forward kernel _add_one"] * 2
    assert all(r.filter == wp.TIMING_KERNEL and r.elapsed >= 0.0 for r in results)
    path = tmp_path / "trace.json"
    wp.timing_export_chrome_trace(results, str(path), memory_events=[(1.0, "cpu", 400)])
    trace = json.loads(path.read_text())
    kinds = [e["ph"] for e in trace["traceEvents"]]
    assert kinds.count("X") == 2 and kinds.count("C") == 1 and kinds.count("M") == 1
    x = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert x[0]["ts"] <= x[1]["ts"] and all(e["dur"] >= 0 for e in x)
