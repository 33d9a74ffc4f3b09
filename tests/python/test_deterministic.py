"""Deterministic mode (wp.DeterministicMode): float atomics repeat bit for bit on every run,
every CPU thread count and on CUDA: on the CPU (both modes) and in GPU_TO_GPU mode on CUDA in
the sequential (launch index) order, in RUN_TO_RUN mode on CUDA in the windowed order (see
windowed()). Counters (an int32 atomic_add whose result the kernel reads) hand out the slots of
the sequential order on both devices."""

import os
import subprocess
import sys

import numpy as np
import pytest

import treadle as wp

RUN_TO_RUN = wp.DeterministicMode.RUN_TO_RUN
GPU_TO_GPU = wp.DeterministicMode.GPU_TO_GPU
DEVICES = ["cpu"] + (["cuda:0"] if wp.get_cuda_device_count() > 0 else [])
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def det_kernel(mode=RUN_TO_RUN, **options):
    return wp.kernel(module="unique", module_options={"deterministic": mode, **options})


@det_kernel()
def reduce_one(data: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, data[wp.tid()])


@det_kernel()
def scatter(data: wp.array(dtype=float), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    out[idx[i]] += data[i]


@det_kernel(GPU_TO_GPU)
def scatter_strict(data: wp.array(dtype=float), idx: wp.array(dtype=int),
                   out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, idx[i], data[i])


@wp.func
def spring_force(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), a: int, b: int,
                 rest: float):
    d = x[b] - x[a]
    length = wp.length(d)
    dir = d / length
    return dir * ((length - rest) * 100.0 + wp.dot(v[b] - v[a], dir) * 0.5)


def make_springs(mode):
    @det_kernel(mode)
    def springs(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                pairs: wp.array(dtype=int, ndim=2), rest: wp.array(dtype=float),
                f: wp.array(dtype=wp.vec3)):
        s = wp.tid()
        a = pairs[s, 0]
        b = pairs[s, 1]
        force = spring_force(x, v, a, b, rest[s])
        wp.atomic_add(f, a, force)
        wp.atomic_sub(f, b, force)

    return springs


springs = make_springs(RUN_TO_RUN)
springs_strict = make_springs(GPU_TO_GPU)


def make_spring_forces(mode):
    # the same build flags as the atomic kernel of `mode` (GPU_TO_GPU: no contraction), so the
    # forces are the same bits
    @det_kernel(mode)
    def spring_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                      pairs: wp.array(dtype=int, ndim=2), rest: wp.array(dtype=float),
                      out: wp.array(dtype=wp.vec3)):
        s = wp.tid()
        out[s] = spring_force(x, v, pairs[s, 0], pairs[s, 1], rest[s])

    return spring_forces


spring_forces = make_spring_forces(RUN_TO_RUN)
spring_forces_strict = make_spring_forces(GPU_TO_GPU)


def make_composites(mode):
    @det_kernel(mode)
    def composites(m: wp.array(dtype=wp.mat33), d: wp.array(dtype=wp.float64),
                   h: wp.array(dtype=wp.float16), lo: wp.array(dtype=float),
                   hi: wp.array(dtype=float), out_m: wp.array(dtype=wp.mat33),
                   out_d: wp.array(dtype=wp.float64), out_h: wp.array(dtype=wp.float16),
                   out_lo: wp.array(dtype=float), out_hi: wp.array(dtype=float)):
        i = wp.tid()
        wp.atomic_add(out_m, i % 2, m[i])
        wp.atomic_add(out_d, 0, d[i])
        wp.atomic_add(out_h, 0, h[i])
        wp.atomic_min(out_lo, 0, lo[i])
        wp.atomic_max(out_hi, 0, hi[i])

    return composites


composites = make_composites(RUN_TO_RUN)
composites_strict = make_composites(GPU_TO_GPU)


@det_kernel()
def looped(counts: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(counts[i]):
        wp.atomic_add(out, 0, 1.0)


@det_kernel(deterministic_max_records=4)
def looped_bounded(counts: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(counts[i]):
        wp.atomic_add(out, 0, 1.0)


@det_kernel()
def gather(x: wp.array(dtype=wp.vec3), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.dot(x[idx[i]], x[idx[i]]) * 0.5


WINDOW = 256  # record slots per window of the windowed order (native/treadle/deterministic.h)


def windowed(initial, slots, targets, values):
    """The windowed order's result of additive records (slot, target index, value): per
    target, its records in slot order are folded per window of WINDOW slots, and the partials
    are added to the initial value in order. CUDA applies records so in RUN_TO_RUN mode; the
    CPU, and CUDA in GPU_TO_GPU mode, add them one by one in slot order."""
    out = np.array(initial, copy=True)
    flat = out.reshape(len(out), -1) if out.ndim > 1 else out.reshape(-1, 1)
    slots, targets = np.asarray(slots), np.asarray(targets)
    values = np.asarray(values, out.dtype).reshape(len(slots), -1)
    order = np.lexsort((slots, targets))
    for c in range(flat.shape[1]):
        i = 0
        while i < len(order):
            t = targets[order[i]]
            acc = flat[t, c]
            while i < len(order) and targets[order[i]] == t:
                w = slots[order[i]] // WINDOW
                partial = values[order[i], c]
                i += 1
                while (i < len(order) and targets[order[i]] == t and
                       slots[order[i]] // WINDOW == w):
                    partial = (partial + values[order[i], c]).astype(out.dtype)
                    i += 1
                acc = (acc + partial).astype(out.dtype)
            flat[t, c] = acc
    return out


def windowed_sum(values):
    """windowed() of records of one target at slots 0, 1, 2, ... starting from 0."""
    values = np.asarray(values, np.float32)
    total = np.float32(0)
    for start in range(0, len(values), WINDOW):
        total = np.float32(total + np.cumsum(values[start:start + WINDOW], dtype=np.float32)[-1])
    return total


def cloth(n=32, seed=3):
    """A grid of n x n particles with structural and shear springs, jittered."""
    rng = np.random.default_rng(seed)
    grid = np.stack(np.meshgrid(np.arange(n), np.arange(n), indexing="ij"), -1).reshape(-1, 2)
    x = np.concatenate([grid, np.zeros((n * n, 1))], 1).astype(np.float32) * np.float32(0.1)
    x += rng.standard_normal(x.shape).astype(np.float32) * np.float32(0.01)
    v = rng.standard_normal(x.shape).astype(np.float32)
    ids = np.arange(n * n).reshape(n, n)
    pairs = np.concatenate([
        np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], 1),
        np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], 1),
        np.stack([ids[:-1, :-1].ravel(), ids[1:, 1:].ravel()], 1),
        np.stack([ids[1:, :-1].ravel(), ids[:-1, 1:].ravel()], 1),
    ]).astype(np.int32)
    rng.shuffle(pairs)
    rest = np.linalg.norm(x[pairs[:, 1]] - x[pairs[:, 0]], axis=1).astype(np.float32) * 0.9
    return x, v, pairs, rest


def run_springs(device, x, v, pairs, rest, kernel=None):
    f = wp.zeros(len(x), dtype=wp.vec3, device=device)
    wp.launch(kernel or springs, dim=len(pairs), inputs=[wp.array(x, dtype=wp.vec3, device=device),
                                               wp.array(v, dtype=wp.vec3, device=device),
                                               wp.array(pairs, device=device),
                                               wp.array(rest, device=device), f], device=device)
    return f.numpy()


@pytest.mark.parametrize("device", DEVICES)
def test_million_element_reduction_repeats_and_is_sequential(device):
    data = np.random.default_rng(0).standard_normal(10**6).astype(np.float32)
    src = wp.array(data, device=device)
    results = set()
    for _ in range(20):
        out = wp.zeros(1, dtype=float, device=device)
        wp.launch(reduce_one, dim=len(data), inputs=[src, out], device=device)
        results.add(out.numpy().tobytes())
    assert len(results) == 1
    if device == "cpu":
        expected = np.cumsum(data, dtype=np.float32)[-1]  # np.cumsum adds in order
    else:
        expected = windowed_sum(data)
    assert np.frombuffer(results.pop(), np.float32)[0] == expected


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strict", [False, True])
def test_cloth_springs_repeat_and_match_the_reference_scatter(device, strict):
    x, v, pairs, rest = cloth()
    kernel = springs_strict if strict else springs
    runs = {run_springs(device, x, v, pairs, rest, kernel).tobytes() for _ in range(20)}
    assert len(runs) == 1
    # the same forces, stored per spring (no atomics), scattered in launch order by numpy
    per_spring = wp.zeros(len(pairs), dtype=wp.vec3, device=device)
    wp.launch(spring_forces_strict if strict else spring_forces, dim=len(pairs), inputs=[
        wp.array(x, dtype=wp.vec3, device=device), wp.array(v, dtype=wp.vec3, device=device),
        wp.array(pairs, device=device), wp.array(rest, device=device), per_spring], device=device)
    forces = per_spring.numpy()
    order = np.stack([pairs[:, 0], pairs[:, 1]], 1).ravel()
    values = np.stack([forces, -forces], 1).reshape(-1, 3)
    if device == "cpu" or strict:
        expected = np.zeros_like(x)
        np.add.at(expected, order, values)  # unbuffered, in the order given
    else:
        # 6 record slots per spring: the 3 components added to a, then the 3 taken from b
        got_slots = np.arange(len(order)) // 2 * 6 + np.arange(len(order)) % 2 * 3
        expected = np.zeros_like(x)
        for c in range(3):
            expected[:, c] = windowed(np.zeros(len(x), np.float32), got_slots + c, order,
                                      values[:, c])
    got = np.frombuffer(runs.pop(), np.float32).reshape(-1, 3)
    np.testing.assert_array_equal(got, expected)


def test_cpu_thread_counts_give_the_same_bits():
    script = (
        "import sys, numpy as np, treadle as wp\n"
        f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
        "import test_deterministic as t\n"
        "data = np.random.default_rng(0).standard_normal(10**6).astype(np.float32)\n"
        "out = wp.zeros(1, dtype=float)\n"
        "wp.launch(t.reduce_one, dim=len(data), inputs=[wp.array(data), out])\n"
        "x, v, pairs, rest = t.cloth()\n"
        "print(out.numpy().tobytes().hex(), t.run_springs('cpu', x, v, pairs, rest).tobytes().hex())\n")
    outputs = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, TREADLE_NUM_THREADS=threads,
                   PYTHONPATH=os.path.join(REPO, "python"))
        proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout.strip().splitlines()[-1])
    assert len(outputs) == 1


@pytest.mark.parametrize("device", DEVICES)
def test_gpu_to_gpu_matches_the_sequential_order(device):
    # cancellations make every other order give other bits
    data = np.array([1.0e20, 1.0, -1.0e20, 3.5, -2.25, 2.0**-20, 1.0e10, -1.0e10, 7.0, -7.0,
                     9.0, 1.0e-7], np.float32)
    idx = np.array([0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 2, 2], np.int32)
    for start in (0.0, 0.5):
        out = wp.full(3, value=start, dtype=float, device=device)
        wp.launch(scatter_strict, dim=len(data), inputs=[wp.array(data, device=device),
                                                         wp.array(idx, device=device), out],
                  device=device)
        expected = np.full(3, start, np.float32)
        for d, i in zip(data, idx):
            expected[i] = np.float32(expected[i] + d)
        np.testing.assert_array_equal(out.numpy().view(np.uint32), expected.view(np.uint32))
        # the windowed order (RUN_TO_RUN on CUDA) gives other bits from 0.5
        other = windowed(np.full(3, start, np.float32), np.arange(len(data)), idx, data)
        assert (other.view(np.uint32) == expected.view(np.uint32)).all() == (start == 0.0)


@pytest.mark.parametrize("device", DEVICES)
def test_gpu_to_gpu_adds_a_hot_address_in_order(device):
    rng = np.random.default_rng(10)
    n = 100000
    data = (rng.standard_normal(n) * 1e3).astype(np.float32)
    idx = np.where(rng.random(n) < 0.7, 0, rng.integers(1, 50, n)).astype(np.int32)
    out = wp.full(50, value=0.25, dtype=float, device=device)
    wp.launch(scatter_strict, dim=n, inputs=[wp.array(data, device=device),
                                             wp.array(idx, device=device), out], device=device)
    expected = np.full(50, 0.25, np.float32)
    np.add.at(expected, idx, data)  # unbuffered: one by one, in the order given
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("device", DEVICES)
def test_augmented_assignment_scatter_is_sequential(device):
    rng = np.random.default_rng(5)
    data = (rng.standard_normal(50000) * 1e4).astype(np.float32)
    idx = rng.integers(0, 7, len(data)).astype(np.int32)
    out = wp.zeros(7, dtype=float, device=device)
    wp.launch(scatter, dim=len(data), inputs=[wp.array(data, device=device),
                                              wp.array(idx, device=device), out], device=device)
    if device == "cpu":
        expected = np.zeros(7, np.float32)
        np.add.at(expected, idx, data)
    else:
        expected = windowed(np.zeros(7, np.float32), np.arange(len(data)), idx, data)
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strict", [False, True])
def test_composite_double_half_and_minmax_atomics(device, strict):
    rng = np.random.default_rng(6)
    n = 4097
    m = rng.standard_normal((n, 3, 3)).astype(np.float32)
    d = rng.standard_normal(n) * 1e8
    h = (rng.standard_normal(n) * 4).astype(np.float16)
    lo = rng.standard_normal(n).astype(np.float32)
    hi = rng.standard_normal(n).astype(np.float32)
    outs = [wp.zeros(2, dtype=wp.mat33, device=device), wp.zeros(1, dtype=wp.float64, device=device),
            wp.zeros(1, dtype=wp.float16, device=device), wp.full(1, 10.0, dtype=float, device=device),
            wp.full(1, -10.0, dtype=float, device=device)]
    ins = [wp.array(m, dtype=wp.mat33, device=device), wp.array(d, dtype=wp.float64, device=device),
           wp.array(h, dtype=wp.float16, device=device), wp.array(lo, device=device),
           wp.array(hi, device=device)]
    wp.launch(composites_strict if strict else composites, dim=n, inputs=ins + outs,
              device=device)
    tid = np.arange(n)
    if device == "cpu" or strict:
        expected_m = np.zeros((2, 3, 3), np.float32)
        np.add.at(expected_m, tid % 2, m)
        expected_d = np.cumsum(d)[-1]
        expected_h = np.float16(0)
        for v in h:
            expected_h = np.float16(np.float32(expected_h) + np.float32(v))
    else:
        # 13 record slots per thread: 9 matrix components, then d, h, lo, hi
        expected_m = np.zeros((2, 9), np.float32)
        for c in range(9):
            expected_m[:, c] = windowed(np.zeros(2, np.float32), tid * 13 + c, tid % 2,
                                        m.reshape(n, 9)[:, c])
        expected_m = expected_m.reshape(2, 3, 3)
        expected_d = windowed(np.zeros(1), tid * 13 + 9, np.zeros(n, int), d)[0]
        expected_h = windowed(np.zeros(1, np.float16), tid * 13 + 10, np.zeros(n, int), h)[0]
    np.testing.assert_array_equal(outs[0].numpy(), expected_m)
    assert outs[1].numpy()[0] == expected_d
    assert outs[2].numpy()[0] == expected_h
    assert outs[3].numpy()[0] == lo.min() and outs[4].numpy()[0] == hi.max()


@pytest.mark.parametrize("device", DEVICES)
def test_overflowing_the_record_bound_applies_nothing(device):
    counts = wp.full(64, 3, dtype=int, device=device)
    out = wp.full(1, 5.0, dtype=float, device=device)
    with pytest.raises(RuntimeError, match="Deterministic scatter buffer overflow: a thread "
                                           "emitted more than 1 float atomic records"):
        wp.launch(looped, dim=64, inputs=[counts, out], device=device)
    assert out.numpy()[0] == 5.0
    wp.launch(looped_bounded, dim=64, inputs=[counts, out], device=device)
    assert out.numpy()[0] == 5.0 + 64 * 3
    # the next launch of the overflowing kernel that fits is fine again
    wp.launch(looped, dim=64, inputs=[wp.ones(64, dtype=int, device=device), out], device=device)
    assert out.numpy()[0] == 5.0 + 64 * 4


@pytest.mark.parametrize("device", DEVICES)
def test_backward_accumulations_repeat(device):
    rng = np.random.default_rng(8)
    x_np = rng.standard_normal((16, 3)).astype(np.float32)
    idx_np = rng.integers(0, 16, 30000).astype(np.int32)
    x = wp.array(x_np, dtype=wp.vec3, device=device, requires_grad=True)
    idx = wp.array(idx_np, device=device)
    seeds = rng.standard_normal(len(idx_np)).astype(np.float32)
    grads = set()
    for _ in range(5):
        x.grad.zero_()
        out = wp.zeros(len(idx_np), dtype=float, device=device, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(gather, dim=len(idx_np), inputs=[x, idx, out], device=device)
        tape.backward(grads={out: wp.array(seeds, device=device)})
        grads.add(x.grad.numpy().tobytes())
    assert len(grads) == 1
    expected = np.zeros_like(x_np)
    np.add.at(expected, idx_np, x_np[idx_np] * seeds[:, None])
    np.testing.assert_allclose(np.frombuffer(grads.pop(), np.float32).reshape(-1, 3), expected,
                               rtol=1e-5, atol=1e-4)


def test_reading_a_float_atomics_old_value_is_refused():
    @det_kernel()
    def leader(total: wp.array(dtype=float), log: wp.array(dtype=int)):
        tid = wp.tid()
        if wp.atomic_add(total, 0, 1.0) == 0.0:
            log[0] = tid

    with pytest.raises(wp.WarpCodegenError) as info:
        wp.launch(leader, dim=4, inputs=[wp.zeros(1, dtype=float), wp.zeros(1, dtype=int)])
    text = str(info.value)
    assert ("leader(): deterministic mode supports consumed-return counter atomics only for "
            "int32 counter arrays: the old value of a float atomic_add is not known until the "
            "launch has ended") in text
    line = leader.func.__code__.co_firstlineno + 3
    assert f"{__file__}:{line}:" in text


def test_mode_values_are_checked():
    with pytest.raises(ValueError, match="DeterministicMode"):
        wp.config.deterministic = True
    with pytest.raises(ValueError, match="DeterministicMode"):
        @wp.kernel(module="unique", module_options={"deterministic": "run_to_run"})
        def bad(a: wp.array(dtype=float)):
            a[0] = 1.0
    with pytest.raises(ValueError, match="deterministic_max_records"):
        wp.set_module_options({"deterministic_max_records": -1})
    with pytest.raises(ValueError, match="DeterministicMode"):
        @wp.kernel(options={"deterministic": True})
        def bad_kernel_option(a: wp.array(dtype=float)):
            a[0] = 1.0


def test_new_modules_take_the_configured_mode():
    old = wp.config.deterministic, wp.config.deterministic_max_records
    try:
        wp.config.deterministic = RUN_TO_RUN
        wp.config.deterministic_max_records = 7

        @wp.kernel(module="unique")
        def k(out: wp.array(dtype=float)):
            wp.atomic_add(out, 0, 1.0)

        options = k.module.resolve_options(wp.config)
        assert options["deterministic"] == RUN_TO_RUN
        assert options["deterministic_max_records"] == 7
        out = wp.zeros(1, dtype=float)
        wp.launch(k, dim=100, inputs=[out])
        assert out.numpy()[0] == 100.0
    finally:
        wp.config.deterministic, wp.config.deterministic_max_records = old


@pytest.mark.skipif(len(DEVICES) < 2, reason="needs a CUDA device")
def test_gpu_to_gpu_cpu_and_cuda_agree():
    rng = np.random.default_rng(9)
    data = (rng.standard_normal(200000) * 1e3).astype(np.float32)
    idx = rng.integers(0, 33, len(data)).astype(np.int32)
    bits = []
    for device in ("cpu", "cuda:0"):
        out = wp.zeros(33, dtype=float, device=device)
        wp.launch(scatter_strict, dim=len(data), inputs=[wp.array(data, device=device),
                                                         wp.array(idx, device=device), out],
                  device=device)
        bits.append(out.numpy().tobytes())
    assert bits[0] == bits[1]


@wp.kernel(module="unique", module_options={"deterministic": RUN_TO_RUN, "mode": "checked"})
def scatter_2d_checked(data: wp.array(dtype=float, ndim=2), idx: wp.array(dtype=int, ndim=2),
                       out: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(out, idx[i, j], data[i, j])


def test_2d_checked_and_recorded_launches_repeat_in_launch_order():
    rng = np.random.default_rng(11)
    data = (rng.standard_normal((300, 70)) * 100).astype(np.float32)
    idx = rng.integers(-5, 5, data.shape).astype(np.int32)  # negative: from the end
    expected = np.zeros(5, np.float32)
    np.add.at(expected, (idx % 5).ravel(), data.ravel())
    with wp.ScopedDevice("cpu"):  # the sequential order: the CPU's RUN_TO_RUN
        for _ in range(3):
            out = wp.zeros(5, dtype=float)
            wp.launch(scatter_2d_checked, dim=data.shape,
                      inputs=[wp.array(data), wp.array(idx), out])
            np.testing.assert_array_equal(out.numpy(), expected)
        out = wp.zeros(5, dtype=float)
        cmd = wp.launch(scatter_2d_checked, dim=data.shape,
                        inputs=[wp.array(data), wp.array(idx), out], record_cmd=True)
        cmd.launch()
        np.testing.assert_array_equal(out.numpy(), expected)
        bad = wp.full(data.shape, 5, dtype=int)
        with pytest.raises(IndexError, match="out of bounds"):
            wp.launch(scatter_2d_checked, dim=data.shape, inputs=[wp.array(data), bad, out])


@wp.func
def square_via(scratch: wp.array(dtype=float), x: float):
    scratch[0] = x
    return scratch[0] * scratch[0]


def make_square_through_scratch(mode):
    @det_kernel(mode)
    def square_through_scratch(x: wp.array(dtype=float), scratch: wp.array(dtype=float),
                               loss: wp.array(dtype=float)):
        loss[0] = square_via(scratch, x[0])

    return square_through_scratch


@pytest.mark.parametrize("device", DEVICES)
def test_a_stores_adjoint_takes_the_threads_own_recorded_gradient(device):
    # the backward pass records scratch's gradient (from the load), then the store's adjoint
    # takes it: it must see the record, as the default mode sees the applied atomic
    grads = []
    for mode in (wp.DeterministicMode.NOT_GUARANTEED, RUN_TO_RUN, GPU_TO_GPU):
        x = wp.array([3.0], dtype=float, device=device, requires_grad=True)
        scratch = wp.zeros(1, dtype=float, device=device, requires_grad=True)
        loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(make_square_through_scratch(mode), dim=1, inputs=[x, scratch, loss],
                      device=device)
        tape.backward(grads={loss: wp.ones(1, dtype=float, device=device)})
        assert loss.numpy()[0] == 9.0
        grads.append((x.grad.numpy()[0], scratch.grad.numpy()[0]))
    assert grads == [(6.0, 0.0)] * 3


def test_mixing_reduction_families_on_one_array_is_refused():
    @det_kernel()
    def add_and_max(data: wp.array(dtype=float), out: wp.array(dtype=float)):
        wp.atomic_add(out, 0, data[wp.tid()])
        wp.atomic_max(out, 0, 1.0)

    with pytest.raises(wp.WarpCodegenError) as info:
        wp.launch(add_and_max, dim=4, inputs=[wp.ones(4), wp.zeros(1)], device="cpu")
    line = add_and_max.func.__code__.co_firstlineno
    assert (f"add_and_max(): deterministic mode does not support mixing atomic_add (line "
            f"{line + 2}) and atomic_max on one array") in str(info.value)
    assert f"{__file__}:{line + 3}:" in str(info.value)


def test_launches_beyond_the_slot_numbering_are_refused():
    with pytest.raises(RuntimeError, match=r"reduce_one\(\): deterministic mode supports "
                                           r"launches of up to 2\^32 threads and records"):
        wp.launch(reduce_one, dim=(65536, 65537),
                  inputs=[wp.ones(1, device="cpu"), wp.zeros(1, device="cpu")], device="cpu")
