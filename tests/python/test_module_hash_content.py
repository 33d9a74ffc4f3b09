"""Module.hash_module() depends on the code, not on where it is (Warp's rule)."""

import importlib.util
import os
import tempfile

import treadle as wp

_CODE = """
import treadle as wp

@wp.func
def fn(x: float):
    return x * BODY

@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = fn(a[0])
"""

_NO_BUILD = """
import treadle as wp

@wp.func
def fn():
    wp.print(17)

@wp.func
def fn(value: int):
    wp.print(BODY)

@wp.kernel
def k():
    print(fn())
"""


def _module(code, name, blank_lines=0):
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write("\n" * blank_lines + code)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
    finally:
        os.remove(path)
    return wp.get_module(m.__name__)


def test_same_code_in_other_files_and_lines_hashes_the_same():
    a = _module(_CODE.replace("BODY", "2.0"), "hash_content_a")
    b = _module(_CODE.replace("BODY", "2.0"), "hash_content_b", blank_lines=3)
    c = _module(_CODE.replace("BODY", "3.0"), "hash_content_c")
    assert a.hash_module() == b.hash_module()
    assert a.hash_module() != c.hash_module()


def test_kernel_that_does_not_build_hashes_the_functions_it_names():
    a = _module(_NO_BUILD.replace("BODY", "value"), "hash_nobuild_a")
    b = _module(_NO_BUILD.replace("BODY", "value"), "hash_nobuild_b")
    c = _module(_NO_BUILD.replace("BODY", "value + 1"), "hash_nobuild_c")
    assert a.hash_module() == b.hash_module()
    assert a.hash_module() != c.hash_module()


def test_init_forgets_the_hashes_made_before_it():
    import subprocess
    import sys

    code = (
        "import treadle as wp\n"
        "wp.config.quiet = True\n"
        "m = wp.get_module('__main__')\n"
        "bd = m.options['block_dim']\n"
        "h = m.get_module_hash()\n"
        "print('before', bd in m.hashers, bd in m.resolved_options)\n"
        "wp.init()\n"
        "print('after', bd in m.hashers, bd in m.resolved_options, m.get_module_hash() == h)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert "before True True" in out and "after False False True" in out
