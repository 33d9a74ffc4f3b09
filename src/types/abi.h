// src/types/abi.h -- the kernel ABI: records shared with native/treadle and the struct layout rule
//
// Generated kernels take their parameters as one C struct; the host packs that struct byte by
// byte. Every size, alignment and offset both sides rely on is written here once: the host
// mirrors of wp::array_t, wp::indexedarray_t, the Fabric arrays and wp::launch_bounds_t, and the C
// layout rule for structs and parameter blocks. It lives in types/ because the interned types
// compute their sizes from it and types/ sits below every other layer; the runtime packs through
// these records, and tests/cpp/native checks them against the native headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace treadle::types::abi {

/// Size and alignment of a value in a parameter block or struct.
struct Layout {
    size_t size = 0;
    size_t align = 1;
};

/// Host mirror of wp::array_t<T> (native/treadle/array.h): data and gradient pointers, shape,
/// byte strides (64-bit) and the number of dimensions, whatever T is.
struct ArrayRecord {
    void* data;
    void* grad;
    int32_t shape[4];
    int64_t strides[4];
    int32_t ndim;
    int32_t pad;  ///< flags: 1 (wp::array_retain_grad) for an array made with retain_grad
};

/// Host mirror of wp::indexedarray_t<T> (native/treadle/indexedarray.h): the underlying array,
/// one int32 index array per dimension (null: the whole dimension) and the indexed shape.
struct IndexedArrayRecord {
    ArrayRecord arr;
    void* indices[4];
    int32_t shape[4];
};

/// Host mirror of wp::fabricarray_t<T> (native/treadle/fabricarray.h): the bucket table (on
/// the array's device; each bucket is FabricBucketRecord), its length and the element count.
struct FabricArrayRecord {
    void* buckets;
    uint64_t nbuckets;
    uint64_t size;
};

/// One bucket of a Fabric array: elements [index_start, index_end) are at `ptr` (for an array
/// of arrays, `ptr` holds one data pointer per element and `lengths` their lengths).
struct FabricBucketRecord {
    uint64_t index_start;
    uint64_t index_end;
    void* ptr;
    void* lengths;
};

/// Host mirror of wp::indexedfabricarray_t<T>: a Fabric array, an int32 index array and its
/// length.
struct IndexedFabricArrayRecord {
    FabricArrayRecord fa;
    void* indices;
    uint64_t size;
};

/// Host mirror of wp::launch_bounds_t (native/treadle/array.h): the launch shape, flags and
/// the product of the shape.
struct LaunchBoundsRecord {
    int32_t shape[4] = {0, 0, 0, 0};
    int32_t ndim = 0;
    int32_t flags = 0;
    int64_t size = 0;
};

inline constexpr Layout k_array{72, 8};
inline constexpr Layout k_indexed_array{120, 8};
inline constexpr Layout k_launch_bounds{32, 8};
inline constexpr Layout k_fabric_array{24, 8};
inline constexpr Layout k_indexed_fabric_array{40, 8};

static_assert(sizeof(ArrayRecord) == k_array.size && alignof(ArrayRecord) == k_array.align,
              "ArrayRecord must be wp::array_t");
static_assert(sizeof(IndexedArrayRecord) == k_indexed_array.size &&
                  alignof(IndexedArrayRecord) == k_indexed_array.align,
              "IndexedArrayRecord must be wp::indexedarray_t");
static_assert(sizeof(FabricArrayRecord) == k_fabric_array.size &&
                  alignof(FabricArrayRecord) == k_fabric_array.align,
              "FabricArrayRecord must be wp::fabricarray_t");
static_assert(sizeof(IndexedFabricArrayRecord) == k_indexed_fabric_array.size &&
                  alignof(IndexedFabricArrayRecord) == k_indexed_fabric_array.align,
              "IndexedFabricArrayRecord must be wp::indexedfabricarray_t");
static_assert(sizeof(LaunchBoundsRecord) == k_launch_bounds.size &&
                  alignof(LaunchBoundsRecord) == k_launch_bounds.align,
              "LaunchBoundsRecord must be wp::launch_bounds_t");

/// `offset` rounded up to a multiple of `align` (a power of two or any positive number).
constexpr size_t align_up(size_t offset, size_t align) {
    return (offset + align - 1) / align * align;
}

/// A vector, matrix, quaternion or transform of `count` scalars of `scalar` layout: packed,
/// aligned like its scalar (wp::vec_t and friends hold a plain array).
constexpr Layout composite(Layout scalar, size_t count) {
    return Layout{scalar.size * count, scalar.align};
}

/// The C layout rule of a struct or parameter block, one field at a time: each field at the
/// next multiple of its alignment; the whole aligned like its most aligned field and padded
/// to a multiple of that (finish()).
struct StructLayout {
    size_t offset = 0;
    size_t align = 1;
    /// Places a field and returns its offset.
    size_t add(Layout field) {
        offset = align_up(offset, field.align);
        size_t at = offset;
        offset += field.size;
        if (field.align > align) align = field.align;
        return at;
    }
    /// The layout of the finished struct.
    Layout finish() const { return Layout{align_up(offset, align), align}; }
};

}  // namespace treadle::types::abi
