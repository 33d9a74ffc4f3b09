"""The traced cloth example (treadle.examples.traced_cloth): a repeatable run, the memory report
and a Chrome trace JSON a trace viewer can open."""

import json
import os
import subprocess
import sys

import numpy as np

import treadle as wp
from treadle.examples import traced_cloth

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_traced_run_reports_memory_and_writes_a_chrome_trace(tmp_path, capsys):
    path = str(tmp_path / "trace.json")
    positions, results = traced_cloth.run("cpu", n=12, steps=10, trace=path)
    report = capsys.readouterr().out
    assert "Allocation Tracking Report" in report
    # x, v, f, springs, rest, inv_mass: six arrays, all freed at the end (the tracker is
    # process-wide: other threads' allocations, if any, are listed under other scopes)
    assert "Allocations per scope:\n" in report and "\n  cloth: 6 allocations, " in report
    assert "Live allocations: 0 (0 bytes)" in report
    assert np.all(np.isfinite(positions)) and positions[:, 1].min() < 0.0  # it falls

    with open(path) as f:
        trace = json.load(f)
    assert trace["displayTimeUnit"] == "ms"
    events = trace["traceEvents"]
    processes = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M"}
    assert processes == {1: "cpu"}
    kernels = [e for e in events if e["ph"] == "X"]
    names = [e["name"] for e in kernels]
    assert names.count("forward kernel spring_forces") == 10
    assert names.count("forward kernel integrate") == 10
    for e in kernels:
        assert e["cat"] == "kernel" and e["pid"] == 1 and e["tid"] == 0
        assert e["dur"] >= 0.0 and e["ts"] > 0.0
    starts = [e["ts"] for e in kernels]
    assert starts == sorted(starts)
    counters = [e for e in events if e["ph"] == "C"]
    assert counters and all(e["name"] == "live bytes" and e["args"]["bytes"] >= 0
                            for e in counters)
    assert len(results) == len(kernels)
    assert {r.filter for r in results} == {wp.TIMING_KERNEL}


def test_the_cloth_repeats_bit_for_bit_on_every_thread_count(tmp_path):
    script = ("from treadle.examples import traced_cloth\n"
              "print(traced_cloth.simulate('cpu', n=12, steps=15).tobytes().hex())\n")
    digests = set()
    for threads in ("1", "2", "4"):
        env = dict(os.environ, TREADLE_NUM_THREADS=threads,
                   PYTHONPATH=os.path.join(REPO, "python"))
        proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, timeout=300, cwd=str(tmp_path))
        assert proc.returncode == 0, proc.stderr
        digests.add(proc.stdout.strip().splitlines()[-1])
    assert len(digests) == 1
    in_process = traced_cloth.simulate("cpu", n=12, steps=15)
    assert in_process.tobytes().hex() in digests
