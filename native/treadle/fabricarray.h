// native/treadle/fabricarray.h -- fabricarray_t and indexedfabricarray_t: arrays stored in buckets
//
// A Fabric array's elements live in a list of buckets; bucket b holds elements
// [index_start, index_end) contiguously at `ptr`. Element i is found by a binary search over
// the buckets (they are sorted and adjacent, starting at 0). A Fabric array of arrays (ndim 2)
// holds in each bucket one data pointer per element (`ptr`) and the element's length
// (`lengths`); a[i] is then a 1-D wp::array_t view of element i and a[i, j] its j-th value. An
// indexed Fabric array maps index i through an int32 index array first. Fabric arrays have no
// gradient: grad_address() is null, so backward passes skip them. The overloads mirror array.h
// (address, load, store, view and the checked forms), so generated code prints the same calls
// for every array kind; atomics are emitted in their pointer form on wp::address(...).
#pragma once

#include "array.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// One bucket (32 bytes; the host runtime writes this layout).
struct fabricbucket_t {
    uint64 index_start;
    uint64 index_end;
    void* ptr;
    uint64* lengths;  ///< ndim 2 only: the length of each element's array
};

/// Layout shared with the host runtime (24 bytes): the bucket table (on the array's device),
/// the number of buckets and the number of elements.
template <typename T>
struct fabricarray_t {
    fabricbucket_t* buckets;
    uint64 nbuckets;
    uint64 size;
};
static_assert(sizeof(fabricarray_t<float>) == 24 && alignof(fabricarray_t<float>) == 8,
              "fabricarray_t layout is shared with the host runtime");

/// Layout shared with the host runtime (40 bytes): the Fabric array, the int32 index array and
/// its length (the indexed array's size).
template <typename T>
struct indexedfabricarray_t {
    fabricarray_t<T> fa;
    int32* indices;
    uint64 size;
};
static_assert(sizeof(indexedfabricarray_t<float>) == 40 &&
                  alignof(indexedfabricarray_t<float>) == 8,
              "indexedfabricarray_t layout is shared with the host runtime");

/// The bucket holding element i, or null when i is outside every bucket.
template <typename T>
CUDA_CALLABLE const fabricbucket_t* fabric_bucket(const fabricarray_t<T>& a, uint64 i) {
    uint64 lo = 0;
    uint64 hi = a.nbuckets;
    while (lo < hi) {
        const uint64 mid = (lo + hi) / 2;
        const fabricbucket_t* b = a.buckets + mid;
        if (i >= b->index_end)
            lo = mid + 1;
        else if (i < b->index_start)
            hi = mid;
        else
            return b;
    }
    return nullptr;
}

/// The element count (a.shape[0] in kernels).
template <typename T>
CUDA_CALLABLE int32 fabric_length(const fabricarray_t<T>& a) {
    return int32(a.size);
}
template <typename T>
CUDA_CALLABLE int32 fabric_length(const indexedfabricarray_t<T>& a) {
    return int32(a.size);
}

template <typename T>
CUDA_CALLABLE bool array_nonnull(const fabricarray_t<T>& a) {
    return a.buckets != nullptr;
}
template <typename T>
CUDA_CALLABLE bool array_nonnull(const indexedfabricarray_t<T>& a) {
    return a.fa.buckets != nullptr;
}

/// Element i of a Fabric array (ndim 1).
template <typename T>
CUDA_CALLABLE T* address(const fabricarray_t<T>& a, int32 i) {
    const fabricbucket_t* b = fabric_bucket(a, uint64(i));
    return static_cast<T*>(b->ptr) + (uint64(i) - b->index_start);
}

/// Element i of a Fabric array of arrays (ndim 2) as a 1-D array.
template <typename T>
CUDA_CALLABLE array_t<T> view(const fabricarray_t<T>& a, int32 i) {
    const fabricbucket_t* b = fabric_bucket(a, uint64(i));
    const uint64 k = uint64(i) - b->index_start;
    array_t<T> r{};
    r.data = static_cast<T**>(b->ptr)[k];
    r.grad = nullptr;
    r.shape[0] = int32(b->lengths[k]);
    r.strides[0] = int64(sizeof(T));
    r.ndim = 1;
    r.flags = 0;
    return r;
}
template <typename T>
CUDA_CALLABLE T* address(const fabricarray_t<T>& a, int32 i, int32 j) {
    return address(view(a, i), j);
}

/// The index into the Fabric array for index i of the indexed array.
template <typename T>
CUDA_CALLABLE int32 map_index(const indexedfabricarray_t<T>& a, int32 i) {
    return a.indices[i];
}
template <typename T>
CUDA_CALLABLE T* address(const indexedfabricarray_t<T>& a, int32 i) {
    return address(a.fa, map_index(a, i));
}
template <typename T>
CUDA_CALLABLE array_t<T> view(const indexedfabricarray_t<T>& a, int32 i) {
    return view(a.fa, map_index(a, i));
}
template <typename T>
CUDA_CALLABLE T* address(const indexedfabricarray_t<T>& a, int32 i, int32 j) {
    return address(view(a, i), j);
}

template <typename T>
CUDA_CALLABLE int32 array_flags(const fabricarray_t<T>&) {
    return 0;
}
template <typename T>
CUDA_CALLABLE int32 array_flags(const indexedfabricarray_t<T>&) {
    return 0;
}
template <typename T, typename... I>
CUDA_CALLABLE T* grad_address(const fabricarray_t<T>&, I...) {
    return nullptr;
}
template <typename T, typename... I>
CUDA_CALLABLE T* grad_address(const indexedfabricarray_t<T>&, I...) {
    return nullptr;
}

template <typename T>
CUDA_CALLABLE T load(const fabricarray_t<T>& a, int32 i) {
    return *address(a, i);
}
template <typename T>
CUDA_CALLABLE T load(const fabricarray_t<T>& a, int32 i, int32 j) {
    return *address(a, i, j);
}
template <typename T>
CUDA_CALLABLE T load(const indexedfabricarray_t<T>& a, int32 i) {
    return *address(a, i);
}
template <typename T>
CUDA_CALLABLE T load(const indexedfabricarray_t<T>& a, int32 i, int32 j) {
    return *address(a, i, j);
}
template <typename T>
CUDA_CALLABLE void store(const fabricarray_t<T>& a, int32 i, type_identity_t<T> v) {
    *address(a, i) = v;
}
template <typename T>
CUDA_CALLABLE void store(const fabricarray_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {
    *address(a, i, j) = v;
}
template <typename T>
CUDA_CALLABLE void store(const indexedfabricarray_t<T>& a, int32 i, type_identity_t<T> v) {
    *address(a, i) = v;
}
template <typename T>
CUDA_CALLABLE void store(const indexedfabricarray_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {
    *address(a, i, j) = v;
}

// ---- bounds-checked access (see array.h) ----------------------------------------------------

/// Element i checked against [0, size); a bad index records the error and gives null.
template <typename T>
CUDA_CALLABLE const fabricbucket_t* fabric_bucket_checked(const fabricarray_t<T>& a, int64 i,
                                                          const char* file, int32 line,
                                                          int32 column, const char* kernel) {
    const int32 shape[4] = {int32(a.size), 0, 0, 0};
    const fabricbucket_t* b = i >= 0 ? fabric_bucket(a, uint64(i)) : nullptr;
    if (!b) record_bounds_error(&i, shape, 1, 0, file, line, column, kernel);
    return b;
}

/// The index array entry for i, checked against the indexed size (-1 when out of bounds).
template <typename T>
CUDA_CALLABLE int64 map_index_checked(const indexedfabricarray_t<T>& a, int64 i, const char* file,
                                      int32 line, int32 column, const char* kernel) {
    if (i >= 0 && uint64(i) < a.size) return a.indices[i];
    const int32 shape[4] = {int32(a.size), 0, 0, 0};
    record_bounds_error(&i, shape, 1, 0, file, line, column, kernel);
    return -1;
}

template <typename T>
CUDA_CALLABLE T* address_checked(const fabricarray_t<T>& a, int64 i, const char* file, int32 line,
                                 int32 column, const char* kernel) {
    const fabricbucket_t* b = fabric_bucket_checked(a, i, file, line, column, kernel);
    if (!b) return bounds_dummy<T>();
    return static_cast<T*>(b->ptr) + (uint64(i) - b->index_start);
}
template <typename T>
CUDA_CALLABLE array_t<T> view_checked(const fabricarray_t<T>& a, int64 i, const char* file,
                                      int32 line, int32 column, const char* kernel) {
    if (fabric_bucket_checked(a, i, file, line, column, kernel)) return view(a, int32(i));
    array_t<T> r{};
    r.data = bounds_dummy<T>();
    r.ndim = 1;
    return r;
}
template <typename T>
CUDA_CALLABLE T* address_checked(const fabricarray_t<T>& a, int64 i, int64 j, const char* file,
                                 int32 line, int32 column, const char* kernel) {
    return address_checked(view_checked(a, i, file, line, column, kernel), j, file, line, column,
                           kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedfabricarray_t<T>& a, int64 i, const char* file,
                                 int32 line, int32 column, const char* kernel) {
    const int64 m = map_index_checked(a, i, file, line, column, kernel);
    if (m < 0) return bounds_dummy<T>();
    return address_checked(a.fa, m, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE array_t<T> view_checked(const indexedfabricarray_t<T>& a, int64 i, const char* file,
                                      int32 line, int32 column, const char* kernel) {
    const int64 m = map_index_checked(a, i, file, line, column, kernel);
    if (m >= 0) return view_checked(a.fa, m, file, line, column, kernel);
    array_t<T> r{};
    r.data = bounds_dummy<T>();
    r.ndim = 1;
    return r;
}
template <typename T>
CUDA_CALLABLE T* address_checked(const indexedfabricarray_t<T>& a, int64 i, int64 j,
                                 const char* file, int32 line, int32 column, const char* kernel) {
    return address_checked(view_checked(a, i, file, line, column, kernel), j, file, line, column,
                           kernel);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
