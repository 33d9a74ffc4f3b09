// src/api/device_sort.h -- a stable radix sort of (int32 key, int32 value) pairs and an
// exclusive scan, by kernels on the arrays' device (the BVH and hash-grid builds' sort)
//
// Least-significant digit first, 4 bits a pass. Each pass cuts the keys into tiles of 32; a
// thread per tile counts its digits into a digit-major table (counts[digit * tiles + tile]),
// the table's exclusive scan gives every (digit, tile) its first output slot, and the tile's
// thread moves its pairs there in order, so every pass is stable and the result is the same on
// every run. Small tiles and digits keep many threads busy on a GPU without shared memory.
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

/// The kernel module's text, for compile checks.
const char* kernel_source();

}  // namespace treadle::device_sort
