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
    uint32_t per_thread, pad;
};
static_assert(sizeof(DetLaunch) == 24, "must match wp::det_launch_t");
constexpr size_t k_key_size = 16;

/// Record slots a launch of `size` indices needs; refuses what the keys cannot number.
uint64_t slots_for(const CompiledKernel& k, int64_t size) {
    const uint64_t slots = uint64_t(size) * k.det_per_thread;
    if (slots > 0xffffffffull)
        throw Error(ErrorKind::Runtime,
                    k.name +
                        "(): deterministic mode supports launches of up to 2^32 threads "
                        "and records; this launch of " +
                        std::to_string(size) + " threads needs " + std::to_string(slots) +
                        " record slots (" + std::to_string(k.det_per_thread) + " per thread)");
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
    void* runs = nullptr;  ///< one DetRecord per key (the folded runs)
    uint64_t slots = 0, threads = 0, keys_count = 0;
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
        }
        for (void* p : retired) release(p);
    }

    /// Buffers for a launch on `stream` of `slots` records over `threads` indices and
    /// `keys_count` keys.
    DetBuffers& get(void* stream, uint64_t slots, uint64_t threads, uint64_t keys_count) {
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
        block = patched_params(k, params, {records.get(), counts.get(), k.det_per_thread, 0});
        params = block.data();
    }
    if (serial) {
        entry(params, &bounds, 0, bounds.size);
    } else {
        run_cpu_entry(entry, params, bounds);
    }
    if (k.det_per_thread == 0) return;
    if (k.det_take_overflow && k.det_take_overflow()) throw_overflow(k);
    (k.deterministic == 2 ? k.det_apply_windowed : k.det_apply)(records.get(), counts.get(),
                                                                bounds.size, k.det_per_thread);
}

void run_cuda_deterministic(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
                            void* stream, void* function, unsigned blocks, unsigned block_dim) {
    const int ordinal = k.device.ordinal();
    const uint64_t slots = slots_for(k, bounds.size);
    uint64_t n = next_power_of_two(slots);
    DetBuffers& b = k.det_scratch->get(stream, slots, (uint64_t)bounds.size, n);
    std::vector<uint8_t> block = patched_params(
        k, params, {b.records, static_cast<uint32_t*>(b.counts), k.det_per_thread, 0});
    void* args[2] = {const_cast<LaunchBounds*>(&bounds), block.data()};
    cuda::launch_args(ordinal, function, blocks, block_dim, args, stream);

    const unsigned threads = 256;
    auto grid = [&](uint64_t count) { return (unsigned)((count + threads - 1) / threads); };
    uint32_t per_thread = k.det_per_thread;
    void* key_args[6] = {&b.records, &b.counts, &per_thread, const_cast<uint64_t*>(&slots),
                         &n,         &b.keys};
    cuda::launch_args(ordinal, k.cuda_det_keys, grid(n), threads, key_args, stream);
    for (uint64_t size = 2; size <= n; size <<= 1) {
        for (uint64_t j = size >> 1; j > 0; j >>= 1) {
            void* sort_args[4] = {&b.keys, &n, &j, &size};
            cuda::launch_args(ordinal, k.cuda_det_bitonic, grid(n), threads, sort_args, stream);
        }
    }
    void* run_args[4] = {&b.records, &b.keys, &n, &b.runs};
    cuda::launch_args(ordinal, k.cuda_det_runs, grid(n), threads, run_args, stream);
    void* apply_args[3] = {&b.keys, &b.runs, &n};
    cuda::launch_args(ordinal, k.cuda_det_apply, grid(n), threads, apply_args, stream);
    if (cuda::is_capturing(ordinal, stream)) return;
    int32_t overflow = 0;
    cuda::copy_device_to_host(ordinal, &overflow, k.cuda_det_overflow, sizeof(overflow), stream);
    cuda::synchronize_stream(ordinal, stream);
    if (overflow != 0) {
        cuda::memset(ordinal, k.cuda_det_overflow, 0, 4, 1, stream);
        cuda::synchronize_stream(ordinal, stream);
        throw_overflow(k);
    }
}

}  // namespace treadle
