// native/treadle/det_record.h -- deterministic builds: float atomics become records
//
// A kernel built in deterministic mode (WP_DETERMINISTIC defined before any treadle header)
// does not apply float atomic_add/sub/min/max to memory while it runs. Each one appends a
// record (the scalar's address, its value's bits, the operation and scalar type) to the
// calling thread's own slots of a launch-wide buffer: thread `index` owns slots
// [index * per_thread, (index + 1) * per_thread). Composite atomics (vectors, matrices,
// quaternions, transforms, and the adjoint accumulations of the backward pass) arrive here one
// scalar at a time. After the launch the runtime applies the records of each address in slot
// order, which is (thread index, emission order): the sequential order, whatever the
// scheduling, on every device (deterministic.h).
//
// The thread's state: CPU, a thread_local pointer the entry sets for each index; CUDA, a slot
// of a __shared__ array indexed by threadIdx.x. A thread that emits more than per_thread
// records sets wp::det_overflow; the runtime then reports the launch and applies nothing.
#pragma once

#include "core.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// One deferred atomic (24 bytes; the host mirror is in src/runtime/deterministic.cpp).
struct det_record_t {
    uint64 address;
    uint64 bits;  ///< the operand's bits, zero-extended
    uint32 meta;  ///< operation (atomic_op_*) | scalar code << 8 (0 half, 1 float, 2 double, 3
                  ///< bfloat16)
    uint32 pad_;
};

/// The hidden last field of a deterministic kernel's parameter block, filled in by the runtime
/// for each launch (24 bytes).
struct det_launch_t {
    det_record_t* records;  ///< size * per_thread slots
    uint32* counts;         ///< records each thread emitted, by launch index
    uint32 per_thread;
    uint32 pad_;
};

/// One thread's emission state.
struct det_thread_t {
    det_record_t* base;
    uint32 count;
    uint32 cap;
};

#if defined(__CUDACC__)
__device__ int32 det_overflow;
__shared__ det_thread_t det_slots[1024];
#else
inline int32 det_overflow = 0;
inline thread_local det_thread_t* det_current_ptr = nullptr;
#endif

/// The calling thread's state (null outside a deterministic launch on the CPU).
CUDA_CALLABLE det_thread_t* det_current() {
#if WP_DEVICE_CODE
    return &det_slots[threadIdx.x];
#elif !defined(__CUDACC__)
    return det_current_ptr;
#else
    return nullptr;  // nvcc's host pass: never runs kernels
#endif
}

template <typename T>
CUDA_CALLABLE constexpr uint32 det_scalar_code() {
    if constexpr (is_same_v<T, half>)
        return 0;
    else if constexpr (is_same_v<T, float>)
        return 1;
    else if constexpr (is_same_v<T, double>)
        return 2;
    else
        return 3;
}

/// Records `*p = op(*p, v)` for later; true when recorded (always, in a deterministic launch).
template <int Op, typename T>
CUDA_CALLABLE bool det_record(T* p, T v) {
    det_thread_t* d = det_current();
    if (!d || !d->base) return false;
    if (d->count >= d->cap) {
#if WP_DEVICE_CODE
        atomicExch(&det_overflow, 1);
#elif !defined(__CUDACC__)
        __atomic_store_n(&det_overflow, 1, __ATOMIC_RELAXED);
#endif
        return true;
    }
    det_record_t& r = d->base[d->count++];
    r.address = (uint64)p;
    r.bits = uint64(to_bits(v));
    r.meta = uint32(Op) | (det_scalar_code<T>() << 8);
    r.pad_ = 0;
    return true;
}

/// Starts launch index `index`'s emission (the entry calls it before the body).
CUDA_CALLABLE void det_begin(const det_launch_t& l, int64 index, det_thread_t& own) {
#if WP_DEVICE_CODE
    (void)own;
    det_thread_t* d = det_current();
#elif !defined(__CUDACC__)
    det_thread_t* d = &own;
    det_current_ptr = d;
#else
    (void)l, (void)index, (void)own;
    return;
#endif
    d->base = l.records + index * (int64)l.per_thread;
    d->count = 0;
    d->cap = l.per_thread;
}

/// Ends launch index `index`: stores how many records it emitted.
CUDA_CALLABLE void det_end(const det_launch_t& l, int64 index) {
    det_thread_t* d = det_current();
    if (!d) return;
    l.counts[index] = d->count;
    d->base = nullptr;
#if !defined(__CUDACC__)
    det_current_ptr = nullptr;
#endif
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
