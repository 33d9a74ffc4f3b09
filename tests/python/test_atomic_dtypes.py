"""Which array element types atomic_add/sub/min/max accept, and Warp's RuntimeError otherwise."""

import re

import pytest

import treadle as wp


def _launch(op, dtype):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)

    @wp.kernel(module="unique")
    def kernel(arr: wp.array(dtype=dtype)):
        op(arr, 0, dtype(scalar(0)))

    arr = wp.zeros(1, dtype=dtype, device="cpu")
    wp.launch(kernel, dim=1, inputs=[arr], device="cpu")
    return arr


ADD_TYPES = "[u]int32, [u]int64, float16, bfloat16, float32, or float64"
MINMAX_TYPES = "[u]int32, [u]int64, bfloat16, float32, or float64"


@pytest.mark.parametrize("dtype", [wp.int8, wp.uint16, wp.vec3b, wp.vec3us])
@pytest.mark.parametrize("op", [wp.atomic_add, wp.atomic_sub])
def test_add_sub_refuse_small_integers(op, dtype):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    expected = (f"{op.__name__}() operations only work on arrays with {ADD_TYPES} as the "
                f"underlying scalar types, but got {wp.types.type_repr(dtype)} (with scalar type "
                f"{wp.types.type_repr(scalar)})")
    with pytest.raises(RuntimeError, match=re.escape(expected) + "$"):
        _launch(op, dtype)


@pytest.mark.parametrize("dtype", [wp.float16, wp.vec3h, wp.int16, wp.vec3ub])
@pytest.mark.parametrize("op", [wp.atomic_min, wp.atomic_max])
def test_min_max_refuse_float16_and_small_integers(op, dtype):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    expected = (f"{op.__name__}() operations only work on arrays with {MINMAX_TYPES} as the "
                f"underlying scalar types, but got {wp.types.type_repr(dtype)} (with scalar type "
                f"{wp.types.type_repr(scalar)})")
    with pytest.raises(RuntimeError, match=re.escape(expected) + "$"):
        _launch(op, dtype)


@pytest.mark.parametrize("dtype", [wp.float16, wp.vec3h, wp.uint64, wp.float64])
def test_add_accepts_word_integers_and_floats(dtype):
    assert _launch(wp.atomic_add, dtype).numpy().sum() == 0
