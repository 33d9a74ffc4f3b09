// tests/cpp/api/test_array_fill.cpp -- the fill and copy kernels of strided and indexed arrays
// (run on the CPU here; fill_array/copy_array pick them on CUDA)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "api/array_fill.h"
#include "treadle/array.h"
#include "treadle/error.h"

namespace {

using treadle::Array;
using treadle::Device;
using treadle::DType;
using treadle::ScalarType;

std::vector<float> floats(const Array& a, size_t n) {
    std::vector<float> out(n);
    std::memcpy(out.data(), a.data(), n * sizeof(float));
    return out;
}

TEST(ArrayFillKernel, FillsEveryOtherVec3OfAStridedView) {
    DType vec3(ScalarType::Float32);
    vec3.rows = 3;
    Array base = Array::zeros(vec3, {8}, Device::cpu());
    Array view = base.slice(0, 0, 8, 2);
    const float value[3] = {1.5f, -2.0f, 3.25f};
    ASSERT_TRUE(treadle::fill_by_kernel(view, value, sizeof(value), {}));
    std::vector<float> got = floats(base, 24);
    for (int i = 0; i < 8; ++i)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(got[i * 3 + c], i % 2 == 0 ? value[c] : 0.0f);
}

TEST(ArrayFillKernel, FillsPickedRowsOfA2DArrayOfBytes) {
    Array a = Array::zeros(DType(ScalarType::UInt8), {4, 3}, Device::cpu());
    Array rows = Array::empty(DType(ScalarType::Int32), {2}, Device::cpu());
    rows.data_as<int32_t>()[0] = 3;
    rows.data_as<int32_t>()[1] = 1;
    const uint8_t value = 7;
    ASSERT_TRUE(treadle::fill_by_kernel(a, &value, 1, {rows, Array()}));
    const uint8_t* p = a.data_as<uint8_t>();
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(p[r * 3 + c], (r == 1 || r == 3) ? 7 : 0);
}

TEST(ArrayFillKernel, CopiesATransposedViewIntoAnIndexedDestination) {
    Array src = Array::empty(DType(ScalarType::Float32), {2, 3}, Device::cpu());
    for (int i = 0; i < 6; ++i) src.data_as<float>()[i] = float(i + 1);
    Array srcT = src.transpose({1, 0});  // 3 x 2, strided
    Array dst = Array::zeros(DType(ScalarType::Float32), {5, 2}, Device::cpu());
    Array picks = Array::empty(DType(ScalarType::Int32), {3}, Device::cpu());
    const int32_t order[3] = {4, 0, 2};
    std::memcpy(picks.data(), order, sizeof(order));
    ASSERT_TRUE(treadle::copy_by_kernel(dst, srcT, {picks, Array()}, {}));
    std::vector<float> got = floats(dst, 10);
    const std::vector<float> want = {2, 5, 0, 0, 3, 6, 0, 0, 1, 4};
    EXPECT_EQ(got, want);
}

TEST(ArrayFillKernel, FillsElementsWiderThanOneLaunchAndEmptyArrays) {
    DType wide(ScalarType::UInt32);
    wide.rows = 75;  // 300 bytes: two launches of up to 64 words
    Array a = Array::zeros(wide, {6}, Device::cpu());
    Array view = a.slice(0, 1, 6, 2);
    std::vector<uint32_t> value(75);
    for (uint32_t i = 0; i < 75; ++i) value[i] = 1000 + i;
    ASSERT_TRUE(treadle::fill_by_kernel(view, value.data(), 300, {}));
    const uint32_t* p = a.data_as<uint32_t>();
    for (int e = 0; e < 6; ++e)
        for (int w = 0; w < 75; ++w) EXPECT_EQ(p[e * 75 + w], e % 2 == 1 ? 1000u + w : 0u);
    Array empty = Array::zeros(DType(ScalarType::Float32), {0}, Device::cpu());
    const float one = 1.0f;
    EXPECT_TRUE(treadle::fill_by_kernel(empty, &one, sizeof(one), {}));
    EXPECT_TRUE(treadle::copy_by_kernel(empty, empty, {}, {}));
}

TEST(ArrayFillKernel, RefusesAWrongValueSizeAndDifferentShapes) {
    Array a = Array::zeros(DType(ScalarType::Float32), {4}, Device::cpu());
    const double wide = 1.0;
    EXPECT_THROW(treadle::fill_array(a, &wide, sizeof(wide)), treadle::Error);
    Array b = Array::zeros(DType(ScalarType::Float32), {3}, Device::cpu());
    EXPECT_THROW(treadle::copy_by_kernel(a, b, {}, {}), treadle::Error);
}

}  // namespace
