// native/treadle/deterministic.h -- deterministic builds: applying the records after a launch
//
// A deterministic kernel's module holds, besides its entry points (which emit records, see
// det_record.h), what the runtime runs after each launch to apply them:
//  * CPU: `void wp_det_apply(records, counts, size, per_thread)` applies every record in slot
//    order on the calling thread; `int wp_det_take_overflow()` answers (and clears) whether a
//    thread emitted more records than it had slots. Both found with dlsym.
//  * CUDA: wp_det_keys writes one (address, slot) key per slot (address ~0 for an unused
//    slot), wp_det_bitonic sorts the keys (a bitonic network over a power-of-two count, one
//    launch per (k, j) step), and wp_det_apply has the first key of each address apply that
//    address's records in slot order. It applies nothing when wp::det_overflow is set.
// Both devices therefore apply each address's records in the same sequential order, with the
// same scalar operations (atomic_combine): the same bits on the CPU and on CUDA.
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

/// A sort key of the CUDA path: records of one address, in slot order.
struct det_key_t {
    uint64 address;
    uint64 slot;
};

CUDA_CALLABLE bool det_key_greater(const det_key_t& a, const det_key_t& b) {
    return a.address > b.address || (a.address == b.address && a.slot > b.slot);
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

extern "C" __global__ void wp_det_apply(const wp::det_record_t* records, const wp::det_key_t* keys,
                                        wp::uint64 n) {
    const wp::uint64 i = (wp::uint64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || wp::det_overflow != 0) return;
    const wp::uint64 address = keys[i].address;
    if (address == ~wp::uint64(0) || (i > 0 && keys[i - 1].address == address)) return;
    for (wp::uint64 s = i; s < n && keys[s].address == address; ++s)
        wp::det_apply(records[keys[s].slot]);
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
