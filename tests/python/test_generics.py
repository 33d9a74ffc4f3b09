"""Generic functions and kernels, overloads, wp.static and unrolling options (Warp's rules)."""

from typing import Any

import numpy as np
import pytest

import treadle as wp

# --- generic functions --------------------------------------------------------------------


@wp.func
def twice(x: Any):
    return x + x


@wp.func
def half(x: wp.Float):
    return x * 0.5


@wp.func
def bump(x: wp.Int):
    return x + 1


@wp.func
def absdiff(a: wp.Scalar, b: wp.Scalar):
    return wp.abs(a - b)


@wp.kernel
def use_generic_functions(xf: wp.array(dtype=float), xd: wp.array(dtype=wp.float64),
                          xi: wp.array(dtype=int), v: wp.array(dtype=wp.vec3),
                          of: wp.array(dtype=float), od: wp.array(dtype=wp.float64),
                          oi: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    of[i] = twice(xf[i]) + half(xf[i]) + absdiff(xf[i], 1.0)
    od[i] = twice(xd[i]) + half(xd[i]) + absdiff(xd[i], wp.float64(1.0))
    oi[i] = bump(twice(xi[i])) + absdiff(xi[i], 3)
    ov[i] = twice(v[i])


def test_generic_functions_specialise_per_argument_types(device):
    n = 8
    xs = np.linspace(-2, 2, n)
    xi = np.arange(n, dtype=np.int32) - 3
    vs = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
    xf, xd = wp.array(xs.astype(np.float32), device=device), wp.array(xs, dtype=wp.float64, device=device)
    xa, v = wp.array(xi, device=device), wp.array(vs, dtype=wp.vec3, device=device)
    of = wp.zeros(n, dtype=float, device=device)
    od = wp.zeros(n, dtype=wp.float64, device=device)
    oi = wp.zeros(n, dtype=int, device=device)
    ov = wp.zeros(n, dtype=wp.vec3, device=device)
    wp.launch(use_generic_functions, dim=n, inputs=[xf, xd, xa, v, of, od, oi, ov], device=device)
    expected = 2 * xs + 0.5 * xs + np.abs(xs - 1)
    np.testing.assert_allclose(of.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(od.numpy(), expected, rtol=1e-12)
    np.testing.assert_array_equal(oi.numpy(), 2 * xi + 1 + np.abs(xi - 3))
    np.testing.assert_allclose(ov.numpy(), 2 * vs)
    source = use_generic_functions._compile("cpu").source
    assert source.count("fn_twice_") >= 3  # float32, float64, int32, vec3 specialisations


# --- generic kernels ------------------------------------------------------------------------


@wp.kernel
def scale(x: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    x[i] = s * x[i]


@wp.kernel
def axpy_float(a: wp.Float, x: wp.array(dtype=wp.Float), y: wp.array(dtype=wp.Float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def test_generic_kernel_specialises_per_launch(device):
    data = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    x16 = wp.array(data, dtype=wp.float16, device=device)
    x32 = wp.array(data, dtype=wp.float32, device=device)
    x64 = wp.array(data, dtype=wp.float64, device=device)
    xi = wp.array(data, dtype=wp.int32, device=device)
    wp.launch(scale, dim=9, inputs=[x16, wp.float16(3)], device=device)
    wp.launch(scale, dim=9, inputs=[x32, wp.float32(3)], device=device)
    wp.launch(scale, dim=9, inputs=[x64, wp.float64(3)], device=device)
    wp.launch(scale, dim=9, inputs=[xi, 3], device=device)  # a Python int is int32
    for a in (x16, x32, x64, xi):
        np.testing.assert_array_equal(a.numpy(), 3 * np.array(data))
    assert len(scale._specialisations) == 4
    keys = {s._compile(device).key for s in scale._specialisations.values()}
    assert len(keys) == 4  # each specialisation compiles and caches on its own
    wp.launch(scale, dim=9, inputs=[x32, 2.0], device=device)  # a Python float is float32
    assert len(scale._specialisations) == 4
    np.testing.assert_array_equal(x32.numpy(), 6 * np.array(data))


def test_generic_kernel_with_float_placeholders(device):
    xs = np.linspace(0, 1, 10)
    x = wp.array(xs, dtype=wp.float64, device=device)
    y = wp.ones(10, dtype=wp.float64, device=device)
    wp.launch(axpy_float, dim=10, inputs=[wp.float64(2.0), x, y], device=device)
    np.testing.assert_allclose(y.numpy(), 2 * xs + 1, rtol=1e-12)
    xi = wp.zeros(10, dtype=wp.int32, device=device)
    with pytest.raises(TypeError, match=r"argument 'x' has type array\(dtype=int32, ndim=1\) but "
                                        r"the parameter is array\(dtype=Float, ndim=1\)"):
        wp.launch(axpy_float, dim=10, inputs=[wp.float32(2.0), xi, xi], device=device)


def test_generic_kernel_vectors_and_struct_types(device):
    v = wp.array(np.ones((4, 3), dtype=np.float32), dtype=wp.vec3, device=device)
    wp.launch(scale, dim=4, inputs=[v, 2.0], device=device)  # vec3 * float32
    np.testing.assert_allclose(v.numpy(), 2 * np.ones((4, 3)))


def test_explicit_overloads(device):
    k64 = wp.overload(scale, [wp.array(dtype=wp.float64), wp.float64])
    k16 = wp.overload(scale, {"x": wp.array(dtype=wp.float16), "s": wp.float16})
    assert wp.overload(scale, {"x": wp.array(dtype=wp.float64), "s": wp.float64}) is k64
    x = wp.array([1.0, 2.0], dtype=wp.float64, device=device)
    wp.launch(k64, dim=2, inputs=[x, 4.0], device=device)  # the overload decides the types
    np.testing.assert_array_equal(x.numpy(), [4.0, 8.0])
    h = wp.array([1.0, 2.0], dtype=wp.float16, device=device)
    wp.launch(k16, dim=2, inputs=[h, 0.5], device=device)
    np.testing.assert_array_equal(h.numpy(), [0.5, 1.0])
    with pytest.raises(TypeError, match="takes 2 arguments but 1 types were given"):
        wp.overload(scale, [wp.float32])
    with pytest.raises(TypeError, match="needs a concrete type"):
        wp.overload(scale, {"x": wp.array(dtype=Any), "s": float})


@wp.overload  # declares a specialisation; the name still names the generic kernel
def axpy_float(a: wp.float16, x: wp.array(dtype=wp.float16), y: wp.array(dtype=wp.float16)):  # noqa: F811
    ...


def test_overload_decorator_declares_a_specialisation():
    f16 = wp.float16._type
    f16s = wp.array(dtype=wp.float16)._type
    assert (f16, f16s, f16s) in axpy_float._specialisations


def test_overloads_lists_specialisations():
    assert tuple(axpy_float.overloads) == tuple(axpy_float._specialisations)

    @wp.kernel(name="custom_generic")
    def local_generic(x: Any):
        return

    assert local_generic.overloads == {}

    @wp.overload
    def local_generic(x: float): ...  # noqa: F811

    assert local_generic.key == "custom_generic" and len(local_generic.overloads) == 1


def test_overload_decorator_refusals():
    def made_twice(x: Any):
        return

    wp.kernel(name="made_twice_a")(made_twice)
    wp.kernel(name="made_twice_b")(made_twice)
    with pytest.raises(RuntimeError, match="Ambiguous kernel lookup for .*made_twice"):

        @wp.overload
        def made_twice(x: float): ...  # noqa: F811

    @wp.kernel
    def returns_nothing(x: Any):
        return

    def returns_nothing(x: float) -> float: ...  # noqa: F811

    with pytest.raises(TypeError, match="Return annotations are not allowed on @wp.overload stubs"):
        wp.overload(returns_nothing)

    def returns_nothing(x: float) -> None: ...  # noqa: F811

    wp.overload(returns_nothing)  # -> None is allowed


def test_generic_kernel_needs_types():
    with pytest.raises(TypeError, match="kernel parameter 'x' is generic"):
        scale._compile("cpu")


# --- overloads by annotation ---------------------------------------------------------------


@wp.func
def describe_value(x: float):
    return 1.0 + x


@wp.func
def describe_value(x: int):  # noqa: F811
    return 2.0 + float(x)


@wp.func
def describe_value(x: wp.vec3):  # noqa: F811
    return 3.0 + wp.length(x)


@wp.func
def describe_value(x: float, y: float):  # noqa: F811
    return 4.0 + x * y


@wp.kernel
def use_overloads(out: wp.array(dtype=float)):
    out[0] = describe_value(0.5)
    out[1] = describe_value(5)
    out[2] = describe_value(wp.vec3(3.0, 4.0, 0.0))
    out[3] = describe_value(2.0, 3.0)
    out[4] = describe_value(wp.float32(0.25))


def test_function_overloads_dispatch_by_argument_types(device):
    out = wp.zeros(5, dtype=float, device=device)
    wp.launch(use_overloads, dim=1, inputs=[out], device=device)
    np.testing.assert_allclose(out.numpy(), [1.5, 7.0, 8.0, 10.0, 1.25])


def test_no_matching_overload_lists_them():
    @wp.kernel
    def no_matching_overload(out: wp.array(dtype=float)):
        out[0] = describe_value(wp.vec2(1.0, 2.0))

    with pytest.raises(TypeError) as info:
        no_matching_overload._compile("cpu")
    text = str(info.value)
    assert "describe_value(): no overload accepts (vec2f)" in text
    assert "describe_value(x: float32)" in text and "describe_value(x: vec3f)" in text
    assert "describe_value(x: float32, y: float32)" in text


# --- wp.static ------------------------------------------------------------------------------

STATIC_N = 5
STATIC_SCALE = 2.5
STATIC_ON = True
STATIC_VEC = wp.vec3(1.0, 2.0, 3.0)


@wp.func
def plus_one(x: float):
    return x + 1.0


@wp.func
def times_two(x: float):
    return x * 2.0


STATIC_FUNCS = [plus_one, times_two]


@wp.kernel
def use_static(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    for j in range(wp.static(STATIC_N * 4)):  # 20 trips: unrolled because of wp.static
        s += x[i] * wp.static(STATIC_SCALE / 2.0)
    if wp.static(STATIC_ON):
        s += wp.static(STATIC_VEC)[1]
    s = wp.static(STATIC_FUNCS[1])(s)
    for k in range(2):
        s = wp.static(STATIC_FUNCS[k])(s)  # the index of an unrolled loop is a constant
    out[i] = s


def test_static_expressions(device):
    xs = np.arange(4, dtype=np.float32)
    x = wp.array(xs, device=device)
    out = wp.zeros(4, dtype=float, device=device)
    wp.launch(use_static, dim=4, inputs=[x, out], device=device)
    s = xs * 1.25 * 20 + 2.0
    np.testing.assert_allclose(out.numpy(), ((s * 2) + 1) * 2, rtol=1e-5)
    assert use_static._compile("cpu").source.count("for (") == 1  # only the launch loop


def test_static_in_closure(device):
    def make(n, f):
        @wp.kernel
        def k(out: wp.array(dtype=float)):
            t = 0.0
            for j in range(wp.static(n)):
                t = wp.static(f)(t)
            out[0] = t

        return k

    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(make(3, plus_one), dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 3.0
    wp.launch(make(4, times_two), dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 0.0


def test_static_errors():
    @wp.kernel
    def bad(out: wp.array(dtype=float)):
        out[0] = wp.static(NOT_DEFINED_ANYWHERE)  # noqa: F821

    with pytest.raises(wp.WarpCodegenError,
                       match=r"Error evaluating static expression: name 'NOT_DEFINED_ANYWHERE' is "
                             r"not defined \(NameError, evaluating 'NOT_DEFINED_ANYWHERE'\)"):
        bad._compile("cpu")

    @wp.kernel
    def divides(out: wp.array(dtype=float)):
        out[0] = wp.static(1.0 / 0.0)

    with pytest.raises(wp.WarpCodegenError,
                       match="Error evaluating static expression: float division by zero"):
        divides._compile("cpu")

    @wp.kernel
    def uses_local(out: wp.array(dtype=float), i: int):
        out[0] = wp.static(i * 2)

    with pytest.raises(wp.WarpCodegenError,
                       match=r"name 'i' is not defined\. Make sure all variables used in the "
                             r"static expression are constant\. \('i' is a local variable"):
        uses_local._compile("cpu")


# --- unrolling options and unique modules --------------------------------------------------


def test_max_unroll_per_kernel_and_module():
    def make(**kw):
        @wp.kernel(**kw)
        def k(out: wp.array(dtype=float)):
            s = 0.0
            for j in range(8):
                s += float(j)
            out[0] = s

        return k

    def loops(k):
        return k._compile("cpu").source.count("for (")

    assert loops(make()) == 1  # 8 trips <= 16: unrolled
    assert loops(make(options={"max_unroll": 4})) == 2
    unique = make(module="unique")
    assert unique.module.name != __name__ and unique.module.name.startswith(__name__)
    other = make(module="unique")
    assert other.module is not unique.module
    wp.set_module_options({"max_unroll": 4})
    try:
        assert wp.get_module_options()["max_unroll"] == 4
        assert loops(make()) == 2
        assert loops(unique) == 1  # a unique module has options of its own, as in Warp
        assert loops(make(options={"max_unroll": 32})) == 1
    finally:
        wp.set_module_options({"max_unroll": 16})
    assert loops(unique) == 1
    assert loops(make(module="unique", module_options={"max_unroll": 4})) == 2


def test_max_unroll_results(device):
    @wp.kernel(options={"max_unroll": 2})
    def k(out: wp.array(dtype=float)):
        s = 0.0
        for j in range(5):
            s += float(j)
        out[0] = s

    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(k, dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 10.0


@wp.kernel
def square_sum(x: wp.array(dtype=wp.Float), loss: wp.array(dtype=wp.Float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


def test_generic_kernel_backward_pass(device):
    xs = np.array([1.0, -2.0, 3.0])
    x = wp.array(xs, dtype=wp.float64, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square_sum, dim=3, inputs=[x, loss], device=device)
    tape.backward(loss)
    np.testing.assert_allclose(x.grad.numpy(), 2 * xs)


@wp.func
def norm_sq_any(v: wp.types.vector(length=Any, dtype=wp.Float)):
    return wp.dot(v, v)


@wp.func
def scale3(v: wp.types.vector(length=3, dtype=wp.Scalar), s: wp.Scalar):
    return v * s


@wp.func
def trace_any(m: wp.types.matrix(shape=(Any, Any), dtype=wp.Float)):
    return wp.trace(m)


@wp.kernel
def generic_composites(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec2d),
                       m: wp.array(dtype=wp.mat22d), out: wp.array(dtype=float),
                       out64: wp.array(dtype=wp.float64), scaled: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = norm_sq_any(a[i])
    out64[i] = norm_sq_any(b[i]) + trace_any(m[i])
    scaled[i] = scale3(a[i], 2.0)


def test_generic_vector_and_matrix_annotations(device):
    a = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3), dtype=wp.vec3, device=device)
    b = wp.array(np.ones((2, 2)), dtype=wp.vec2d, device=device)
    m = wp.array(np.stack([np.eye(2) * 3.0] * 2), dtype=wp.mat22d, device=device)
    out = wp.zeros(2, dtype=float, device=device)
    out64 = wp.zeros(2, dtype=wp.float64, device=device)
    scaled = wp.zeros(2, dtype=wp.vec3, device=device)
    wp.launch(generic_composites, 2, inputs=[a, b, m, out, out64, scaled], device=device)
    np.testing.assert_allclose(out.numpy(), [5.0, 50.0])
    np.testing.assert_allclose(out64.numpy(), [8.0, 8.0])
    np.testing.assert_allclose(scaled.numpy(), 2.0 * a.numpy())


def test_generic_vector_length_mismatch_is_an_error():
    @wp.kernel
    def wrong_length(a: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        out[i] = scale3(a[i], 2.0)

    with pytest.raises(TypeError, match=r"scale3\(\).*vector\(length=3, dtype=Scalar\)"):
        wp.launch(wrong_length, 1, inputs=[wp.zeros(1, dtype=wp.vec2), wp.zeros(1, dtype=wp.vec2)],
                  device="cpu")
