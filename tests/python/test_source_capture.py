"""Kernel source capture: the quick indentation cut agrees with Python's tokenizer."""

import inspect

import pytest

from treadle.kernel import _cut_block

CASES = [
    "@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    i = wp.tid()\n\n    x[i] = 1.0\n\ny = 2\n",
    "    @wp.func\n    def f(a: float):\n        # comment\n        return a\n    z = f\n",
    "@wp.kernel(enable_backward=False)\ndef k():\n    pass\n# trailing comment\ndef g():\n    pass\n",
    "def f(a,\n      b):\n    return a + b\n",
    'def f(a):\n    """doc\nstring at column 0"""\n    return a\n',
    "def f(a): return a\nx = 1\n",
    "def f(a):\n    return a + \\\n1\n",
]


@pytest.mark.parametrize("text", CASES)
def test_cut_matches_tokenizer_or_defers(text):
    lines = text.splitlines(keepends=True)
    cut = _cut_block(lines, 0)
    reference = inspect.getblock(lines)
    if cut is not None:
        assert "".join(cut).rstrip() == "".join(reference).rstrip()


def _run(tmp_path, script, *files):
    """Runs `script` (with `files`, (name, text) pairs, next to it) in a fresh interpreter;
    returns its stdout."""
    import os
    import subprocess
    import sys

    for name, text in files:
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "main.py").write_text(script, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), os.path.join(os.path.dirname(__file__), "..", "..", "python")]))
    done = subprocess.run([sys.executable, str(tmp_path / "main.py")], env=env,
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


KERNEL_FILE = """import treadle as wp

@wp.kernel
def value(out: wp.array(dtype=float)):
    out[0] = {value}
"""

RELOAD = """import importlib, pathlib, treadle as wp
wp.config.quiet = True
import kernels_file
out = wp.zeros(1, dtype=float, device="cpu")
wp.launch(kernels_file.value, dim=1, inputs=[out], device="cpu")
print(out.numpy()[0])
path = pathlib.Path(kernels_file.__file__)
path.write_text(path.read_text().replace("1.0", "2.0"))
importlib.reload(kernels_file)
wp.launch(kernels_file.value, dim=1, inputs=[out], device="cpu")
print(out.numpy()[0])
"""


def test_a_reloaded_module_runs_its_new_source(tmp_path):
    out = _run(tmp_path, RELOAD, ("kernels_file.py", KERNEL_FILE.format(value="1.0")))
    assert out.split() == ["1.0", "2.0"]


EDIT_BEFORE_LAUNCH = """import pathlib, treadle as wp
wp.config.quiet = True
import kernels_file
path = pathlib.Path(kernels_file.__file__)
path.write_text("garbage (((\\n" * 3 + path.read_text().replace("1.0", "5.0"))
out = wp.zeros(1, dtype=float, device="cpu")
wp.launch(kernels_file.value, dim=1, inputs=[out], device="cpu")
print(out.numpy()[0])
"""


def test_the_source_is_the_one_python_imported(tmp_path):
    # the file is edited (and broken) between the import and the first launch: the kernel
    # still runs what was imported
    out = _run(tmp_path, EDIT_BEFORE_LAUNCH, ("kernels_file.py", KERNEL_FILE.format(value="1.0")))
    assert out.split() == ["1.0"]


NFKC = """import treadle as wp
wp.config.quiet = True

@wp.kernel
def folded(out: wp.array(dtype=float)):
    \ufb01 = 3.0
    out[0] = fi + 1.0

out = wp.zeros(1, dtype=float, device="cpu")
wp.launch(folded, dim=1, inputs=[out], device="cpu")
print(out.numpy()[0], "\ufb01")
"""


def test_identifiers_are_normalised_as_python_does(tmp_path):
    # Python reads the ligature identifier as "fi"; strings keep it
    assert _run(tmp_path, NFKC).split() == ["4.0", "\ufb01"]


def test_double_decorators_are_refused_clearly():
    import treadle as wp

    def body(out: wp.array(dtype=float)):
        out[0] = 1.0

    k = wp.kernel(body)
    with pytest.raises(TypeError, match="'body' is already a treadle kernel; apply only one of"):
        wp.func(k)
    with pytest.raises(TypeError, match="'body' is already a treadle function"):
        wp.kernel(wp.func(body))
    with pytest.raises(TypeError, match="@wp.kernel: expects a Python function, got int"):
        wp.kernel(3)
