"""Runs fuzz cases in subprocess batches with a per-case timeout, isolates crashes and hangs,
and minimises failing cases by deleting lines and tokens while their class stays."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLASSES = (
    "ok",  # compiled (and ran, in launch mode)
    "clean_loc",  # a typed treadle error naming the case's file and line
    "clean_noloc",  # a typed treadle error without a location
    "python_reject",  # Python itself refused the input (not treadle's business)
    "leak",  # an internal exception type or message reached the user
    "signal",  # the process died by a signal (segfault, abort)
    "hang",  # the case ran past the timeout
    "gxx",  # the host (or device) compiler rejected generated code
)
FINDINGS = ("leak", "signal", "hang", "gxx")


def _env(cache_dir):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), ROOT,
                                         env.get("PYTHONPATH", "")])
    env["TREADLE_CACHE_DIR"] = cache_dir
    return env


def _run_batch(cases, mode, timeout, cache_dir):
    """{name: (class, detail)} for the cases it finished; the batch dies on a signal or hang,
    leaving the rest unclassified, with ("signal"/"hang", detail) for the case in progress."""
    batch = tempfile.mkdtemp(prefix="treadle-fuzz-")
    try:
        for name, text in cases:
            with open(os.path.join(batch, name), "w") as f:
                f.write(text)
        with open(os.path.join(batch, "cases.json"), "w") as f:
            json.dump([n for n, _ in cases], f)
        log = open(os.path.join(batch, "log.txt"), "w")
        proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker", batch, mode],
                                cwd=ROOT, env=_env(cache_dir), stdout=log, stderr=log,
                                start_new_session=True)
        results, current, started = {}, None, time.time()
        path = os.path.join(batch, "results.jsonl")
        seen = 0
        startup = 30.0
        while True:
            rc = proc.poll()
            if os.path.exists(path):
                with open(path) as f:
                    lines = f.read().splitlines()
                for line in lines[seen:]:
                    try:
                        r = json.loads(line)
                    except ValueError:
                        break
                    seen += 1
                    if "start" in r:
                        current, started = r["start"], time.time()
                    elif "name" in r:
                        results[r["name"]] = (r["class"], r["detail"])
                        current = None
            if rc is not None:
                break
            limit = timeout if current is not None else startup
            if time.time() - started > limit:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                if current is not None:
                    results[current] = ("hang", f"no result after {timeout} s")
                return results
            time.sleep(0.05)
        if current is not None and current not in results:
            log.flush()
            tail = open(os.path.join(batch, "log.txt"), errors="replace").read()[-2000:]
            results[current] = ("signal", f"exit status {rc}: {tail}")
        return results
    finally:
        shutil.rmtree(batch, ignore_errors=True)


def run_cases(cases, mode="source", timeout=60.0, batch_size=25, cache_dir=None):
    """Classifies every (name, text) case: {name: (class, detail)}. A batch that dies is
    rerun: the case it died on alone (to confirm the culprit), then the rest as a new batch."""
    cache_dir = cache_dir or os.environ.get("TREADLE_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "treadle-fuzz-cache")
    out = {}
    todo = list(cases)
    while todo:
        batch, todo = todo[:batch_size], todo[batch_size:]
        res = _run_batch(batch, mode, timeout, cache_dir)
        died = [n for n, (c, _) in res.items() if c in ("signal", "hang")]
        for name in died:
            text = dict(batch)[name]
            res[name] = _run_batch([(name, text)], mode, timeout, cache_dir).get(
                name, ("signal", "no result when run alone"))
        out.update(res)
        rest = [(n, t) for n, t in batch if n not in res]
        todo = rest + todo
    return out


def minimise(name, text, cls, mode="source", timeout=60.0, cache_dir=None, budget=150):
    """A shorter text with the same class: deletes lines, then tokens, while the class stays
    (at most `budget` trial runs, in small batches)."""
    trials = 0

    def same(candidates):
        nonlocal trials
        trials += len(candidates)
        named = [(f"{name[:-3]}_m{i}.py", t) for i, t in enumerate(candidates)]
        res = run_cases(named, mode, timeout, batch_size=len(named), cache_dir=cache_dir)
        for (n, t) in named:
            if res.get(n, ("", ""))[0] == cls:
                return t
        return None

    def shrink(units, join):
        changed = True
        while changed and trials < budget:
            changed = False
            i = 0
            while i < len(units) and trials < budget:
                cands = []
                for k in range(i, min(i + 6, len(units))):
                    cands.append((k, join(units[:k] + units[k + 1:])))
                hit = same([c for _, c in cands])
                if hit is None:
                    i += len(cands)
                    continue
                k = next(k for k, c in cands if c == hit)
                units = units[:k] + units[k + 1:]
                changed = True
        return units

    lines = shrink(text.splitlines(), lambda u: "\n".join(u) + "\n")
    for li in range(len(lines)):
        line = lines[li]
        indent = line[: len(line) - len(line.lstrip())]
        toks = line.split()
        if trials >= budget or len(toks) < 2:
            continue

        def join_tokens(u, li=li, indent=indent):
            return "\n".join(lines[:li] + [indent + " ".join(u)] + lines[li + 1 :]) + "\n"

        lines[li] = indent + " ".join(shrink(toks, join_tokens))
    return "\n".join(lines) + "\n"
