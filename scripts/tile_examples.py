#!/usr/bin/env python3
"""scripts/tile_examples.py -- runs Warp's upstream tile examples (warp/examples/tile from the
pinned wheel) unchanged against treadle and, where a Warp build is given, against Warp, and
compares the arrays each run leaves behind. Prints one JSON line per example.

    python3 scripts/tile_examples.py --examples DIR [--device cuda:0] [--warp-path DIR]
        [--only NAME ...] [--timeout 300] [--out DIR]

DIR is an unpacked wheel's warp/examples/tile folder (scripts/conformance.py unpacks the wheel;
`--unpack` takes the folder from build/conformance-cache/wheels/ itself). Each example runs in
its own process with `warp` meaning treadle (through scripts/conformance_site) or, with
--warp-path, the Warp found there. After it ends, the arrays among its module globals and the
attributes of its `example` object are saved; the comparison row gives, for each array both
runs left, the largest difference relative to the largest magnitude of Warp's values.
"""

import argparse
import glob
import json
import os
import runpy
import subprocess
import sys
import time
import zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Shorter runs than the examples' defaults, so that the comparison is quick (and a chaotic
# simulation has not yet diverged from rounding): the arguments each example gets.
ARGS = {
    "example_tile_nbody": ["--num-frames", "10"],
    "example_tile_mcgp": ["--slices", "4"],
    "example_tile_mlp": ["--train-iters", "200"],
}


def collect_arrays(namespace):
    """name -> numpy array for the arrays among `namespace`'s values and its `example`'s
    attributes (skipping anything that fails to convert)."""
    found = {}
    candidates = list(namespace.items())
    example = namespace.get("example")
    if example is not None:
        candidates += [(f"example.{k}", v) for k, v in vars(example).items()]
    for name, value in candidates:
        if type(value).__name__ != "array" or not hasattr(value, "numpy"):
            continue
        try:
            values = np.asarray(value.numpy())
        except Exception:
            continue
        if values.dtype.kind in "fciub" and values.size > 0:
            found[name] = values.astype(np.float64) if values.dtype.kind != "c" else values
    return found


def child(path, npz, device, extra):
    """Runs one example as __main__ and saves its arrays to `npz` (exit status: the example's)."""
    sys.argv = [path] + (["--device", device] if device else []) + ["--headless"] + extra
    status = 0
    namespace = {}
    try:
        namespace = runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    arrays = collect_arrays(namespace)
    np.savez(npz, **{k.replace(".", "__"): v for k, v in arrays.items()})
    return status


def run_one(path, impl, args, out_dir):
    """Runs example `path` with `impl` ("treadle" or "warp") in a subprocess."""
    name = os.path.splitext(os.path.basename(path))[0]
    npz = os.path.join(out_dir, f"{name}.{impl}.npz")
    env = dict(os.environ)
    if impl == "treadle":
        tests = os.path.join(ROOT, "build", "conformance-cache", "warp-1.17.0", "warp", "tests")
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "scripts", "conformance_site"),
                                             os.path.join(ROOT, "python")])
        env["TREADLE_CONFORMANCE_TESTS_DIR"] = tests
        env["TREADLE_EXAMPLE_ASSETS"] = os.path.join(os.path.dirname(os.path.dirname(path)),
                                                     "assets")
    else:
        env["PYTHONPATH"] = args.warp_path
    cmd = [sys.executable, os.path.abspath(__file__), "--child", path, npz, args.device or "",
           *ARGS.get(name, [])]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout,
                           cwd=out_dir)
        rc, output = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        rc, output = "timeout", (e.stdout or b"").decode(errors="replace") if isinstance(
            e.stdout, bytes) else (e.stdout or "")
    seconds = time.perf_counter() - t0
    tail = [line for line in output.splitlines() if line.strip()][-3:]
    return {"rc": rc, "seconds": round(seconds, 2), "tail": tail, "npz": npz}


def compare(a_npz, b_npz):
    """name -> max |a - b| / max |b| over the arrays both runs saved with the same shape."""
    if not (os.path.exists(a_npz) and os.path.exists(b_npz)):
        return {}
    a, b = np.load(a_npz), np.load(b_npz)
    out = {}
    for k in sorted(set(a.files) & set(b.files)):
        if a[k].shape != b[k].shape:
            out[k.replace("__", ".")] = "shapes differ"
            continue
        scale = float(np.max(np.abs(b[k]))) or 1.0
        out[k.replace("__", ".")] = float(np.max(np.abs(a[k] - b[k]))) / scale
    return out


def unpack_examples(dest):
    wheels = glob.glob(os.path.join(ROOT, "build", "conformance-cache", "wheels",
                                    "warp_lang-1.17.0-*.whl"))
    if not wheels:
        sys.exit("no warp-lang 1.17.0 wheel in build/conformance-cache/wheels "
                 "(run scripts/conformance.py once)")
    with zipfile.ZipFile(wheels[0]) as z:
        for n in z.namelist():
            if n.startswith("warp/examples/tile/") or n.startswith("warp/examples/assets/") \
                    or n == "warp/examples/__init__.py":
                z.extract(n, dest)
    return os.path.join(dest, "warp", "examples", "tile")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        path, npz, device = sys.argv[2], sys.argv[3], sys.argv[4]
        sys.exit(child(path, npz, device, sys.argv[5:]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", help="the warp/examples/tile folder")
    ap.add_argument("--unpack", metavar="DEST", help="unpack the examples from the cached wheel")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--warp-path", default=None)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "tile-examples"))
    args = ap.parse_args()
    folder = args.examples or (unpack_examples(args.unpack) if args.unpack else None)
    folder = os.path.abspath(folder) if folder else None
    if not folder:
        ap.error("give --examples or --unpack")
    os.makedirs(args.out, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(folder, "example_tile_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if args.only and not any(o in name for o in args.only):
            continue
        row = {"example": name, "device": args.device,
               "treadle": run_one(path, "treadle", args, args.out)}
        if args.warp_path:
            row["warp"] = run_one(path, "warp", args, args.out)
            row["max_rel_diff"] = compare(row["treadle"]["npz"], row["warp"]["npz"])
        for impl in ("treadle", "warp"):
            row.get(impl, {}).pop("npz", None)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
