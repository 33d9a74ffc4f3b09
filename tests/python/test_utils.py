"""ScopedTimer, the scalar type classes, create_warp_function and the translation of native
errors."""

import math
import re
import time

import numpy as np
import pytest

import treadle as wp


def test_scoped_timer_prints_and_measures(capsys):
    with wp.ScopedTimer("step") as t:
        time.sleep(0.01)
    out = capsys.readouterr().out
    assert re.fullmatch(r"step took \d+\.\d\d ms\n", out)
    assert 9.0 <= t.elapsed < 1000.0
    assert float(out.split()[2]) == pytest.approx(t.elapsed, abs=0.01)


def test_scoped_timer_options(capsys):
    times = {}
    for _ in range(3):
        with wp.ScopedTimer("quiet", print=False, dict=times):
            pass
    assert len(times["quiet"]) == 3
    with wp.ScopedTimer("off", active=False) as t:
        pass
    assert t.elapsed == 0.0
    with wp.ScopedTimer("outer", synchronize=True), wp.ScopedTimer("inner"):
        pass
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("    inner took ")
    assert lines[1].startswith("outer took ")


def test_scoped_timer_warp_signature():
    t = wp.ScopedTimer(
        "x",
        active=True,
        print=False,
        detailed=False,
        dict=None,
        use_nvtx=False,
        color="rapids",
        synchronize=False,
        cuda_filter=0,
        report_func=None,
        skip_tape=False,
    )
    with t:
        pass
    assert t.elapsed >= 0.0


SPECS = [
    (wp.bool, "bool", 1, np.bool_),
    (wp.int8, "int8", 1, np.int8),
    (wp.uint8, "uint8", 1, np.uint8),
    (wp.int16, "int16", 2, np.int16),
    (wp.uint16, "uint16", 2, np.uint16),
    (wp.int32, "int32", 4, np.int32),
    (wp.uint32, "uint32", 4, np.uint32),
    (wp.int64, "int64", 8, np.int64),
    (wp.uint64, "uint64", 8, np.uint64),
    (wp.float16, "float16", 2, np.float16),
    (wp.float32, "float32", 4, np.float32),
    (wp.float64, "float64", 8, np.float64),
]


@pytest.mark.parametrize("t,spec,size,np_type", SPECS)
def test_scalar_type_metadata(t, spec, size, np_type):
    assert t._type == wp._treadle.types.scalar(spec) and t._type.name == spec
    assert t._size == size == wp.type_size_in_bytes(t)
    assert t._np_dtype == np.dtype(np_type)
    assert wp.types.type_of(t) is t._type
    assert wp.types.type_size(t) == 1
    assert wp.dtype_from_numpy(np_type) is t
    assert wp.dtype_to_numpy(t) == np.dtype(np_type)
    assert t.__name__ == spec


def test_python_types_in_annotations():
    T = wp._treadle.types
    assert wp.types.type_of(float) == T.scalar("float32")
    assert wp.types.type_of(int) == T.scalar("int32")
    assert wp.types.type_of(bool) == T.scalar("bool")
    assert wp.types.type_of(wp.Float) == T.generic("Float")
    assert wp.types.type_of(wp.Int) == T.generic("Int")
    assert wp.types.type_of(wp.Scalar) == T.generic("Scalar")
    assert wp.type_size_in_bytes(float) == 4
    assert [wp.types.type_size(t) for t in (float, wp.vec3d, wp.mat33, wp.quat, wp.transform)] == [
        1, 3, 9, 4, 7]
    assert wp.types.array is wp.array
    with pytest.raises(TypeError, match="unsupported type annotation"):
        wp.types.type_of(str)


def test_scalar_values():
    x = wp.float32(1.5)
    assert x.value == 1.5 and float(x) == 1.5 and repr(x) == "float32(1.5)"
    assert wp.float32(0.1).value == float(np.float32(0.1))
    assert wp.float16(1.0 / 3.0).value == float(np.float16(1.0 / 3.0))
    assert wp.int8(130).value == -126
    assert wp.uint8(-1).value == 255
    assert wp.int32(7.9).value == 7
    assert int(wp.int64(5)) == 5 and [10, 20, 30][wp.int32(1)] == 20
    assert wp.bool(3).value is True and bool(wp.bool(0)) is False
    assert wp.float32() == 0.0
    assert wp.float32(2.0) * 3 == wp.float32(6.0)
    assert isinstance(wp.int32(7) + 1, wp.int32)
    assert (wp.int32(-7) / 2).value == -3
    assert (wp.float64(1.0) / 4).value == 0.25
    assert -wp.int16(3) == -3 and abs(wp.float32(-2.0)) == 2.0
    assert wp.int32(3) < 4 and wp.float32(2.0) >= 2
    assert math.isclose(float(wp.float64(wp.pi)), math.pi)
    with pytest.raises(TypeError, match="cannot combine"):
        wp.int32(1) + wp.float32(1.0)


# ErrorKind enum order in include/treadle/error.h.
SYNTAX, TYPE, VALUE, COMPILE, LAUNCH, RUNTIME, OUT_OF_MEMORY, BOUNDS = range(8)


def test_native_errors_map_to_python_exceptions():
    raise_error = wp._treadle._raise_error
    for kind, exc in [
        (TYPE, TypeError),
        (VALUE, ValueError),
        (BOUNDS, IndexError),
        (OUT_OF_MEMORY, MemoryError),
        (RUNTIME, RuntimeError),
        (COMPILE, wp._treadle.CompileError),
        (LAUNCH, wp._treadle.LaunchError),
    ]:
        with pytest.raises(exc, match="^boom$"):
            raise_error(kind, "boom")
    assert issubclass(wp._treadle.CompileError, RuntimeError)
    assert issubclass(wp._treadle.LaunchError, RuntimeError)
    assert wp._treadle.CompileError.__module__ == "treadle._treadle"
    with pytest.raises(wp._treadle.CompileError, match="k.py:3:5: bad"):
        raise_error(COMPILE, "bad", "k.py", 3, 5, "    x = y")


def test_syntax_errors_carry_the_location():
    with pytest.raises(SyntaxError) as info:
        wp._treadle._raise_error(SYNTAX, "unexpected thing", "kern.py", 12, 9, "    a = b c")
    e = info.value
    assert e.msg == "unexpected thing"
    assert (e.filename, e.lineno, e.offset, e.text) == ("kern.py", 12, 9, "    a = b c")
    with pytest.raises(SyntaxError, match="no location"):
        wp._treadle._raise_error(SYNTAX, "no location")


def _offset_lambda():
    offset = 0.5
    return lambda x, y: (
        x * 3.0
        + y * offset
    )


def test_create_warp_function_from_a_multiline_lambda(device):
    f, module = wp.utils.create_warp_function(_offset_lambda())
    assert re.fullmatch(r"func_[0-9a-f]{16}", f.key)
    assert wp.utils.create_warp_function(_offset_lambda())[0].key == f.key  # a hash of the text
    assert module is wp.get_module(__name__)
    assert f(2.0, 4.0) == 8.0

    @wp.kernel
    def apply(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = f(a[i], 1.0)

    a = wp.array(np.arange(4, dtype=np.float32), device=device)
    out = wp.zeros_like(a)
    wp.launch(apply, dim=4, inputs=[a, out], device=device)
    np.testing.assert_array_equal(out.numpy(), np.arange(4) * 3.0 + 0.5)
    g, _ = wp.utils.create_warp_function(_offset_lambda)  # a def stays itself
    assert g.func is _offset_lambda and re.fullmatch(r"func_[0-9a-f]{16}", g.key)
