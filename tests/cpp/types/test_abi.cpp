// tests/cpp/types/test_abi.cpp -- the kernel ABI of types/abi.h against native/treadle and types
#include <gtest/gtest.h>

#include <cstddef>

#include "../../../native/treadle/array.h"
#include "../../../native/treadle/fabricarray.h"
#include "../../../native/treadle/indexedarray.h"
#include "types/abi.h"
#include "types/types.h"

namespace treadle::types {
namespace {

// The host records and the native device types must agree field by field: the runtime packs
// through the records and generated code reads the native types.
#define TREADLE_SAME_OFFSET(host, native, field) \
    static_assert(offsetof(host, field) == offsetof(native, field), #host "." #field)

using abi::ArrayRecord;
using abi::IndexedArrayRecord;
using abi::LaunchBoundsRecord;
using NativeArray = wp::array_t<double>;
using NativeIndexed = wp::indexedarray_t<double>;

static_assert(sizeof(NativeArray) == abi::k_array.size &&
              alignof(NativeArray) == abi::k_array.align);
static_assert(sizeof(wp::array_t<wp::int8>) == abi::k_array.size);
TREADLE_SAME_OFFSET(ArrayRecord, NativeArray, data);
TREADLE_SAME_OFFSET(ArrayRecord, NativeArray, grad);
TREADLE_SAME_OFFSET(ArrayRecord, NativeArray, shape);
TREADLE_SAME_OFFSET(ArrayRecord, NativeArray, strides);
TREADLE_SAME_OFFSET(ArrayRecord, NativeArray, ndim);

static_assert(sizeof(NativeIndexed) == abi::k_indexed_array.size &&
              alignof(NativeIndexed) == abi::k_indexed_array.align);
TREADLE_SAME_OFFSET(IndexedArrayRecord, NativeIndexed, arr);
TREADLE_SAME_OFFSET(IndexedArrayRecord, NativeIndexed, indices);
TREADLE_SAME_OFFSET(IndexedArrayRecord, NativeIndexed, shape);

using NativeFabric = wp::fabricarray_t<double>;
using NativeIndexedFabric = wp::indexedfabricarray_t<double>;
static_assert(sizeof(NativeFabric) == abi::k_fabric_array.size &&
              alignof(NativeFabric) == abi::k_fabric_array.align);
TREADLE_SAME_OFFSET(abi::FabricArrayRecord, NativeFabric, buckets);
TREADLE_SAME_OFFSET(abi::FabricArrayRecord, NativeFabric, nbuckets);
TREADLE_SAME_OFFSET(abi::FabricArrayRecord, NativeFabric, size);
static_assert(sizeof(NativeIndexedFabric) == abi::k_indexed_fabric_array.size &&
              alignof(NativeIndexedFabric) == abi::k_indexed_fabric_array.align);
TREADLE_SAME_OFFSET(abi::IndexedFabricArrayRecord, NativeIndexedFabric, fa);
TREADLE_SAME_OFFSET(abi::IndexedFabricArrayRecord, NativeIndexedFabric, indices);
TREADLE_SAME_OFFSET(abi::IndexedFabricArrayRecord, NativeIndexedFabric, size);
static_assert(sizeof(abi::FabricBucketRecord) == sizeof(wp::fabricbucket_t));
TREADLE_SAME_OFFSET(abi::FabricBucketRecord, wp::fabricbucket_t, index_start);
TREADLE_SAME_OFFSET(abi::FabricBucketRecord, wp::fabricbucket_t, index_end);
TREADLE_SAME_OFFSET(abi::FabricBucketRecord, wp::fabricbucket_t, ptr);
TREADLE_SAME_OFFSET(abi::FabricBucketRecord, wp::fabricbucket_t, lengths);

static_assert(sizeof(wp::launch_bounds_t) == abi::k_launch_bounds.size &&
              alignof(wp::launch_bounds_t) == abi::k_launch_bounds.align);
TREADLE_SAME_OFFSET(LaunchBoundsRecord, wp::launch_bounds_t, shape);
TREADLE_SAME_OFFSET(LaunchBoundsRecord, wp::launch_bounds_t, ndim);
TREADLE_SAME_OFFSET(LaunchBoundsRecord, wp::launch_bounds_t, flags);
TREADLE_SAME_OFFSET(LaunchBoundsRecord, wp::launch_bounds_t, size);

#undef TREADLE_SAME_OFFSET

TEST(Abi, StructLayoutFollowsCRules) {
    abi::StructLayout l;
    EXPECT_EQ(l.add({1, 1}), 0u);    // bool
    EXPECT_EQ(l.add({8, 8}), 8u);    // float64 after 7 bytes of padding
    EXPECT_EQ(l.add({12, 4}), 16u);  // vec3
    EXPECT_EQ(l.add({2, 2}), 28u);   // float16
    abi::Layout whole = l.finish();
    EXPECT_EQ(whole.size, 32u);
    EXPECT_EQ(whole.align, 8u);
    EXPECT_EQ(abi::StructLayout{}.finish().size, 0u);
}

TEST(Abi, TypesTakeTheirSizesFromTheAbi) {
    const Type* f32 = float32_type();
    EXPECT_EQ(array_type(f32, 2)->size, sizeof(NativeArray));
    EXPECT_EQ(array_type(f32, 2)->align, alignof(NativeArray));
    EXPECT_EQ(indexedarray_type(f32, 1)->size, sizeof(NativeIndexed));
    EXPECT_EQ(vector_type(3, ScalarType::Float16)->size, 6u);
    EXPECT_EQ(vector_type(3, ScalarType::Float16)->align, 2u);
    EXPECT_EQ(matrix_type(3, 3, ScalarType::Float64)->size, 72u);
    EXPECT_EQ(transform_type(ScalarType::Float32)->size, 28u);

    // struct { bool b; array(float32) a; vec3 v; } laid out as the C compiler would
    struct Mirror {
        bool b;
        ArrayRecord a;
        float v[3];
    };
    const Type* s = struct_type("mod.S", {{"b", bool_type()},
                                          {"a", array_type(f32, 1)},
                                          {"v", vector_type(3, ScalarType::Float32)}});
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->fields[1].offset, offsetof(Mirror, a));
    EXPECT_EQ(s->fields[2].offset, offsetof(Mirror, v));
    EXPECT_EQ(s->size, sizeof(Mirror));
    EXPECT_EQ(s->align, alignof(Mirror));
}

}  // namespace
}  // namespace treadle::types
