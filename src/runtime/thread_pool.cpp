// src/runtime/thread_pool.cpp -- chunked parallel_for over persistent, futex-sleeping workers
#include "runtime/thread_pool.h"

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <utility>

#include "common/assert.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TREADLE_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define TREADLE_CPU_RELAX() asm volatile("yield" ::: "memory")
#else
#define TREADLE_CPU_RELAX() ((void)0)
#endif

namespace treadle {

namespace {

// True on pool workers, and on a caller while it takes part in a job: nested parallel_for
// calls from such a thread run inline instead of waiting for workers that are busy.
thread_local bool t_in_job = false;

constexpr int64_t k_chunks_per_thread = 8;  // chunks per thread: load balance vs counter traffic

struct InJobScope {
    bool previous = t_in_job;
    InJobScope() { t_in_job = true; }
    ~InJobScope() { t_in_job = previous; }
};

}  // namespace

int default_num_threads() {
    if (const char* env = std::getenv("TREADLE_NUM_THREADS"); env && *env) {
        char* end = nullptr;
        long value = std::strtol(env, &end, 10);
        if (end && *end == '\0' && value > 0 && value <= 4096) return int(value);
    }
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof(set), &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
    unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? int(hw) : 1;
}

ThreadPool::ThreadPool(int num_threads) {
    start_workers(num_threads > 0 ? num_threads : default_num_threads());
}

ThreadPool::~ThreadPool() {
    std::lock_guard<std::mutex> lock(m_job_mutex);
    stop_workers();
}

void ThreadPool::set_num_threads(int num_threads) {
    TREADLE_ASSERT(!t_in_job);  // from a loop body this would wait for itself
    if (num_threads <= 0) num_threads = default_num_threads();
    std::lock_guard<std::mutex> lock(m_job_mutex);
    if (num_threads == size()) return;
    stop_workers();
    start_workers(num_threads);
}

void ThreadPool::set_inline_threshold(int64_t iterations) {
    m_inline_threshold.store(iterations < 0 ? 0 : iterations, std::memory_order_relaxed);
}

void ThreadPool::set_spin_microseconds(int microseconds) {
    m_spin_us.store(microseconds < 0 ? 0 : microseconds, std::memory_order_relaxed);
}

// Called with m_job_mutex held (or from the constructor) and no workers running.
void ThreadPool::start_workers(int count) {
    TREADLE_ASSERT(m_workers.empty() && count >= 1);
    // Workers start from this value, not from whatever they first read: a worker that gets
    // scheduled late must still notice the jobs (and the stop) that happened before it ran.
    const uint32_t initial = m_generation << 2;
    m_state.store(initial, std::memory_order_seq_cst);
    m_owner_pid = ::getpid();
    m_workers.reserve(size_t(count - 1));
    for (int i = 1; i < count; ++i)
        m_workers.emplace_back([this, initial] { worker_main(initial); });
    m_size.store(count, std::memory_order_relaxed);
}

// Called with m_job_mutex held, so no job is open.
void ThreadPool::stop_workers() {
    m_state.store((m_generation << 2) | k_stop, std::memory_order_seq_cst);
    m_state.notify_all();
    // In a forked child the workers do not exist (only the forking thread is copied).
    bool forked = ::getpid() != m_owner_pid;
    for (auto& worker : m_workers) forked ? worker.detach() : worker.join();
    m_workers.clear();
    m_size.store(1, std::memory_order_relaxed);
}

uint32_t ThreadPool::wait_for_change(uint32_t seen) {
    uint32_t now = m_state.load(std::memory_order_acquire);
    if (now != seen) return now;
    int spin_us = m_spin_us.load(std::memory_order_relaxed);
    if (spin_us > 0) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us);
        for (;;) {
            for (int i = 0; i < 64; ++i) {
                TREADLE_CPU_RELAX();
                now = m_state.load(std::memory_order_acquire);
                if (now != seen) return now;
            }
            if (std::chrono::steady_clock::now() >= deadline) break;
        }
    }
    for (;;) {
        m_state.wait(seen, std::memory_order_acquire);
        now = m_state.load(std::memory_order_acquire);
        if (now != seen) return now;
    }
}

void ThreadPool::worker_main(uint32_t seen) {
    t_in_job = true;
    for (;;) {
        uint32_t state = wait_for_change(seen);
        seen = state;
        if (state & k_stop) return;
        if (!(state & k_open)) continue;
        // Join, then re-check: either the caller's close comes after our increment in the
        // seq_cst order (it will wait for us) or we see the close and touch nothing.
        m_active.fetch_add(1, std::memory_order_seq_cst);
        if (m_state.load(std::memory_order_seq_cst) == state) run_chunks();
        if (m_active.fetch_sub(1, std::memory_order_seq_cst) == 1) m_active.notify_all();
    }
}

void ThreadPool::run_chunks() {
    const int64_t n = m_n, chunk = m_chunk;
    RangeFn fn = m_fn;
    void* ctx = m_ctx;
    for (;;) {
        int64_t begin = m_next.fetch_add(chunk, std::memory_order_relaxed);
        if (begin >= n) return;
        int64_t end = begin + chunk < n ? begin + chunk : n;
        try {
            fn(ctx, begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_error_mutex);
            if (!m_error) m_error = std::current_exception();
            m_failed.store(true, std::memory_order_relaxed);
            m_next.store(n, std::memory_order_relaxed);  // skip the remaining chunks
            return;
        }
    }
}

void ThreadPool::parallel_for(int64_t n, RangeFn fn, void* ctx, int64_t grain) {
    run(n, fn, ctx, grain, inline_threshold());
}

void ThreadPool::run(int64_t n, RangeFn fn, void* ctx, int64_t grain, int64_t threshold) {
    if (n <= 0) return;
    TREADLE_ASSERT(fn != nullptr);
    TREADLE_ASSERT(n < std::numeric_limits<int64_t>::max() / 4);
    if (grain < 1) grain = 1;
    if (t_in_job || size() <= 1 || n < threshold || n <= grain) {
        fn(ctx, 0, n);
        return;
    }

    std::unique_lock<std::mutex> lock(m_job_mutex);
    const int64_t threads = int64_t(m_workers.size()) + 1;
    if (threads <= 1) {
        lock.unlock();
        fn(ctx, 0, n);
        return;
    }
    int64_t per_chunk = (n + threads * k_chunks_per_thread - 1) / (threads * k_chunks_per_thread);
    m_fn = fn;
    m_ctx = ctx;
    m_n = n;
    m_chunk = per_chunk > grain ? per_chunk : grain;
    m_error = nullptr;
    m_failed.store(false, std::memory_order_relaxed);
    m_next.store(0, std::memory_order_relaxed);

    m_generation = (m_generation + 1) & 0x3fffffff;
    const uint32_t open = (m_generation << 2) | k_open;
    m_state.store(open, std::memory_order_seq_cst);  // publishes the job fields above
    m_state.notify_all();
    {
        InJobScope scope;
        run_chunks();
    }
    m_state.store(m_generation << 2, std::memory_order_seq_cst);  // close: no new joiners

    // Wait for the workers that joined; each finishes its chunk, sees m_next >= n, leaves.
    int32_t active = m_active.load(std::memory_order_seq_cst);
    for (int i = 0; active != 0 && i < 4096; ++i) {
        TREADLE_CPU_RELAX();
        active = m_active.load(std::memory_order_seq_cst);
    }
    while (active != 0) {
        m_active.wait(active, std::memory_order_seq_cst);
        active = m_active.load(std::memory_order_seq_cst);
    }

    if (m_failed.load(std::memory_order_relaxed)) {
        std::exception_ptr error;
        {
            std::lock_guard<std::mutex> error_lock(m_error_mutex);
            error = std::exchange(m_error, nullptr);
        }
        lock.unlock();
        std::rethrow_exception(error);
    }
}

ThreadPool& cpu_pool() {
    static ThreadPool* pool = new ThreadPool(default_num_threads());
    return *pool;
}

}  // namespace treadle
