"""@wp.struct: host instances, numpy records, struct arguments, structs built and changed in
kernels and functions, arrays of structs."""

import re

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Inner:
    v: wp.vec3
    k: int


@wp.struct
class Mixed:
    x: float
    n: wp.int64
    flag: bool
    h: wp.float16
    inner: Inner
    a: wp.array(dtype=float)
    grid: wp.array2d(dtype=wp.vec2)
    m: wp.mat22d
    q: wp.quat


# --- host side ------------------------------------------------------------------------------


def test_new_instances_are_zero_and_fields_convert():
    s = Mixed()
    assert (s.x, s.n, s.flag, s.h) == (0.0, 0, False, 0.0)
    assert s.inner.v == wp.vec3() and s.inner.k == 0
    assert s.a is None and s.grid is None
    assert s.m == wp.mat22d() and s.q == wp.quat(0.0, 0.0, 0.0, 0.0)
    s.x = 1
    assert isinstance(s.x, float) and s.x == 1.0
    s.x = 0.1
    assert s.x == float(np.float32(0.1))
    s.n = np.int32(7)
    s.flag = 1
    s.h = wp.float16(1.5)
    s.inner.v = (1, 2, 3)
    s.m = [[1, 2], [3, 4]]
    s.q = np.array([0.0, 0.0, 0.0, 1.0])
    assert s.n == 7 and s.flag is True and s.h == 1.5
    assert isinstance(s.inner.v, wp.vec3) and s.inner.v == wp.vec3(1.0, 2.0, 3.0)
    assert s.m[1, 0] == 3.0 and s.q.w == 1.0
    a = wp.zeros(3, dtype=float)
    s.a = a
    assert s.a is a
    s.a = None
    t = Inner(k=4, v=wp.vec3(1.0))
    assert t.k == 4 and t.v == wp.vec3(1.0, 1.0, 1.0)
    assert repr(t) == "Inner(v=vec3f([1.0, 1.0, 1.0]), k=4)"


def test_scalar_fields_keep_treadle_scalar_types():
    @wp.struct
    class Scalars:
        u8: wp.uint8
        f16: wp.float16
        i: int

    s = Scalars()
    assert isinstance(s.u8, wp.uint8) and isinstance(s.f16, wp.float16) and s.u8 == 0
    s.u8, s.f16, s.i = wp.uint8(3), wp.float16(1.5), wp.int64(4)
    assert type(s.u8) is wp.uint8 and type(s.f16) is wp.float16 and type(s.i) is wp.int32
    assert int(s.i) == 4
    s.i = 42  # a Python value stays a Python value
    assert type(s.i) is int
    a = wp.array([s], dtype=Scalars, device="cpu")
    assert a.numpy()[0].tolist() == (3, 1.5, 42)


def test_struct_cannot_derive_from_a_struct():
    @wp.struct
    class Parent:
        x: int

    with pytest.raises(RuntimeError, match="^Warp structs must be defined as base classes$"):
        @wp.struct
        class Child(Parent):
            y: int


def test_single_values_for_composite_fields_follow_warp(capsys):
    from treadle import logger

    s = Mixed()
    s.q = wp.quat(1.0, 2.0, 3.0, 4.0)
    s.q = None  # zero-initialised
    assert list(s.q) == [0.0, 0.0, 0.0, 0.0]
    for value in (np.float32(1.5), np.int64(3), True, np.bool_(True), wp.bool(True)):
        logger._warnings_seen.clear()
        capsys.readouterr()
        s.m = value
        assert np.array_equal(np.array(s.m), np.full((2, 2), float(value)))
        err = capsys.readouterr().err
        assert (f"Implicit conversion from a value of type `{type(value).__name__}` to the "
                "composite type `mat22d` for struct field 'm' is deprecated") in err


def test_wrong_field_values_are_type_errors():
    s = Mixed()

    def raises(field, value, message, kind=TypeError):
        with pytest.raises(kind, match="^" + re.escape(message) + "$"):
            setattr(s, field, value)

    raises("x", "1.0", "Mixed.x: expected float32, got str")
    raises("n", 1.5, "Mixed.n: expected int64, got float")
    raises("inner", 3, "Mixed.inner: expected a struct Inner, got int")
    raises("m", (1.0, 2.0, 3.0), "Mixed.m: expected mat22d (4 components), got tuple of length 3")
    raises("q", 1.0, "Struct field 'q' expects quatf but got a single value of type float. "
           "Construct the value explicitly, e.g.: quatf(...).")
    raises("q", wp.int32(2), "Struct field 'q' expects quatf but got a single value of type "
           "int32. Construct the value explicitly, e.g.: quatf(...).")
    raises("q", wp.vec3(), "Mixed.q: expected quatf, got vec3f")
    raises("a", wp.zeros(3, dtype=int), "Struct field 'a' expects dtype float32, got int32")
    raises("a", wp.zeros((2, 2), dtype=float),
           "Struct field 'a' expects an array with 1 dimension(s), got 2 dimension(s)")
    raises("a", np.zeros(3, dtype=np.float32), "Struct field 'a' expects a Warp array, got ndarray")
    raises("grid", wp.zeros((2, 2), dtype=wp.vec3),
           "Struct field 'grid' expects dtype vec2f, got vec3f")
    raises("nope", 1, "struct Mixed has no field 'nope'", AttributeError)
    with pytest.raises(TypeError, match=re.escape("Inner.k: expected int32, got float")):
        Inner(k=2.5)


def test_struct_definitions_are_checked():
    with pytest.raises(TypeError, match="field 'name' has an unsupported type str"):

        @wp.struct
        class Named:
            name: str


def test_numpy_dtype_has_the_c_layout():
    dt = Mixed.numpy_dtype()
    offsets = {name: dt.fields[name][1] for name in dt.names}
    # x f4 @0, n i8 @8, flag @16, h f2 @18, inner (vec3 + int, 16 bytes, align 4) @20,
    # a array_t (72 bytes, align 8) @40, grid @112, m 2x2 f8 @184, q 4 f4 @216; size 232.
    assert offsets == {"x": 0, "n": 8, "flag": 16, "h": 18, "inner": 20, "a": 40, "grid": 112,
                       "m": 184, "q": 216}
    assert dt.itemsize == 232
    assert Inner.numpy_dtype().itemsize == 16
    s = Inner(v=(1.0, 2.0, 3.0), k=9)
    record = np.array(s.numpy_value(), dtype=Inner.numpy_dtype())
    assert record["k"] == 9 and list(record["v"]) == [1.0, 2.0, 3.0]
    back = Inner.from_numpy(record)
    assert back.k == 9 and back.v == wp.vec3(1.0, 2.0, 3.0)
    m = Mixed()
    m.a = wp.array([1.0, 2.0], dtype=float)
    rec = np.array(m.numpy_value(), dtype=dt)
    assert rec["a"]["data"] == m.a.ptr and list(rec["a"]["shape"]) == [2, 0, 0, 0]
    assert rec["a"]["ndim"] == 1 and rec["a"]["strides"][0] == 4


# --- struct arguments ---------------------------------------------------------------------


@wp.kernel
def read_mixed(s: Mixed, out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    s.a[i] = s.x * float(i) + s.inner.v.y
    wp.atomic_add(s.a, 0, 1.0)
    s.grid[i, 1] = wp.vec2(float(s.inner.k), s.x)
    if i == 0:
        out[0] = wp.float64(s.n)
        out[1] = wp.float64(float(s.flag))
        out[2] = wp.float64(s.h)
        out[3] = s.m[1, 0]
        out[4] = wp.float64(s.q.w)
        out[5] = wp.float64(s.inner.v.z)


def test_struct_arguments(device):
    s = Mixed()
    s.x = 2.0
    s.n = 2**40
    s.flag = True
    s.h = 0.5
    s.inner.v = (1.0, 2.0, 3.0)
    s.inner.k = 5
    s.m = [[1.0, 2.0], [3.0, 4.0]]
    s.q = (0.0, 0.0, 0.0, 1.0)
    s.a = wp.zeros(4, dtype=float, device=device)
    s.grid = wp.zeros((4, 2), dtype=wp.vec2, device=device)
    out = wp.zeros(6, dtype=wp.float64, device=device)
    wp.launch(read_mixed, dim=4, inputs=[s, out], device=device)
    np.testing.assert_array_equal(s.a.numpy(), [6.0, 4.0, 6.0, 8.0])
    np.testing.assert_array_equal(s.grid.numpy()[:, 1], [[5.0, 2.0]] * 4)
    np.testing.assert_array_equal(out.numpy(), [2.0**40, 1.0, 0.5, 3.0, 1.0, 3.0])


def test_struct_argument_errors(device):
    out = wp.zeros(6, dtype=wp.float64, device=device)
    with pytest.raises(TypeError, match=re.escape(
            "read_mixed(): argument 's' expects struct Mixed, got struct Inner")):
        wp.launch(read_mixed, dim=1, inputs=[Inner(), out], device=device)
    with pytest.raises(TypeError, match=re.escape(
            "read_mixed(): argument 's' expects struct Mixed, got float")):
        wp.launch(read_mixed, dim=1, inputs=[1.0, out], device=device)
    s = Mixed()
    s.a = wp.zeros(4, dtype=float, device="cpu")
    if device != "cpu":
        with pytest.raises(ValueError, match=re.escape(
                f"read_mixed(): argument 's.a' is on device cpu but the launch is on {device}")):
            wp.launch(read_mixed, dim=1, inputs=[s, out], device=device)


# --- nested structs, construction and updates in kernels and functions -------------------


@wp.struct
class Outer:
    inner: Inner
    scale: float
    tag: wp.int8
    default: float  # a C++ keyword: the generated member is renamed


@wp.func
def scaled(o: Outer) -> Outer:
    r = o
    r.inner.v = r.inner.v * r.scale
    r.inner.k += 1
    return r


@wp.func
def make_outer(k: int, scale: float):
    return Outer(Inner(wp.vec3(float(k), 0.0, 1.0), k), scale, wp.int8(3)), k * 2


@wp.kernel
def build_structs(base: Outer, out_v: wp.array(dtype=wp.vec3), out_k: wp.array(dtype=int)):
    i = wp.tid()
    a = Inner()
    a.v.y = 2.0
    a.k = i
    b = Outer(inner=a, scale=3.0)
    c, twice = make_outer(i, 0.5)
    d = scaled(c)
    e = base
    if i % 2 == 0:
        e.inner.v = wp.vec3(-1.0)
        e.scale = 2.0
    for j in range(i):
        e.inner.k = e.inner.k + j
    n = 0
    while n < i:
        b.inner.v.x += 1.0
        n += 1
    out_v[i * 4 + 0] = b.inner.v * b.scale
    out_v[i * 4 + 1] = d.inner.v
    out_v[i * 4 + 2] = e.inner.v * e.scale
    out_v[i * 4 + 3] = wp.vec3(float(b.tag), float(c.tag), float(twice) + base.default)
    out_k[i * 3 + 0] = b.inner.k
    out_k[i * 3 + 1] = d.inner.k
    out_k[i * 3 + 2] = e.inner.k


def test_nested_structs_built_and_changed_in_kernels_and_functions(device):
    base = Outer()
    base.inner.v = (1.0, 2.0, 3.0)
    base.inner.k = 10
    base.scale = 1.0
    base.default = 0.25
    n = 5
    out_v = wp.zeros(n * 4, dtype=wp.vec3, device=device)
    out_k = wp.zeros(n * 3, dtype=int, device=device)
    wp.launch(build_structs, dim=n, inputs=[base, out_v, out_k], device=device)
    v = out_v.numpy().reshape(n, 4, 3)
    k = out_k.numpy().reshape(n, 3)
    for i in range(n):
        np.testing.assert_array_equal(v[i, 0], np.array([i, 2.0, 0.0]) * 3.0)
        np.testing.assert_array_equal(v[i, 1], np.array([i, 0.0, 1.0]) * 0.5)
        e_v = np.full(3, -2.0) if i % 2 == 0 else np.array([1.0, 2.0, 3.0])
        np.testing.assert_array_equal(v[i, 2], e_v)
        np.testing.assert_array_equal(v[i, 3], [0.0, 3.0, 2.0 * i + 0.25])
        assert list(k[i]) == [i, i + 1, 10 + sum(range(i))]
    # the host instance is unchanged: struct arguments are passed by value
    assert base.scale == 1.0 and base.inner.v == wp.vec3(1.0, 2.0, 3.0)


# --- arrays of structs ----------------------------------------------------------------------


@wp.struct
class Body:
    pos: wp.vec3
    mass: float
    id: wp.int16
    alive: bool


@wp.kernel
def update_bodies(bodies: wp.array(dtype=Body), total: wp.array(dtype=float)):
    i = wp.tid()
    b = bodies[i]
    wp.atomic_add(total, 0, b.mass)
    if not b.alive:
        return
    b.pos = b.pos + wp.vec3(0.0, 1.0, 0.0)
    b.id = b.id + wp.int16(100)
    bodies[i] = b
    bodies[i].mass = bodies[i].mass * 2.0
    bodies[i].pos.z = -1.0


def test_arrays_of_structs_round_trip_numpy_records(device):
    rng = np.random.default_rng(3)
    n = 33
    records = np.zeros(n, dtype=Body.numpy_dtype())
    records["pos"] = rng.standard_normal((n, 3))
    records["mass"] = rng.uniform(1.0, 2.0, n)
    records["id"] = np.arange(n)
    records["alive"] = np.arange(n) % 3 != 0
    bodies = wp.array(records, dtype=Body, device=device)
    assert bodies.dtype is Body and bodies.shape == (n,)
    total = wp.zeros(1, dtype=float, device=device)
    wp.launch(update_bodies, dim=n, inputs=[bodies, total], device=device)
    got = bodies.numpy()
    assert got.dtype == Body.numpy_dtype()
    alive = records["alive"]
    expected_pos = records["pos"].copy()
    expected_pos[alive, 1] += 1.0
    expected_pos[alive, 2] = -1.0
    np.testing.assert_allclose(got["pos"], expected_pos, rtol=1e-6)
    np.testing.assert_allclose(got["mass"], np.where(alive, records["mass"] * 2, records["mass"]),
                               rtol=1e-6)
    np.testing.assert_array_equal(got["id"], np.where(alive, records["id"] + 100, records["id"]))
    np.testing.assert_array_equal(got["alive"], alive)
    np.testing.assert_allclose(total.numpy()[0], records["mass"].sum(), rtol=1e-5)
    first = bodies.list()[1]
    assert isinstance(first, Body) and first.id == 101 and first.alive


def test_arrays_of_structs_from_instances_and_fills(device):
    items = [Body(pos=(float(i), 0.0, 0.0), mass=1.0, id=i, alive=True) for i in range(4)]
    a = wp.array(items, device=device)
    assert a.dtype is Body
    np.testing.assert_array_equal(a.numpy()["pos"][:, 0], [0.0, 1.0, 2.0, 3.0])
    b = wp.full(3, Body(mass=2.5, id=7), device=device)
    np.testing.assert_array_equal(b.numpy()["mass"], [2.5] * 3)
    np.testing.assert_array_equal(b.numpy()["id"], [7] * 3)
    z = wp.zeros((2, 2), dtype=Body, device=device)
    assert z.numpy().shape == (2, 2) and not z.numpy()["alive"].any()
    z.assign(np.ones((2, 2), dtype=Body.numpy_dtype()))
    assert z.numpy()["mass"].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(TypeError, match=re.escape("cannot store a struct Inner in an array of Body")):
        wp.array([Inner()], dtype=Body, device=device)


@wp.kernel
def store_field_at(bodies: wp.array(dtype=Body), offset: int):
    i = wp.tid()
    bodies[i + offset].mass = 1.0


def test_checked_mode_field_stores(device):
    old = wp.config.mode
    wp.config.mode = "checked"
    try:
        bodies = wp.zeros(4, dtype=Body, device=device)
        with pytest.raises(IndexError, match=re.escape(
                "store_field_at(): index (4,) is out of bounds for an array of shape (4,)")):
            wp.launch(store_field_at, dim=4, inputs=[bodies, 1], device=device)
            wp.synchronize()
        np.testing.assert_array_equal(bodies.numpy()["mass"], [0.0, 1.0, 1.0, 1.0])
    finally:
        wp.config.mode = old


# --- a struct-of-arrays particle system -------------------------------------------------------


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    inv_mass: wp.array(dtype=float)


@wp.struct
class SimParams:
    gravity: wp.vec3
    dt: float
    damping: float
    ground: float


@wp.func
def apply_ground(p: wp.vec3, v: wp.vec3, ground: float):
    if p.y < ground:
        p.y = ground
        v.y = -v.y * 0.5
    return p, v


@wp.kernel
def integrate_particles(ps: Particles, params: SimParams):
    i = wp.tid()
    w = ps.inv_mass[i]
    v = ps.vel[i]
    if w > 0.0:
        v = (v + params.gravity * params.dt) * params.damping
    p = ps.pos[i] + v * params.dt
    p, v = apply_ground(p, v, params.ground)
    ps.pos[i] = p
    ps.vel[i] = v


def test_struct_of_arrays_particle_system(device):
    rng = np.random.default_rng(7)
    n = 64
    p0 = rng.uniform(0.0, 2.0, (n, 3)).astype(np.float32)
    v0 = rng.standard_normal((n, 3)).astype(np.float32)
    w0 = np.where(np.arange(n) % 5 == 0, 0.0, 1.0).astype(np.float32)
    ps = Particles()
    ps.pos = wp.array(p0, dtype=wp.vec3, device=device)
    ps.vel = wp.array(v0, dtype=wp.vec3, device=device)
    ps.inv_mass = wp.array(w0, dtype=float, device=device)
    params = SimParams(gravity=(0.0, -9.8, 0.0), dt=0.01, damping=0.99, ground=0.1)
    steps = 20
    for _ in range(steps):
        wp.launch(integrate_particles, dim=n, inputs=[ps, params], device=device)
    p, v = p0.copy(), v0.copy()
    g = np.array([0.0, -9.8, 0.0], dtype=np.float32)
    dt, damping = np.float32(0.01), np.float32(0.99)
    for _ in range(steps):
        moving = w0 > 0
        v[moving] = (v[moving] + g * dt) * damping
        p = p + v * dt
        below = p[:, 1] < np.float32(0.1)
        p[below, 1] = np.float32(0.1)
        v[below, 1] = -v[below, 1] * np.float32(0.5)
    np.testing.assert_allclose(ps.pos.numpy(), p, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ps.vel.numpy(), v, rtol=1e-4, atol=1e-4)


# --- the cache key follows the struct's layout ---------------------------------------------


def _kernel_with_struct(dtype):
    @wp.struct
    class Cfg:
        x: dtype

    @wp.kernel
    def use_cfg(c: Cfg, out: wp.array(dtype=float)):
        out[0] = float(c.x) * 2.0

    return Cfg, use_cfg


def test_changing_a_struct_changes_the_kernel():
    cfg32, k32 = _kernel_with_struct(float)
    cfg64, k64 = _kernel_with_struct(wp.float64)
    _, k32b = _kernel_with_struct(float)
    h32, h64, h32b = k32._compile("cpu"), k64._compile("cpu"), k32b._compile("cpu")
    assert h32.key != h64.key
    assert h32.key == h32b.key
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(k64, dim=1, inputs=[cfg64(x=1.25), out], device="cpu")
    assert out.numpy()[0] == 2.5
    with pytest.raises(TypeError, match=re.escape("expects struct Cfg, got struct Cfg of another layout")):
        wp.launch(k64, dim=1, inputs=[cfg32(x=1.0), out], device="cpu")


CfgA, _ = _kernel_with_struct(float)
CfgB, _ = _kernel_with_struct(wp.float64)


@wp.func
def get_x(c):
    return float(c.x)


@wp.kernel
def two_cfgs(a: CfgA, b: CfgB, out: wp.array(dtype=float)):
    out[0] = get_x(a) + get_x(b) * 10.0


def test_functions_specialise_per_struct_layout(device):
    # two structs named Cfg: get_x is built once for each
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(two_cfgs, dim=1, inputs=[CfgA(x=1.5), CfgB(x=2.0), out], device=device)
    assert out.numpy()[0] == 21.5


def test_struct_key_and_cls_follow_warp():
    @wp.struct
    class Local:
        x: float

    assert Local.key == "test_struct_key_and_cls_follow_warp__locals__Local"
    assert Local.cls is Local and isinstance(Local(), Local.cls)
