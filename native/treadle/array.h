// native/treadle/array.h -- array_t (strided arrays), element access, views, launch index unravel
//
// Bounds-checked access (address_checked / view_checked) reports the first out-of-bounds access
// of a launch into the global record wp::bounds_error and continues on a private dummy element,
// so a bad index never crashes the process:
//
//  * CPU: every kernel module (.so) has its own hidden copy of wp::bounds_error (all wp::
//    symbols are hidden, see core.h). The host queries a module with
//        int (*take)(wp::bounds_error_t*) = dlsym(module_handle, "wp_take_bounds_error");
//    dlsym on the module's own handle finds the module's own definition first, even if other
//    modules export the same name. take(&rec) returns 1 and clears the record if an error was
//    recorded, else 0. If several translation units of one module include this header they
//    share one record (inline variable).
//  * CUDA: wp::bounds_error is a __device__ global of each module, mangled name
//    "_ZN2wp12bounds_errorE"; the host reads it with cuModuleGetGlobal + cuMemcpyDtoH and
//    clears it by writing zeros. (Compiling with -rdc and linking several modules that each
//    include this header would clash on that symbol.)
//
// Record layout (host mirrors must match; 304 bytes): flag (0 none, 1 being written, 2 done),
// line, dim (the offending index position), ndim (number of indices), index[4], shape[4],
// kernel[64], file[192] (NUL-terminated, truncated).
#pragma once

#include "core.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// A strided view of up to 4 dimensions. strides are in BYTES; grad (may be null) is the
/// gradient array and shares data's strides. The host runtime fills this exact layout.
template <typename T>
struct array_t {
    T* data;
    T* grad;
    int32 shape[4];
    int64 strides[4];
    int32 ndim;
    int32 flags;  ///< array_retain_grad: backward passes keep the gradient of stored elements

    // For @wp.func_native snippets, which use arrays as Warp's do: `a[i]` is element i of a
    // 1-D array (any integer index type, so no built-in subscript competes), and an array
    // converts to its data pointer (`atomicAdd(counter, 1)`).
    template <typename I>
    CUDA_CALLABLE T& operator[](I i) const {
        return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + int64(i) * strides[0]);
    }
    CUDA_CALLABLE operator T*() const { return data; }
};
static_assert(sizeof(array_t<float>) == 72 && alignof(array_t<float>) == 8,
              "array_t layout is shared with the host runtime");

/// The launch domain: shape[0..ndim) and its product size.
struct launch_bounds_t {
    int32 shape[4];
    int32 ndim;
    int32 flags;  ///< launch_aliased_arrays: backward passes accumulate every gradient atomically
    int64 size;
};

/// array_t::flags bit: the array was created with retain_grad=True, so the backward pass of a
/// store keeps (does not consume) the gradient of the element it wrote.
constexpr int32 array_retain_grad = 1;
template <typename T>
CUDA_CALLABLE int32 array_flags(const array_t<T>& a) {
    return a.flags;
}

/// launch_bounds_t::flags bit: two array arguments of the launch share memory.
constexpr int32 launch_aliased_arrays = 1;
static_assert(sizeof(launch_bounds_t) == 32 && alignof(launch_bounds_t) == 8,
              "launch_bounds_t layout is shared with the host runtime");

// ---- element address (offsets computed in int64 from the byte strides) ----------------------

/// byte_offset(p, n): p moved by n bytes.
template <typename T>
CUDA_CALLABLE T* byte_offset(T* p, int64 bytes) {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(p) + bytes);
}

/// A negative index counts from the end of its dimension (Warp's rule: -1 is the last element).
CUDA_CALLABLE int64 wrap_index(int64 i, int32 n) { return i < 0 ? i + n : i; }

/// address(a, i...): pointer to element [i, j, k, l] (negative indices count from the end); no
/// bounds check. With fewer indices than a.ndim it points at the first element of the sub-array.
template <typename T>
CUDA_CALLABLE T* address(const array_t<T>& a, int32 i) {
    return byte_offset(a.data, wrap_index(i, a.shape[0]) * a.strides[0]);
}
template <typename T>
CUDA_CALLABLE T* address(const array_t<T>& a, int32 i, int32 j) {
    return byte_offset(a.data, wrap_index(i, a.shape[0]) * a.strides[0] +
                                   wrap_index(j, a.shape[1]) * a.strides[1]);
}
template <typename T>
CUDA_CALLABLE T* address(const array_t<T>& a, int32 i, int32 j, int32 k) {
    return byte_offset(a.data, wrap_index(i, a.shape[0]) * a.strides[0] +
                                   wrap_index(j, a.shape[1]) * a.strides[1] +
                                   wrap_index(k, a.shape[2]) * a.strides[2]);
}
template <typename T>
CUDA_CALLABLE T* address(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return byte_offset(a.data, wrap_index(i, a.shape[0]) * a.strides[0] +
                                   wrap_index(j, a.shape[1]) * a.strides[1] +
                                   wrap_index(k, a.shape[2]) * a.strides[2] +
                                   wrap_index(l, a.shape[3]) * a.strides[3]);
}

/// Whether `a` has data: an array argument in a condition (`if a:`) is false for None.
template <typename T>
CUDA_CALLABLE bool array_nonnull(const array_t<T>& a) {
    return a.data != nullptr;
}

/// The gradient of `a` as an array of its own (data is a.grad, same shape and strides): what a
/// @wp.func_native adjoint snippet sees as `adj_<array>`.
template <typename T>
CUDA_CALLABLE array_t<T> grad_view(const array_t<T>& a) {
    array_t<T> g = a;
    g.data = a.grad;
    g.grad = nullptr;
    return g;
}

/// grad_address(a, i...): pointer to the gradient element [i, ...], or null without grad.
template <typename T>
CUDA_CALLABLE T* grad_address(const array_t<T>& a, int32 i) {
    return a.grad ? byte_offset(a.grad, wrap_index(i, a.shape[0]) * a.strides[0]) : nullptr;
}
template <typename T>
CUDA_CALLABLE T* grad_address(const array_t<T>& a, int32 i, int32 j) {
    return a.grad ? byte_offset(a.grad, wrap_index(i, a.shape[0]) * a.strides[0] +
                                            wrap_index(j, a.shape[1]) * a.strides[1])
                  : nullptr;
}
template <typename T>
CUDA_CALLABLE T* grad_address(const array_t<T>& a, int32 i, int32 j, int32 k) {
    return a.grad ? byte_offset(a.grad, wrap_index(i, a.shape[0]) * a.strides[0] +
                                            wrap_index(j, a.shape[1]) * a.strides[1] +
                                            wrap_index(k, a.shape[2]) * a.strides[2])
                  : nullptr;
}
template <typename T>
CUDA_CALLABLE T* grad_address(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return a.grad ? byte_offset(a.grad, wrap_index(i, a.shape[0]) * a.strides[0] +
                                            wrap_index(j, a.shape[1]) * a.strides[1] +
                                            wrap_index(k, a.shape[2]) * a.strides[2] +
                                            wrap_index(l, a.shape[3]) * a.strides[3])
                  : nullptr;
}

/// load(a, i...): the element value. store(a, i..., v): write it.
template <typename T>
CUDA_CALLABLE T load(const array_t<T>& a, int32 i) {
    return *address(a, i);
}
template <typename T>
CUDA_CALLABLE T load(const array_t<T>& a, int32 i, int32 j) {
    return *address(a, i, j);
}
template <typename T>
CUDA_CALLABLE T load(const array_t<T>& a, int32 i, int32 j, int32 k) {
    return *address(a, i, j, k);
}
template <typename T>
CUDA_CALLABLE T load(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l) {
    return *address(a, i, j, k, l);
}
template <typename T>
CUDA_CALLABLE void store(const array_t<T>& a, int32 i, type_identity_t<T> v) {
    *address(a, i) = v;
}
template <typename T>
CUDA_CALLABLE void store(const array_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {
    *address(a, i, j) = v;
}
template <typename T>
CUDA_CALLABLE void store(const array_t<T>& a, int32 i, int32 j, int32 k, type_identity_t<T> v) {
    *address(a, i, j, k) = v;
}
template <typename T>
CUDA_CALLABLE void store(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l,
                         type_identity_t<T> v) {
    *address(a, i, j, k, l) = v;
}

// ---- views ----------------------------------------------------------------------------------

/// view(a, i): the (ndim-1)-dimensional sub-array a[i] (a row of a 2-D array, ...); data and
/// (when non-null) grad are offset alike. view(a, i, j) / view(a, i, j, k) drop 2 / 3 dims.
template <typename T>
CUDA_CALLABLE array_t<T> view(const array_t<T>& a, int32 i) {
    array_t<T> r;
    const int64 off = wrap_index(i, a.shape[0]) * a.strides[0];
    r.data = byte_offset(a.data, off);
    r.grad = a.grad ? byte_offset(a.grad, off) : nullptr;
    for (int d = 0; d < 3; ++d) {
        r.shape[d] = a.shape[d + 1];
        r.strides[d] = a.strides[d + 1];
    }
    r.shape[3] = 0;
    r.strides[3] = 0;
    r.ndim = a.ndim - 1;
    r.flags = a.flags;
    return r;
}
template <typename T>
CUDA_CALLABLE array_t<T> view(const array_t<T>& a, int32 i, int32 j) {
    return view(view(a, i), j);
}
template <typename T>
CUDA_CALLABLE array_t<T> view(const array_t<T>& a, int32 i, int32 j, int32 k) {
    return view(view(view(a, i), j), k);
}

// ---- launch index -> array index ------------------------------------------------------------

/// tid_unravel(index, bounds, i...): the multi-index of flat launch index `index`, row-major
/// (the last dimension varies fastest). Use the overload with bounds.ndim outputs.
CUDA_CALLABLE void tid_unravel(int64 index, const launch_bounds_t&, int32& i) { i = int32(index); }
CUDA_CALLABLE void tid_unravel(int64 index, const launch_bounds_t& b, int32& i, int32& j) {
    const int64 n1 = b.shape[1];
    j = int32(index % n1);
    i = int32(index / n1);
}
CUDA_CALLABLE void tid_unravel(int64 index, const launch_bounds_t& b, int32& i, int32& j,
                               int32& k) {
    const int64 n2 = b.shape[2];
    k = int32(index % n2);
    index /= n2;
    const int64 n1 = b.shape[1];
    j = int32(index % n1);
    i = int32(index / n1);
}
CUDA_CALLABLE void tid_unravel(int64 index, const launch_bounds_t& b, int32& i, int32& j, int32& k,
                               int32& l) {
    const int64 n3 = b.shape[3];
    l = int32(index % n3);
    index /= n3;
    const int64 n2 = b.shape[2];
    k = int32(index % n2);
    index /= n2;
    const int64 n1 = b.shape[1];
    j = int32(index % n1);
    i = int32(index / n1);
}

// ---- bounds-checked access ------------------------------------------------------------------

/// The first out-of-bounds access of a launch (layout described at the top of this file).
struct bounds_error_t {
    int32 flag;
    int32 line;
    int32 column;  ///< 1-based column of the indexing expression (0: unknown)
    int32 dim;
    int32 ndim;
    int32 pad_;
    int64 index[4];  ///< as given: an int64 index is checked whole, never truncated first
    int32 shape[4];
    char kernel[64];
    char file[192];
};
static_assert(sizeof(bounds_error_t) == 328, "bounds_error_t layout is shared with the host");

/// The record itself: one per kernel module (see the top of this file).
#if defined(__CUDACC__)
__device__ bounds_error_t bounds_error;
#else
inline bounds_error_t bounds_error = {};
#endif

/// Copy a NUL-terminated string into a fixed buffer, truncating.
CUDA_CALLABLE void copy_cstr(char* dst, int capacity, const char* src) {
    int n = 0;
    if (src) {
        for (; n < capacity - 1 && src[n]; ++n) dst[n] = src[n];
    }
    for (; n < capacity; ++n) dst[n] = 0;
}

/// Record an out-of-bounds access unless one is recorded already (first one wins). In nvcc's
/// host pass (kernels never run there) it does nothing.
CUDA_CALLABLE void record_bounds_error(const int64* index, const int32* shape, int32 ndim,
                                       int32 dim, const char* file, int32 line, int32 column,
                                       const char* kernel) {
#if WP_DEVICE_CODE || !defined(__CUDACC__)
#if WP_DEVICE_CODE
    if (atomicCAS(&bounds_error.flag, 0, 1) != 0) return;
#else
    int32 expected = 0;
    if (!__atomic_compare_exchange_n(&bounds_error.flag, &expected, 1, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED)) {
        return;
    }
#endif
    bounds_error.line = line;
    bounds_error.column = column;
    bounds_error.dim = dim;
    bounds_error.ndim = ndim;
    for (int d = 0; d < 4; ++d) {
        bounds_error.index[d] = d < ndim ? index[d] : 0;
        bounds_error.shape[d] = d < ndim ? shape[d] : 0;
    }
    copy_cstr(bounds_error.kernel, 64, kernel);
    copy_cstr(bounds_error.file, 192, file);
#if WP_DEVICE_CODE
    __threadfence();
    atomicExch(&bounds_error.flag, 2);
#else
    __atomic_store_n(&bounds_error.flag, 2, __ATOMIC_RELEASE);
#endif
#else
    (void)index, (void)shape, (void)ndim, (void)dim, (void)file, (void)line, (void)column;
    (void)kernel;
#endif
}

/// Storage that out-of-bounds accesses are redirected to (one per element type).
template <typename T>
CUDA_CALLABLE T* bounds_dummy() {
    static T dummy;
    return &dummy;
}

/// The first index position d < n with idx[d] outside [-shape[d], shape[d]), or -1 (a
/// negative index counts from the end).
CUDA_CALLABLE int32 find_out_of_bounds(const int64* idx, const int32* shape, int32 n) {
    for (int32 d = 0; d < n; ++d) {
        if (idx[d] < -int64(shape[d]) || idx[d] >= int64(shape[d])) return d;
    }
    return -1;
}

/// address_checked_n(a, idx, n, ...): the checked address of element idx[0..n).
template <typename T>
CUDA_CALLABLE T* address_checked_n(const array_t<T>& a, const int64* idx, int32 n, const char* file,
                                   int32 line, int32 column, const char* kernel) {
    const int32 d = find_out_of_bounds(idx, a.shape, n);
    if (d >= 0) {
        record_bounds_error(idx, a.shape, n, d, file, line, column, kernel);
        return bounds_dummy<T>();
    }
    int64 off = 0;
    for (int32 e = 0; e < n; ++e) off += wrap_index(idx[e], a.shape[e]) * a.strides[e];
    return byte_offset(a.data, off);
}

/// address_checked(a, i..., file, line, column, kernel): like address(), but an index outside
/// [-shape, shape) records the error (see top of file) and returns a pointer to a dummy element.
template <typename T>
CUDA_CALLABLE T* address_checked(const array_t<T>& a, int64 i, const char* file, int32 line,
                                 int32 column, const char* kernel) {
    const int64 idx[1] = {i};
    return address_checked_n(a, idx, 1, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const array_t<T>& a, int64 i, int64 j, const char* file,
                                 int32 line, int32 column, const char* kernel) {
    const int64 idx[2] = {i, j};
    return address_checked_n(a, idx, 2, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const array_t<T>& a, int64 i, int64 j, int64 k, const char* file,
                                 int32 line, int32 column, const char* kernel) {
    const int64 idx[3] = {i, j, k};
    return address_checked_n(a, idx, 3, file, line, column, kernel);
}
template <typename T>
CUDA_CALLABLE T* address_checked(const array_t<T>& a, int64 i, int64 j, int64 k, int64 l,
                                 const char* file, int32 line, int32 column, const char* kernel) {
    const int64 idx[4] = {i, j, k, l};
    return address_checked_n(a, idx, 4, file, line, column, kernel);
}

/// view_checked(a, i, file, line, column, kernel): like view(); an out-of-bounds i records the
/// error and returns an empty view (shape 0), so every checked access through it hits the dummy.
template <typename T>
CUDA_CALLABLE array_t<T> view_checked(const array_t<T>& a, int64 i, const char* file, int32 line,
                                      int32 column, const char* kernel) {
    if (i >= -int64(a.shape[0]) && i < int64(a.shape[0])) return view(a, int32(i));
    record_bounds_error(&i, a.shape, 1, 0, file, line, column, kernel);
    array_t<T> r = view(a, 0);
    r.data = bounds_dummy<T>();
    r.grad = nullptr;
    for (int d = 0; d < 4; ++d) {
        r.shape[d] = 0;
        r.strides[d] = 0;
    }
    return r;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop

/// CPU host accessor (found with dlsym on the module handle): copy the module's bounds error
/// record into *out and clear it; returns 1 if an error was recorded, else 0. `used` makes
/// every module that includes this header export it even though no kernel calls it.
extern "C" __attribute__((visibility("default"), used)) inline int wp_take_bounds_error(
    wp::bounds_error_t* out) {
    if (__atomic_load_n(&wp::bounds_error.flag, __ATOMIC_ACQUIRE) != 2) return 0;
    if (out) *out = wp::bounds_error;
    wp::bounds_error = wp::bounds_error_t{};
    __atomic_store_n(&wp::bounds_error.flag, 0, __ATOMIC_RELEASE);
    return 1;
}
#endif
