// tests/cpp/api/test_device_sort.cpp -- the radix sort and scan kernels (src/api/device_sort.h)
// on the CPU device, against std::stable_sort and std::exclusive_scan
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "api/device_sort.h"
#include "treadle/error.h"

namespace {

using treadle::Array;

Array ints(const std::vector<int32_t>& v) { return treadle::from_vector(v); }

TEST(DeviceSort, MatchesAStableSortByTheLowBits) {
    std::mt19937 rng(3);
    for (int n : {0, 1, 2, 31, 32, 33, 1000, 4099}) {
        for (int bits : {1, 4, 5, 13, 30, 31}) {
            std::uniform_int_distribution<int32_t> key(0, INT32_MAX);
            std::vector<int32_t> k(n), v(n);
            for (int i = 0; i < n; ++i) {
                k[i] = key(rng) % (i % 3 == 0 ? 7 : INT32_MAX);  // many equal keys too
                v[i] = i;
            }
            // two extra entries past count stay untouched
            std::vector<int32_t> kk = k, vv = v;
            kk.push_back(-5);
            vv.push_back(-6);
            Array keys = ints(kk), values = ints(vv);
            treadle::device_sort::sort_pairs(keys, values, n, bits);
            const uint32_t mask = bits == 31 ? 0x7fffffffu : (1u << bits) - 1;
            std::vector<int32_t> order(n);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return (uint32_t(k[a]) & mask) < (uint32_t(k[b]) & mask);
            });
            const std::vector<int32_t> gk = treadle::to_vector<int32_t>(keys);
            const std::vector<int32_t> gv = treadle::to_vector<int32_t>(values);
            for (int i = 0; i < n; ++i) {
                ASSERT_EQ(gv[i], order[i]) << "n " << n << " bits " << bits << " at " << i;
                ASSERT_EQ(gk[i], k[order[i]]);
            }
            EXPECT_EQ(gk[n], -5);
            EXPECT_EQ(gv[n], -6);
        }
    }
}

TEST(DeviceSort, ExclusiveScanOverSeveralLevels) {
    std::mt19937 rng(8);
    for (int n : {1, 32, 33, 1025, 40000}) {
        std::vector<int32_t> v(n);
        for (int32_t& x : v) x = int32_t(rng() % 100);
        Array a = ints(v);
        treadle::device_sort::exclusive_scan(a, n);
        std::vector<int32_t> want(n);
        std::exclusive_scan(v.begin(), v.end(), want.begin(), 0);
        EXPECT_EQ(treadle::to_vector<int32_t>(a), want) << n;
    }
}

TEST(DeviceSort, BadArgumentsAreValueErrors) {
    Array k = ints({3, 1, 2}), v = ints({0, 1, 2});
    try {
        treadle::device_sort::sort_pairs(k, v, 4, 8);
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(std::string(e.what()), "sort_pairs: keys holds 3 values, fewer than 4");
    }
    try {
        treadle::device_sort::sort_pairs(k, v, 3, 0);
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(std::string(e.what()), "sort_pairs: bits must be 1 to 31, got 0");
    }
    Array f = treadle::from_vector(std::vector<float>{1.0f, 2.0f, 3.0f});
    EXPECT_THROW(treadle::device_sort::sort_pairs(f, v, 3, 8), treadle::Error);
}

}  // namespace
