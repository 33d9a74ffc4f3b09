"""`assert` in kernels: compiled only in debug builds, where a failed one prints the statement
and its place on stderr and aborts the process (Warp's behaviour)."""

import signal
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys
    import treadle as wp
    wp.config.quiet = True
    wp.config.mode = sys.argv[1]

    @wp.func
    def check(v: int):
        assert v == 1, "element must be 1"

    @wp.kernel
    def expect_ones(a: wp.array(dtype=int)):
        i = wp.tid()
        assert a[i] > 0 and a[i] < 10
        check(a[i])

    wp.launch(expect_ones, dim=3, inputs=[wp.array([1, 1, int(sys.argv[2])], dtype=int, device="cpu")],
              device="cpu")
    wp.synchronize()
    print("DONE")
""")


def _run(tmp_path, mode, last):
    path = tmp_path / "assert_script.py"
    path.write_text(SCRIPT)
    return subprocess.run([sys.executable, str(path), mode, str(last)], capture_output=True,
                          text=True, timeout=300)


def test_failed_assert_aborts_in_debug(tmp_path):
    r = _run(tmp_path, "debug", 1)
    assert r.returncode == 0 and "DONE" in r.stdout and "Assertion failed" not in r.stderr
    r = _run(tmp_path, "debug", 0)
    assert r.returncode == -signal.SIGABRT
    assert "Assertion failed: " in r.stderr
    assert "assert a[i] > 0 and a[i] < 10" in r.stderr


def test_failed_assert_in_function(tmp_path):
    r = _run(tmp_path, "debug", 5)  # passes the kernel's check, fails the function's
    assert r.returncode == -signal.SIGABRT
    assert 'assert v == 1, "element must be 1"' in r.stderr


def test_asserts_are_not_compiled_in_release(tmp_path):
    r = _run(tmp_path, "release", 0)
    assert r.returncode == 0 and "DONE" in r.stdout

