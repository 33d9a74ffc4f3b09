"""Kernel compile errors as Warp's classes (treadle._src.codegen), raised alone from wp.launch."""

import subprocess
import sys
import textwrap
import traceback

import pytest

import treadle as wp
from treadle._src import codegen

SYNTAX, TYPE, VALUE, COMPILE, LAUNCH, RUNTIME, OUT_OF_MEMORY, BOUNDS = range(8)


def test_class_hierarchy_is_warps():
    assert codegen.WarpCodegenError.__bases__ == (RuntimeError,)
    assert codegen.WarpCodegenTypeError.__bases__ == (TypeError,)
    assert codegen.WarpCodegenAttributeError.__bases__ == (AttributeError,)
    assert codegen.WarpCodegenIndexError.__bases__ == (IndexError,)
    assert codegen.WarpCodegenKeyError.__bases__ == (KeyError,)
    assert codegen.WarpCodegenValueError.__bases__ == (ValueError,)
    # treadle's additions: malformed source and C++ compiler failures are WarpCodegenErrors
    assert codegen.WarpCodegenSyntaxError.__bases__ == (SyntaxError, codegen.WarpCodegenError)
    assert codegen.CompileError.__bases__ == (codegen.WarpCodegenError,)
    assert codegen.CompileError is wp._treadle.CompileError
    for name in ("Error", "TypeError", "AttributeError", "IndexError", "KeyError", "ValueError"):
        cls = getattr(codegen, "WarpCodegen" + name)
        assert getattr(wp, "WarpCodegen" + name) is cls
        assert cls.__module__ == "treadle._src.codegen"
        assert cls.__name__ == "WarpCodegen" + name


def test_compiler_errors_map_to_codegen_classes():
    raise_compile_error = wp._treadle._raise_compile_error
    for kind, cls in [
        (TYPE, codegen.WarpCodegenTypeError),
        (VALUE, codegen.WarpCodegenValueError),
        (BOUNDS, codegen.WarpCodegenIndexError),
        (COMPILE, codegen.CompileError),
    ]:
        with pytest.raises(cls) as info:
            raise_compile_error(kind, "boom")
        assert type(info.value) is cls
        assert str(info.value) == "boom"
    # outside a compile the same kinds stay the plain builtin classes
    with pytest.raises(TypeError) as info:
        wp._treadle._raise_error(TYPE, "boom")
    assert type(info.value) is TypeError
    # kinds the compiler does not own keep their generic mapping
    with pytest.raises(RuntimeError) as info:
        raise_compile_error(RUNTIME, "boom")
    assert type(info.value) is RuntimeError


def test_compiler_syntax_error_keeps_the_location():
    with pytest.raises(codegen.WarpCodegenSyntaxError) as info:
        wp._treadle._raise_compile_error(SYNTAX, "unexpected thing", "kern.py", 12, 9, "    a = b c")
    err = info.value
    assert isinstance(err, SyntaxError) and isinstance(err, wp.WarpCodegenError)
    assert (err.msg, err.filename, err.lineno, err.offset, err.text) == (
        "unexpected thing", "kern.py", 12, 9, "    a = b c")
    assert str(err) == "unexpected thing (kern.py, line 12)"


KERNELS = '''\
import treadle as wp


@wp.kernel
def bad_store(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.vec3(1.0, 2.0, 3.0)


@wp.kernel
def bad_statement(a: wp.array(dtype=float)):
    with open("x"):
        a[0] = 1.0
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("compile_errors") / "bad_kernels.py"
    path.write_text(KERNELS)
    sys.path.insert(0, str(path.parent))
    try:
        import bad_kernels  # noqa: PLC0415

        yield bad_kernels
    finally:
        sys.path.remove(str(path.parent))
        sys.modules.pop("bad_kernels", None)


def test_launch_raises_the_type_error_alone(kernels):
    with pytest.raises(wp.WarpCodegenTypeError) as info:
        wp.launch(kernels.bad_store, dim=1, inputs=[wp.zeros(1, device="cpu")], device="cpu")
    err = info.value
    assert isinstance(err, TypeError)
    assert err.__context__ is None and err.__cause__ is None
    assert str(err) == (
        f"{kernels.__file__}:7:12: bad_store(): cannot store a value of type vec3f into an array "
        "of float32\n        a[i] = wp.vec3(1.0, 2.0, 3.0)\n               ^")
    text = "".join(traceback.format_exception(err))
    assert "During handling of the above exception" not in text
    assert "KeyError" not in text
    assert text.endswith(
        f"treadle._src.codegen.WarpCodegenTypeError: {kernels.__file__}:7:12: bad_store(): cannot "
        "store a value of type vec3f into an array of float32\n"
        "        a[i] = wp.vec3(1.0, 2.0, 3.0)\n               ^\n")


def test_launch_raises_the_syntax_error_alone(kernels):
    with pytest.raises(SyntaxError) as info:
        wp.launch(kernels.bad_statement, dim=1, inputs=[wp.zeros(1, device="cpu")], device="cpu")
    err = info.value
    assert type(err) is codegen.WarpCodegenSyntaxError
    assert err.__context__ is None and err.__cause__ is None
    assert (err.msg, err.lineno) == ("'with' statements are not supported", 12)
    text = "".join(traceback.format_exception(err))
    assert "During handling of the above exception" not in text
    assert text.endswith(
        f'  File "{kernels.__file__}", line 12\n    with open("x"):\n    ^\n'
        "treadle._src.codegen.WarpCodegenSyntaxError: 'with' statements are not supported\n")


def test_uncaught_compile_error_prints_one_traceback(kernels):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(__import__("os").path.dirname(kernels.__file__))!r})
        import treadle as wp
        wp.config.quiet = True
        import bad_kernels
        wp.launch(bad_kernels.bad_store, dim=1, inputs=[wp.zeros(1, device="cpu")], device="cpu")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.count("Traceback (most recent call last):") == 1, result.stderr
    assert "During handling" not in result.stderr
    assert "bad_store(): cannot store a value of type vec3f into an array of float32" in result.stderr
