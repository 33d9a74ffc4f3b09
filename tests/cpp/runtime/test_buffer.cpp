// tests/cpp/runtime/test_buffer.cpp -- aligned CPU buffers and external-memory views
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/buffer.h"
#include "treadle/error.h"

namespace treadle {
namespace {

TEST(Buffer, AlignedAndSized) {
    for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(4096), size_t(3) << 20}) {
        for (bool zero : {false, true}) {
            auto buf = make_cpu_buffer(bytes, zero);
            ASSERT_NE(buf->data(), nullptr);
            EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % Buffer::alignment, 0u);
            EXPECT_EQ(buf->size(), bytes);
            EXPECT_TRUE(buf->owns_memory());
            std::memset(buf->data(), 0xab, bytes);  // the whole range is writable
        }
    }
}

TEST(Buffer, ZeroedBuffersAreZero) {
    // Dirty the heap first so a recycled block would show garbage.
    for (int i = 0; i < 4; ++i) std::memset(make_cpu_buffer(100000, false)->data(), 0xff, 100000);
    for (size_t bytes : {size_t(100), size_t(100000), size_t(8) << 20}) {
        auto buf = make_cpu_buffer(bytes, true);
        const auto* p = static_cast<const unsigned char*>(buf->data());
        size_t nonzero = 0;
        for (size_t i = 0; i < bytes; ++i) nonzero += p[i] != 0;
        EXPECT_EQ(nonzero, 0u) << bytes;
    }
}

TEST(Buffer, HugeAllocationThrowsOutOfMemoryWithSize) {
    size_t huge = std::numeric_limits<size_t>::max() / 2;
    for (bool zero : {false, true}) {
        try {
            make_cpu_buffer(huge, zero);
            FAIL();
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory);
            EXPECT_NE(std::string(e.what()).find(std::to_string(huge)), std::string::npos);
        }
    }
}

TEST(Buffer, ExternalMemoryIsKeptAlive) {
    auto storage = std::make_shared<std::vector<float>>(16, 1.5f);
    std::weak_ptr<std::vector<float>> watch = storage;
    auto buf = wrap_external_buffer(storage->data(), 16 * sizeof(float), storage);
    storage.reset();
    EXPECT_FALSE(watch.expired());
    EXPECT_FALSE(buf->owns_memory());
    EXPECT_EQ(static_cast<float*>(buf->data())[3], 1.5f);
    buf.reset();
    EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace treadle
