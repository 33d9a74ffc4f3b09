// native/treadle/deterministic.h -- deterministic builds: applying the records after a launch
//
// A deterministic kernel's module holds, besides its entry points (which emit records, see
// det_record.h), what the runtime runs after each launch to apply them:
//  * CPU, RUN_TO_RUN: `void wp_det_apply(records, counts, size, per_thread)` applies every
//    record in slot order on the calling thread (the order of a one-thread run).
//  * CPU, GPU_TO_GPU: `wp_det_apply_windowed` (same arguments) applies them in the windowed
//    order below, the CUDA path's, on the host.
//  * `int wp_det_take_overflow()` answers (and clears) whether a thread emitted more records
//    than it had slots. The CPU functions are found with dlsym.
//  * CUDA: wp_det_keys writes one (address, slot) key per slot (address ~0 for an unused
//    slot), wp_det_bitonic sorts the keys (a bitonic network over a power-of-two count, one
//    launch per (k, j) step), wp_det_runs folds each run of an address (at most k_det_window
//    records) and wp_det_apply has the first key of each address apply its runs in order.
//    Both do nothing when wp::det_overflow is set.
// The order depends only on the slots and the scalar operations are the same on both devices
// (atomic_combine), so GPU_TO_GPU gives the same bits on the CPU and on CUDA.
#pragma once

#include "atomic.h"
#include "det_record.h"

#if !defined(__CUDACC__)
#include <algorithm>
#include <vector>
#endif

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

template <typename T>
CUDA_CALLABLE void det_apply_as(uint64 address, uint64 bits, uint32 op) {
    T* p = reinterpret_cast<T*>(address);
    const T v = from_bits<T>(unsigned_t<T>(bits));
    switch (op) {
        case atomic_op_add:
            *p = atomic_combine<atomic_op_add>(*p, v);
            break;
        case atomic_op_sub:
            *p = atomic_combine<atomic_op_sub>(*p, v);
            break;
        case atomic_op_min:
            *p = atomic_combine<atomic_op_min>(*p, v);
            break;
        default:
            *p = atomic_combine<atomic_op_max>(*p, v);
            break;
    }
}

/// Applies one record to memory.
CUDA_CALLABLE void det_apply(const det_record_t& r) {
    const uint32 op = r.meta & 0xffu;
    switch (r.meta >> 8) {
        case 0:
            det_apply_as<half>(r.address, r.bits, op);
            break;
        case 1:
            det_apply_as<float>(r.address, r.bits, op);
            break;
        case 2:
            det_apply_as<double>(r.address, r.bits, op);
            break;
        default:
            det_apply_as<bfloat16>(r.address, r.bits, op);
            break;
    }
}

/// A sort key of the CUDA path: records of one address, in slot order.
struct det_key_t {
    uint64 address;
    uint64 slot;
};

CUDA_CALLABLE bool det_key_greater(const det_key_t& a, const det_key_t& b) {
    return a.address > b.address || (a.address == b.address && a.slot > b.slot);
}

// ---- windowed order (CUDA, and GPU_TO_GPU on the CPU) ----------------------------------------
//
// The sorted keys group each address's records in slot order. A run is a maximal stretch of
// them inside one window of k_det_window slots with one operation family (additive: add and
// sub, whose operand is negated; min; max); its partial is the family's operation folded over
// the run from its first operand. An address then becomes *p = op(*p, partial) for each of its
// runs in order. The result depends only on the slots, never on scheduling, and a hot address
// costs one thread k_det_window records per run plus one step per run.

inline constexpr uint64 k_det_window = 256;

/// The operation family of a record's op: atomic_op_add (add, sub), atomic_op_min, atomic_op_max.
CUDA_CALLABLE uint32 det_family(uint32 meta) {
    const uint32 op = meta & 0xffu;
    return op == atomic_op_sub ? uint32(atomic_op_add) : op;
}

template <typename T>
CUDA_CALLABLE uint64 det_fold_as(const det_record_t* records, const det_key_t* keys, uint64 from,
                                 uint64 to) {
    const det_record_t& first = records[keys[from].slot];
    const uint32 family = det_family(first.meta);
    auto operand = [](const det_record_t& r) {
        const T v = from_bits<T>(unsigned_t<T>(r.bits));
        return (r.meta & 0xffu) == atomic_op_sub ? neg(v) : v;
    };
    T p = operand(first);
    for (uint64 s = from + 1; s < to; ++s) {
        const T v = operand(records[keys[s].slot]);
        p = family == atomic_op_add   ? atomic_combine<atomic_op_add>(p, v)
            : family == atomic_op_min ? atomic_combine<atomic_op_min>(p, v)
                                      : atomic_combine<atomic_op_max>(p, v);
    }
    return uint64(to_bits(p));
}

/// Whether key i starts a run (see above); keys[i] must be a used slot.
CUDA_CALLABLE bool det_run_head(const det_record_t* records, const det_key_t* keys, uint64 i) {
    if (i == 0) return true;
    const det_key_t& a = keys[i - 1];
    const det_key_t& b = keys[i];
    return a.address != b.address || a.slot / k_det_window != b.slot / k_det_window ||
           det_family(records[a.slot].meta) != det_family(records[b.slot].meta);
}

/// The run starting at key i (if one does), into runs[i]: address = the key index after the
/// run, bits = its partial, meta = its family | scalar code << 8.
CUDA_CALLABLE void det_run(const det_record_t* records, const det_key_t* keys, uint64 n, uint64 i,
                           det_record_t* runs) {
    if (keys[i].address == ~uint64(0) || !det_run_head(records, keys, i)) return;
    uint64 end = i + 1;
    while (end < n && keys[end].address != ~uint64(0) && !det_run_head(records, keys, end)) ++end;
    const uint32 meta = records[keys[i].slot].meta;
    uint64 bits = 0;
    switch (meta >> 8) {
        case 0:
            bits = det_fold_as<half>(records, keys, i, end);
            break;
        case 1:
            bits = det_fold_as<float>(records, keys, i, end);
            break;
        case 2:
            bits = det_fold_as<double>(records, keys, i, end);
            break;
        default:
            bits = det_fold_as<bfloat16>(records, keys, i, end);
            break;
    }
    runs[i].address = end;
    runs[i].bits = bits;
    runs[i].meta = det_family(meta) | (meta & 0xff00u);
    runs[i].pad_ = 0;
}

/// When key i is an address's first, applies that address's runs in order.
CUDA_CALLABLE void det_segment(const det_key_t* keys, const det_record_t* runs, uint64 n,
                               uint64 i) {
    const uint64 address = keys[i].address;
    if (address == ~uint64(0) || (i > 0 && keys[i - 1].address == address)) return;
    for (uint64 s = i; s < n && keys[s].address == address; s = runs[s].address) {
        det_record_t r = runs[s];
        r.address = address;
        det_apply(r);
    }
}

}  // namespace wp

#if WP_DEVICE_CODE
extern "C" __global__ void wp_det_keys(const wp::det_record_t* records, const wp::uint32* counts,
                                       wp::uint32 per_thread, wp::uint64 capacity, wp::uint64 n,
                                       wp::det_key_t* keys) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    wp::uint64 address = ~wp::uint64(0);
    if (i < capacity && (i % per_thread) < counts[i / per_thread]) address = records[i].address;
    keys[i].address = address;
    keys[i].slot = i;
}

extern "C" __global__ void wp_det_bitonic(wp::det_key_t* keys, wp::uint64 n, wp::uint64 j,
                                          wp::uint64 k) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const wp::uint64 l = i ^ j;
    if (l <= i) return;
    const wp::det_key_t a = keys[i], b = keys[l];
    const bool ascending = (i & k) == 0;
    if (ascending ? wp::det_key_greater(a, b) : wp::det_key_greater(b, a)) {
        keys[i] = b;
        keys[l] = a;
    }
}

extern "C" __global__ void wp_det_runs(const wp::det_record_t* records, const wp::det_key_t* keys,
                                       wp::uint64 n, wp::det_record_t* runs) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    wp::det_run(records, keys, n, i, runs);
}

extern "C" __global__ void wp_det_apply(const wp::det_key_t* keys, const wp::det_record_t* runs,
                                        wp::uint64 n) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    wp::det_segment(keys, runs, n, i);
}
#elif !defined(__CUDACC__)
extern "C" __attribute__((visibility("default"), used)) inline void wp_det_apply(
    const wp::det_record_t* records, const wp::uint32* counts, wp::int64 size,
    wp::uint32 per_thread) {
    for (wp::int64 t = 0; t < size; ++t) {
        const wp::det_record_t* r = records + t * (wp::int64)per_thread;
        for (wp::uint32 s = 0; s < counts[t]; ++s) wp::det_apply(r[s]);
    }
}

/// GPU_TO_GPU on the CPU: the windowed order of the CUDA path (the same run and segment
/// functions over the keys sorted on the host), so both devices give the same bits.
extern "C" __attribute__((visibility("default"), used)) inline void wp_det_apply_windowed(
    const wp::det_record_t* records, const wp::uint32* counts, wp::int64 size,
    wp::uint32 per_thread) {
    std::vector<wp::det_key_t> keys;
    for (wp::int64 t = 0; t < size; ++t) {
        for (wp::uint32 s = 0; s < counts[t]; ++s) {
            const wp::uint64 slot = wp::uint64(t) * per_thread + s;
            keys.push_back({records[slot].address, slot});
        }
    }
    std::sort(keys.begin(), keys.end(), [](const wp::det_key_t& a, const wp::det_key_t& b) {
        return wp::det_key_greater(b, a);
    });
    const wp::uint64 n = keys.size();
    std::vector<wp::det_record_t> runs(n);
    for (wp::uint64 i = 0; i < n; ++i) wp::det_run(records, keys.data(), n, i, runs.data());
    for (wp::uint64 i = 0; i < n; ++i) wp::det_segment(keys.data(), runs.data(), n, i);
}

extern "C" __attribute__((visibility("default"), used)) inline int wp_det_take_overflow() {
    return __atomic_exchange_n(&wp::det_overflow, 0, __ATOMIC_ACQ_REL);
}
#endif

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
