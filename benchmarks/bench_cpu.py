"""CPU benchmarks of the foundation: compile/load times, launch overhead, saxpy throughput.

Prints one JSON object per line. Run from a source checkout after building:

    PYTHONPATH=python python3 benchmarks/bench_cpu.py

Each measurement that needs a fresh process (cold compile, warm load, single-threaded runs)
starts one, with its own kernel cache where the measurement needs an empty one.
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHONPATH = os.path.join(HERE, "..", "python")

KERNEL_FILE = textwrap.dedent(
    """
    import time, json, sys
    t_import = time.perf_counter()
    import treadle as wp
    t_imported = time.perf_counter()

    @wp.kernel
    def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]

    t0 = time.perf_counter()
    handle = saxpy._compile("cpu")
    t1 = time.perf_counter()
    print(json.dumps({"ms": (t1 - t0) * 1e3, "from_cache": handle.from_cache,
                      "compiler_ms": handle.compile_seconds * 1e3,
                      "import_ms": (t_imported - t_import) * 1e3}))
    """
)


def emit(**record):
    print(json.dumps(record), flush=True)


def run_child(script_path, cache_dir, threads=None):
    env = dict(os.environ, PYTHONPATH=PYTHONPATH, TREADLE_CACHE_DIR=cache_dir)
    if threads:
        env["TREADLE_NUM_THREADS"] = str(threads)
    out = subprocess.run([sys.executable, script_path], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def compile_times(workdir, repeats=3):
    script = os.path.join(workdir, "saxpy_module.py")
    with open(script, "w") as f:
        f.write(KERNEL_FILE)
    cold, warm = [], []
    for r in range(repeats):
        cache = os.path.join(workdir, f"cache{r}")
        cold.append(run_child(script, cache))
        warm.append(run_child(script, cache))
    cold_ms = sorted(c["ms"] for c in cold)[repeats // 2]
    warm_ms = sorted(w["ms"] for w in warm)[repeats // 2]
    assert not any(c["from_cache"] for c in cold) and all(w["from_cache"] for w in warm)
    emit(bench="cold_compile_saxpy", device="cpu", ms=round(cold_ms, 2),
         compiler_ms=round(sorted(c["compiler_ms"] for c in cold)[repeats // 2], 2),
         note="empty cache, new process; pipeline + host C++ compiler")
    emit(bench="warm_load_saxpy", device="cpu", ms=round(warm_ms, 3),
         note="cache hit, new process: source capture, parse, infer, codegen, hash, verify, dlopen")
    emit(bench="import_treadle", ms=round(sorted(w["import_ms"] for w in warm)[repeats // 2], 2))


def launch_overhead():
    import treadle as wp

    @wp.kernel
    def empty(x: wp.array(dtype=float)):
        i = wp.tid()

    @wp.kernel
    def empty0():
        i = wp.tid()

    @wp.kernel
    def mixed12(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float),
                d: wp.array(dtype=float), n0: int, n1: int, n2: int, s0: float, s1: float,
                v0: wp.vec3, v1: wp.vec3, big: wp.int64):
        i = wp.tid()

    @wp.kernel
    def mat33x3(m0: wp.mat33, m1: wp.mat33, m2: wp.mat33):
        i = wp.tid()

    x = wp.zeros(1, dtype=wp.float32, device="cpu")
    args12 = [x, x, x, x, 1, 2, 3, 1.0, 2.0, wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0), 5]
    m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    rows = ((empty0, [], 0, "no arguments"), (empty, [x], 1, "1 array"),
            (mixed12, args12, 12, "4 arrays, 3 int, 2 float, 2 vec3, 1 int64"),
            (mat33x3, [m, m, m], 3, "3 mat33"))
    for kernel, inputs, count, what in rows:
        wp.launch(kernel, dim=1, inputs=inputs, device="cpu")
        n = 20000
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(n):
                wp.launch(kernel, dim=1, inputs=inputs, device="cpu")
            best = min(best, (time.perf_counter() - t0) / n)
        emit(bench="launch_overhead_empty_kernel", device="cpu", args=count, kinds=what,
             us=round(best * 1e6, 3), note="wp.launch from Python, dim=1 (runs inline)")


SAXPY_CHILD = textwrap.dedent(
    """
    import json, time, numpy as np, treadle as wp
    @wp.kernel
    def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]
    n = 10_000_000
    x = wp.array(np.random.default_rng(0).random(n, dtype=np.float32), device="cpu")
    y = wp.zeros(n, dtype=wp.float32, device="cpu")
    wp.launch(saxpy, dim=n, inputs=[2.0, x, y], device="cpu")
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        wp.launch(saxpy, dim=n, inputs=[2.0, x, y], device="cpu")
        times.append(time.perf_counter() - t0)
    print(json.dumps({"s": sorted(times)[len(times) // 2]}))
    """
)


def saxpy_throughput(workdir):
    n = 10_000_000
    bytes_moved = 12 * n
    script = os.path.join(workdir, "saxpy_child.py")
    with open(script, "w") as f:
        f.write(SAXPY_CHILD)
    cache = os.path.join(workdir, "cache_saxpy")
    cores = os.cpu_count()
    for threads in (1, cores):
        s = run_child(script, cache, threads=threads)["s"]
        emit(bench="saxpy_1e7", device="cpu", impl="treadle", threads=threads,
             ms=round(s * 1e3, 3), gb_s=round(bytes_moved / s / 1e9, 2))
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    tmp = np.empty_like(y)
    a = np.float32(2.0)
    times = []
    for _ in range(15):
        t0 = time.perf_counter()
        np.multiply(x, a, out=tmp)
        np.add(tmp, y, out=y)
        times.append(time.perf_counter() - t0)
    s = sorted(times)[len(times) // 2]
    emit(bench="saxpy_1e7", device="cpu", impl="numpy", threads=1, ms=round(s * 1e3, 3),
         gb_s=round(bytes_moved / s / 1e9, 2), note="two ufunc passes, preallocated output")


def main():
    emit(bench="machine", cpus=os.cpu_count(), python=sys.version.split()[0])
    with tempfile.TemporaryDirectory() as workdir:
        compile_times(workdir)
        os.environ.setdefault("TREADLE_CACHE_DIR", os.path.join(workdir, "cache_main"))
        launch_overhead()
        saxpy_throughput(workdir)


if __name__ == "__main__":
    main()
