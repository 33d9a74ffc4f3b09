"""@wp.func_native: functions whose bodies are C++/CUDA snippets, with adjoint and replay
snippets; gradients checked against finite differences."""

import numpy as np
import pytest

import treadle as wp
import treadle.autograd
from treadle import _treadle
from treadle._src.codegen import WarpCodegenError

F32 = wp.array(dtype=wp.float32)
F64 = wp.array(dtype=wp.float64)

saxpy_snippet = """
    out[tid] = a * x[tid] + y[tid];
"""
saxpy_adj_snippet = """
    adj_a += x[tid] * adj_out[tid];
    adj_x[tid] += a * adj_out[tid];
    adj_y[tid] += adj_out[tid];
"""


@wp.func_native(saxpy_snippet, adj_snippet=saxpy_adj_snippet)
def saxpy(a: wp.float32, x: F32, y: F32, out: F32, tid: int):
    """out = a * x + y, element tid."""
    ...


@wp.kernel
def saxpy_kernel(a: wp.float32, x: F32, y: F32, out: F32):
    tid = wp.tid()
    saxpy(a, x, y, out, tid)


@wp.func_native("return x * x * x;", adj_snippet="adj_x += 3.0 * x * x * adj_ret;")
def cube(x: wp.float64) -> wp.float64: ...


@wp.kernel
def cube_kernel(x: F64, out: F64):
    i = wp.tid()
    out[i] = cube(x[i]) + wp.sin(x[i])


@wp.func_native(
    """
    wp::vec_t<2, double> r;
    r[0] = v[0] * s;
    r[1] = v[1] * s * s;
    return r;
    """,
    adj_snippet="""
    adj_v[0] += s * adj_ret[0];
    adj_v[1] += s * s * adj_ret[1];
    adj_s += v[0] * adj_ret[0] + 2.0 * s * v[1] * adj_ret[1];
    """,
)
def scale2(v: wp.vec2d, s: wp.float64) -> wp.vec2d: ...


@wp.kernel
def scale2_kernel(v: wp.array(dtype=wp.vec2d), s: F64, out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    out[i] = scale2(v[i], s[i])


def test_forward_and_adjoint_snippets(device):
    n = 16
    x = wp.array(np.arange(n, dtype=np.float32), device=device, requires_grad=True)
    y = wp.array(np.ones(n, dtype=np.float32), device=device, requires_grad=True)
    out = wp.zeros(n, dtype=wp.float32, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(saxpy_kernel, n, inputs=[2.0, x, y, out], device=device)
    np.testing.assert_allclose(out.numpy(), 2.0 * np.arange(n) + 1.0)
    tape.backward(grads={out: wp.array(np.ones(n, dtype=np.float32), device=device)})
    np.testing.assert_allclose(x.grad.numpy(), np.full(n, 2.0))
    np.testing.assert_allclose(y.grad.numpy(), np.ones(n))
    assert saxpy.__doc__ == "out = a * x + y, element tid."


def test_returned_value_gradient_matches_finite_differences(device):
    x = wp.array(np.linspace(-1.0, 1.5, 7), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(7, dtype=wp.float64, device=device, requires_grad=True)
    wp.launch(cube_kernel, 7, inputs=[x, out], device=device)
    np.testing.assert_allclose(out.numpy(), x.numpy() ** 3 + np.sin(x.numpy()))
    assert treadle.autograd.gradcheck(cube_kernel, 7, inputs=[x], outputs=[out], device=device,
                                      show_summary=False)


def test_vector_gradient_matches_finite_differences(device):
    rng = np.random.default_rng(3)
    v = wp.array(rng.standard_normal((5, 2)), dtype=wp.vec2d, device=device, requires_grad=True)
    s = wp.array(rng.uniform(0.5, 2.0, 5), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(5, dtype=wp.vec2d, device=device, requires_grad=True)
    assert treadle.autograd.gradcheck(scale2_kernel, 5, inputs=[v, s], outputs=[out],
                                      device=device, show_summary=False)


counter_snippet = """
    int next = counter[0];
    counter[0] = next + 1;
    slots[tid] = next;
"""


@wp.func_native(counter_snippet, replay_snippet="")
def take_slot(counter: wp.array(dtype=wp.int32), slots: wp.array(dtype=wp.int32), tid: int): ...


@wp.kernel
def take_slot_kernel(counter: wp.array(dtype=wp.int32), slots: wp.array(dtype=wp.int32),
                     x: F32, out: F32):
    tid = wp.tid()
    take_slot(counter, slots, tid)
    k = slots[tid]
    out[k] = x[k] * x[k]


def test_replay_snippet_runs_instead_of_the_forward_one():
    # CPU only: the snippet's counter is not atomic
    n = 8
    counter = wp.zeros(1, dtype=wp.int32, device="cpu")
    slots = wp.zeros(n, dtype=wp.int32, device="cpu")
    x = wp.array(np.arange(n, dtype=np.float32), requires_grad=True, device="cpu")
    out = wp.zeros(n, dtype=wp.float32, requires_grad=True, device="cpu")
    tape = wp.Tape()
    with tape:
        wp.launch(take_slot_kernel, n, inputs=[counter, slots, x, out], device="cpu")
    tape.backward(grads={out: wp.array(np.ones(n, dtype=np.float32), device="cpu")})
    assert counter.numpy()[0] == n  # the replay left the counter alone
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * np.arange(n))


@wp.func_native("y[tid] = x[tid] * x[tid];", adj_snippet="adj_x[tid] += 2.0f * adj_y[tid];",
                replay_snippet="y[tid] = x[tid];")
def square_into(x: F32, y: F32, tid: int): ...


@wp.kernel
def log_square_kernel(x: F32, y: F32, z: F32):
    tid = wp.tid()
    square_into(x, y, tid)
    z[tid] = wp.log(y[tid])


def test_backward_pass_sees_what_the_replay_snippet_stored(device):
    n = 6
    x = wp.array(1.0 + np.arange(n, dtype=np.float32), device=device, requires_grad=True)
    y = wp.zeros(n, dtype=wp.float32, device=device, requires_grad=True)
    z = wp.zeros(n, dtype=wp.float32, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(log_square_kernel, n, inputs=[x, y, z], device=device)
    np.testing.assert_allclose(z.numpy(), np.log((1.0 + np.arange(n)) ** 2), rtol=1e-6)
    tape.backward(grads={z: wp.array(np.ones(n, dtype=np.float32), device=device)})
    np.testing.assert_allclose(x.grad.numpy(), 2.0 / (1.0 + np.arange(n)), rtol=1e-6)


@wp.func_native("return a + 2.0f;", adj_snippet="adj_a += adj_ret;")
def add_two(a: float) -> float: ...


@wp.func
def add_two_times_three(x: float):
    return add_two(x) * 3.0


@wp.func_grad(add_two_times_three)
def adj_add_two_times_three(x: float, adj_ret: float):
    wp.adjoint[x] += add_two(1.0) * adj_ret  # 3, through the native function


@wp.kernel
def custom_grad_kernel(x: F32, out: F32):
    i = wp.tid()
    out[i] = add_two_times_three(x[i])


def test_native_function_inside_a_custom_gradient(device):
    x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float32, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(custom_grad_kernel, 3, inputs=[x, out], device=device)
    np.testing.assert_allclose(out.numpy(), [9.0, 12.0, 15.0])
    tape.backward(grads={out: wp.ones(3, dtype=wp.float32, device=device)})
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0, 3.0])


@wp.func_native("return arr;")
def passthrough(arr: F32) -> F32: ...


@wp.kernel
def passthrough_kernel(x: F32, out: F32):
    i = wp.tid()
    a = passthrough(x)
    out[i] = a[i]


def test_array_result(device):
    x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device)
    out = wp.zeros(3, dtype=wp.float32, device=device)
    wp.launch(passthrough_kernel, 3, inputs=[x, out], device=device)
    np.testing.assert_allclose(out.numpy(), [1.0, 2.0, 3.0])


def test_snippet_is_in_the_generated_source():
    source = _treadle.kernel_source(saxpy_kernel._function_source(), cuda=True, adjoint=True)
    assert "out[tid] = a * x[tid] + y[tid];" in source
    assert "adj_x[tid] += a * adj_out[tid];" in source
    assert "wp::array_t<wp::float32> adj_x = wp::grad_view(x);" in source


def test_missing_annotation_is_an_error_at_the_parameter():
    @wp.func_native("return;")
    def untyped(x): ...

    @wp.kernel(module="unique")
    def k(a: F32):
        untyped(a[0])

    with pytest.raises(TypeError, match=r"untyped\(\): parameter 'x' of a func_native function "
                                        r"needs a type annotation"):
        wp.launch(k, 1, inputs=[wp.zeros(1, dtype=wp.float32)])


def test_struct_result_is_refused():
    @wp.struct
    class Pair:
        x: wp.float32
        y: wp.float32

    @wp.func_native("return {};")
    def make_pair(a: wp.float32) -> Pair: ...

    @wp.kernel(module="unique")
    def k(a: F32):
        p = make_pair(a[0])
        a[0] = p.x

    with pytest.raises(WarpCodegenError, match="unsupported return type"):
        wp.launch(k, 1, inputs=[wp.zeros(1, dtype=wp.float32)])


def test_cpp_error_in_a_snippet_is_a_compile_error_with_the_compilers_message():
    @wp.func_native("return undeclared_name_xyz * 2.0f;")
    def broken(a: wp.float32) -> wp.float32: ...

    @wp.kernel(module="unique")
    def k(a: F32):
        a[0] = broken(a[0])

    with pytest.raises(_treadle.CompileError, match="undeclared_name_xyz"):
        wp.launch(k, 1, inputs=[wp.zeros(1, dtype=wp.float32)])


def test_snippet_must_be_a_string():
    with pytest.raises(TypeError, match="snippet must be a str"):
        wp.func_native(3)


def test_a_new_definition_rebuilds_the_kernels_that_call_it():
    # bump_kernel calls the module global `bump`, re-bound here as a re-run cell would
    @wp.func_native("out[tid] = x[tid] + 1;")
    def bump_one(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32), tid: int): ...

    globals()["bump"] = bump_one
    x = wp.array(np.arange(4, dtype=np.int32))
    out = wp.zeros(4, dtype=wp.int32)
    wp.launch(bump_kernel, 4, inputs=[x, out])
    np.testing.assert_array_equal(out.numpy(), np.arange(4) + 1)

    @wp.func_native("out[tid] = x[tid] + 2;")
    def bump_two(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32), tid: int): ...

    globals()["bump"] = bump_two
    wp.launch(bump_kernel, 4, inputs=[x, out])
    np.testing.assert_array_equal(out.numpy(), np.arange(4) + 2)


@wp.func_native("out[tid] = x[tid];")
def bump(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32), tid: int): ...


@wp.kernel
def bump_kernel(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    bump(x, out, tid)


shared_snippet = """
    __shared__ int s[64];
    s[tid] = d[tid];
    __syncthreads();
    d[tid] = s[n - tid - 1];
"""


@wp.func_native(shared_snippet)
def reverse_in_block(d: wp.array(dtype=wp.int32), n: int, tid: int): ...


@wp.kernel
def reverse_kernel(d: wp.array(dtype=wp.int32), n: int):
    tid = wp.tid()
    reverse_in_block(d, n, tid)


def test_cuda_snippet_runs_on_cuda():
    if not wp.is_cuda_available():
        pytest.skip("needs a CUDA device (test_zz_cuda_compile compiles it without one)")
    d = wp.array(np.arange(64, dtype=np.int32), device="cuda:0")
    wp.launch(reverse_kernel, 64, inputs=[d, 64], device="cuda:0", block_dim=64)
    np.testing.assert_array_equal(d.numpy(), np.arange(63, -1, -1))


@wp.func_native("return wp::vec_t<3, wp::float32>(x, 2.0f * x, 3);")
def spread3(x: wp.float32) -> wp.vec3: ...


@wp.func_native("return wp::mat_t<2, 2, wp::float32>(x, 0.0f, 1, x);")
def diag22(x: wp.float32) -> wp.mat22: ...


@wp.func_native("return wp::add(wp::vec3(x), wp::vec3{{1.0f}});")
def fill_plus_x_axis(x: wp.float32) -> wp.vec3: ...


@wp.kernel
def native_constructors_kernel(x: F32, v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22),
                               f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = spread3(x[i])
    m[i] = diag22(x[i])
    f[i] = fill_plus_x_axis(x[i])


def test_snippets_construct_vectors_and_matrices_the_native_way():
    x = wp.array(np.array([1.5, -2.0], np.float32), device="cpu")
    v = wp.zeros(2, dtype=wp.vec3, device="cpu")
    m = wp.zeros(2, dtype=wp.mat22, device="cpu")
    f = wp.zeros(2, dtype=wp.vec3, device="cpu")
    wp.launch(native_constructors_kernel, dim=2, inputs=[x, v, m, f], device="cpu")
    np.testing.assert_array_equal(v.numpy(), [[1.5, 3.0, 3.0], [-2.0, -4.0, 3.0]])
    np.testing.assert_array_equal(m.numpy(), [[[1.5, 0.0], [1.0, 1.5]], [[-2.0, 0.0], [1.0, -2.0]]])
    np.testing.assert_array_equal(f.numpy(), [[2.5, 1.5, 1.5], [-1.0, -2.0, -2.0]])
