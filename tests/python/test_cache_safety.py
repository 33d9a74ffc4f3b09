"""The kernel cache as seen from Python: clear() keeps what it did not write, private
permissions, refused and unusable roots, planted FIFOs and shared objects, concurrent processes."""

import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time

import pytest

SCRIPT = textwrap.dedent(
    """
    import json, os, sys
    if os.environ.get("TEST_UMASK"):
        os.umask(int(os.environ["TEST_UMASK"], 8))
    import treadle as wp

    if os.environ.get("TEST_CLEAR"):
        wp.clear_kernel_cache()
        print(json.dumps({"cleared": True}))
        sys.exit(0)

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cache_kernels

    handles, ok = [], True
    for c, k in enumerate(cache_kernels.KERNELS):
        x = wp.zeros(4, dtype=wp.float32, device="cpu")
        wp.launch(k, dim=4, inputs=[x], device="cpu")
        handles.append(k._compile("cpu"))
        ok = ok and bool((x.numpy() == c + 1.0).all())
    print(json.dumps({"from_cache": [h.from_cache for h in handles],
                      "keys": [h.key for h in handles], "ok": ok}))
    """
)

KERNEL = """
@wp.kernel
def add_{c}(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] + {c}.0 + 1.0
"""


def write_scripts(tmp_path, kernels=1):
    """The script and its module of `kernels` kernels (each with its own constant and key)."""
    (tmp_path / "cache_script.py").write_text(SCRIPT)
    body = "import treadle as wp\n" + "".join(KERNEL.format(c=c) for c in range(kernels))
    body += "KERNELS = [" + ", ".join(f"add_{c}" for c in range(kernels)) + "]\n"
    (tmp_path / "cache_kernels.py").write_text(body)


def script_env(cache, **env_extra):
    env = dict(os.environ, TREADLE_CACHE_DIR=str(cache))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update({k: str(v) for k, v in env_extra.items()})
    return env


def run(tmp_path, cache, timeout=240, check=True, kernels=1, **env_extra):
    write_scripts(tmp_path, kernels)
    proc = subprocess.run([sys.executable, str(tmp_path / "cache_script.py")],
                          env=script_env(cache, **env_extra), capture_output=True, text=True,
                          timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stderr
        proc.result = json.loads(proc.stdout.strip().splitlines()[-1])
    return proc


def entry_dir(cache, key):
    return os.path.join(str(cache), key[:2], key)


def test_clear_keeps_everything_it_did_not_write(tmp_path):
    project = tmp_path / "project"
    outside = tmp_path / "outside"
    (project / "src").mkdir(parents=True)
    (project / "src" / "main.py").write_text("print('hello')\n")
    (project / "ab").mkdir()
    (project / "ab" / "data.bin").write_bytes(b"data")
    (project / "tmp" / "old").mkdir(parents=True)
    (project / "tmp" / "old" / "notes.txt").write_text("notes")
    two_hours_ago = time.time() - 7200
    os.utime(project / "tmp" / "old" / "notes.txt", (two_hours_ago, two_hours_ago))
    os.utime(project / "tmp" / "old", (two_hours_ago, two_hours_ago))
    (outside / "cd").mkdir(parents=True)
    (outside / "cd" / "precious.txt").write_text("precious")
    os.symlink(outside / "cd", project / "cd")  # a link into another folder

    built = run(tmp_path, project).result
    key = built["keys"][0]
    assert built["from_cache"] == [False] and built["ok"]
    assert os.path.isfile(os.path.join(entry_dir(project, key), "kernel.so"))
    assert run(tmp_path, project, TEST_CLEAR=1).result == {"cleared": True}

    assert not os.path.exists(entry_dir(project, key))
    assert (project / "src" / "main.py").read_text() == "print('hello')\n"
    assert (project / "ab" / "data.bin").read_bytes() == b"data"
    assert (project / "tmp" / "old" / "notes.txt").read_text() == "notes"
    assert (outside / "cd" / "precious.txt").read_text() == "precious"
    assert os.path.islink(project / "cd")
    assert run(tmp_path, project).result["from_cache"] == [False]


def test_cache_is_private_under_umask_000(tmp_path):
    cache = tmp_path / "new" / "cache"
    assert run(tmp_path, cache, TEST_UMASK="000").result["ok"]
    modes = {}
    for path in [tmp_path / "new", cache] + sorted(glob.glob(str(cache / "**"), recursive=True)):
        modes[str(path)] = stat.S_IMODE(os.lstat(path).st_mode)
    dirs = [p for p in modes if os.path.isdir(p)]
    files = [p for p in modes if not os.path.isdir(p)]
    assert files, "the entry's files"
    assert {p: modes[p] for p in dirs} == {p: 0o700 for p in dirs}
    assert {p: modes[p] for p in files} == {p: 0o600 for p in files}


PLANTED = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void planted(void) {
    FILE* f = fopen(getenv("PLANT_MARKER"), "w");
    if (f) { fputs("planted code ran", f); fclose(f); }
}
"""


def plant_shared_object(tmp_path, cache, key):
    """Replaces the entry's binary by a shared object whose constructor writes a marker file,
    with meta.txt updated to match: a perfect plant."""
    import hashlib

    source = tmp_path / "planted.c"
    source.write_text(PLANTED)
    so = tmp_path / "planted.so"
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("c++")
    subprocess.run([cc, "-shared", "-fPIC", "-x", "c", str(source), "-o", str(so)], check=True)
    entry = entry_dir(cache, key)
    data = so.read_bytes()
    os.chmod(os.path.join(entry, "kernel.so"), 0o600)
    with open(os.path.join(entry, "kernel.so"), "wb") as f:
        f.write(data)
    meta_path = os.path.join(entry, "meta.txt")
    lines = open(meta_path).read().splitlines()
    lines = [f"size {len(data)}" if line.startswith("size ") else
             f"sha256 {hashlib.sha256(data).hexdigest()}" if line.startswith("sha256 ") else line
             for line in lines]
    with open(meta_path, "w") as f:
        f.write("\n".join(lines) + "\n")


def check_refused_root(tmp_path, cache, problem):
    marker = tmp_path / "marker.txt"
    proc = run(tmp_path, cache, PLANT_MARKER=marker)
    assert not marker.exists(), "a shared object planted in a refused root was loaded"
    assert proc.result["ok"] and proc.result["from_cache"] == [False]
    assert f"treadle warning: kernel cache: not using '{cache}': {problem}" in proc.stderr
    assert "kernels are cached in the private temporary folder" in proc.stderr
    cleared = run(tmp_path, cache, check=False, TEST_CLEAR=1)
    assert cleared.returncode != 0
    assert (f"RuntimeError: clear_kernel_cache(): refusing to clear '{cache}': {problem}"
            in cleared.stderr)
    assert "(nothing was deleted)" in cleared.stderr
    assert len(glob.glob(str(cache / "*" / "*" / "kernel.so"))) == 1


def test_world_writable_root_is_refused_and_planted_code_does_not_run(tmp_path):
    cache = tmp_path / "cache"
    key = run(tmp_path, cache).result["keys"][0]
    plant_shared_object(tmp_path, cache, key)
    os.chmod(cache, 0o777)
    check_refused_root(tmp_path, cache, "it is writable by every user (mode 0777)")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to give the folder to another user")
def test_root_owned_by_another_user_is_refused(tmp_path):
    cache = tmp_path / "cache"
    key = run(tmp_path, cache).result["keys"][0]
    plant_shared_object(tmp_path, cache, key)
    os.chown(cache, 65534, 65534)
    check_refused_root(tmp_path, cache, "it is owned by another user (uid 65534)")


def test_fifo_planted_as_metadata_does_not_hang(tmp_path):
    cache = tmp_path / "cache"
    key = run(tmp_path, cache).result["keys"][0]
    meta = os.path.join(entry_dir(cache, key), "meta.txt")
    os.remove(meta)
    os.mkfifo(meta)
    again = run(tmp_path, cache, timeout=120).result  # a blocking open() never returns
    assert again["ok"] and again["from_cache"] == [False]
    assert run(tmp_path, cache).result["from_cache"] == [True]


def test_unusable_root_falls_back_to_a_private_temporary_cache(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    cache = tmp_path / "file" / "cache"
    proc = run(tmp_path, cache)
    assert proc.result["ok"] and proc.result["from_cache"] == [False]
    assert (f"not using '{cache}': cannot create it (Not a directory); kernels are cached in "
            "the private temporary folder") in proc.stderr
    assert run(tmp_path, cache, TEST_CLEAR=1).result == {"cleared": True}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes into read-only folders")
def test_read_only_root_falls_back(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o500)
    try:
        proc = run(tmp_path, cache)
    finally:
        os.chmod(cache, 0o700)
    assert proc.result["ok"]
    assert f"not using '{cache}': it is not writable (Permission denied)" in proc.stderr


COUNTING_COMPILER = """#!/bin/sh
for a in "$@"; do case "$a" in *.cpp) echo compile >> "{log}";; esac; done
exec "{cxx}" "$@"
"""


def test_concurrent_processes_run_the_compiler_once(tmp_path):
    cxx = shutil.which(os.environ.get("TREADLE_CXX", "c++")) or shutil.which("g++")
    log = tmp_path / "compiles.log"
    wrapper = tmp_path / "counting-c++"
    wrapper.write_text(COUNTING_COMPILER.format(log=log, cxx=cxx))
    wrapper.chmod(0o755)
    cache = tmp_path / "cache"
    write_scripts(tmp_path)
    env = script_env(cache, TREADLE_CXX=wrapper)
    procs = [subprocess.Popen([sys.executable, str(tmp_path / "cache_script.py")], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(8)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert all(r["ok"] for r in results)
    assert len({r["keys"][0] for r in results}) == 1
    assert log.read_text() == "compile\n"
    assert sorted(r["from_cache"][0] for r in results) == [False] + [True] * 7


def test_clear_in_another_process_does_not_break_a_build(tmp_path):
    cache = tmp_path / "cache"
    clear_script = tmp_path / "clear_loop.py"
    clear_script.write_text(textwrap.dedent(
        """
        import os, sys
        import treadle as wp
        wp.clear_kernel_cache()
        print("ready", flush=True)
        while not os.path.exists(sys.argv[1]):
            wp.clear_kernel_cache()
        """))
    stop = tmp_path / "stop"
    clearer = subprocess.Popen([sys.executable, str(clear_script), str(stop)], env=script_env(cache),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert clearer.stdout.readline().strip() == "ready"
        for _ in range(2):
            built = run(tmp_path, cache, kernels=6).result
            assert built["ok"]
    finally:
        stop.write_text("")
        _, err = clearer.communicate(timeout=120)
    assert clearer.returncode == 0, err
