// src/runtime/deterministic.cpp -- launching deterministic builds (see deterministic.h)
#include "runtime/deterministic.h"

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "runtime/cuda.h"
#include "treadle/error.h"

namespace treadle {

namespace {

/// Host mirrors of wp::det_record_t, wp::det_launch_t and wp::det_key_t (det_record.h and
/// deterministic.h).
struct DetRecord {
    uint64_t address, bits;
    uint32_t meta, pad;
};
static_assert(sizeof(DetRecord) == 24, "must match wp::det_record_t");
struct DetLaunch {
    void* records;
    uint32_t* counts;
    void* results;             ///< wp::det_counter_t per slot (counter kernels' replay)
    uint32_t* counter_counts;  ///< counter kernels' replay: the counting pass's counts
    uint32_t per_thread, phase;
};
static_assert(sizeof(DetLaunch) == 40, "must match wp::det_launch_t");
constexpr size_t k_key_size = 16;
constexpr size_t k_counter_size = 16;  ///< wp::det_counter_t
constexpr size_t k_scan_size = 8;      ///< wp::det_scan_t

/// Record slots a launch of `size` indices needs; refuses what the keys cannot number.
uint64_t slots_for(const CompiledKernel& k, int64_t size) {
    // slots are numbered in 32 bits; counters' answers are int32
    const uint64_t slots = uint64_t(size) * k.det_per_thread;
    const uint64_t limit = k.det_counters ? 0x7fffffffull : 0x100000000ull;
    if (slots > limit || uint64_t(size) > limit)
        throw Error(ErrorKind::Runtime,
                    k.name + "(): deterministic mode supports launches of up to " +
                        (k.det_counters ? "2^31 - 1" : "2^32") +
                        " threads and records; this launch of " + std::to_string(size) +
                        " threads needs " + std::to_string(slots) + " record slots (" +
                        std::to_string(k.det_per_thread) + " per thread)");
    return slots;
}

[[noreturn]] void throw_overflow(const CompiledKernel& k) {
    throw Error(ErrorKind::Runtime,
                k.name + "(): Deterministic scatter buffer overflow: a thread emitted more than " +
                    std::to_string(k.det_per_thread) +
                    " float atomic records (the bound the compiler found; a dynamic loop's "
                    "body counts once), so no update was applied. Raise the module option "
                    "'deterministic_max_records' (or wp.config.deterministic_max_records)");
}

[[noreturn]] void throw_divergence(const CompiledKernel& k) {
    throw Error(ErrorKind::Runtime,
                k.name +
                    "(): deterministic mode: the replay of a consumed-return counter kernel "
                    "reached a different counter than its counting pass did (control flow "
                    "that depends on a counter's result, or on memory the kernel writes), so "
                    "its results are wrong; hand out the slots in a separate kernel");
}

/// The parameter block with its wp::det_launch_t filled in.
std::vector<uint8_t> patched_params(const CompiledKernel& k, const void* params,
                                    const DetLaunch& launch) {
    std::vector<uint8_t> block(k.params_size);
    std::memcpy(block.data(), params, k.det_offset);
    std::memcpy(block.data() + k.det_offset, &launch, sizeof(launch));
    return block;
}

uint64_t next_power_of_two(uint64_t n) {
    uint64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

}  // namespace

/// One stream's buffers: records, counts and sort keys, grown as launches need.
struct DetBuffers {
    void* records = nullptr;
    void* counts = nullptr;
    void* keys = nullptr;
    void* runs = nullptr;            ///< one DetRecord per key (folded runs, sorted records, scans)
    void* results = nullptr;         ///< counter kernels: one wp::det_counter_t per slot
    void* counter_counts = nullptr;  ///< counter kernels: the counting pass's counts
    uint64_t slots = 0, threads = 0, keys_count = 0, counter_slots = 0, counter_threads = 0;
};

struct DetScratch {
    int ordinal = 0;
    std::mutex mutex;
    std::map<void*, DetBuffers> by_stream;
    std::vector<void*> retired;  ///< outgrown while a capture may still use them

    ~DetScratch() {
        auto release = [this](void* p) {
            try {
                cuda::free(ordinal, p);
            } catch (...) {  // the driver is gone at exit: nothing to free
            }
        };
        for (auto& [stream, b] : by_stream) {
            release(b.records);
            release(b.counts);
            release(b.keys);
            release(b.runs);
            release(b.results);
            release(b.counter_counts);
        }
        for (void* p : retired) release(p);
    }

    /// Buffers for a launch on `stream` of `slots` records over `threads` indices and
    /// `keys_count` keys (with `counters`, the counter kernels' too).
    DetBuffers& get(void* stream, uint64_t slots, uint64_t threads, uint64_t keys_count,
                    bool counters) {
        std::lock_guard<std::mutex> lock(mutex);
        DetBuffers& b = by_stream[stream];
        auto grow = [&](void*& p, uint64_t& have, uint64_t need, size_t unit) {
            if (need <= have && p) return;
            if (p) retired.push_back(p);  // a captured graph or a queued launch may use it
            p = cuda::alloc_outside_capture(ordinal, std::max<uint64_t>(need, 1) * unit);
            have = need;
        };
        uint64_t slots_have = b.slots, threads_have = b.threads, keys_have = b.keys_count;
        uint64_t runs_have = b.keys_count;
        grow(b.records, slots_have, slots, sizeof(DetRecord));
        grow(b.counts, threads_have, threads, sizeof(uint32_t));
        grow(b.keys, keys_have, keys_count, k_key_size);
        grow(b.runs, runs_have, keys_count, sizeof(DetRecord));
        b.slots = slots_have, b.threads = threads_have, b.keys_count = keys_have;
        if (counters) {
            grow(b.results, b.counter_slots, slots, k_counter_size);
            grow(b.counter_counts, b.counter_threads, threads, sizeof(uint32_t));
        }
        return b;
    }
};

std::shared_ptr<DetScratch> make_det_scratch(int ordinal) {
    auto s = std::make_shared<DetScratch>();
    s->ordinal = ordinal;
    return s;
}

void run_cpu_deterministic(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                           CpuEntry entry, bool serial) {
    std::vector<uint8_t> block;
    std::unique_ptr<DetRecord[]> records;
    std::unique_ptr<uint32_t[]> counts;
    if (k.det_per_thread > 0) {
        records.reset(new DetRecord[slots_for(k, bounds.size)]);
        counts.reset(new uint32_t[bounds.size]);
        block = patched_params(
            k, params, {records.get(), counts.get(), nullptr, nullptr, k.det_per_thread, 1});
        params = block.data();
    }
    if (serial) {
        entry(params, &bounds, 0, bounds.size);
    } else {
        run_cpu_entry(entry, params, bounds);
    }
    if (k.det_per_thread == 0) return;
    if (k.det_take_overflow && k.det_take_overflow()) throw_overflow(k);
    k.det_apply(records.get(), counts.get(), bounds.size, k.det_per_thread);
}

namespace {

/// The launches of one deterministic CUDA launch, on one stream.
class CudaDetLaunch {
public:
    CudaDetLaunch(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                  void* stream)
        : m_k(k),
          m_bounds(bounds),
          m_params(params),
          m_stream(stream),
          m_ordinal(k.device.ordinal()),
          m_slots(slots_for(k, bounds.size)),
          m_n(next_power_of_two(m_slots)),
          m_b(k.det_scratch->get(stream, m_slots, (uint64_t)bounds.size, m_n, k.det_counters)) {}

    /// The kernel's entry with `launch` in its parameter block.
    void entry(void* function, unsigned blocks, unsigned block_dim, const DetLaunch& launch) {
        std::vector<uint8_t> block = patched_params(m_k, m_params, launch);
        void* args[2] = {const_cast<LaunchBounds*>(&m_bounds), block.data()};
        cuda::launch_args(m_ordinal, function, blocks, block_dim, args, m_stream,
                          (unsigned)m_k.tile_shared_bytes);
    }

    /// Keys of the records `counts` says were emitted, sorted by (address, slot).
    void sort_keys(uint32_t* counts) {
        uint32_t per_thread = m_k.det_per_thread;
        void* key_args[6] = {&m_b.records, &counts, &per_thread, &m_slots, &m_n, &m_b.keys};
        launch(m_k.cuda_det.keys, key_args);
        if (m_n < k_tile) {  // one short network: a launch per step
            for (uint64_t size = 2; size <= m_n; size <<= 1)
                for (uint64_t j = size >> 1; j > 0; j >>= 1) global_step(j, size);
            return;
        }
        // every stage up to a tile's size inside the tiles; then, per longer stage, the steps
        // that cross tiles one launch each and the rest inside the tiles
        tile_steps(2, k_tile, 0);
        for (uint64_t size = 2 * k_tile; size <= m_n; size <<= 1) {
            for (uint64_t j = size >> 1; j >= k_tile; j >>= 1) global_step(j, size);
            tile_steps(size, size, k_tile / 2);
        }
    }

    /// Counter kernels: answers for the counting pass's records, then the counters' totals.
    void answer_counters() {
        void* scan_a = m_b.runs;
        void* scan_b = static_cast<uint8_t*>(m_b.runs) + m_n * k_scan_size;
        void* init_args[4] = {&m_b.records, &m_b.keys, &m_n, &scan_a};
        launch(m_k.cuda_det.scan_init, init_args);
        for (uint64_t d = 1; d < m_n; d <<= 1) {
            void* step_args[4] = {&scan_a, &scan_b, &m_n, &d};
            launch(m_k.cuda_det.scan_step, step_args);
            std::swap(scan_a, scan_b);
        }
        void* result_args[5] = {&m_b.records, &m_b.keys, &scan_a, &m_n, &m_b.results};
        launch(m_k.cuda_det.counter_results, result_args);
        void* total_args[3] = {&m_b.keys, &scan_a, &m_n};
        launch(m_k.cuda_det.counter_totals, total_args);
    }

    /// Applies the float records: RUN_TO_RUN folds windows, GPU_TO_GPU walks in slot order.
    void apply_records() {
        if (m_k.deterministic == 2) {
            void* gather_args[4] = {&m_b.records, &m_b.keys, &m_n, &m_b.runs};
            launch(m_k.cuda_det.gather, gather_args);
            void* walk_args[2] = {&m_b.runs, &m_n};
            launch(m_k.cuda_det.sequential, walk_args);
            return;
        }
        void* run_args[4] = {&m_b.records, &m_b.keys, &m_n, &m_b.runs};
        launch(m_k.cuda_det.runs, run_args);
        void* apply_args[3] = {&m_b.keys, &m_b.runs, &m_n};
        launch(m_k.cuda_det.apply, apply_args);
    }

    /// Outside a capture: waits, and reports an overflow or a diverged replay.
    void check() {
        if (cuda::is_capturing(m_ordinal, m_stream)) return;
        int32_t flag = 0;
        cuda::copy_device_to_host(m_ordinal, &flag, m_k.cuda_det.overflow, sizeof(flag), m_stream);
        cuda::synchronize_stream(m_ordinal, m_stream);
        if (flag == 0) return;
        cuda::memset(m_ordinal, m_k.cuda_det.overflow, 0, 4, 1, m_stream);
        cuda::synchronize_stream(m_ordinal, m_stream);
        if (flag == 2) throw_divergence(m_k);
        throw_overflow(m_k);
    }

    DetBuffers& buffers() { return m_b; }

private:
    static constexpr uint64_t k_tile = 1024;  ///< wp::k_det_tile

    void global_step(uint64_t j, uint64_t size) {
        void* sort_args[4] = {&m_b.keys, &m_n, &j, &size};
        launch(m_k.cuda_det.bitonic, sort_args);
    }

    void tile_steps(uint64_t k_first, uint64_t k_last, uint64_t j_first) {
        void* args[5] = {&m_b.keys, &m_n, &k_first, &k_last, &j_first};
        cuda::launch_args(m_ordinal, m_k.cuda_det.bitonic_tile, (unsigned)(m_n / k_tile),
                          (unsigned)(k_tile / 2), args, m_stream);
    }

    void launch(void* function, void** args) {
        const unsigned threads = 256;
        cuda::launch_args(m_ordinal, function, (unsigned)((m_n + threads - 1) / threads), threads,
                          args, m_stream);
    }

    const CompiledKernel& m_k;
    const LaunchBounds& m_bounds;
    const void* m_params;
    void* m_stream;
    int m_ordinal;
    uint64_t m_slots, m_n;
    DetBuffers& m_b;
};

}  // namespace

void run_cuda_deterministic(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                            void* stream, void* function, unsigned blocks, unsigned block_dim) {
    CudaDetLaunch launch(k, bounds, params, stream);
    DetBuffers& b = launch.buffers();
    auto* counts = static_cast<uint32_t*>(b.counts);
    if (k.det_counters) {
        auto* counter_counts = static_cast<uint32_t*>(b.counter_counts);
        // the counting pass: int32 increments recorded, every other effect dropped
        launch.entry(function, blocks, block_dim,
                     {b.records, counter_counts, nullptr, nullptr, k.det_per_thread, 0});
        launch.sort_keys(counter_counts);
        launch.answer_counters();
        launch.entry(function, blocks, block_dim,
                     {b.records, counts, b.results, counter_counts, k.det_per_thread, 1});
    } else {
        launch.entry(function, blocks, block_dim,
                     {b.records, counts, nullptr, nullptr, k.det_per_thread, 1});
    }
    if (k.det_records) {
        launch.sort_keys(counts);
        launch.apply_records();
    }
    launch.check();
}

}  // namespace treadle
