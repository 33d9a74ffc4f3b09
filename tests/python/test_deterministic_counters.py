"""Deterministic mode's counters: an int32 atomic_add whose old value the kernel reads hands
out the slots of the sequential order (launch index, then program order) on every run, on the
CPU (which runs such kernels' launch indices in order) and on CUDA (a counting pass without
side effects, a segmented scan, then a replay that takes the answers)."""

import numpy as np
import pytest

import treadle as wp

RUN_TO_RUN = wp.DeterministicMode.RUN_TO_RUN
DEVICES = ["cpu"] + (["cuda:0"] if wp.get_cuda_device_count() > 0 else [])
needs_cuda = pytest.mark.skipif(len(DEVICES) < 2, reason="needs a CUDA device")


def det_kernel(**options):
    return wp.kernel(module="unique", module_options={"deterministic": RUN_TO_RUN, **options})


@det_kernel()
def counter(c: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    slot = wp.atomic_add(c, 0, 1)
    out[slot] = i


@det_kernel()
def compact(data: wp.array(dtype=float), counts: wp.array(dtype=wp.int32),
            bins: wp.array(dtype=wp.int32), counters: wp.array(dtype=wp.int32),
            out: wp.array(dtype=float, ndim=2), touched: wp.array(dtype=float),
            hist: wp.array(dtype=wp.int32), total: wp.array(dtype=float)):
    i = wp.tid()
    touched[i] = touched[i] + 1.0  # a store the counting pass must not make
    wp.atomic_add(hist, i % 4, 1)  # a plain integer increment: counted once
    if data[i] > 0.0:
        b = bins[i]
        base = wp.atomic_add(counters, b, counts[i])
        for k in range(counts[i]):
            out[b, base + k] = data[i] + float(k)
    wp.atomic_add(total, 0, data[i])  # float records, applied after the replay


def compact_reference(data, counts, bins, start):
    counters = np.array(start, np.int32)
    out = np.full((len(start), 4 * len(data) + 8), -1.0, np.float32)
    for i in range(len(data)):
        if data[i] > 0:
            b = bins[i]
            for k in range(counts[i]):
                out[b, counters[b] + k] = np.float32(data[i] + np.float32(k))
            counters[b] += counts[i]
    return counters, out


@pytest.mark.parametrize("device", DEVICES)
def test_counters_hand_out_the_sequential_slots(device):
    for start in (0, 20):
        c = wp.full(1, start, dtype=wp.int32, device=device)
        out = wp.full(start + 1000, -1, dtype=wp.int32, device=device)
        wp.launch(counter, dim=1000, inputs=[c, out], device=device)
        np.testing.assert_array_equal(out.numpy()[start:], np.arange(1000))
        assert (out.numpy()[:start] == -1).all()
        assert c.numpy()[0] == start + 1000


@pytest.mark.parametrize("device", DEVICES)
def test_compaction_with_variable_counts_bins_and_side_effects(device):
    rng = np.random.default_rng(4)
    n = 3000
    data = rng.standard_normal(n).astype(np.float32)
    counts = rng.integers(0, 4, n).astype(np.int32)
    bins = rng.integers(0, 3, n).astype(np.int32)
    start = np.array([0, 5, 2], np.int32)
    expected_counters, expected_out = compact_reference(data, counts, bins, start)
    expected_total = np.cumsum(data, dtype=np.float32)[-1] if device == "cpu" else None
    results = set()
    for _ in range(3):
        counters = wp.array(start, device=device)
        out = wp.full(expected_out.shape, -1.0, dtype=float, device=device)
        touched = wp.zeros(n, dtype=float, device=device)
        hist = wp.zeros(4, dtype=wp.int32, device=device)
        total = wp.zeros(1, dtype=float, device=device)
        wp.launch(compact, dim=n, inputs=[wp.array(data, device=device),
                                          wp.array(counts, device=device),
                                          wp.array(bins, device=device), counters, out, touched,
                                          hist, total], device=device)
        np.testing.assert_array_equal(counters.numpy(), expected_counters)
        np.testing.assert_array_equal(out.numpy(), expected_out)
        np.testing.assert_array_equal(touched.numpy(), np.ones(n, np.float32))
        np.testing.assert_array_equal(hist.numpy(), np.full(4, n // 4))
        if expected_total is not None:
            assert total.numpy()[0] == expected_total
        np.testing.assert_allclose(total.numpy()[0], data.sum(dtype=np.float64), rtol=1e-4)
        results.add(total.numpy().tobytes())
    assert len(results) == 1


@det_kernel(deterministic_max_records=2)
def emit_looped(counts: wp.array(dtype=wp.int32), c: wp.array(dtype=wp.int32),
                out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    for k in range(counts[i]):
        slot = wp.atomic_add(c, 0, 1)
        out[slot] = i * 10 + k


@pytest.mark.parametrize("device", DEVICES)
def test_a_loop_of_counters_within_and_beyond_the_record_bound(device):
    counts = np.array([2, 0, 1, 2, 1], np.int32)
    c = wp.zeros(1, dtype=wp.int32, device=device)
    out = wp.full(8, -1, dtype=wp.int32, device=device)
    wp.launch(emit_looped, dim=5, inputs=[wp.array(counts, device=device), c, out],
              device=device)
    np.testing.assert_array_equal(out.numpy(), [0, 1, 20, 30, 31, 40, -1, -1])
    if device == "cpu":
        return  # the CPU runs the indices in order: no records, no bound
    c.zero_()
    out.fill_(-1)
    with pytest.raises(RuntimeError, match="Deterministic scatter buffer overflow"):
        wp.launch(emit_looped, dim=5, inputs=[wp.full(5, 3, dtype=wp.int32, device=device), c,
                                              out], device=device)
    assert c.numpy()[0] == 0 and (out.numpy() == -1).all()  # nothing was applied


@det_kernel()
def diverging(c: wp.array(dtype=wp.int32), extra: wp.array(dtype=wp.int32)):
    slot = wp.atomic_add(c, 0, 1)
    if slot >= 3:  # the counting pass sees 0 here: the replay reserves what it did not
        wp.atomic_add(extra, 0, 1)


@needs_cuda
def test_a_replay_that_diverges_from_its_counting_pass_is_reported():
    c = wp.zeros(1, dtype=wp.int32, device="cuda:0")
    extra = wp.zeros(1, dtype=wp.int32, device="cuda:0")
    with pytest.raises(RuntimeError, match="reached a different counter than its counting pass"):
        wp.launch(diverging, dim=8, inputs=[c, extra], device="cuda:0")
    # the CPU runs it in order and gets the sequential answer
    c = wp.zeros(1, dtype=wp.int32, device="cpu")
    extra = wp.zeros(1, dtype=wp.int32, device="cpu")
    wp.launch(diverging, dim=8, inputs=[c, extra], device="cpu")
    assert c.numpy()[0] == 8 and extra.numpy()[0] == 5


def refused(kernel, device, *args):
    with pytest.raises(RuntimeError) as info:
        wp.launch(kernel, dim=4, inputs=list(args), device=device)
    return str(info.value)


@needs_cuda
def test_counters_the_two_passes_cannot_run_are_refused_at_their_line():
    @det_kernel()
    def takes_max(c: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
        old = wp.atomic_max(c, 0, wp.tid())
        out[wp.tid()] = old

    @det_kernel()
    def wide(c: wp.array(dtype=wp.int64), out: wp.array(dtype=wp.int32)):
        slot = wp.atomic_add(c, 0, wp.int64(1))
        out[wp.tid()] = wp.int32(slot)

    @det_kernel()
    def mixed(c: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
        wp.atomic_add(c, 0, 1)
        slot = wp.atomic_add(c, 0, 1)
        out[slot] = wp.tid()

    out = wp.zeros(16, dtype=wp.int32, device="cuda:0")
    c32 = wp.zeros(1, dtype=wp.int32, device="cuda:0")
    text = refused(takes_max, "cuda:0", c32, out)
    assert "deterministic mode supports consumed-return counters only for atomic_add: the old " \
           "value wp.atomic_max returns depends on the order threads run in" in text
    assert f"{__file__}:{takes_max.func.__code__.co_firstlineno + 2}:" in text
    text = refused(wide, "cuda:0", wp.zeros(1, dtype=wp.int64, device="cuda:0"), out)
    assert "consumed-return counter atomics only for int32 counter arrays: wp.atomic_add on " \
           "int64 elements" in text
    text = refused(mixed, "cuda:0", c32, out)
    assert "ordinary integer atomic side effects on the array of a consumed-return counter " \
           f"(line {mixed.func.__code__.co_firstlineno + 3})" in text
    assert f"{__file__}:{mixed.func.__code__.co_firstlineno + 2}:" in text
    # the CPU runs them in order: their results are the sequential ones
    c = wp.zeros(1, dtype=wp.int32, device="cpu")
    out = wp.zeros(16, dtype=wp.int32, device="cpu")
    wp.launch(mixed, dim=4, inputs=[c, out], device="cpu")
    np.testing.assert_array_equal(out.numpy()[[1, 3, 5, 7]], [0, 1, 2, 3])


@det_kernel()
def gathered_counter(data: wp.array(dtype=float), c: wp.array(dtype=wp.int32),
                     out: wp.array(dtype=float)):
    i = wp.tid()
    slot = wp.atomic_add(c, 0, 1)
    out[slot] = data[i] * data[i]


@pytest.mark.parametrize("device", DEVICES)
def test_the_backward_replay_of_a_counter_is_refused(device):
    data = wp.array(np.arange(8, dtype=np.float32), device=device, requires_grad=True)
    c = wp.zeros(1, dtype=wp.int32, device=device)
    out = wp.zeros(8, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gathered_counter, dim=8, inputs=[data, c, out], device=device)
    np.testing.assert_array_equal(out.numpy(), np.arange(8, dtype=np.float32) ** 2)
    with pytest.raises(RuntimeError, match="gathered_counter\\(\\): cannot differentiate code "
                                           "that uses the value atomic_add\\(\\) returns \\(the "
                                           "generated backward replay of consumed-return "
                                           "counter atomics cannot recover it\\)"):
        tape.backward(grads={out: wp.ones(8, dtype=float, device=device)})


@needs_cuda
def test_counters_in_a_captured_graph_repeat():
    c = wp.zeros(1, dtype=wp.int32, device="cuda:0")
    out = wp.full(64, -1, dtype=wp.int32, device="cuda:0")
    wp.launch(counter, dim=64, inputs=[c, out], device="cuda:0")  # loads the module
    with wp.ScopedCapture("cuda:0") as capture:
        wp.launch(counter, dim=64, inputs=[c, out], device="cuda:0")
    for _ in range(2):
        c.zero_()
        out.fill_(-1)
        wp.capture_launch(capture.graph)
        np.testing.assert_array_equal(out.numpy(), np.arange(64))
        assert c.numpy()[0] == 64
