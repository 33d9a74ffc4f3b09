"""treadle's device radix sort and scan (src/api/device_sort.h: the hash grid's and the device
BVH build's), on each device against numpy: CUDA ranks in shared memory with 8-bit digits and
scans in blocks of 1,024; the CPU uses 4-bit tiles and chunks of 32."""

import numpy as np
import pytest

import treadle as wp


@pytest.mark.parametrize("n,bits", [(1, 5), (1023, 8), (1025, 9), (5000, 21), (70001, 30)])
def test_device_sort_is_a_stable_sort_by_the_low_bits(device, n, bits):
    # the hash grid's (and the device BVH build's) sort, on each device: CUDA ranks in shared
    # memory with 8-bit digits, the CPU uses 4-bit tiles; both must equal numpy's stable sort
    rng = np.random.default_rng(n)
    keys_np = rng.integers(0, 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    keys_np[::4] = 7  # many equal keys
    values_np = np.arange(n, dtype=np.int32)
    keys = wp.array(keys_np, dtype=wp.int32, device=device)
    values = wp.array(values_np, dtype=wp.int32, device=device)
    wp._treadle.device_sort_pairs(keys.ptr, values.ptr, n, bits, wp.get_device(device).alias)
    low = keys_np & np.int32((1 << bits) - 1)
    order = np.argsort(low, kind="stable")
    np.testing.assert_array_equal(values.numpy(), values_np[order])
    np.testing.assert_array_equal(keys.numpy(), keys_np[order])


@pytest.mark.parametrize("n", [1, 5, 1024, 1025, 300000, 1100000])
def test_device_exclusive_scan_matches_numpy(device, n):
    rng = np.random.default_rng(n)
    values_np = rng.integers(0, 100, n, dtype=np.int64).astype(np.int32)
    values = wp.array(values_np, dtype=wp.int32, device=device)
    wp._treadle.device_exclusive_scan(values.ptr, n, wp.get_device(device).alias)
    want = np.concatenate([[0], np.cumsum(values_np)[:-1]]).astype(np.int32)
    np.testing.assert_array_equal(values.numpy(), want)
