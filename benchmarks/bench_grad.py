"""Backward-pass benchmarks: backward/forward time ratios and adjoint compile cost.

Prints one JSON object per line, for the CPU and every CUDA device:

    PYTHONPATH=python python3 benchmarks/bench_grad.py [--devices cpu,cuda:0]

- "memory_bound": z = a * x + y over 2^24 floats (CPU: 2^22); forward launch (reads 2 arrays,
  writes 1) vs its adjoint launch (replays the 2 reads, reads z's gradient, adds into the
  gradients of x and y).
- "bounce": one forward pass of the bouncing-ball example (120 launches + loss) vs its
  tape.backward().
- "compile": cold compile (empty cache, fresh process) of the example's step kernel: its
  forward build, and the build with the backward pass that a first tape.backward() adds after
  the forward build exists (the adjoint build is its own translation unit).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import treadle as wp  # noqa: E402
from treadle.examples import bounce  # noqa: E402


def emit(**record):
    print(json.dumps(record), flush=True)


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    z[i] = a * x[i] + y[i]


def timed(fn, device, repeats):
    fn()
    wp.synchronize_device(device)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        wp.synchronize_device(device)
        best = min(best, time.perf_counter() - t0)
    return best


def memory_bound(device):
    n = 1 << (24 if device != "cpu" else 22)
    x = wp.array(np.ones(n, dtype=np.float32), device=device, requires_grad=True)
    y = wp.zeros(n, dtype=float, device=device, requires_grad=True)
    z = wp.zeros(n, dtype=float, device=device, requires_grad=True)
    z.grad.fill_(1.0)
    fwd = timed(lambda: wp.launch(saxpy, n, inputs=[2.0, x, y, z], device=device), device, 20)
    bwd = timed(lambda: wp.launch(saxpy, n, inputs=[2.0, x, y, z], device=device, adjoint=True),
                device, 20)
    emit(bench="memory_bound", device=device, n=n, forward_ms=fwd * 1e3, backward_ms=bwd * 1e3,
         ratio=bwd / fwd)


def bounce_example(device):
    hidden = np.array([[3.0, 6.0, 0.0], [4.5, 3.0, 1.0]] * 512, dtype=np.float32)
    sim = bounce.Simulation(np.zeros_like(hidden), 120, 1.0 / 60.0, device)
    sim.v[0].assign(hidden)
    tape = wp.Tape()

    def forward():
        tape.reset()
        with tape:
            sim.forward()

    fwd = timed(forward, device, 5)
    forward()
    wp.synchronize_device(device)

    def backward():
        tape.zero()
        tape.backward(loss=sim.loss)

    bwd = timed(backward, device, 5)
    emit(bench="bounce", device=device, balls=len(hidden), steps=120, forward_ms=fwd * 1e3,
         backward_ms=bwd * 1e3, ratio=bwd / fwd)


COMPILE_CHILD = textwrap.dedent(
    """
    import json, sys, time
    import treadle as wp
    from treadle.examples import bounce
    device, adjoint = sys.argv[1], sys.argv[2] == "1"
    if adjoint:  # the backward build is made from the forward one, as a tape does
        bounce.step._compile(device)
    t0 = time.perf_counter()
    h = bounce.step._compile_adjoint(device) if adjoint else bounce.step._compile(device)
    print(json.dumps({"ms": (time.perf_counter() - t0) * 1e3, "cached": h.from_cache}))
    """
)


def compile_cost(device):
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "child.py")
        with open(script, "w") as f:
            f.write(COMPILE_CHILD)
        result = {}
        for adjoint in ("0", "1"):
            times = []
            for r in range(3):
                env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "python"),
                           TREADLE_CACHE_DIR=os.path.join(work, f"cache-{adjoint}-{r}"))
                out = subprocess.run([sys.executable, script, device, adjoint], env=env,
                                     check=True, capture_output=True, text=True).stdout
                times.append(json.loads(out.strip().splitlines()[-1])["ms"])
            result["forward_only_ms" if adjoint == "0" else "with_backward_ms"] = min(times)
        emit(bench="compile", device=device, kernel="bounce.step", **result,
             ratio=result["with_backward_ms"] / result["forward_only_ms"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--devices", default=None)
    args = parser.parse_args()
    wp.config.quiet = True
    devices = args.devices.split(",") if args.devices else [
        "cpu", *[f"cuda:{i}" for i in range(wp.get_cuda_device_count())]]
    for device in devices:
        memory_bound(device)
        bounce_example(device)
        compile_cost(device)


if __name__ == "__main__":
    main()
