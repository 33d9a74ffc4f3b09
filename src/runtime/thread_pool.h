// src/runtime/thread_pool.h -- the persistent worker pool that runs CPU kernel launches
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace treadle {

/// Threads a new pool uses: $TREADLE_NUM_THREADS if it is a positive integer, else the
/// number of CPUs this process may run on (sched affinity), at least 1.
int default_num_threads();

/// A fixed set of worker threads that split index ranges [0, n) with the calling thread.
///
/// parallel_for() hands out chunks through one atomic counter to the workers AND the caller,
/// and returns when every chunk has run. Small ranges run inline on the caller. Idle workers
/// spin for a short while (so back-to-back launches start fast), then sleep on a futex; no
/// core is burnt between launches beyond that spin.
///
/// Threading contract: parallel_for() may be called from any number of host threads at once;
/// launches are SERIALISED (one job owns the workers at a time, the others wait on a mutex).
/// A parallel_for() issued from inside a running job (from the body, on a worker or on the
/// caller) runs inline, so nesting never deadlocks. The body must be safe to run concurrently
/// on disjoint ranges; if it throws, remaining chunks are skipped and the first exception is
/// rethrown on the caller. set_num_threads() waits for the running job to finish. A process
/// forked while no job runs may keep using the pool: the caller then simply runs every chunk.
class ThreadPool {
public:
    /// Body of a parallel loop: process indices [begin, end).
    using RangeFn = void (*)(void* ctx, int64_t begin, int64_t end);

    explicit ThreadPool(int num_threads = default_num_threads());
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// Threads that execute a parallel_for: the workers plus the calling thread.
    int size() const { return m_size.load(std::memory_order_relaxed); }

    /// Restarts the workers so that size() == num_threads (<= 0: default_num_threads()).
    /// Waits for a running job; must not be called from inside a loop body.
    void set_num_threads(int num_threads);

    /// Ranges with fewer iterations than this run inline on the caller (default 16384).
    void set_inline_threshold(int64_t iterations);
    int64_t inline_threshold() const { return m_inline_threshold.load(std::memory_order_relaxed); }

    /// How long an idle worker spins before sleeping, in microseconds (default 50; 0: never).
    void set_spin_microseconds(int microseconds);

    /// Runs fn(ctx, begin, end) over disjoint chunks covering [0, n) and returns when all
    /// are done. `grain` is the smallest chunk worth handing out (0: chosen from n and
    /// size()); a range of at most `grain` iterations runs inline.
    void parallel_for(int64_t n, RangeFn fn, void* ctx, int64_t grain = 0);

    /// Convenience form: `body(begin, end)` for any callable, without std::function.
    template <class Body>
    void parallel_for(int64_t n, int64_t grain, Body&& body) {
        using B = std::remove_reference_t<Body>;
        parallel_for(
            n, [](void* ctx, int64_t begin, int64_t end) { (*static_cast<B*>(ctx))(begin, end); },
            const_cast<void*>(static_cast<const void*>(&body)), grain);
    }

    /// parallel_for() over `n` coarse tasks (each worth a thread, however few): runs inline
    /// only inside a job or with one thread, not below the inline threshold.
    template <class Body>
    void parallel_tasks(int64_t n, Body&& body) {
        using B = std::remove_reference_t<Body>;
        run(
            n, [](void* ctx, int64_t begin, int64_t end) { (*static_cast<B*>(ctx))(begin, end); },
            const_cast<void*>(static_cast<const void*>(&body)), 1, 1);
    }

private:
    /// parallel_for() with `threshold` in place of the inline threshold.
    void run(int64_t n, RangeFn fn, void* ctx, int64_t grain, int64_t threshold);
    void start_workers(int count);
    void stop_workers();
    void worker_main(uint32_t seen);
    void run_chunks();
    uint32_t wait_for_change(uint32_t seen);

    // m_state = generation << 2 | k_open | k_stop; workers wait on it.
    static constexpr uint32_t k_open = 1, k_stop = 2;

    alignas(64) std::atomic<uint32_t> m_state{0};
    alignas(64) std::atomic<int64_t> m_next{0};    ///< next unclaimed index of the open job
    alignas(64) std::atomic<int32_t> m_active{0};  ///< workers inside the current job
    alignas(64) std::atomic<bool> m_failed{false};

    // The open job; written only by the thread holding m_job_mutex while no worker is inside.
    RangeFn m_fn = nullptr;
    void* m_ctx = nullptr;
    int64_t m_n = 0;
    int64_t m_chunk = 1;
    std::exception_ptr m_error;  ///< first exception of the job, guarded by m_error_mutex
    std::mutex m_error_mutex;

    std::mutex m_job_mutex;  ///< serialises jobs and worker restarts
    std::vector<std::thread> m_workers;
    uint32_t m_generation = 0;  ///< guarded by m_job_mutex
    int m_owner_pid = 0;        ///< process that started m_workers (they vanish on fork)
    std::atomic<int> m_size{1};
    std::atomic<int64_t> m_inline_threshold{16384};
    std::atomic<int> m_spin_us{50};
};

/// The process-wide pool for CPU launches, created on first use with default_num_threads().
/// Never destroyed (workers sleep until the process exits), so it is usable during shutdown.
ThreadPool& cpu_pool();

}  // namespace treadle
