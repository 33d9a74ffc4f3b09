// native/treadle/search.h -- searches of sorted arrays (Warp's lower_bound)
#pragma once

#include "array.h"
#include "core.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// lower_bound(a, begin, end, value): the first index i in [begin, end) of the sorted 1-D array
/// `a` with a[i] >= value, or `end` when there is none (a binary search).
template <typename T>
CUDA_CALLABLE int32 lower_bound(const array_t<T>& a, int32 begin, int32 end, T value) {
    int32 lo = begin, hi = end;
    while (lo < hi) {
        const int32 mid = lo + (hi - lo) / 2;
        const T x = *byte_offset(a.data, int64(mid) * a.strides[0]);
        bool less;
        if constexpr (is_narrow_float_v<T>)
            less = float(x) < float(value);
        else
            less = x < value;
        if (less)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// lower_bound(a, value): the search over the whole array.
template <typename T>
CUDA_CALLABLE int32 lower_bound(const array_t<T>& a, T value) {
    return lower_bound(a, 0, int32(a.shape[0]), value);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
