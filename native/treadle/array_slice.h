// native/treadle/array_slice.h -- slices of arrays in kernels: a[i, j:k:s, ...] as a view
//
// A kernel's a[2, 1:5, ::-1] is built one index at a time (codegen's slice_view): select_dim
// fixes a dimension at an index (negative ones count from the end) and removes it;
// slice_dim restricts a dimension to a Python slice start:stop:step (bounds clamped as Python
// does, a negative step walks backwards). Both move the data and gradient pointers and
// adjust shape and byte strides, so loads, stores, atomics and gradients through the view
// reach the original elements. A step of zero has no meaning: it reports "slice step cannot
// be zero" and aborts the process (CPU) or traps the thread (CUDA), as Warp does. As in Warp,
// a sliced view does not keep retain_grad (array_retain_grad): a store through it consumes
// the gradient of the element it wrote.
#pragma once

#include "array.h"
#include "print.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// `a` with dimension d fixed at index i: one dimension less.
template <typename T>
CUDA_CALLABLE array_t<T> select_dim(const array_t<T>& a, int32 d, int32 i) {
    if (i < 0) i += a.shape[d];
    const int64 off = int64(i) * a.strides[d];
    array_t<T> r = a;
    r.data = byte_offset(a.data, off);
    r.grad = a.grad ? byte_offset(a.grad, off) : nullptr;
    for (int e = d; e < 3; ++e) {
        r.shape[e] = a.shape[e + 1];
        r.strides[e] = a.strides[e + 1];
    }
    r.shape[3] = 0;
    r.strides[3] = 0;
    r.ndim = a.ndim - 1;
    r.flags = 0;
    return r;
}

/// `a` with dimension d restricted to start:stop:step; `given` says which bounds were written
/// (bit 1 start, bit 2 stop, bit 4 step); missing ones take Python's defaults.
template <typename T>
CUDA_CALLABLE array_t<T> slice_dim(const array_t<T>& a, int32 d, int32 start, int32 stop,
                                   int32 step, int32 given) {
    const int32 n = a.shape[d];
    if (!(given & 4)) step = 1;
    if (step == 0) assert_failed("slice step cannot be zero");
    if (step > 0) {
        start = !(given & 1) ? 0
                : start < 0  ? (start + n < 0 ? 0 : start + n)
                             : (start > n ? n : start);
        stop = !(given & 2) ? n : stop < 0 ? (stop + n < 0 ? 0 : stop + n) : (stop > n ? n : stop);
    } else {
        start = !(given & 1) ? n - 1
                : start < 0  ? (start + n < 0 ? -1 : start + n)
                             : (start >= n ? n - 1 : start);
        stop = !(given & 2) ? -1
               : stop < 0   ? (stop + n < 0 ? -1 : stop + n)
                            : (stop >= n ? n - 1 : stop);
    }
    int32 len = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
    if (len < 0) len = 0;
    array_t<T> r = a;
    if (len > 0) {
        const int64 off = int64(start) * a.strides[d];
        r.data = byte_offset(a.data, off);
        r.grad = a.grad ? byte_offset(a.grad, off) : nullptr;
    }
    r.shape[d] = len;
    r.strides[d] = a.strides[d] * step;
    r.flags = 0;
    return r;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
