"""Kernels that must fail: each file in tests/errors names the exception, message and line."""

import importlib.util
import os
import re

import pytest

import treadle as wp  # noqa: F401  (imported first, as the cases do)

ERRORS_DIR = os.path.join(os.path.dirname(__file__), "..", "errors")
CASES = sorted(f for f in os.listdir(ERRORS_DIR) if f.endswith(".py"))
EXCEPTIONS = {"TypeError": TypeError, "SyntaxError": SyntaxError, "ValueError": ValueError,
              "RuntimeError": RuntimeError, "KeyError": KeyError,
              "WarpCodegenError": wp.WarpCodegenError, "AttributeError": AttributeError}


def load_case(name):
    path = os.path.abspath(os.path.join(ERRORS_DIR, name))
    with open(path) as f:
        header = f.read()
    kind, message = re.search(r"^# expect: (\w+): (.*)$", header, re.M).groups()
    line = int(re.search(r"^# line: (\d+)$", header, re.M).group(1))
    spec = importlib.util.spec_from_file_location(f"error_case_{name[:-3]}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module, EXCEPTIONS[kind], message, line


@pytest.mark.parametrize("name", CASES)
def test_error_case(name):
    path, module, exc_type, message, line = load_case(name)
    kernel = getattr(module, name[:-3])
    with pytest.raises(exc_type) as info:
        kernel._compile("cpu")
    err = info.value
    if isinstance(err, SyntaxError):
        assert err.msg == message
        assert err.filename == path
        assert err.lineno == line
        assert err.offset >= 1
        assert err.text.strip() != ""
    elif exc_type in (RuntimeError, ValueError, AttributeError):
        # Warp's layout for these: the location, the source line and a caret, then the message
        lines = str(err).splitlines()
        assert lines[0].startswith(f"{path}:{line}:") and lines[0].endswith(":"), lines
        assert len(lines) == 4 and lines[2].strip() == "^", lines
        assert lines[3].endswith(message), lines
    else:
        text = str(err)
        first = text.splitlines()[0]
        assert first.startswith(f"{path}:{line}:"), text
        assert first.endswith(message), text
        # the offending source line and a caret follow
        lines = text.splitlines()
        assert len(lines) == 3 and lines[2].strip() == "^", text


def test_every_case_is_checked():
    assert len(CASES) >= 90


def test_printf_argument_limit_is_a_runtime_error():
    @wp.kernel
    def too_many():
        wp.printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d "
                  "%d %d %d %d %d %d %d\n", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)

    with pytest.raises(RuntimeError, match="the maximum number of variadic arguments that can be "
                                           "passed to `printf` is 32$"):
        too_many._compile("cpu")
