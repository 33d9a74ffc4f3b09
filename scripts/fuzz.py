#!/usr/bin/env python3
"""Fuzzes the compiler and the launch path: random kernels, mutated test kernels and bad
launches, run in crash-isolated subprocess batches; writes one file per finding.

    PYTHONPATH=python python3 scripts/fuzz.py --count 1000 --seed 1 --out /tmp/fuzz
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.fuzz import generate, launches, mutate, runner  # noqa: E402

KINDS = (("gen", 0.45), ("mut", 0.4), ("launch", 0.15))


def make_cases(count, seed, launch_rate=0.1):
    """(name, text) for `count` cases; the same seed gives the same cases."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        r, kind = rng.random(), KINDS[-1][0]
        for k, share in KINDS:
            if r < share:
                kind = k
                break
            r -= share
        sub = random.Random(f"{seed}:{i}")
        if kind == "gen":
            text = generate.generated(sub, launch_rate)
        elif kind == "mut":
            text = mutate.mutated(sub)
        else:
            text = launches.bad_launch(sub)
        cases.append((f"case_{seed}_{i:06d}_{kind}.py", text))
    return cases


def run(count, seed, jobs=1, timeout=60.0, batch_size=25, out=None, launch_rate=0.1,
        minimise=True, cache_dir=None, log=print):
    """Runs the cases; returns ({name: (class, detail)}, {name: minimised text of a finding})."""
    cases = make_cases(count, seed, launch_rate)
    own_cache = cache_dir is None
    if own_cache:  # generated kernels never repeat: a private cache, removed at the end
        cache_dir = tempfile.mkdtemp(prefix="treadle-fuzz-cache-")
    try:
        return _run(cases, count, seed, jobs, timeout, batch_size, out, minimise, cache_dir, log)
    finally:
        if own_cache:
            shutil.rmtree(cache_dir, ignore_errors=True)


def _run(cases, count, seed, jobs, timeout, batch_size, out, minimise, cache_dir, log):
    chunks = [cases[i : i + batch_size * 4] for i in range(0, len(cases), batch_size * 4)]
    results = {}
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(runner.run_cases, c, "launch", timeout, batch_size, cache_dir)
                   for c in chunks]
        for n, f in enumerate(futures):
            results.update(f.result())
            counts = collections.Counter(c for c, _ in results.values())
            log(f"[{time.time() - started:6.0f} s] {len(results)}/{len(cases)} {dict(counts)}")
    texts = dict(cases)
    findings, minimised = {}, set()
    for name, (cls, detail) in sorted(results.items()):
        if cls not in runner.FINDINGS:
            continue
        small = texts[name]
        signature = (cls, re.sub(r"case_\S+|\d+", "", detail.splitlines()[0] if detail else ""))
        if minimise and signature not in minimised:  # one reproducer per kind of failure
            minimised.add(signature)
            small = runner.minimise(name, texts[name], cls, "launch", timeout, cache_dir)
        findings[name] = small
        if out:
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, name), "w") as f:
                f.write(f"# class: {cls}\n# {detail.splitlines()[0][:300] if detail else ''}\n")
                f.write(small)
    if out:
        os.makedirs(out, exist_ok=True)
        counts = collections.Counter(c for c, _ in results.values())
        with open(os.path.join(out, "summary.json"), "w") as f:
            json.dump({"count": count, "seed": seed, "classes": dict(counts),
                       "findings": {n: results[n][0] for n in findings},
                       "seconds": round(time.time() - started)}, f, indent=1)
    return results, findings


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    p.add_argument("--batch", type=int, default=25, help="cases per subprocess")
    p.add_argument("--launch-rate", type=float, default=0.1,
                   help="share of generated kernels that are compiled and launched on the CPU")
    p.add_argument("--out", default="fuzz-out")
    p.add_argument("--no-minimise", action="store_true")
    p.add_argument("--device", default="cpu",
                   help="device the cases launch on (cpu, cuda:0); NVRTC checks run either way")
    a = p.parse_args()
    os.environ["TREADLE_FUZZ_DEVICE"] = a.device  # read by the generators and the workers
    results, findings = run(a.count, a.seed, a.jobs, a.timeout, a.batch, a.out, a.launch_rate,
                            not a.no_minimise)
    print(json.dumps(collections.Counter(c for c, _ in results.values())))
    for name in findings:
        print(f"finding: {results[name][0]}: {name}: {results[name][1].splitlines()[0][:200]}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
