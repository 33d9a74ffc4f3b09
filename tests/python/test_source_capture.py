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
