// src/api/array_fill.h -- fills and copies of strided and indexed arrays with device kernels
#pragma once

#include <cstddef>
#include <vector>

#include "treadle/array.h"

namespace treadle {

/// Per-dimension int32 index arrays of an indexed array (a null Array: that dimension is not
/// indexed), on the array's device; empty: no dimension is.
using IndexArrays = std::vector<Array>;

/// Sets every element of `dst` (picked through `indices` when given) to the `size` bytes at
/// `value`. On a CUDA device, what one memset cannot do (a strided or indexed array, a value
/// that is not one repeated byte, half-word or word) is a kernel whose launch holds the value,
/// so that the fill runs asynchronously and can be captured in a graph. Elsewhere, as
/// Array::fill_bytes. ErrorKind::Value for a value of the wrong size.
void fill_array(const Array& dst, const void* value, size_t size, const IndexArrays& indices = {});

/// dst = src element by element (same dtype, same shape of the picked elements). Between
/// strided or indexed arrays of one CUDA device, a kernel (asynchronous, capturable); otherwise
/// as Array::assign (which does not take index arrays: ErrorKind::Value then).
void copy_array(const Array& dst, const Array& src, const IndexArrays& dst_indices = {},
                const IndexArrays& src_indices = {});

/// The kernel path of fill_array / copy_array on any device (a CPU array too), for tests:
/// false for an array with a negative stride.
bool fill_by_kernel(const Array& dst, const void* value, size_t size, const IndexArrays& indices);
bool copy_by_kernel(const Array& dst, const Array& src, const IndexArrays& dst_indices,
                    const IndexArrays& src_indices);

}  // namespace treadle
