"""scripts/conformance.py -- measures treadle against Warp's own unit tests (warp-lang==1.17.0;
the `sim` set against warp-lang==1.9.1, the last Warp that shipped warp.sim).

Fetches the pinned Warp wheel once into a cache folder, unpacks its warp/tests/ tree, and runs
each chosen test file in a process of its own (scripts/conformance_child.py) with a timeout,
with `warp` resolved to treadle. Prints a per-file table, totals and the most common failure
causes, and writes every failing test id with its one-line cause to --json. `--reference` runs
the same files against the real Warp (installed into a private virtual environment in the cache
folder) and compares per test id: "treadle passes X of the Y tests Warp passes".

Start reading at main(); run_file() is the per-file process, summarise() the report.
"""

import argparse
import collections
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD = os.path.join(REPO, "scripts", "conformance_child.py")
SITE = os.path.join(REPO, "scripts", "conformance_site")  # its sitecustomize aliases warp
WARP_VERSION = "1.17.0"
# The Warp whose tests a set is measured on when it is not WARP_VERSION: warp.sim left Warp
# after 1.9, so treadle.sim is measured on 1.9.1's warp/tests/sim.
SET_VERSIONS = {"sim": "1.9.1"}

# The core files of Warp's suite that treadle is measured on (paths below warp/tests/).
CORE_FILES = [
    "test_codegen", "test_func", "test_generics", "test_static", "test_struct", "test_grad",
    "test_tape", "test_grad_customs", "test_array", "test_indexedarray", "test_launch",
    "test_atomic", "test_atomic_cas", "test_atomic_bitwise", "test_vec_scalar_ops", "test_vec",
    "test_vec_constructors", "matrix/test_mat*", "test_quat", "test_spatial", "test_arithmetic",
    "test_scalar_ops", "test_conditional", "test_lvalue", "test_overwrite", "test_unpack",
    "test_iter", "test_tuple", "test_copy", "test_rand", "test_noise", "test_special_values",
    "test_fp16", "test_bf16", "test_bool", "test_types", "test_compile_consts", "test_print",
    "test_math", "test_utils", "test_lerp", "test_smoothstep", "test_snippet", "test_enum",
    "test_implicit_init", "test_subscript_types", "test_builtins_resolution",
    "test_module_hashing", "test_kernel_cache", "test_reload", "test_codegen_instancing",
    "test_devices", "test_verify_fp", "test_options", "test_assert", "test_dense", "test_ctypes",
    "test_array_reduce", "test_runlength_encode", "cuda/test_streams", "cuda/test_mempool",
    "cuda/test_pinned", "cuda/test_async", "cuda/test_conditional_captures", "test_graph",
]

# Files that treadle passes completely today; the CI subset (tests/python/test_conformance_subset.py).
CI_FILES = [
    "test_rand", "test_noise", "test_atomic_cas", "test_array_reduce", "test_runlength_encode",
    "test_unpack", "test_bool", "test_smoothstep", "test_snippet", "matrix/test_mat_basics",
    "test_vec_constructors", "matrix/test_mat_lite", "test_lvalue", "test_overwrite", "test_iter",
    "test_tuple", "test_copy", "test_fp16", "test_lerp", "test_enum", "test_builtins_resolution",
    "test_assert", "cuda/test_streams", "cuda/test_mempool", "cuda/test_conditional_captures",
    "test_math", "test_dense", "test_bf16", "geometry/test_marching_cubes",
    "test_closest_point_edge_edge", "test_intersect", "test_triangle_closest_point",
    "test_cuda_profiler", "geometry/test_volume", "geometry/test_volume_write",
    "test_allocation_tracker", "geometry/test_mesh_query_point", "geometry/test_mesh_query_ray",
    "deterministic/test_deterministic_scatter", "deterministic/test_deterministic_counter",
    "deterministic/test_deterministic_backward", "geometry/test_grouped_bvh", "geometry/test_mesh",
    "test_adam", "test_sgd", "tile/test_tile_load_assign", "tile/test_tile_matmul_strides",
    "tile/test_tile_load_indexed", "tile/test_tile_stack", "tile/test_tile_empty", "test_sparse",
    "interop/test_dlpack",  # (interop/test_torch passes too, but has no tests without PyTorch)
]

# Named sets for the command line; only core and ci have been swept so far.
SETS = {"core": CORE_FILES, "ci": CI_FILES, "geometry": ["geometry/test_*"],
        "sparse": ["test_sparse"], "tile": ["tile/test_*"],
        "optim": ["test_adam", "test_sgd", "test_linear_solvers"],
        "interop": ["interop/test_dlpack", "interop/test_torch"], "sim": ["sim/test_*"]}


def default_cache():
    """$TREADLE_CONFORMANCE_CACHE, else build/conformance-cache in the checkout."""
    return os.environ.get("TREADLE_CONFORMANCE_CACHE") or os.path.join(
        REPO, "build", "conformance-cache")


class FetchError(RuntimeError):
    """The wheel is neither cached nor downloadable (no network, no pip)."""


def _suffix(version):
    """What names a cache entry of `version` apart from the default Warp's ("" for it)."""
    return "" if version == WARP_VERSION else f"-{version}"


def fetch_wheel(cache, version=WARP_VERSION):
    """Returns the path of the cached wheel, downloading it with pip when absent."""
    wheels = os.path.join(cache, "wheels")
    os.makedirs(wheels, exist_ok=True)
    wheel_glob = f"warp_lang-{version}-*.whl"
    found = sorted(fnmatch.filter(os.listdir(wheels), wheel_glob))
    if not found:
        # Few retries and a short timeout: without network this fails in seconds, not minutes.
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "-q", "--retries", "1", "--timeout", "20",
               "-d", wheels, f"warp-lang=={version}"]
        print(f"fetching warp-lang=={version} (~160 MB, once) into {wheels}", flush=True)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        found = sorted(fnmatch.filter(os.listdir(wheels), wheel_glob))
        if proc.returncode != 0 or not found:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["(no output)"]
            raise FetchError(f"pip download warp-lang=={version} failed: {tail[0]}")
    return os.path.join(wheels, found[-1])


def unpack_tests(cache, wheel, version=WARP_VERSION):
    """Unpacks warp/tests/ (code and the data files in it) once; returns the warp/tests path."""
    root = os.path.join(cache, f"warp-{version}")
    tests_dir = os.path.join(root, "warp", "tests")
    stamp = os.path.join(root, ".complete")
    if not os.path.exists(stamp):
        shutil.rmtree(root, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            # the example assets too: some tests read them through warp.examples
            members = [n for n in z.namelist()
                       if n.startswith("warp/tests/") or n.startswith("warp/examples/assets/")]
            z.extractall(root, members)
        with open(stamp, "w") as f:
            f.write(os.path.basename(wheel) + "\n")
    return tests_dir


def reference_python(cache, wheel, version=WARP_VERSION):
    """The interpreter of a private venv with the real warp-lang installed from the cached wheel."""
    venv = os.path.join(cache, "reference-venv" + _suffix(version))
    py = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, ".warp-installed")
    if not os.path.exists(stamp):
        shutil.rmtree(venv, ignore_errors=True)
        # System site-packages supply numpy; warp itself goes only into this venv.
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--no-deps", wheel], check=True)
        # the base interpreter of a virtual environment may lack numpy
        if subprocess.run([py, "-c", "import numpy"], capture_output=True).returncode != 0:
            subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                            "numpy"], check=True)
        with open(stamp, "w") as f:
            f.write(os.path.basename(wheel) + "\n")
    # The optional interop packages (PyTorch), so that Warp's interop tests run there too.
    interop = os.path.join(REPO, "requirements-interop.txt")
    interop_stamp = os.path.join(venv, ".interop-installed")
    if os.path.exists(interop) and not os.path.exists(interop_stamp):
        subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-r", interop], check=True)
        with open(interop_stamp, "w") as f:
            f.write("requirements-interop.txt\n")
    return py


def prepare(cache=None, device="cpu", timeout=300.0, version=WARP_VERSION):
    """Fetches and unpacks the tests (FetchError without network); returns run_file's options."""
    cache = os.path.abspath(cache or default_cache())
    tests_dir = os.path.join(cache, f"warp-{version}", "warp", "tests")
    if os.path.exists(os.path.join(os.path.dirname(os.path.dirname(tests_dir)), ".complete")):
        wheel = None  # the unpacked tree is enough; the wheel is fetched only for --reference
    else:
        wheel = fetch_wheel(cache, version)
        tests_dir = unpack_tests(cache, wheel, version)
    opts = argparse.Namespace(cache=cache, wheel=wheel, tests_dir=tests_dir, version=version,
                              device=device, timeout=timeout, impl="treadle",
                              logs=os.path.join(cache, "logs"))
    os.makedirs(opts.logs, exist_ok=True)
    return opts


def resolve_files(tests_dir, patterns):
    """Expands names such as test_rand, matrix/test_mat* or set names (core, ci) to test files."""
    out = []
    for pat in patterns:
        if pat in SETS:
            out += [f for f in resolve_files(tests_dir, SETS[pat]) if f not in out]
            continue
        pat = pat[:-3] if pat.endswith(".py") else pat
        folder, _, name = pat.rpartition("/")
        base = os.path.join(tests_dir, folder)
        names = sorted(n[:-3] for n in os.listdir(base) if n.endswith(".py")) \
            if os.path.isdir(base) else []
        hits = [n for n in names if fnmatch.fnmatch(n, name) and n.startswith("test_")]
        if not hits:
            raise SystemExit(f"conformance: no test file matches {pat!r} in {tests_dir}")
        out += [f"{folder}/{n}" if folder else n for n in hits
                if (f"{folder}/{n}" if folder else n) not in out]
    return out


def _signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def run_file(name, opts):
    """Runs one test file in its own process group; returns its record (see README)."""
    module = "warp.tests." + name.replace("/", ".")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if opts.impl == "treadle":
        py = sys.executable
        env["PYTHONPATH"] = os.pathsep.join([SITE, os.path.join(REPO, "python")])
        env["TREADLE_CONFORMANCE_TESTS_DIR"] = opts.tests_dir
        # warp.examples.get_asset_directory() of treadle: the wheel's assets (unpack_tests)
        env["TREADLE_EXAMPLE_ASSETS"] = os.path.join(os.path.dirname(opts.tests_dir),
                                                     "examples", "assets")
        env["TREADLE_CACHE_DIR"] = os.path.join(opts.cache, "kernels-treadle")
    else:
        py = opts.reference_python
        if getattr(opts, "reference_path", None):
            env["PYTHONPATH"] = opts.reference_path  # a Warp built from source, not a wheel
        env["WARP_CACHE_PATH"] = os.path.join(opts.cache, "kernels-warp")
    if opts.device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""  # Warp's test utilities then list only the CPU
    log_path = os.path.join(opts.logs, name.replace("/", "__") + f".{opts.impl}.log")
    cmd = [py, CHILD, "--module", module, "--impl", opts.impl, "--device", opts.device]
    t0 = time.perf_counter()
    events, done = [], set()
    # A test that hangs or crashes the process ends that run; the file then runs again in a
    # fresh process without the tests already finished (and the one that stopped it), so that
    # one hang costs one test, not the rest of the file. Each run has the full timeout.
    for attempt in range(1 + RESUMES):
        run_events, outcome = _run_child(cmd, env, opts, log_path, done, attempt)
        events += run_events
        started = [ev["id"] for ev in run_events if ev["event"] == "start"]
        if outcome is None or not started:
            break
        done.update(started)
    seconds = time.perf_counter() - t0
    return build_record(name, events, seconds, log_path)


# Fresh processes a file gets after one that hung or crashed.
RESUMES = 3


def _run_child(cmd, env, opts, log_path, skip, attempt):
    """One child process over the file's tests less `skip`: its events and how it ended (None
    when it exited normally)."""
    fd, results = tempfile.mkstemp(prefix="conf-", suffix=".jsonl")
    os.close(fd)
    cmd = cmd + ["--results", results]
    skip_path = None
    if skip:
        fd, skip_path = tempfile.mkstemp(prefix="conf-skip-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(sorted(skip)) + "\n")
        cmd += ["--skip-file", skip_path]
    outcome = None
    with open(log_path, "a" if attempt else "w") as log:
        if attempt:
            log.write(f"\n==== run {attempt + 1}: without the {len(skip)} tests already run\n")
            log.flush()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=opts.cache, start_new_session=True)
        try:
            rc = proc.wait(timeout=opts.timeout)
            if rc < 0:
                outcome = f"crashed: {_signal_name(rc)}"
            elif rc != 0:
                outcome = f"exit status {rc}"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            outcome = f"timeout ({opts.timeout:g} s)"
    with open(results, encoding="utf-8") as f:
        events = [json.loads(line) for line in f if line.strip()]
    os.unlink(results)
    if skip_path:
        os.unlink(skip_path)
    # where the run stopped, for build_record (a "stop" event closes each run)
    events.append({"event": "stop", "outcome": outcome})
    return events, outcome


def build_record(name, events, seconds, log_path):
    """Folds the children's event streams (each run closed by a "stop" event that says how its
    process ended) into one per-file record."""
    rec = {"file": name, "seconds": round(seconds, 1), "log": log_path, "status": "ok",
           "detail": "", "tests": {}, "counts": {}}
    running = None
    finished = False
    stops = []  # (outcome, test it stopped in) of each run that did not end normally
    for ev in events:
        kind = ev["event"]
        if kind == "import_error":
            rec["status"], rec["detail"] = "import error", ev["cause"]
            rec["where"] = ev.get("where", "")
        elif kind == "no_device":
            rec["status"], rec["detail"] = "no device", ev["cause"]
        elif kind == "start":
            running = ev["id"]
        elif kind == "end":
            running = None
            rec["tests"][ev["id"]] = {"status": ev["status"], "cause": ev["cause"],
                                      "where": ev.get("where", "")}
        elif kind == "done":
            finished = True
        elif kind == "stop":
            if ev["outcome"] is not None:
                stops.append((ev["outcome"], running))
            running = None
    for outcome, test in stops:
        if test is not None:
            rec["tests"][test] = {"status": "error", "cause": outcome, "where": ""}
    if stops and rec["status"] == "ok":
        outcome, test = stops[0]
        rec["status"] = "crashed" if outcome.startswith("crashed") else outcome.split(" (")[0]
        rec["detail"] = outcome + (f" in {test}" if test else "")
        if len(stops) > 1:
            rec["detail"] += f" (and {len(stops) - 1} more; the file ran again after each)"
        if finished:
            rec["detail"] += "; the rest of the file ran"
    elif not finished and rec["status"] == "ok":  # no "done": the child stopped early
        rec["status"], rec["detail"] = "incomplete", "the test process ended early"
    counts = collections.Counter(t["status"] for t in rec["tests"].values())
    rec["counts"] = {k: counts.get(k, 0) for k in ("pass", "fail", "error", "skip")}
    rec["counts"]["run"] = len(rec["tests"])
    return rec


def normalise(cause):
    """Aggregation key of a cause: source locations, numbers and addresses folded together."""
    key = re.sub(r"[^\s'\"()]*/([^/\s]+\.py)\b", r"\1", cause)  # paths to file names
    key = re.sub(r"\b[\w.]+\.py:\d+(:\d+)?:\s*", "", key)  # "file.py:12:5: " prefixes
    key = re.sub(r"0x[0-9a-fA-F]+", "ADDR", key)
    key = re.sub(r"(?<![\w.])[-+]?\d+(\.\d+)?(e[-+]?\d+)?", "N", key)
    return key[:160]


NOT_COLLECTED = "not collected: Warp's run of the file has this test, treadle's has not"


def top_causes(records, n, refs=None):
    """The n causes that cost the most tests, over failed and errored tests of all files.

    With Warp's records (refs), a cause is weighed by the tests Warp passes that it costs
    treadle (an import error costs the whole file; tests that only Warp's run of a file has are
    listed as NOT_COLLECTED); without them, by the number of tests it fails.
    """
    agg = {}
    for rec in records:
        ref = (refs or {}).get(rec["file"])
        warp_pass = {t for t, r in ref["tests"].items() if r["status"] == "pass"} if ref else None
        items = [(tid, t["cause"], tid in warp_pass if ref else True)
                 for tid, t in rec["tests"].items() if t["status"] in ("fail", "error")]
        if rec["status"] == "import error":
            items.append((f"{rec['file']} (import)", "import error: " + rec["detail"],
                          len(warp_pass) if ref else 0))
        elif rec["status"] != "ok" and not items:
            items.append((rec["file"], rec["detail"], 0))
        if ref and rec["status"] != "import error":
            items += [(tid, NOT_COLLECTED, True) for tid in sorted(warp_pass - set(rec["tests"]))]
        for tid, cause, cost in items:
            entry = agg.setdefault(normalise(cause),
                                   {"count": 0, "cost": 0, "files": set(), "examples": []})
            entry["count"] += 1
            entry["cost"] += int(cost)
            entry["files"].add(rec["file"])
            if len(entry["examples"]) < 3:
                entry["examples"].append(tid.replace("warp.tests.", ""))
    weight = "cost" if refs else "count"
    ranked = sorted(agg.items(), key=lambda kv: (-kv[1][weight], -kv[1]["count"], kv[0]))[:n]
    return [{"cause": k, "count": v["count"], "warp_passes_lost": v["cost"] if refs else None,
             "files": len(v["files"]), "examples": v["examples"]} for k, v in ranked]


def _cell(rec):
    if rec is None:
        return "-"
    c = rec["counts"]
    text = f"{c['pass']}/{c['run']}"
    if rec["status"] == "import error":
        return "import error"
    if rec["status"] != "ok":
        text += f" {rec['status']}"
    return text


def summarise(records, refs, top_n):
    """Prints the per-file table, the totals and the top failure causes; returns the summary."""
    has_ref = refs is not None
    head = f"{'file':36} {'run':>5} {'pass':>5} {'fail':>5} {'err':>5} {'skip':>5}"
    head += f"  {'warp':>14} {'both':>5}  status" if has_ref else "  status"
    print(head)
    print("-" * len(head))
    tot = collections.Counter()
    ref_pass_total = both_total = 0
    for rec in records:
        c = rec["counts"]
        tot.update({k: c[k] for k in ("run", "pass", "fail", "error", "skip")})
        status = {"ok": "ok", "import error": "import error: " + rec["detail"]}.get(
            rec["status"], rec["detail"])
        line = (f"{rec['file']:36} {c['run']:5} {c['pass']:5} {c['fail']:5} {c['error']:5} "
                f"{c['skip']:5}")
        if has_ref:
            ref = refs.get(rec["file"])
            ref_pass = {t for t, r in (ref or {"tests": {}})["tests"].items()
                        if r["status"] == "pass"}
            both = {t for t, r in rec["tests"].items() if r["status"] == "pass"} & ref_pass
            rec["warp_passes"], rec["treadle_passes_of_warp"] = len(ref_pass), len(both)
            rec["warp_passes_treadle_does_not"] = sorted(ref_pass - both)
            ref_pass_total += len(ref_pass)
            both_total += len(both)
            line += f"  {_cell(ref):>14} {len(both):5}"
        print(f"{line}  {status[:110]}")
    print("-" * len(head))
    print(f"{'total (' + str(len(records)) + ' files)':36} {tot['run']:5} {tot['pass']:5} "
          f"{tot['fail']:5} {tot['error']:5} {tot['skip']:5}")
    bad = collections.Counter(r["status"] for r in records if r["status"] != "ok")
    complete = sum(1 for r in records if r["status"] == "ok" and r["counts"]["pass"] > 0
                   and r["counts"]["pass"] + r["counts"]["skip"] == r["counts"]["run"])
    extra = "".join(f"; {k}: {v}" for k, v in sorted(bad.items()))
    print(f"files passing completely: {complete}{extra}")
    summary = {"files": len(records), "totals": dict(tot), "files_complete": complete,
               "file_status": dict(bad)}
    if has_ref:
        pct = 100.0 * both_total / ref_pass_total if ref_pass_total else 0.0
        print(f"treadle passes {both_total} of the {ref_pass_total} tests Warp passes "
              f"({pct:.1f}%)")
        summary.update({"warp_passes": ref_pass_total, "treadle_passes_of_warp": both_total})
    causes = top_causes(records, top_n, refs)
    if causes:
        cols = "Warp-passed tests lost, tests, files" if has_ref else "tests, files"
        print(f"\ntop {len(causes)} failure causes ({cols}; examples):")
        for i, c in enumerate(causes, 1):
            lost = f"{c['warp_passes_lost']:5} " if has_ref else ""
            print(f"{i:3}. {lost}{c['count']:5} {c['files']:3}  {c['cause']}")
            print(f"{'':15}e.g. {', '.join(c['examples'])}")
    summary["top_causes"] = causes
    return summary


def _saved_reference(name, opts):
    """Where real Warp's record of a file is kept: Warp is pinned, so its results are reused."""
    folder = os.path.join(opts.cache, "reference-results" + _suffix(opts.version),
                          opts.device.replace(":", "_"))
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name.replace("/", "__") + ".json")


def run_all(files, opts):
    """Runs every file (opts.jobs at a time), printing one progress line per finished file."""
    def one(name):
        saved = _saved_reference(name, opts) if opts.impl == "warp" else None
        if saved and os.path.exists(saved) and not opts.rerun_reference:
            with open(saved, encoding="utf-8") as f:
                return json.load(f)
        rec = run_file(name, opts)
        if saved and rec["status"] != "timeout":
            with open(saved, "w", encoding="utf-8") as f:
                json.dump(rec, f)
        c = rec["counts"]
        print(f"  [{opts.impl}] {name}: {c['pass']}/{c['run']} passed, {rec['status']} "
              f"({rec['seconds']:.0f} s)", flush=True)
        return rec

    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        return list(pool.map(one, files))


def _json_record(rec):
    failing = {tid: t["cause"] for tid, t in rec["tests"].items()
               if t["status"] in ("fail", "error")}
    out = {k: v for k, v in rec.items() if k != "tests"}
    out["failing"] = failing
    out["passed"] = sorted(t for t, r in rec["tests"].items() if r["status"] == "pass")
    return out


def warp_version_of(patterns):
    """The Warp version whose tests `patterns` name: SET_VERSIONS' for sets listed there (and
    sim/ files), WARP_VERSION otherwise; None when they mix versions."""
    versions = {SET_VERSIONS.get(p, SET_VERSIONS["sim"] if p.startswith("sim/") else WARP_VERSION)
                for p in patterns}
    return versions.pop() if len(versions) == 1 else None


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run Warp 1.17.0's own unit tests under treadle (see README, 'Conformance').")
    ap.add_argument("--warp-version", choices=[WARP_VERSION, *sorted(set(SET_VERSIONS.values()))],
                    default=None, help=f"whose tests ({WARP_VERSION}; default: the version of "
                    "the named sets, " + ", ".join(f"{k}: {v}" for k, v in SET_VERSIONS.items())
                    + ")")
    ap.add_argument("files", nargs="*", default=["core"],
                    help="test files below warp/tests (test_rand, matrix/test_mat*) or a set "
                         f"({', '.join(SETS)}); default: core")
    ap.add_argument("--device", choices=["cpu", "cuda:0"], default="cpu")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per file (300)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="files run at once (1)")
    ap.add_argument("--reference", action="store_true",
                    help="also run the files against real Warp (results saved in the cache "
                         "and reused) and compare per test id")
    ap.add_argument("--reference-only", action="store_true",
                    help="run (or show the saved results of) real Warp alone")
    ap.add_argument("--reference-path", metavar="DIR",
                    help="use the Warp importable from DIR (a source build) with this "
                         "interpreter as the reference, instead of the wheel's venv")
    ap.add_argument("--rerun-reference", action="store_true",
                    help="run real Warp again instead of reusing its saved per-file results")
    ap.add_argument("--json", help="write one record per file (failing ids and causes) here")
    ap.add_argument("--cache", default=default_cache(), help="wheel, tests and venv cache")
    ap.add_argument("--top", type=int, default=15, help="failure causes to list (15)")
    ap.add_argument("--list", action="store_true", help="print the resolved files and stop")
    args = ap.parse_args(argv)
    version = args.warp_version or warp_version_of(args.files)
    if version is None:
        print("conformance: the named files come from different Warp versions "
              f"({', '.join(f'{k}: {v}' for k, v in SET_VERSIONS.items())}); run them apart",
              file=sys.stderr)
        return 2
    try:
        opts = prepare(args.cache, args.device, args.timeout, version)
    except FetchError as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return 3
    for key, value in vars(args).items():
        if key not in ("cache", "device", "timeout", "warp_version"):
            setattr(opts, key, value)
    wheel = opts.wheel
    files = resolve_files(opts.tests_dir, opts.files)
    if opts.list:
        print("\n".join(files))
        return 0
    print(f"{len(files)} files on {opts.device}, timeout {opts.timeout:g} s per file; "
          f"logs in {opts.logs}", flush=True)
    t0 = time.perf_counter()
    refs = None
    if opts.reference or opts.reference_only:
        if opts.reference_path:
            opts.reference_python = sys.executable
        else:
            try:
                wheel = wheel or fetch_wheel(opts.cache, version)
            except FetchError as exc:
                print(f"conformance: {exc}", file=sys.stderr)
                return 3
            opts.reference_python = reference_python(opts.cache, wheel, version)
        opts.impl = "warp"
        refs = {r["file"]: r for r in run_all(files, opts)}
    if opts.reference_only:
        records, refs = [refs[f] for f in files], None
    else:
        opts.impl = "treadle"
        records = run_all(files, opts)
    print(f"\n(ran in {time.perf_counter() - t0:.0f} s)\n")
    summary = summarise(records, refs, opts.top)
    if opts.json:
        side = "warp" if opts.reference_only else "treadle"
        doc = {"warp_version": version, "device": opts.device, "summary": summary,
               side: [_json_record(r) for r in records]}
        if refs is not None:
            doc["warp"] = [_json_record(refs[f]) for f in files]
        with open(opts.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        print(f"\nwrote {opts.json}")
    ok = all(r["status"] == "ok" and r["counts"]["fail"] + r["counts"]["error"] == 0
             for r in records)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
