// native/treadle/deterministic.h -- deterministic builds: applying the records after a launch
//
// A deterministic kernel's module holds, besides its entry points (which emit records, see
// det_record.h), what the runtime runs after each launch to apply them:
//  * CPU: `void wp_det_apply(records, counts, size, per_thread)` applies every record in slot
//    order on the calling thread (the order of a one-thread run), in both modes.
//  * `int wp_det_take_overflow()` answers (and clears) whether a thread emitted more records
//    than it had slots. The CPU functions are found with dlsym.
//  * CUDA: wp_det_keys writes one (address, slot) key per slot (address ~0 for an unused
//    slot), wp_det_bitonic_tile and wp_det_bitonic sort them (a bitonic network over a
//    power-of-two count: the steps inside a tile of 1024 keys in shared memory, the longer
//    ones one launch per step), wp_det_runs folds each run of an address (at most k_det_window
//    records) and wp_det_apply has the first key of each address apply its runs in order:
//    RUN_TO_RUN. GPU_TO_GPU instead gathers the records in key order (wp_det_gather) and
//    wp_det_sequential walks each address's records in slot order, the CPU's order.
//    They do nothing when wp::det_overflow is set.
//  * CUDA counter kernels: wp_det_scan_init / wp_det_scan_step / wp_det_counter_results /
//    wp_det_counter_totals answer the counting pass's records (below).
// The order depends only on the slots and the scalar operations are the same on both devices
// (atomic_combine), so GPU_TO_GPU (sequential on both) gives the same bits on the CPU and on
// CUDA; RUN_TO_RUN on CUDA folds windows in parallel, a different but fixed order.
#pragma once

#include "atomic.h"
#include "det_record.h"

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

/// The bits of -0.0 in a record's scalar type: adding it changes nothing.
CUDA_CALLABLE uint64 det_negative_zero(uint32 meta) {
    switch (meta >> 8) {
        case 1:
            return 0x80000000ull;
        case 2:
            return 0x8000000000000000ull;
        default:
            return 0x8000ull;  // half, bfloat16
    }
}

/// Backward passes read gradients their own launch index accumulated: `value`, read from `p`,
/// gains the calling thread's pending records inside [p, p + sizeof(T)) in emission order, as
/// if they had been applied; with `take` they are cancelled (the read consumed them).
template <typename T>
CUDA_CALLABLE void det_own_pending(const T* p, T& value, bool take) {
    det_thread_t* d = det_current();
    if (!d) return;
    const det_launch_t* l = det_launch();
    const uint64 lo = reinterpret_cast<uint64>(p), hi = lo + sizeof(T);
    for (uint32 k = 0; k < d->count; ++k) {
        det_record_t& r = l->records[d->first + k];
        if (r.address < lo || r.address >= hi) continue;
        det_record_t local = r;
        local.address = reinterpret_cast<uint64>(&value) + (r.address - lo);
        det_apply(local);
        if (take) {
            r.meta = uint32(atomic_op_add) | (r.meta & 0xff00u);
            r.bits = det_negative_zero(r.meta);
        }
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

// ---- windowed order (RUN_TO_RUN on CUDA) -----------------------------------------------------
//
// The sorted keys group each address's records in slot order. A run is a maximal stretch of
// them inside one window of k_det_window slots with one operation family (additive: add and
// sub, whose operand is negated; min; max); its partial is the family's operation folded over
// the run from its first operand. An address then becomes *p = op(*p, partial) for each of its
// runs in order. The result depends only on the slots, never on scheduling, and a hot address
// costs one thread k_det_window records per run plus one step per run.

inline constexpr uint64 k_det_window = 256;
/// Keys one block sorts in shared memory (wp_det_bitonic_tile; 16 KiB).
inline constexpr uint64 k_det_tile = 1024;

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

// ---- sequential order (GPU_TO_GPU on CUDA) ----------------------------------------------------
//
// The records, gathered into key order, are walked address by address: the first record of an
// address finds its segment's end by binary search and applies the segment in slot order, as
// a one-thread run would (the CPU's wp_det_apply gives the same bits).

template <typename T>
CUDA_CALLABLE void det_walk_as(const det_record_t* sorted, uint64 from, uint64 to) {
    T* p = reinterpret_cast<T*>(sorted[from].address);
    T x = *p;
#if WP_DEVICE_CODE
#pragma unroll 16
#endif
    for (uint64 s = from; s < to; ++s) {
        const det_record_t r = sorted[s];
        const T v = from_bits<T>(unsigned_t<T>(r.bits));
        switch (r.meta & 0xffu) {
            case atomic_op_add:
                x = atomic_combine<atomic_op_add>(x, v);
                break;
            case atomic_op_sub:
                x = atomic_combine<atomic_op_sub>(x, v);
                break;
            case atomic_op_min:
                x = atomic_combine<atomic_op_min>(x, v);
                break;
            default:
                x = atomic_combine<atomic_op_max>(x, v);
                break;
        }
    }
    *p = x;
}

/// When sorted[i] is an address's first record, applies that address's records in order.
CUDA_CALLABLE void det_walk(const det_record_t* sorted, uint64 n, uint64 i) {
    const uint64 address = sorted[i].address;
    if (address == ~uint64(0) || (i > 0 && sorted[i - 1].address == address)) return;
    uint64 lo = i + 1, hi = n;  // the first record past the segment, in [i + 1, n]
    while (lo < hi) {
        const uint64 mid = lo + (hi - lo) / 2;
        if (sorted[mid].address == address)
            lo = mid + 1;
        else
            hi = mid;
    }
    switch (sorted[i].meta >> 8) {
        case 0:
            det_walk_as<half>(sorted, i, lo);
            break;
        case 1:
            det_walk_as<float>(sorted, i, lo);
            break;
        case 2:
            det_walk_as<double>(sorted, i, lo);
            break;
        default:
            det_walk_as<bfloat16>(sorted, i, lo);
            break;
    }
}

// ---- counters (CUDA; see det_counter in atomic.h) ----------------------------------------------
//
// The counting pass's records (int32 increments) are keyed and sorted like the float records.
// A segmented inclusive scan over the sorted keys (one segment per address, Hillis-Steele
// steps of distance 1, 2, 4, ...) gives each record the sum of its address's increments up to
// and including it; the answer is the address's value plus the sum before it, and the
// address then gains its segment's total. Integer sums wrap and are exact, so the answers are
// those of the sequential order whatever the hardware's order.

/// An element of the segmented scan: a running sum and whether a segment starts in its span.
struct det_scan_t {
    uint32 value;
    uint32 head;
};

CUDA_CALLABLE det_scan_t det_scan_combine(det_scan_t a, det_scan_t b) {
    return {b.head ? b.value : a.value + b.value, a.head | b.head};
}

}  // namespace wp

#if WP_DEVICE_CODE
extern "C" __global__ void wp_det_scan_init(const wp::det_record_t* records,
                                            const wp::det_key_t* keys, wp::uint64 n,
                                            wp::det_scan_t* scan) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const wp::uint64 address = keys[i].address;
    const bool used = address != ~wp::uint64(0);
    scan[i].value = used ? wp::uint32(records[keys[i].slot].bits) : 0u;
    scan[i].head = (i == 0 || keys[i - 1].address != address) ? 1u : 0u;
}

extern "C" __global__ void wp_det_scan_step(const wp::det_scan_t* in, wp::det_scan_t* out,
                                            wp::uint64 n, wp::uint64 d) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = i >= d ? wp::det_scan_combine(in[i - d], in[i]) : in[i];
}

/// Each counter record's answer: its address's value plus the increments before it.
extern "C" __global__ void wp_det_counter_results(const wp::det_record_t* records,
                                                  const wp::det_key_t* keys,
                                                  const wp::det_scan_t* scan, wp::uint64 n,
                                                  wp::det_counter_t* results) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    const wp::uint64 address = keys[i].address;
    if (address == ~wp::uint64(0)) return;
    const wp::uint64 slot = keys[i].slot;
    const wp::uint32 before = scan[i].value - wp::uint32(records[slot].bits);
    const wp::uint32 base = *reinterpret_cast<const wp::uint32*>(address);
    results[slot].address = address;
    results[slot].value = wp::int32(base + before);
    results[slot].pad_ = 0;
}

/// The last record of each address adds the address's total (after every answer was read).
extern "C" __global__ void wp_det_counter_totals(const wp::det_key_t* keys,
                                                 const wp::det_scan_t* scan, wp::uint64 n) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    const wp::uint64 address = keys[i].address;
    if (address == ~wp::uint64(0) || (i + 1 < n && keys[i + 1].address == address)) return;
    wp::uint32* p = reinterpret_cast<wp::uint32*>(address);
    *p = *p + scan[i].value;
}

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

/// The steps of the bitonic network that stay inside one tile of k_det_tile keys, in shared
/// memory: for every stage k in [k_first, k_last] (powers of two, k_last <= k_det_tile), the
/// steps j = min(j_first, k / 2), ..., 1 (j_first 0: from k / 2). Launched with one block of
/// k_det_tile / 2 threads per tile; n is a multiple of k_det_tile.
extern "C" __global__ void wp_det_bitonic_tile(wp::det_key_t* keys, wp::uint64 n,
                                               wp::uint64 k_first, wp::uint64 k_last,
                                               wp::uint64 j_first) {
    __shared__ wp::det_key_t tile[wp::k_det_tile];
    const wp::uint64 base = (wp::uint64)blockIdx.x * wp::k_det_tile;
    const unsigned t = threadIdx.x;
    if (base >= n) return;  // uniform per block
    tile[t] = keys[base + t];
    tile[t + wp::k_det_tile / 2] = keys[base + t + wp::k_det_tile / 2];
    __syncthreads();
    for (wp::uint64 k = k_first; k <= k_last; k <<= 1) {
        wp::uint64 j = k >> 1;
        if (j_first != 0 && j_first < j) j = j_first;
        for (; j > 0; j >>= 1) {
            const wp::uint64 i = 2 * j * (t / j) + (t % j);  // the pair's lower index
            const wp::det_key_t a = tile[i], b = tile[i + j];
            const bool ascending = ((base + i) & k) == 0;
            if (ascending ? wp::det_key_greater(a, b) : wp::det_key_greater(b, a)) {
                tile[i] = b;
                tile[i + j] = a;
            }
            __syncthreads();
        }
    }
    keys[base + t] = tile[t];
    keys[base + t + wp::k_det_tile / 2] = tile[t + wp::k_det_tile / 2];
}

extern "C" __global__ void wp_det_runs(const wp::det_record_t* records, const wp::det_key_t* keys,
                                       wp::uint64 n, wp::det_record_t* runs) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    wp::det_run(records, keys, n, i, runs);
}

extern "C" __global__ void wp_det_gather(const wp::det_record_t* records, const wp::det_key_t* keys,
                                         wp::uint64 n, wp::det_record_t* sorted) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (keys[i].address == ~wp::uint64(0)) {
        sorted[i].address = ~wp::uint64(0);
        return;
    }
    sorted[i] = records[keys[i].slot];
}

extern "C" __global__ void wp_det_sequential(const wp::det_record_t* sorted, wp::uint64 n) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    wp::det_walk(sorted, n, i);
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

extern "C" __attribute__((visibility("default"), used)) inline int wp_det_take_overflow() {
    return __atomic_exchange_n(&wp::det_overflow, 0, __ATOMIC_ACQ_REL);
}
#endif

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
