"""The adjoint of every differentiable builtin, generated from the builtin table and checked
against central finite differences in float64, on every device.

For each builtin the table marks differentiable, the overloads its type rule accepts are found
by trying float64 scalars, vectors, matrices, quaternions, transforms and spatial vectors (and
the integer state and period arguments of the noise functions); a kernel applying the builtin
elementwise is written for each (at most MAX_OVERLOADS per builtin), and treadle.autograd
compares its Jacobian from the tape with finite differences.
"""

import importlib.util
import itertools
import os
import sys
import tempfile

import numpy as np
import pytest

import treadle as wp
import treadle.autograd
from treadle import _treadle
from treadle.type_classes import class_of

MAX_OVERLOADS = 4
N = 2  # elements per launch

FLOAT32_TYPES = [wp.float32, wp.vec2, wp.vec3, wp.vec4]
VALUE_TYPES = [
    wp.float64, wp.vec2d, wp.vec3d, wp.vec4d, wp.spatial_vectord, wp.mat22d, wp.mat33d,
    wp.spatial_matrixd, wp.quatd, wp.transformd,
]
EXTRA_TYPES = {  # non-float arguments some builtins take
    "noise": [wp.uint32], "pnoise": [wp.uint32, wp.int32], "curlnoise": [wp.uint32, wp.int32],
    # 4x4 matrices as homogeneous transforms
    "transform_from_matrix": [wp.mat44d], "transform_decompose": [wp.mat44d],
}
TABLE = _treadle.builtin_table()
# Atomics are differentiated as array writes (test_grad.py covers them) and array builtins that
# write their last argument are checked by test_spatial.py: the table's traits say which.
SKIP = {b["name"] for b in TABLE if b["atomic"] != "none" or b["writes_last_array"]}
# Builtins taking axis indices (valid only in {0, 1, 2}) are checked by test_quat_euler.py, the
# setters that write back to their first argument (and return None) by test_transform_setters.py.
SKIP |= {"quat_from_euler", "quat_to_euler"} | {b["name"] for b in TABLE if b["rebinds"] == "first"}
# Volume builtins read a grid by its id: test_volume_kernels.py checks them against finite
# differences.
SKIP |= {b["name"] for b in TABLE if b["group"] == "Volumes"}
# Mesh queries read a mesh by its id: test_mesh.py (and tests/cpp/api/test_mesh_adjoint.cpp)
# check their gradients against finite differences.
SKIP |= {b["name"] for b in TABLE if b["name"].startswith("mesh_")}
# Tile builtins work on values a block holds together: test_tile.py checks their gradients
# against finite differences and analytic ones.
SKIP |= {b["name"] for b in TABLE if b["group"] == "Tile Primitives"}
# Builtins with a Python spelling are called through it ("{0} + {1}", "-{0}", "{0} ** {1}").
OPERATORS = {b["name"]: ("{0} " + b["op"] + " {1}" if len(b["params"]) == 2 else b["op"] + "{0}")
             for b in TABLE if b["op"]}


def is_float(cls):
    """Whether values of type class `cls` hold floats (and so carry gradients)."""
    return cls._type.scalar.name.startswith("float")


def type_expr(cls):
    """The expression naming type class `cls` in kernel source."""
    t = cls._type
    scalar = t.scalar.name
    if t.kind == "vector":
        return f"wp.types.vector({t.length}, wp.{scalar})"
    if t.kind == "matrix":
        return f"wp.types.matrix({t.shape}, wp.{scalar})"
    return f"wp.{cls.__name__}"


def arities(builtin):
    """Argument counts the table's parameters allow (operators: their operands)."""
    params = builtin["params"]
    if any(p["variadic"] and p["name"] for p in params):
        return range(2, 5)  # matrix_from_rows(*rows): 2 to 4 vectors
    extra = 2 if any(p["variadic"] for p in params) else 0  # pnoise(state, x, px, ...)
    fixed = [p for p in params if not p["variadic"]]
    required = sum(1 for p in fixed if not p["default"])
    return range(required, len(fixed) + 1 + extra)


def overloads():
    found = []
    for builtin in TABLE:
        name = builtin["name"]
        if not builtin["differentiable"] or name in SKIP:
            continue
        if builtin["kind"] not in ("regular", "operator", "multi"):
            continue
        count = 0
        for pool, n in itertools.product(
            (EXTRA_TYPES.get(name, []) + VALUE_TYPES, EXTRA_TYPES.get(name, []) + FLOAT32_TYPES),
            arities(builtin),
        ):
            if count and wp.float32 in pool:
                break  # float32 overloads only for builtins without float64 ones
            for combo in itertools.product(pool, repeat=n):
                ret = _treadle.builtin_signature(name, [c._type for c in combo])
                if ret is None:
                    continue
                ret = tuple(class_of(t) for t in ret)
                if not any(is_float(r) for r in ret) or not any(is_float(a) for a in combo):
                    continue
                found.append((name, combo, ret))
                count += 1
                if count >= MAX_OVERLOADS:
                    break
            if count >= MAX_OVERLOADS:
                break
    return found


def kernel_source(index, name, args, rets):
    params = [f"a{k}: wp.array(dtype={type_expr(c)})" for k, c in enumerate(args)]
    params += [f"r{k}: wp.array(dtype={type_expr(c)})" for k, c in enumerate(rets)]
    operands = [f"a{k}[i]" for k in range(len(args))]
    call = OPERATORS[name].format(*operands) if name in OPERATORS else f"wp.{name}({', '.join(operands)})"
    results = ", ".join(f"y{k}" for k in range(len(rets)))
    lines = ["@wp.kernel", f"def k{index}_{name}({', '.join(params)}):", "    i = wp.tid()",
             f"    {results} = {call}"]
    lines += [f"    r{k}[i] = y{k}" for k in range(len(rets))]
    return "\n".join(lines) + "\n\n\n"


def load_kernels(cases):
    # A stable file name keeps the kernel cache warm between runs.
    path = os.path.join(tempfile.gettempdir(), f"treadle_grad_builtins_{os.getuid()}.py")
    text = "import treadle as wp\n\n\n" + "".join(
        kernel_source(i, *case) for i, case in enumerate(cases))
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    spec = importlib.util.spec_from_file_location("treadle_grad_builtins", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["treadle_grad_builtins"] = module
    spec.loader.exec_module(module)
    return [getattr(module, f"k{i}_{case[0]}") for i, case in enumerate(cases)]


CASES = overloads()
KERNELS = load_kernels(CASES)


def sample(cls, rng, name):
    """N values of type class `cls` inside the builtin's smooth domain, and `cls`."""
    t = cls._type
    if cls is wp.uint32:
        return rng.integers(1, 2**31, N).astype(np.uint32), cls
    if cls is wp.int32:
        return rng.integers(2, 6, N).astype(np.int32), cls
    if t.kind == "scalar":
        return rng.uniform(0.2, 0.8, N), cls
    if t.kind == "vector":
        return rng.uniform(0.3, 1.2, (N, t.length)), cls
    if t.kind == "matrix":
        r, c = t.shape
        m = rng.uniform(-0.5, 0.5, (N, r, c)) + 2.0 * np.eye(r, c)
        if name == "quat_from_matrix":  # only meaningful for rotations
            m = np.stack([np.linalg.qr(rng.standard_normal((3, 3)))[0] for _ in range(N)])
            m *= np.sign(np.linalg.det(m))[:, None, None]
        return m, cls
    q = rng.standard_normal((N, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    if t.kind == "quat":
        return q, cls
    return np.concatenate([rng.uniform(-1, 1, (N, 3)), q], axis=1), cls


def case_id(case):
    return case[0] + "[" + ", ".join(c.__name__ for c in case[1]) + "]"


@pytest.mark.parametrize("case", range(len(CASES)), ids=[case_id(c) for c in CASES])
def test_builtin_adjoint_matches_finite_differences(case, device):
    name, args, rets = CASES[case]
    rng = np.random.default_rng(case)
    inputs = []
    for cls in args:
        values, dtype = sample(cls, rng, name)
        inputs.append(wp.array(values, dtype=dtype, device=device, requires_grad=is_float(cls)))
    outputs = [wp.zeros(N, dtype=c, device=device, requires_grad=True) for c in rets]
    ad = treadle.autograd.jacobian(KERNELS[case], N, inputs=inputs, outputs=outputs, device=device)
    single = any(c._type.scalar == wp.float32._type for c in args)  # float32-only: coarser
    fd = treadle.autograd.jacobian_fd(KERNELS[case], N, inputs=inputs, outputs=outputs,
                                      device=device, eps=1e-3 if single else 1e-6)
    assert ad, f"{name}: nothing to differentiate"
    for key in ad:
        if name == "mod" and key[0] == 1:  # Warp's rule: b of a % b gets no gradient
            assert not np.any(ad[key]), f"{name}{list(args)}: d output / d b"
            continue
        np.testing.assert_allclose(ad[key], fd[key], rtol=1e-2 if single else 1e-5,
                                   atol=2e-3 if single else 1e-6,
                                   err_msg=f"{name}{list(args)}: d output {key[1]} / d input {key[0]}")


def test_every_differentiable_builtin_is_covered():
    covered = {c[0] for c in CASES}
    table = {b["name"] for b in TABLE
             if b["differentiable"] and b["kind"] in ("regular", "operator", "multi")}
    assert table - covered - SKIP == set()
