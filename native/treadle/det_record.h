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
//
// Counter kernels (an int32 atomic_add whose old value the kernel reads, built with
// WP_DET_COUNTERS) run twice on CUDA: a counting pass without side effects, then a replay in
// which every int32 atomic_add returns the old value of the sequential order (det_counter in
// atomic.h). On the CPU such kernels run their launch indices in order instead.
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
                  ///< bfloat16, 4 int32: a counter's increment)
    uint32 pad_;
};

/// A counter's answer for the replay pass: the address it was reserved at and the old value
/// the atomic returns (16 bytes).
struct det_counter_t {
    uint64 address;
    int32 value;
    uint32 pad_;
};

/// The hidden last field of a deterministic kernel's parameter block, filled in by the runtime
/// for each launch (40 bytes).
struct det_launch_t {
    det_record_t* records;   ///< size * per_thread slots
    uint32* counts;          ///< records each thread emitted, by launch index
    det_counter_t* results;  ///< counter kernels, replay pass: the answers, by slot; else null
    uint32* counter_counts;  ///< counter kernels, replay pass: counters each index reserved
    uint32 per_thread;
    uint32 phase;  ///< counter kernels: 0 the counting pass, 1 the replay; otherwise 1
};

/// One thread's emission state.
struct det_thread_t {
    uint32 first;   ///< its first slot: launch index * per_thread (slots < 2^31)
    uint32 count;   ///< records emitted so far
    uint32 ccount;  ///< replay pass: counter answers taken so far
};

#if defined(__CUDACC__)
__device__ int32 det_overflow;  ///< 1: a thread ran out of slots; 2: a counter replay diverged
__shared__ det_thread_t det_slots[1024];
__shared__ det_launch_t det_block;  ///< the launch's (every thread stores the same values)
#else
inline int32 det_overflow = 0;
inline thread_local det_thread_t* det_current_ptr = nullptr;
inline thread_local const det_launch_t* det_launch_ptr = nullptr;
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

/// The running launch's record buffers (valid where det_current() is not null).
CUDA_CALLABLE const det_launch_t* det_launch() {
#if WP_DEVICE_CODE
    return &det_block;
#elif !defined(__CUDACC__)
    return det_launch_ptr;
#else
    return nullptr;
#endif
}

CUDA_CALLABLE void det_flag(int32 code) {
#if WP_DEVICE_CODE
    atomicExch(&det_overflow, code);
#elif !defined(__CUDACC__)
    __atomic_store_n(&det_overflow, code, __ATOMIC_RELAXED);
#else
    (void)code;
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
    else if constexpr (is_same_v<T, int32>)
        return 4;
    else
        return 3;
}

/// Appends the record `*p = op(*p, v)` to the calling thread's slots (an overflow flags the
/// launch and drops it).
template <int Op, typename T>
CUDA_CALLABLE void det_append(det_thread_t* d, const det_launch_t* l, T* p, T v) {
    if (d->count >= l->per_thread) {
        det_flag(1);
        return;
    }
    det_record_t& r = l->records[d->first + d->count++];
    r.address = (uint64)p;
    r.bits = uint64(to_bits(v));
    r.meta = uint32(Op) | (det_scalar_code<T>() << 8);
    r.pad_ = 0;
}

/// Whether stores and prints run: not in a counter kernel's counting pass.
CUDA_CALLABLE bool det_effects() {
#if WP_DEVICE_CODE
    return det_block.phase != 0;
#else
    return true;
#endif
}

/// Records `*p = op(*p, v)` for later; true when recorded or, in a counter kernel's counting
/// pass, dropped (the replay records it).
template <int Op, typename T>
CUDA_CALLABLE bool det_record(T* p, T v) {
    det_thread_t* d = det_current();
    if (!d) return false;
    const det_launch_t* l = det_launch();
    if (l->phase == 0) return true;
    det_append<Op>(d, l, p, v);
    return true;
}

/// Starts launch index `index`'s emission (the entry calls it before the body). False: skip
/// the body (a counter kernel's replay after a counting pass that overflowed).
CUDA_CALLABLE bool det_begin(const det_launch_t& l, int64 index, det_thread_t& own) {
#if WP_DEVICE_CODE
    (void)own;
    det_thread_t* d = det_current();
    det_block = l;
    if (l.results && *(volatile int32*)&det_overflow != 0) return false;
#elif !defined(__CUDACC__)
    det_thread_t* d = &own;
    det_current_ptr = d;
    det_launch_ptr = &l;
#else
    (void)l, (void)index, (void)own;
    return true;
#endif
    d->first = uint32(index * (int64)l.per_thread);
    d->count = 0;
    d->ccount = 0;
    return true;
}

/// Ends launch index `index`: stores how many records it emitted.
CUDA_CALLABLE void det_end(const det_launch_t& l, int64 index) {
    det_thread_t* d = det_current();
    if (!d) return;
    l.counts[index] = d->count;
#if !defined(__CUDACC__)
    det_current_ptr = nullptr;
    det_launch_ptr = nullptr;
#endif
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
