"""Launch argument checking, and the kernel cache: keys, corrupted entries, clearing."""

import glob
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def scale(a: float, n: int, x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * a + float(n)


def test_argument_count(device):
    x = wp.zeros(4, dtype=wp.float32, device=device)
    with pytest.raises(TypeError, match=r"^scale\(\): takes 3 arguments but 2 were given$"):
        wp.launch(scale, dim=4, inputs=[1.0, x], device=device)


def test_argument_types(device):
    x = wp.zeros(4, dtype=wp.float32, device=device)
    xi = wp.zeros(4, dtype=wp.int32, device=device)
    x2 = wp.zeros((2, 2), dtype=wp.float32, device=device)
    with pytest.raises(TypeError, match=r"^scale\(\): argument 'n' expects int32, got a float$"):
        wp.launch(scale, dim=4, inputs=[1.0, 2.5, x], device=device)
    with pytest.raises(TypeError, match=r"^scale\(\): argument 'x' expects an array of float32, "
                                        r"got an array of int32$"):
        wp.launch(scale, dim=4, inputs=[1.0, 2, xi], device=device)
    with pytest.raises(TypeError, match=r"^scale\(\): argument 'x' expects a 1-D array, got a 2-D array$"):
        wp.launch(scale, dim=4, inputs=[1.0, 2, x2], device=device)
    with pytest.raises(TypeError, match=r"^scale\(\): argument 'a' expects float32, got str$"):
        wp.launch(scale, dim=4, inputs=["1", 2, x], device=device)
    with pytest.raises(RuntimeError, match=r"^scale\(\): argument 'x' expects an array of type "
                                           r"array\(ndim=1, dtype=float32\), but passed value "
                                           r"has type list$"):
        wp.launch(scale, dim=4, inputs=[1.0, 2, [1.0]], device=device)


def test_numpy_and_treadle_scalars_are_accepted(device):
    x = wp.ones(3, dtype=wp.float32, device=device)
    wp.launch(scale, dim=3, inputs=[np.float32(2.0), np.int64(1), x], device=device)
    wp.launch(scale, dim=3, inputs=[wp.float32(0.5), wp.int32(0), x], device=device)
    np.testing.assert_array_equal(x.numpy(), [1.5, 1.5, 1.5])


def test_bad_dims(device):
    x = wp.zeros(4, dtype=wp.float32, device=device)
    with pytest.raises(ValueError, match=r"launch dim must have 1 to 4 dimensions, got 5"):
        wp.launch(scale, dim=(1, 1, 1, 1, 1), inputs=[1.0, 2, x], device=device)
    with pytest.raises(ValueError, match=r"each must be in \[0, 2\^31\)"):
        wp.launch(scale, dim=-1, inputs=[1.0, 2, x], device=device)


def test_cuda_device_is_a_clear_error():
    if wp.is_cuda_available():
        pytest.skip("CUDA is available")
    with pytest.raises(ValueError, match="CUDA is not available"):
        wp.zeros(4, dtype=wp.float32, device="cuda:0")


SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import treadle as wp

    @wp.kernel
    def add_one(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + 1.0

    handle = add_one._compile("cpu")
    x = wp.zeros(8, dtype=wp.float32, device="cpu")
    wp.launch(add_one, dim=8, inputs=[x], device="cpu")
    print(json.dumps({"from_cache": handle.from_cache, "key": handle.key,
                      "ok": bool((x.numpy() == 1.0).all())}))
    """
)


def run_script(tmp_path, cache):
    import json

    path = tmp_path / "cached_kernel.py"
    path.write_text(SCRIPT)
    env = dict(os.environ, TREADLE_CACHE_DIR=str(cache))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, str(path)], env=env, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_cache_hit_in_a_new_process_and_corrupted_entries_are_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    first = run_script(tmp_path, cache)
    assert first == {"from_cache": False, "key": first["key"], "ok": True}
    assert len(first["key"]) == 64
    second = run_script(tmp_path, cache)
    assert second["from_cache"] and second["ok"] and second["key"] == first["key"]

    binaries = glob.glob(str(cache / "*" / first["key"] / "kernel.so"))
    assert len(binaries) == 1
    # Truncate the binary: the entry must be detected as bad and rebuilt, never loaded.
    with open(binaries[0], "r+b") as f:
        f.truncate(100)
    third = run_script(tmp_path, cache)
    assert third["from_cache"] is False and third["ok"]
    fourth = run_script(tmp_path, cache)
    assert fourth["from_cache"] is True and fourth["ok"]

    # Garbage in the metadata is also rebuilt.
    meta = glob.glob(str(cache / "*" / first["key"] / "meta.txt"))[0]
    with open(meta, "w") as f:
        f.write("garbage")
    assert run_script(tmp_path, cache)["from_cache"] is False


def test_clear_kernel_cache(tmp_path):
    cache = tmp_path / "cache"
    assert run_script(tmp_path, cache)["from_cache"] is False
    old, old_root = wp.config.kernel_cache_dir, wp._treadle.kernel_cache_dir()
    try:
        wp.config.kernel_cache_dir = str(cache)
        wp.clear_kernel_cache()
    finally:
        wp.config.kernel_cache_dir = old
        wp._treadle.set_kernel_cache_dir(old_root)
    assert run_script(tmp_path, cache)["from_cache"] is False


def test_changing_a_constant_changes_the_key(tmp_path):
    cache = tmp_path / "cache"
    a = run_script(tmp_path, cache)
    global SCRIPT
    saved = SCRIPT
    try:
        SCRIPT = saved.replace("x[i] + 1.0", "x[i] + 2.0").replace("== 1.0", "== 2.0")
        b = run_script(tmp_path, cache)
    finally:
        SCRIPT = saved
    assert b["key"] != a["key"] and b["from_cache"] is False and b["ok"]


FAILING_COMPILER = """#!/bin/sh
# stands in for the C++ compiler and fails the way g++ reports an error under #line
src=""
for a in "$@"; do case "$a" in *.cpp) src="$a";; esac; done
line=$(grep -m1 '^#line' "$src" | cut -d' ' -f2)
file=$(grep -m1 '^#line' "$src" | cut -d'"' -f2)
echo "$file:$line:5: error: something the compiler did not like" >&2
exit 1
"""


def test_host_compiler_errors_point_at_the_python_line_and_never_launch(tmp_path):
    fake = tmp_path / "fake-cxx"
    fake.write_text(FAILING_COMPILER)
    fake.chmod(0o755)
    script = tmp_path / "k.py"
    script.write_text(textwrap.dedent(
        """
        import treadle as wp

        @wp.kernel
        def add_one(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = x[i] + 1.0

        x = wp.zeros(4, dtype=wp.float32, device="cpu")
        for attempt in range(2):
            try:
                wp.launch(add_one, dim=4, inputs=[x], device="cpu")
            except RuntimeError as e:
                print(type(e).__name__, str(e).splitlines()[0])
        print("sum", float(x.numpy().sum()))
        """
    ))
    env = dict(os.environ, TREADLE_CACHE_DIR=str(tmp_path / "cache"), TREADLE_CXX=str(fake))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True).stdout.splitlines()
    first = f"CompileError {script}:6:1: add_one(): the C++ compiler failed to build this kernel:"
    assert [line for line in out if not line.startswith("Treadle ")] == [first, first, "sum 0.0"]
    # nothing was published to the cache
    assert not glob.glob(str(tmp_path / "cache" / "*" / "*" / "kernel.so"))
