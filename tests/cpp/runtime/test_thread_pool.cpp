// tests/cpp/runtime/test_thread_pool.cpp -- parallel_for coverage, concurrency, nesting, errors
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"

namespace treadle {
namespace {

// Runs a parallel_for over [0, n) that marks every index and sums them; checks that each
// index ran exactly once and the sum is n(n-1)/2.
void check_cover(ThreadPool& pool, int64_t n, int64_t grain = 0) {
    std::vector<uint8_t> hits(size_t(n > 0 ? n : 0), 0);
    std::atomic<int64_t> sum{0};
    std::atomic<int64_t> calls{0};
    pool.parallel_for(n, grain, [&](int64_t begin, int64_t end) {
        ASSERT_LE(0, begin);
        ASSERT_LT(begin, end);
        ASSERT_LE(end, n);
        int64_t local = 0;
        for (int64_t i = begin; i < end; ++i) {
            ++hits[size_t(i)];  // chunks are disjoint, so no two threads touch one byte
            local += i;
        }
        sum.fetch_add(local);
        calls.fetch_add(1);
    });
    EXPECT_EQ(sum.load(), n > 0 ? n * (n - 1) / 2 : 0) << "n=" << n;
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[size_t(i)], 1) << "n=" << n << " i=" << i;
    if (n <= 0) {
        EXPECT_EQ(calls.load(), 0);
    }
}

const std::vector<int64_t> k_sizes = {0,    1,    2,     3,     7,     63,     64,     65,
                                      1000, 4097, 16383, 16384, 16385, 100003, 999999, 1 << 20};

TEST(ThreadPool, CoversEveryIndexOnceInline) {
    ThreadPool pool(4);
    for (int64_t n : k_sizes) check_cover(pool, n);
}

TEST(ThreadPool, CoversEveryIndexOnceThroughThePool) {
    ThreadPool pool(4);
    pool.set_inline_threshold(0);  // force the pool path even for tiny n
    for (int64_t n : k_sizes) check_cover(pool, n);
    for (int64_t grain : {1, 5, 1000, 50000}) check_cover(pool, 123457, grain);
}

TEST(ThreadPool, SingleThreadPoolRunsInline) {
    ThreadPool pool(1);
    EXPECT_EQ(pool.size(), 1);
    std::thread::id caller = std::this_thread::get_id();
    bool same = true;
    pool.parallel_for(
        1 << 20, 0, [&](int64_t, int64_t) { same = same && std::this_thread::get_id() == caller; });
    EXPECT_TRUE(same);
    check_cover(pool, 100000);
}

TEST(ThreadPool, UsesTheWorkers) {
    ThreadPool pool(3);
    pool.set_inline_threshold(0);
    std::mutex mutex;
    std::set<std::thread::id> seen;
    for (int attempt = 0; attempt < 50 && seen.size() < 2; ++attempt) {
        pool.parallel_for(1 << 16, 1, [&](int64_t, int64_t) {
            std::this_thread::sleep_for(std::chrono::microseconds(20));
            std::lock_guard<std::mutex> lock(mutex);
            seen.insert(std::this_thread::get_id());
        });
    }
    EXPECT_GE(seen.size(), 2u);
}

TEST(ThreadPool, FewCoarseTasksStillUseTheWorkers) {
    // below the inline threshold (16,384 by default) parallel_for stays on the caller, but
    // parallel_tasks hands even 8 tasks to the workers; each index runs once
    ThreadPool pool(3);
    std::mutex mutex;
    std::set<std::thread::id> seen;
    std::vector<int> runs(8, 0);
    for (int attempt = 0; attempt < 20 && seen.size() < 2; ++attempt) {
        std::fill(runs.begin(), runs.end(), 0);
        pool.parallel_tasks(8, [&](int64_t begin, int64_t end) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            std::lock_guard<std::mutex> lock(mutex);
            seen.insert(std::this_thread::get_id());
            for (int64_t i = begin; i < end; ++i) ++runs[static_cast<size_t>(i)];
        });
        EXPECT_EQ(runs, std::vector<int>(8, 1));
    }
    EXPECT_GE(seen.size(), 2u);
}

TEST(ThreadPool, ManyHostThreadsAtOnce) {
    ThreadPool pool(4);
    pool.set_inline_threshold(0);
    std::vector<std::thread> hosts;
    for (int h = 0; h < 4; ++h) {
        hosts.emplace_back([&pool, h] {
            for (int rep = 0; rep < 40; ++rep)
                check_cover(pool, k_sizes[(h + rep) % k_sizes.size()]);
        });
    }
    for (auto& t : hosts) t.join();
}

TEST(ThreadPool, GlobalPoolFromManyHostThreads) {
    std::vector<std::thread> hosts;
    for (int h = 0; h < 3; ++h)
        hosts.emplace_back([] {
            for (int rep = 0; rep < 20; ++rep) check_cover(cpu_pool(), 200000 + rep);
        });
    for (auto& t : hosts) t.join();
    EXPECT_GE(cpu_pool().size(), 1);
}

TEST(ThreadPool, NestedCallsRunInline) {
    ThreadPool pool(4);
    pool.set_inline_threshold(0);
    std::atomic<int64_t> total{0};
    pool.parallel_for(64, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            pool.parallel_for(100, 1, [&](int64_t b, int64_t e) { total.fetch_add(e - b); });
    });
    EXPECT_EQ(total.load(), 64 * 100);
}

TEST(ThreadPool, ExceptionsReachTheCaller) {
    ThreadPool pool(4);
    pool.set_inline_threshold(0);
    EXPECT_THROW(pool.parallel_for(100000, 10,
                                   [&](int64_t begin, int64_t end) {
                                       if (begin <= 5000 && 5000 < end)
                                           throw std::runtime_error("boom");
                                   }),
                 std::runtime_error);
    check_cover(pool, 100000);  // still usable afterwards
}

TEST(ThreadPool, ResizeKeepsWorking) {
    ThreadPool pool(2);
    pool.set_inline_threshold(0);
    for (int threads : {1, 3, 8, 2, 0}) {
        pool.set_num_threads(threads);
        EXPECT_EQ(pool.size(), threads > 0 ? threads : default_num_threads());
        check_cover(pool, 77777);
    }
}

TEST(ThreadPool, SleepingWorkersWakeUp) {
    ThreadPool pool(3);
    pool.set_inline_threshold(0);
    pool.set_spin_microseconds(0);
    for (int rep = 0; rep < 5; ++rep) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        check_cover(pool, 50000);
    }
}

TEST(ThreadPool, EnvironmentSetsDefaultThreads) {
    const char* saved = std::getenv("TREADLE_NUM_THREADS");
    std::string keep = saved ? saved : "";
    ::setenv("TREADLE_NUM_THREADS", "3", 1);
    EXPECT_EQ(default_num_threads(), 3);
    ::setenv("TREADLE_NUM_THREADS", "junk", 1);
    EXPECT_GE(default_num_threads(), 1);
    if (saved)
        ::setenv("TREADLE_NUM_THREADS", keep.c_str(), 1);
    else
        ::unsetenv("TREADLE_NUM_THREADS");
}

}  // namespace
}  // namespace treadle
