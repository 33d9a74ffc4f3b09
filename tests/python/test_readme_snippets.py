"""The README's Python snippets run as written, each in a fresh process, and print what they
say they print."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def snippets():
    with open(os.path.join(REPO, "README.md")) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


def run(code, tmp_path):
    """Runs `code` as the script a reader would save it to, from an empty folder (kernels need
    a source file); returns its output."""
    script = tmp_path / "snippet.py"
    script.write_text(code)
    cwd = tmp_path / "run"
    cwd.mkdir()
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    proc = subprocess.run([sys.executable, str(script)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def numbers(text):
    return np.array([float(v) for v in re.findall(r"-?\d+(?:\.\d*)?(?:e-?\d+)?", text)])


def test_the_readme_has_its_snippets():
    assert len(snippets()) == 2


def test_quickstart_prints_the_first_results(tmp_path):
    out = run(snippets()[0], tmp_path)
    np.testing.assert_array_equal(numbers(out.strip().splitlines()[-1]), [0.0, 2.0, 4.0, 6.0])


def test_gradient_snippet_prints_eight_x(tmp_path):
    out = run(snippets()[1], tmp_path)
    x = np.linspace(0, 1, 8, dtype=np.float32)
    np.testing.assert_allclose(numbers(" ".join(out.strip().splitlines()[-2:])), 8.0 * x,
                               rtol=1e-6)


@pytest.mark.parametrize("index", [0, 1])
def test_snippets_leave_no_files_behind(tmp_path, index):
    run(snippets()[index], tmp_path)
    assert os.listdir(tmp_path / "run") == []
