// native/treadle/indexedarray.h -- indexedarray_t: an array seen through per-dimension index arrays
//
// Element [i, j, ...] of an indexed array is element [indices[0][i], indices[1][j], ...] of the
// underlying array (a dimension whose index pointer is null is taken whole: index i maps to i).
// The overloads here mirror array.h (address, grad_address, load, store, view and the checked
// forms), so generated code and adjoint code print the same calls for both kinds; atomics on an
// indexed array are emitted in their pointer form on wp::address(...). The gradient of an
// indexed array is the underlying array's gradient through the same indices.
#pragma once

#include "array.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// Layout shared with the host runtime (120 bytes): the underlying array (its ndim is the
/// indexed array's ndim), one int32 index array per dimension (null: the whole dimension, then
/// shape[d] == arr.shape[d]) and the indexed shape.
template <typename T>
struct indexedarray_t {
    array_t<T> arr;
    int32* indices[4];
    int32 shape[4];
};
static_assert(sizeof(indexedarray_t<float>) == 120 && alignof(indexedarray_t<float>) == 8,
              "indexedarray_t layout is shared with the host runtime");

/// Whether the indexed array's underlying array has data (`if a:` on an indexed array).
template <typename T>
CUDA_CALLABLE bool array_nonnull(const indexedarray_t<T>& a) {
    return a.arr.data != nullptr;
}

/// The index into dimension d of the underlying array for index i of the indexed array (a
/// negative i counts from the end of the indexed dimension).
template <typename T>
CUDA_CALLABLE int32 map_index(const indexedarray_t<T>& a, int d, int32 i) {
    if (i < 0) i += a.shape[d];
    return a.indices[d] ? a.indices[d][i] : i;
}

template <typename T>
CUDA_CALLABLE T* address(const indexedarray_t<T>& a, int32 i) {
    return address(a.arr, map_index(a, 0, i));
}
template <typename T>
CUDA_CALLABLE T* address(const indexedarray_t<T>& a, int32 i, int32 j) {
    return address(a.arr, map_index(a, 0, i), map_index(a, 1, j));
}
template <typename T>
CUDA_CALLABLE T* address(const indexedarray_t<T>& a, int32 i, int32 j, int32 k) {
    return address(a.arr, map_index(a, 0, i), map_index(a, 1, j), map_index(a, 2, k));
}
template <typename T>
CUDA_CALLABLE T* address(const indexedarray_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return address(a.arr, map_index(a, 0, i), map_index(a, 1, j), map_index(a, 2, k),
                   map_index(a, 3, l));
}

template <typename T>
CUDA_CALLABLE int32 array_flags(const indexedarray_t<T>& a) {
    return a.arr.flags;
}
template <typename T>
CUDA_CALLABLE T* grad_address(const indexedarray_t<T>& a, int32 i) {
    return grad_address(a.arr, map_index(a, 0, i));
}
template <typename T>
CUDA_CALLABLE T* grad_address(const indexedarray_t<T>& a, int32 i, int32 j) {
    return grad_address(a.arr, map_index(a, 0, i), map_index(a, 1, j));
}
template <typename T>
CUDA_CALLABLE T* grad_address(const indexedarray_t<T>& a, int32 i, int32 j, int32 k) {
    return grad_address(a.arr, map_index(a, 0, i), map_index(a, 1, j), map_index(a, 2, k));
}
template <typename T>
CUDA_CALLABLE T* grad_address(const indexedarray_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return grad_address(a.arr, map_index(a, 0, i), map_index(a, 1, j), map_index(a, 2, k),
                        map_index(a, 3, l));
}

template <typename T>
CUDA_CALLABLE T load(const indexedarray_t<T>& a, int32 i) {
    return *address(a, i);
}
template <typename T>
CUDA_CALLABLE T load(const indexedarray_t<T>& a, int32 i, int32 j) {
    return *address(a, i, j);
}
template <typename T>
CUDA_CALLABLE T load(const indexedarray_t<T>& a, int32 i, int32 j, int32 k) {
    return *address(a, i, j, k);
}
template <typename T>
CUDA_CALLABLE T load(const indexedarray_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return *address(a, i, j, k, l);
}
template <typename T>
CUDA_CALLABLE void store(const indexedarray_t<T>& a, int32 i, type_identity_t<T> v) {
    *address(a, i) = v;
}
template <typename T>
CUDA_CALLABLE void store(const indexedarray_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {
    *address(a, i, j) = v;
}
template <typename T>
CUDA_CALLABLE void store(const indexedarray_t<T>& a, int32 i, int32 j, int32 k,
                         type_identity_t<T> v) {
    *address(a, i, j, k) = v;
}
template <typename T>
CUDA_CALLABLE void store(const indexedarray_t<T>& a, int32 i, int32 j, int32 k, int32 l,
                         type_identity_t<T> v) {
    *address(a, i, j, k, l) = v;
}

/// view(a, i): the indexed array a[i] of one dimension less (the first index is mapped).
template <typename T>
CUDA_CALLABLE indexedarray_t<T> view(const indexedarray_t<T>& a, int32 i) {
    indexedarray_t<T> r;
    r.arr = view(a.arr, map_index(a, 0, i));
    for (int d = 0; d < 3; ++d) {
        r.indices[d] = a.indices[d + 1];
        r.shape[d] = a.shape[d + 1];
    }
    r.indices[3] = nullptr;
    r.shape[3] = 0;
    return r;
}
template <typename T>
CUDA_CALLABLE indexedarray_t<T> view(const indexedarray_t<T>& a, int32 i, int32 j) {
    return view(view(a, i), j);
}
template <typename T>
CUDA_CALLABLE indexedarray_t<T> view(const indexedarray_t<T>& a, int32 i, int32 j, int32 k) {
    return view(view(view(a, i), j), k);
}

// ---- bounds-checked access (see array.h) ----------------------------------------------------

/// Checks idx[0..n) against the indexed shape, then the mapped indices against the underlying
/// array (an index array may hold a bad value); either failure records the error and returns
/// the dummy element.
template <typename T>
CUDA_CALLABLE T* address_checked_n(const indexedarray_t<T>& a, const int64* idx, int32 n,
                                   const char* file, int32 line, int32 column, const char* kernel) {
    int32 d = find_out_of_bounds(idx, a.shape, n);
    if (d >= 0) {
        record_bounds_error(idx, a.shape, n, d, file, line, column, kernel);
        return bounds_dummy<T>();
    }
    int64 mapped[4];
    for (int32 e = 0; e < n; ++e) {
        mapped[e] = map_index(a, e, int32(idx[e]));
        if (mapped[e] < 0) {  // an index array's entries count from the start only
            record_bounds_error(mapped, a.arr.shape, e + 1, e, file, line, column, kernel);
            return bounds_dummy<T>();
        }
    }
    return address_checked_n(a.arr, mapped, n, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedarray_t<T>& a, int64 i, const char* file, int32 line,
                                 int32 column, const char* kernel) {
    const int64 idx[1] = {i};
    return address_checked_n(a, idx, 1, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedarray_t<T>& a, int64 i, int64 j, const char* file,
                                 int32 line, int32 column, const char* kernel) {
    const int64 idx[2] = {i, j};
    return address_checked_n(a, idx, 2, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedarray_t<T>& a, int64 i, int64 j, int64 k,
                                 const char* file, int32 line, int32 column, const char* kernel) {
    const int64 idx[3] = {i, j, k};
    return address_checked_n(a, idx, 3, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedarray_t<T>& a, int64 i, int64 j, int64 k, int64 l,
                                 const char* file, int32 line, int32 column, const char* kernel) {
    const int64 idx[4] = {i, j, k, l};
    return address_checked_n(a, idx, 4, file, line, column, kernel);
}

/// view_checked(a, i, ...): like view(); a bad i (or a bad mapped index) records the error and
/// returns an empty view, so every checked access through it hits the dummy.
template <typename T>
CUDA_CALLABLE indexedarray_t<T> view_checked(const indexedarray_t<T>& a, int64 i, const char* file,
                                             int32 line, int32 column, const char* kernel) {
    bool ok = i >= -int64(a.shape[0]) && i < int64(a.shape[0]);
    if (!ok) record_bounds_error(&i, a.shape, 1, 0, file, line, column, kernel);
    int32 m = ok ? map_index(a, 0, int32(i)) : -1;
    if (ok && m < 0) {  // an index array's entries count from the start only
        int64 bad = m;
        record_bounds_error(&bad, a.arr.shape, 1, 0, file, line, column, kernel);
        ok = false;
    }
    indexedarray_t<T> r;
    r.arr =
        view_checked(a.arr, m, file, line, column, kernel);  // records a bad m (first error wins)
    ok = ok && uint32(m) < uint32(a.arr.shape[0]);
    for (int d = 0; d < 3; ++d) {
        r.indices[d] = ok ? a.indices[d + 1] : nullptr;
        r.shape[d] = ok ? a.shape[d + 1] : 0;
    }
    r.indices[3] = nullptr;
    r.shape[3] = 0;
    return r;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
