// tests/cpp/runtime/test_array.cpp -- GoogleTest cases for treadle::Array and Device
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/cuda.h"
#include "treadle/array.h"
#include "treadle/error.h"

namespace treadle {
namespace {

/// A contiguous float32 array holding 0, 1, 2, ... in row-major order.
Array iota_f32(const std::vector<int64_t>& shape) {
    Array a = Array::empty(ScalarType::Float32, shape);
    for (int64_t i = 0; i < a.size(); ++i) a.data_as<float>()[i] = (float)i;
    return a;
}

/// Element at a multi-index, read through the byte strides.
float at(const Array& a, std::vector<int64_t> idx) {
    const char* p = static_cast<const char*>(a.data());
    for (size_t d = 0; d < idx.size(); ++d) p += idx[d] * a.stride((int)d);
    float v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

ErrorKind kind_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "expected a treadle::Error";
    return ErrorKind::Runtime;
}

TEST(RuntimeDevice, ParseCpu) {
    Device d = Device::parse("cpu");
    EXPECT_TRUE(d.is_cpu());
    EXPECT_EQ(d.alias(), "cpu");
    EXPECT_EQ(d, Device::cpu());
}

TEST(RuntimeDevice, CudaIsUnavailable) {
    if (cuda::is_available()) GTEST_SKIP() << "CUDA is available";
    for (const char* alias : {"cuda", "cuda:0", "cuda:3"}) {
        try {
            Device::parse(alias);
            FAIL() << alias;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Value);
            EXPECT_NE(std::string(e.what()).find("CUDA is not available"), std::string::npos);
        }
    }
}

TEST(RuntimeDevice, GarbageIsRejected) {
    for (const char* alias : {"gpu0", "", "CPU", "cuda:", "cuda:x", "cuda:-1", "cpu:0"}) {
        try {
            Device::parse(alias);
            FAIL() << alias;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Value);
            EXPECT_NE(std::string(e.what()).find("invalid device identifier"), std::string::npos)
                << e.what();
        }
    }
}

TEST(RuntimeDType, Sizes) {
    EXPECT_EQ(DType(ScalarType::Bool).size(), 1u);
    EXPECT_EQ(DType(ScalarType::Float16).size(), 2u);
    EXPECT_EQ(DType(ScalarType::Float32).size(), 4u);
    EXPECT_EQ(DType(ScalarType::UInt64).size(), 8u);
    DType v3;
    v3.rows = 3;
    EXPECT_EQ(v3.size(), 12u);
    DType m33 = v3;
    m33.cols = 3;
    EXPECT_EQ(m33.size(), 36u);
}

TEST(RuntimeArray, EmptyAndZeros) {
    Array a = Array::zeros(ScalarType::Float64, {2, 3, 4});
    EXPECT_EQ(a.ndim(), 3);
    EXPECT_EQ(a.size(), 24);
    EXPECT_EQ(a.strides(), (std::vector<int64_t>{96, 32, 8}));
    EXPECT_TRUE(a.is_contiguous());
    EXPECT_FALSE(a.is_null());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % 64, 0u);
    for (int64_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.data_as<double>()[i], 0.0);

    Array s = Array::empty(ScalarType::Int32, {});
    EXPECT_EQ(s.ndim(), 0);
    EXPECT_EQ(s.size(), 1);
    Array e = Array::zeros(ScalarType::Int32, {0, 5});
    EXPECT_EQ(e.size(), 0);
    EXPECT_TRUE(e.is_contiguous());
    EXPECT_TRUE(Array().is_null());
}

TEST(RuntimeArray, ShapeValidation) {
    EXPECT_EQ(kind_of([] {
                  Array::empty(ScalarType::Float32, {1, 1, 1, 1, 1});
              }),
              ErrorKind::Value);
    EXPECT_EQ(kind_of([] { Array::empty(ScalarType::Float32, {-1}); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([] { Array::empty(ScalarType::Float32, {int64_t(1) << 31}); }),
              ErrorKind::Value);
    EXPECT_EQ(kind_of([] {
                  Array::empty(ScalarType::Float32, {1 << 30, 1 << 30, 1 << 30, 1 << 30});
              }),
              ErrorKind::Value);
}

TEST(RuntimeArray, TypedHelpers) {
    Array a = from_vector<int32_t>({1, 2, 3});
    EXPECT_EQ(a.dtype(), DType(ScalarType::Int32));
    EXPECT_EQ(to_vector<int32_t>(a), (std::vector<int32_t>{1, 2, 3}));
    Array z = zeros<double>({4});
    EXPECT_EQ(to_vector<double>(z), std::vector<double>(4, 0.0));
}

TEST(RuntimeArray, FillAndZero) {
    Array a = iota_f32({3, 4});
    float v = 2.5f;
    a.fill_bytes(&v, sizeof(v));
    for (int64_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.data_as<float>()[i], 2.5f);
    // A strided view: only its elements change.
    Array b = iota_f32({3, 4});
    Array col = b.slice(1, 1, 4, 2);  // columns 1 and 3
    col.zero_();
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 4; ++c)
            EXPECT_EQ(at(b, {r, c}), (c % 2 == 1) ? 0.0f : float(r * 4 + c));
    double wrong = 1.0;
    EXPECT_EQ(kind_of([&] { a.fill_bytes(&wrong, sizeof(wrong)); }), ErrorKind::Value);
}

TEST(RuntimeArray, ReshapeAndInfer) {
    Array a = iota_f32({2, 6});
    Array r = a.reshape({3, -1});
    EXPECT_EQ(r.shape(), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(r.strides(), (std::vector<int64_t>{16, 4}));
    EXPECT_EQ(r.data(), a.data());
    EXPECT_EQ(r.buffer(), a.buffer());
    EXPECT_EQ(at(r, {2, 1}), 9.0f);
    EXPECT_EQ(a.reshape({-1}).shape(), (std::vector<int64_t>{12}));
    EXPECT_EQ(kind_of([&] { a.reshape({5, -1}); }), ErrorKind::Runtime);
    EXPECT_EQ(kind_of([&] { a.reshape({-1, -1}); }), ErrorKind::Runtime);
    EXPECT_EQ(kind_of([&] { a.reshape({4, 4}); }), ErrorKind::Runtime);
    EXPECT_EQ(kind_of([&] { a.transpose({}).reshape({12}); }), ErrorKind::Runtime);
}

TEST(RuntimeArray, ReshapeToScalarNeedsSizeOne) {
    Array one = iota_f32({1, 1});
    EXPECT_EQ(one.reshape({}).ndim(), 0);
    Array two = iota_f32({2});
    EXPECT_EQ(kind_of([&] { two.reshape({}); }), ErrorKind::Runtime);
}

TEST(RuntimeArray, Transpose) {
    Array a = iota_f32({2, 3, 4});
    Array t = a.transpose({});
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{4, 3, 2}));
    EXPECT_EQ(t.strides(), (std::vector<int64_t>{4, 16, 48}));
    EXPECT_FALSE(t.is_contiguous());
    EXPECT_EQ(at(t, {3, 2, 1}), at(a, {1, 2, 3}));
    Array p = a.transpose({1, 0, 2});
    EXPECT_EQ(p.shape(), (std::vector<int64_t>{3, 2, 4}));
    EXPECT_EQ(at(p, {2, 1, 3}), at(a, {1, 2, 3}));
    EXPECT_EQ(kind_of([&] { a.transpose({0, 0, 1}); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([&] { a.transpose({0, 1}); }), ErrorKind::Value);
}

TEST(RuntimeArray, SliceAndIndex) {
    Array a = iota_f32({4, 5});
    Array s = a.slice(1, 1, 5, 2);  // columns 1, 3
    EXPECT_EQ(s.shape(), (std::vector<int64_t>{4, 2}));
    EXPECT_EQ(s.strides(), (std::vector<int64_t>{20, 8}));
    EXPECT_EQ(s.size(), 8);
    EXPECT_EQ(at(s, {2, 1}), 13.0f);
    Array row = a.index(2);
    EXPECT_EQ(row.shape(), (std::vector<int64_t>{5}));
    EXPECT_EQ(at(row, {4}), 14.0f);
    EXPECT_TRUE(row.is_contiguous());
    Array col = a.select(1, 3);
    EXPECT_EQ(col.shape(), (std::vector<int64_t>{4}));
    EXPECT_EQ(col.strides(), (std::vector<int64_t>{20}));
    EXPECT_EQ(at(col, {3}), 18.0f);
    Array scalar = row.index(1);
    EXPECT_EQ(scalar.ndim(), 0);
    EXPECT_EQ(*scalar.data_as<float>(), 11.0f);
    Array empty = a.slice(0, 3, 1, 1);
    EXPECT_EQ(empty.size(), 0);
    EXPECT_EQ(empty.shape(0), 0);
    EXPECT_EQ(kind_of([&] { a.index(4); }), ErrorKind::Bounds);
    EXPECT_EQ(kind_of([&] { a.index(-1); }), ErrorKind::Bounds);
    EXPECT_EQ(kind_of([&] { a.slice(0, 0, 6, 1); }), ErrorKind::Bounds);
    EXPECT_EQ(kind_of([&] { a.slice(0, 0, 2, 0); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([&] { a.slice(2, 0, 1, 1); }), ErrorKind::Bounds);
}

TEST(RuntimeArray, ViewsShareMemory) {
    Array a = iota_f32({3, 3});
    Array v = a.index(1).slice(0, 0, 3, 2);
    float seven = 7.0f;
    v.fill_bytes(&seven, sizeof(seven));
    EXPECT_EQ(at(a, {1, 0}), 7.0f);
    EXPECT_EQ(at(a, {1, 1}), 4.0f);
    EXPECT_EQ(at(a, {1, 2}), 7.0f);
    std::weak_ptr<Buffer> weak = a.buffer();
    a = Array();
    EXPECT_FALSE(weak.expired());  // the view keeps the buffer alive
    v = Array();
    EXPECT_TRUE(weak.expired());
}

TEST(RuntimeArray, AssignStrided) {
    Array src = iota_f32({3, 4});
    Array dst = Array::zeros(ScalarType::Float32, {4, 3});
    dst.assign(src.transpose({}));
    for (int64_t r = 0; r < 4; ++r)
        for (int64_t c = 0; c < 3; ++c) EXPECT_EQ(at(dst, {r, c}), at(src, {c, r}));
    // Non-contiguous destination.
    Array big = Array::zeros(ScalarType::Float32, {3, 8});
    big.slice(1, 0, 8, 2).assign(src);
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 8; ++c)
            EXPECT_EQ(at(big, {r, c}), c % 2 == 0 ? at(src, {r, c / 2}) : 0.0f);
    EXPECT_EQ(kind_of([&] { dst.assign(src); }), ErrorKind::Value);
    Array ints = Array::zeros(ScalarType::Int32, {3, 4});
    EXPECT_EQ(kind_of([&] { ints.assign(src); }), ErrorKind::Type);
}

TEST(RuntimeArray, CloneIsContiguousCopy) {
    Array a = iota_f32({4, 4});
    Array t = a.transpose({}).slice(0, 1, 4, 1);
    Array c = t.clone(Device::cpu());
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_EQ(c.shape(), t.shape());
    EXPECT_NE(c.buffer(), a.buffer());
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(at(c, {r, k}), at(t, {r, k}));
    EXPECT_TRUE(Array().clone(Device::cpu()).is_null());
}

TEST(RuntimeArray, WrapKeepsOwnerAlive) {
    auto storage = std::make_shared<std::vector<float>>(6);
    std::iota(storage->begin(), storage->end(), 0.0f);
    std::weak_ptr<std::vector<float>> weak = storage;
    Array a = Array::wrap(storage->data(), ScalarType::Float32, {2, 3}, {}, Device::cpu(), storage);
    storage.reset();
    EXPECT_FALSE(weak.expired());
    EXPECT_EQ(at(a, {1, 2}), 5.0f);
    EXPECT_FALSE(a.buffer()->owns_memory());
    // Strided wrap: every other element.
    Array b = Array::wrap(a.data(), ScalarType::Float32, {3}, {8}, Device::cpu(), nullptr);
    EXPECT_EQ(at(b, {2}), 4.0f);
    EXPECT_FALSE(b.is_contiguous());
    a = Array();
    EXPECT_TRUE(weak.expired());
    EXPECT_EQ(
        kind_of([] { Array::wrap(nullptr, ScalarType::Float32, {2}, {}, Device::cpu(), nullptr); }),
        ErrorKind::Value);
}

TEST(RuntimeArray, GradFollowsViews) {
    Array a = iota_f32({2, 4});
    a.set_grad(std::make_shared<Array>(Array::zeros(ScalarType::Float32, {2, 4})));
    Array v = a.index(1).slice(0, 1, 4, 2);
    ASSERT_NE(v.grad(), nullptr);
    EXPECT_EQ(v.grad()->shape(), v.shape());
    float one = 1.0f;
    const_cast<Array*>(v.grad())->fill_bytes(&one, sizeof(one));
    EXPECT_EQ(at(*a.grad(), {1, 1}), 1.0f);
    EXPECT_EQ(at(*a.grad(), {1, 2}), 0.0f);
    EXPECT_EQ(a.reshape({8}).grad()->shape(), (std::vector<int64_t>{8}));
    EXPECT_EQ(a.transpose({}).grad()->shape(), (std::vector<int64_t>{4, 2}));
}

TEST(RuntimeArray, ViewAs) {
    Array a = iota_f32({4});
    Array u = a.view_as(ScalarType::UInt32);
    EXPECT_EQ(u.data_as<uint32_t>()[1], 0x3f800000u);
    EXPECT_EQ(kind_of([&] { a.view_as(ScalarType::Float64); }), ErrorKind::Value);
}

// --- CUDA: every case below skips where CUDA is unavailable ---------------------------------

#define SKIP_WITHOUT_CUDA()                                                          \
    do {                                                                             \
        if (!cuda::is_available())                                                   \
            GTEST_SKIP() << "CUDA is not available: " << cuda::unavailable_reason(); \
    } while (0)

/// A host copy of `a` (any device) as floats, in row-major order.
std::vector<float> host_floats(const Array& a) {
    Array h = a.clone(Device::cpu());
    return std::vector<float>(h.data_as<float>(), h.data_as<float>() + h.size());
}

std::vector<float> iota_vector(size_t n, float first = 0.0f) {
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

TEST(RuntimeDeviceCuda, ParseChecksOrdinals) {
    SKIP_WITHOUT_CUDA();
    Device d = Device::parse("cuda");
    EXPECT_TRUE(d.is_cuda());
    EXPECT_EQ(d.ordinal(), 0);
    EXPECT_EQ(d.alias(), "cuda:0");
    EXPECT_EQ(Device::parse("cuda:0"), d);
    const std::string past = "cuda:" + std::to_string(cuda::device_count());
    try {
        Device::parse(past);
        FAIL() << past;
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Value);
        EXPECT_NE(std::string(e.what()).find(past + " does not exist"), std::string::npos)
            << e.what();
    }
}

TEST(RuntimeArrayCuda, BufferRecordsDevice) {
    SKIP_WITHOUT_CUDA();
    auto buf = make_cuda_buffer(0, 1000, true);
    EXPECT_TRUE(buf->device().is_cuda());
    EXPECT_EQ(buf->device().ordinal(), 0);
    EXPECT_TRUE(buf->owns_memory());
    EXPECT_NE(buf->data(), nullptr);
    EXPECT_EQ(buf->size(), 1000u);
    auto empty = make_cuda_buffer(0, 0, false);
    EXPECT_EQ(empty->size(), 0u);
    EXPECT_EQ(kind_of([] { make_cuda_buffer(cuda::device_count(), 16, false); }), ErrorKind::Value);
}

TEST(RuntimeArrayCuda, ZerosAndRoundTrip) {
    SKIP_WITHOUT_CUDA();
    const Device gpu = Device::parse("cuda:0");
    Array z = Array::zeros(ScalarType::Float32, {3, 5}, gpu);
    EXPECT_EQ(z.device(), gpu);
    EXPECT_EQ(z.buffer()->device(), gpu);
    EXPECT_EQ(host_floats(z), std::vector<float>(15, 0.0f));
    Array h = iota_f32({3, 5});
    Array g = h.clone(gpu);
    EXPECT_TRUE(g.is_contiguous());
    EXPECT_EQ(g.device(), gpu);
    EXPECT_NE(g.data(), h.data());
    EXPECT_EQ(host_floats(g), iota_vector(15));
    Array e = Array::empty(ScalarType::Float64, {0, 4}, gpu);
    EXPECT_EQ(e.size(), 0);
    EXPECT_FALSE(e.is_null());
    EXPECT_EQ(e.clone(Device::cpu()).size(), 0);
}

TEST(RuntimeArrayCuda, FillEveryElementSize) {
    SKIP_WITHOUT_CUDA();
    const Device gpu = Device::parse("cuda:0");
    // 1, 2, 4 and 8 bytes, then 12-byte vectors: periodic values (one memset) and others (a
    // host pattern, then doubling copies on the device).
    for (ScalarType s : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::UInt32,
                         ScalarType::UInt64, ScalarType::Float32}) {
        DType t(s);
        if (s == ScalarType::Float32) t.rows = 3;
        const size_t elem = t.size();
        for (bool periodic : {true, false}) {
            std::vector<char> value(elem);
            for (size_t i = 0; i < elem; ++i) value[i] = char(periodic ? 0x5a : 1 + i);
            Array a = Array::zeros(t, {10000, 3}, gpu);  // large enough to double copies
            a.fill_bytes(value.data(), elem);
            Array h = a.clone(Device::cpu());
            const char* p = static_cast<const char*>(h.data());
            size_t bad = 0;
            for (int64_t i = 0; i < h.size(); ++i)
                bad += std::memcmp(p + i * elem, value.data(), elem) != 0;
            EXPECT_EQ(bad, 0u) << "element size " << elem << (periodic ? " periodic" : "");
        }
    }
}

TEST(RuntimeArrayCuda, ZeroAndFillStridedViews) {
    SKIP_WITHOUT_CUDA();
    const Device gpu = Device::parse("cuda:0");
    Array g = iota_f32({4, 6}).clone(gpu);
    g.slice(1, 1, 6, 2).zero_();  // columns 1, 3, 5
    float nine = 9.0f;
    g.index(2).slice(0, 0, 6, 2).fill_bytes(&nine, sizeof(nine));  // row 2, columns 0, 2, 4
    std::vector<float> expect = iota_vector(24);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 6; ++c) {
            if (c % 2 == 1) expect[r * 6 + c] = 0.0f;
            if (r == 2 && c % 2 == 0) expect[r * 6 + c] = 9.0f;
        }
    EXPECT_EQ(host_floats(g), expect);
}

TEST(RuntimeArrayCuda, AssignAcrossDevicesAndLayouts) {
    SKIP_WITHOUT_CUDA();
    const Device gpu = Device::parse("cuda:0");
    Array h = iota_f32({3, 4});
    // host (strided) -> device (contiguous)
    Array g = Array::zeros(ScalarType::Float32, {4, 3}, gpu);
    g.assign(h.transpose({}));
    Array back = g.clone(Device::cpu());
    for (int64_t r = 0; r < 4; ++r)
        for (int64_t c = 0; c < 3; ++c) EXPECT_EQ(at(back, {r, c}), at(h, {c, r}));
    // device (strided) -> host (contiguous), and device (strided) -> device (strided)
    Array t = Array::zeros(ScalarType::Float32, {3, 4});
    t.assign(g.transpose({}));
    EXPECT_EQ(host_floats(t), iota_vector(12));
    Array big = Array::zeros(ScalarType::Float32, {3, 8}, gpu);
    big.slice(1, 1, 8, 2).assign(g.transpose({}));
    std::vector<float> got = host_floats(big), want(24, 0.0f);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) want[r * 8 + 2 * c + 1] = float(r * 4 + c);
    EXPECT_EQ(got, want);
    // host (contiguous) -> device (strided)
    Array rows = Array::zeros(ScalarType::Float32, {6, 4}, gpu);
    rows.slice(0, 0, 6, 2).assign(h);
    got = host_floats(rows);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 4; ++c)
            EXPECT_EQ(got[r * 4 + c], r % 2 ? 0.0f : float((r / 2) * 4 + c)) << r << "," << c;
}

TEST(RuntimeArrayCuda, OverlappingCopyWithinOneArray) {
    SKIP_WITHOUT_CUDA();
    Array g = from_vector<float>(iota_vector(10)).clone(Device::parse("cuda:0"));
    g.slice(0, 1, 10, 1).assign(g.slice(0, 0, 9, 1));
    std::vector<float> want = iota_vector(10, -1.0f);
    want[0] = 0.0f;
    EXPECT_EQ(host_floats(g), want);
}

TEST(RuntimeArrayCuda, WrapDevicePointer) {
    SKIP_WITHOUT_CUDA();
    const Device gpu = Device::parse("cuda:0");
    Array owner = iota_f32({8}).clone(gpu);
    auto keep = std::make_shared<Array>(owner);
    Array w = Array::wrap(owner.data(), ScalarType::Float32, {4}, {8}, gpu, keep);
    EXPECT_EQ(w.device(), gpu);
    EXPECT_EQ(w.buffer()->device(), gpu);
    EXPECT_FALSE(w.buffer()->owns_memory());
    EXPECT_EQ(host_floats(w), (std::vector<float>{0, 2, 4, 6}));
}

TEST(RuntimeArrayCuda, BetweenTwoDevices) {
    SKIP_WITHOUT_CUDA();
    if (cuda::device_count() < 2) GTEST_SKIP() << "needs two CUDA devices";
    Array a = iota_f32({5, 3}).clone(Device::parse("cuda:0"));
    Array b = a.clone(Device::parse("cuda:1"));
    EXPECT_EQ(b.device().ordinal(), 1);
    EXPECT_EQ(host_floats(b), iota_vector(15));
    Array c = Array::zeros(ScalarType::Float32, {3, 5}, Device::parse("cuda:1"));
    c.assign(a.transpose({}));
    Array h = c.clone(Device::cpu());
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t k = 0; k < 5; ++k) EXPECT_EQ(at(h, {r, k}), float(k * 3 + r));
}

}  // namespace
}  // namespace treadle
