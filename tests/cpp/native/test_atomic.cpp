// tests/cpp/native/test_atomic.cpp -- atomics: exact sums under contention, min/max, old values
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "../../../native/treadle/atomic.h"

namespace {

using wp::half;

constexpr int kThreads = 8;
constexpr int kIters = 100000;

template <typename F>
void run_threads(F body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
    for (auto& th : threads) th.join();
}

template <typename T>
class NativeAtomic : public ::testing::Test {};
using AtomicTypes = ::testing::Types<wp::int8, wp::uint8, wp::int16, wp::uint16, wp::int32,
                                     wp::uint32, wp::int64, wp::uint64, float, double>;
TYPED_TEST_SUITE(NativeAtomic, AtomicTypes);

TYPED_TEST(NativeAtomic, ContendedAddAndSubAreExact) {
    using T = TypeParam;
    // Two slots next to each other (same machine word for the narrow types), one summed up and
    // one summed down, both hammered by all threads at once.
    alignas(8) T slots[2] = {T(0), T(0)};
    run_threads([&](int) {
        for (int n = 0; n < kIters; ++n) {
            wp::atomic_add(&slots[0], T(1));
            wp::atomic_sub(&slots[1], T(1));
        }
    });
    const wp::int64 total = wp::int64(kThreads) * kIters;
    if constexpr (wp::is_int_v<T>) {
        EXPECT_EQ(slots[0], T(wp::unsigned_t<T>(total)));
        EXPECT_EQ(slots[1], T(wp::unsigned_t<T>(-total)));
    } else {
        EXPECT_EQ(slots[0], T(total));
        EXPECT_EQ(slots[1], T(-total));
    }
}

TYPED_TEST(NativeAtomic, ReturnsOldValues) {
    using T = TypeParam;
    T x = T(10);
    EXPECT_EQ(wp::atomic_add(&x, T(5)), T(10));
    EXPECT_EQ(wp::atomic_sub(&x, T(3)), T(15));
    EXPECT_EQ(wp::atomic_min(&x, T(20)), T(12));
    EXPECT_EQ(x, T(12));
    EXPECT_EQ(wp::atomic_min(&x, T(7)), T(12));
    EXPECT_EQ(x, T(7));
    EXPECT_EQ(wp::atomic_max(&x, T(3)), T(7));
    EXPECT_EQ(x, T(7));
    EXPECT_EQ(wp::atomic_max(&x, T(9)), T(7));
    EXPECT_EQ(x, T(9));
}

TYPED_TEST(NativeAtomic, ContendedMinMax) {
    using T = TypeParam;
    // Values 0..99 spread over the threads; the final min/max must be the global extremes and
    // the old values one thread sees must be monotone.
    T lo = T(100), hi = T(0);
    std::vector<int> bad(kThreads, 0);
    run_threads([&](int t) {
        T last_lo = T(100), last_hi = T(0);
        for (int n = 0; n < kIters / 10; ++n) {
            const T v = T((n * 7 + t * 13) % 100);
            const T old_lo = wp::atomic_min(&lo, v);
            const T old_hi = wp::atomic_max(&hi, v);
            if (last_lo < old_lo || old_hi < last_hi) ++bad[t];
            last_lo = wp::min(old_lo, v);
            last_hi = wp::max(old_hi, v);
        }
    });
    EXPECT_EQ(lo, T(0));
    EXPECT_EQ(hi, T(99));
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bad[t], 0);
}

template <typename T>
class NativeAtomicNarrow : public ::testing::Test {};
using NarrowFloats = ::testing::Types<half, wp::bfloat16>;
TYPED_TEST_SUITE(NativeAtomicNarrow, NarrowFloats);

TYPED_TEST(NativeAtomicNarrow, ContendedAddIsExact) {
    using T = TypeParam;
    // Integers are exact only up to 2048 in half and 256 in bfloat16: 8 threads x (limit / 8)
    // increments reach exactly the limit; in a second slot of the same word, +1/-1 pairs keep
    // the sum within [0, 8] and end at 0, so any lost update shows.
    const int limit = wp::is_same_v<T, half> ? 2048 : 256;
    alignas(4) T h[2] = {T(0.0f), T(0.0f)};
    run_threads([&](int) {
        for (int n = 0; n < kIters; ++n) {
            if (n < limit / kThreads) wp::atomic_add(&h[0], T(1.0f));
            wp::atomic_add(&h[1], T((n & 1) ? -1.0f : 1.0f));
        }
    });
    EXPECT_EQ(float(h[0]), float(limit));
    EXPECT_EQ(float(h[1]), 0.0f);
    T s(0.0f);
    run_threads([&](int) {
        for (int n = 0; n < kIters; ++n) wp::atomic_sub(&s, T((n & 1) ? -1.0f : 1.0f));
    });
    EXPECT_EQ(float(s), 0.0f);
}

TYPED_TEST(NativeAtomicNarrow, MinMaxAndOldValues) {
    using T = TypeParam;
    T x(1.5f);
    EXPECT_EQ(float(wp::atomic_add(&x, T(0.5f))), 1.5f);
    EXPECT_EQ(float(wp::atomic_min(&x, T(-3.0f))), 2.0f);
    EXPECT_EQ(float(wp::atomic_max(&x, T(4.0f))), -3.0f);
    EXPECT_EQ(float(x), 4.0f);
    T lo(100.0f), hi(-100.0f);
    run_threads([&](int t) {
        for (int n = 0; n < kIters / 10; ++n) {
            const T v(float((n * 7 + t * 13) % 100) - 50.0f);
            wp::atomic_min(&lo, v);
            wp::atomic_max(&hi, v);
        }
    });
    EXPECT_EQ(float(lo), -50.0f);
    EXPECT_EQ(float(hi), 49.0f);
}

TEST(NativeAtomicFloat, NaNAndSignedZero) {
    float x = 1.0f;
    wp::atomic_min(&x, std::nanf(""));  // an incoming NaN is ignored
    EXPECT_EQ(x, 1.0f);
    float z = 0.0f;
    wp::atomic_min(&z, -0.0f);  // tie: old value kept
    EXPECT_FALSE(std::signbit(z));
    double n = std::nan("");
    wp::atomic_max(&n, 5.0);  // a stored NaN counts as missing too (fmax, as Warp)
    EXPECT_EQ(n, 5.0);
}

TEST(NativeAtomicArray, IndexFormsOnStridedArrays) {
    // 2 x 3 x 2 x 2 float array laid out with padding: element strides (16, 5, 2, 1).
    std::vector<float> buf(64, 0.0f);
    wp::array_t<float> a{};
    a.data = buf.data();
    a.ndim = 4;
    const int shape[4] = {2, 3, 2, 2};
    const int el_strides[4] = {16, 5, 2, 1};
    for (int d = 0; d < 4; ++d) {
        a.shape[d] = shape[d];
        a.strides[d] = el_strides[d] * 4;
    }
    run_threads([&](int t) {
        for (int n = 0; n < kIters; ++n) {
            wp::atomic_add(a, 1, 2.0f);                           // buf[16]
            wp::atomic_add(a, 1, 2, 1.0f);                        // buf[26]
            wp::atomic_sub(a, 0, 1, 1, 1.0f);                     // buf[7]
            if (n == 0) wp::atomic_max(a, 1, 1, 1, 1, float(t));  // buf[24]
            if (n == 0) wp::atomic_min(a, 0, 2, 0, float(-t));    // buf[10]
        }
    });
    const float total = float(kThreads) * kIters;
    EXPECT_EQ(buf[16], 2.0f * total);
    EXPECT_EQ(buf[26], total);
    EXPECT_EQ(buf[7], -total);
    EXPECT_EQ(buf[24], float(kThreads - 1));
    EXPECT_EQ(buf[10], -float(kThreads - 1));

    std::vector<wp::int64> ibuf(6, 0);
    wp::array_t<wp::int64> b{};
    b.data = ibuf.data();
    b.ndim = 2;
    b.shape[0] = 2;
    b.shape[1] = 3;
    b.strides[0] = 3 * 8;
    b.strides[1] = 8;
    run_threads([&](int) {
        for (int n = 0; n < kIters; ++n) wp::atomic_add(b, 1, 2, wp::int64(3));
    });
    EXPECT_EQ(ibuf[5], wp::int64(3) * kThreads * kIters);
    EXPECT_EQ(wp::atomic_min(b, 1, 2, wp::int64(-1)), wp::int64(3) * kThreads * kIters);
    EXPECT_EQ(wp::atomic_max(b, 1, 2, wp::int64(-5)), wp::int64(-1));

    std::vector<half> hbuf(4, half(0.0f));
    wp::array_t<half> h{};
    h.data = hbuf.data();
    h.ndim = 1;
    h.shape[0] = 4;
    h.strides[0] = 2;
    run_threads([&](int) {
        for (int n = 0; n < 128; ++n) {
            wp::atomic_add(h, 1, half(1.0f));
            wp::atomic_add(h, 2, half(2.0f));
        }
    });
    EXPECT_EQ(float(hbuf[1]), 1024.0f);
    EXPECT_EQ(float(hbuf[2]), 2048.0f);
    EXPECT_EQ(float(hbuf[0]), 0.0f);
    EXPECT_EQ(float(hbuf[3]), 0.0f);
}

}  // namespace
