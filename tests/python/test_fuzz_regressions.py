"""Inputs the fuzzer (scripts/fuzz.py) found that leaked internal errors, aborted or hung."""

import numpy as np
import pytest

import treadle as wp
from treadle._src.codegen import CompileError

HUGE = 2**64


def test_constant_past_64_bits_is_a_value_error():
    @wp.kernel(module="unique")
    def k(a: wp.array(dtype=wp.int64)):
        a[0] = wp.int64(HUGE)

    with pytest.raises(ValueError, match="does not fit 64 bits") as info:
        wp.launch(k, dim=1, inputs=[wp.zeros(1, dtype=wp.int64, device="cpu")], device="cpu")
    assert "HUGE" in str(info.value)


def test_indexedarray_of_generic_dtype_is_a_type_error():
    @wp.kernel(module="unique")
    def k_float(a: wp.indexedarray(dtype=wp.types.Float)):
        pass

    @wp.kernel(module="unique")
    def k_any(a: wp.indexedarray(dtype=wp.types.Any)):
        pass

    for k in (k_float, k_any):
        with pytest.raises(TypeError, match="indexed array needs a concrete dtype"):
            wp.launch(k, dim=1, inputs=[None], device="cpu")


@pytest.mark.parametrize("ptr", [-1, 2**64])
def test_array_pointer_out_of_range_is_a_value_error(ptr):
    with pytest.raises(ValueError, match="ptr must be an address"):
        wp.array(ptr=ptr, dtype=float, shape=(4,), device="cpu")


def test_array_pointer_strides_past_64_bits_are_a_value_error():
    with pytest.raises(ValueError, match="strides must fit 64 bits"):
        wp.array(ptr=8, dtype=float, shape=(4,), strides=(2**70,), device="cpu")


def test_unrolling_past_the_compile_budget_is_a_compile_error():
    @wp.kernel(module="unique")
    def k(a: wp.array(dtype=float)):
        for i in range(100):
            for j in range(100):
                a[0] = a[0] + float(wp.static(1))

    with pytest.raises(CompileError, match="compile budget for unrolled loops") as info:
        wp.launch(k, dim=1, inputs=[wp.zeros(1, dtype=float, device="cpu")], device="cpu")
    assert "the loop at line" in str(info.value)


@wp.kernel
def jacobian_of_chain(S: wp.array(dtype=wp.spatial_vector), parents: wp.array(dtype=wp.int32),
                      qd_start: wp.array(dtype=wp.int32), J: wp.array(dtype=float)):
    wp.spatial_jacobian(S, parents, qd_start, 0, 2, 0, J)


def test_spatial_jacobian_ends_on_a_parent_cycle(device):
    S = wp.array(np.ones((2, 6), dtype=np.float32), dtype=wp.spatial_vector, device=device)
    parents = wp.array(np.array([1, 0], dtype=np.int32), dtype=wp.int32, device=device)
    qd_start = wp.array(np.array([0, 1, 2], dtype=np.int32), dtype=wp.int32, device=device)
    J = wp.zeros(24, dtype=float, device=device)
    wp.launch(jacobian_of_chain, dim=1, inputs=[S, parents, qd_start, J], device=device)
    wp.synchronize_device(device)
    assert np.all(J.numpy() == 1.0)


@wp.kernel
def fill_one(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0


@pytest.mark.parametrize("stream", [1, "s", object()])
def test_launch_with_a_non_stream_is_a_type_error(stream):
    a = wp.zeros(4, dtype=float, device="cpu")
    with pytest.raises(TypeError, match="stream must be a wp.Stream"):
        wp.launch(fill_one, dim=4, inputs=[a], device="cpu", stream=stream)


def test_struct_float_field_past_float_range_names_the_field():
    @wp.struct
    class Big:
        x: float

    with pytest.raises(OverflowError, match=r"Big\.x: .* does not fit float32"):
        Big().x = 10**400


def test_unrolled_code_past_the_instruction_budget_is_a_compile_error():
    @wp.kernel(module="unique")
    def k(a: wp.array(dtype=wp.vec3)):
        for i in range(2000):
            v = a[i] * float(wp.static(i)) + wp.vec3(1.0, 2.0, 3.0)
            a[i] = wp.cross(v, wp.normalize(v)) + wp.vec3(wp.length(v), wp.dot(v, v), 0.0)

    with pytest.raises(CompileError, match="compile budget for generated code"):
        wp.launch(k, dim=1, inputs=[wp.zeros(1, dtype=wp.vec3, device="cpu")], device="cpu")
