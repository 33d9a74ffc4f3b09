// src/api/device_sort.h -- a stable radix sort of (int32 key, int32 value) pairs and an
// exclusive scan, by kernels on the arrays' device (the BVH and hash-grid builds' sort)
//
// Least-significant digit first. Each pass cuts the keys into tiles, counts every tile's
// digits into a digit-major table (counts[digit * tiles + tile]), scans the table (its
// exclusive prefix sums give every (digit, tile) its first output slot) and moves each tile's
// pairs there in order, so every pass is stable and the result is the same on every run. On
// the CPU a thread takes a tile of 32 keys and 4-bit digits; on CUDA a block of 256 threads
// takes 1,024 keys and 8-bit digits, ranking them in shared memory (device_sort.cpp).
#pragma once

#include <cstdint>

#include "treadle/array.h"

namespace treadle::device_sort {

/// Sorts the first `count` pairs of `keys` and `values` (contiguous int32 arrays of one
/// device, non-negative keys) by the keys' low `bits` bits (1 to 31), stable; temporaries come
/// from the device's allocator, and on CUDA the work is enqueued on its current stream.
/// Throws treadle::Error: Value for arrays of other types, devices or lengths.
void sort_pairs(const Array& keys, const Array& values, int64_t count, int bits);

/// Replaces the first `count` values of `values` (contiguous int32) by their exclusive prefix
/// sums (wrapping on overflow, as int32 addition).
void exclusive_scan(const Array& values, int64_t count);

/// The kernel modules' texts, for compile checks: the tiles of every device, and the
/// shared-memory blocks CUDA sorts with.
const char* kernel_source();
const char* cuda_kernel_source();

}  // namespace treadle::device_sort
