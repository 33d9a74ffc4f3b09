// native/treadle/tile_stack.h -- wp.tile_stack: a stack the threads of a block share
//
// tile_stack_init<Stack, Id>() gives a handle to storage of its own for each call site (Id,
// which the compiler makes distinct per call site of a kernel): on CUDA in the block's shared
// memory, on the CPU (where a block is one thread) in thread-local storage. Every thread of the
// block calls every stack operation (Warp's rule for tile operations), so each one is bracketed by
// barriers: pushes and pops of one call race for slots through a shared atomic, and the count is
// clamped to [0, capacity] before any thread sees it.
#pragma once

#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

template <typename T, int Cap>
struct tile_stack_t {
    static_assert(Cap >= 1, "a tile stack holds at least one element");
    using value_type = T;
    static constexpr int capacity = Cap;
    T* data;
    int32* count;
};

/// A new empty stack with storage of call site Id.
template <typename Stack, int Id>
CUDA_CALLABLE Stack tile_stack_init() {
    using T = typename Stack::value_type;
#if WP_DEVICE_CODE
    __shared__ __align__(16) unsigned char storage[sizeof(T) * Stack::capacity];
    __shared__ int32 count;
#else
    alignas(16) static thread_local unsigned char storage[sizeof(T) * Stack::capacity];
    static thread_local int32 count;
#endif
    Stack s{reinterpret_cast<T*>(storage), &count};
    tile_sync();
    if (tile_lane() == 0) count = 0;
    tile_sync();
    return s;
}

/// Pushes `value` for each thread whose `has_value` is set; returns the slot it went to, or
/// -1 (nothing to push, or the stack was full).
template <typename T, int Cap>
CUDA_CALLABLE int32 tile_stack_push(const tile_stack_t<T, Cap>& s, const T& value, bool has_value) {
    int32 slot = -1;
#if WP_DEVICE_CODE
    tile_sync();
    if (has_value) {
        const int32 k = atomicAdd(s.count, 1);
        if (k < Cap) {
            s.data[k] = value;
            slot = k;
        }
    }
    tile_sync();
    if (tile_lane() == 0 && *s.count > Cap) *s.count = Cap;
    tile_sync();
#else
    if (has_value && *s.count < Cap) {
        slot = *s.count;
        s.data[slot] = value;
        *s.count = slot + 1;
    }
#endif
    return slot;
}

/// Pops one element for each thread: `value` the element and `slot` the position it held, or
/// a zero value and -1 once the stack is empty.
template <typename T, int Cap>
CUDA_CALLABLE void tile_stack_pop(const tile_stack_t<T, Cap>& s, T& value, int32& slot) {
    value = T{};
    slot = -1;
#if WP_DEVICE_CODE
    tile_sync();
    const int32 k = atomicSub(s.count, 1) - 1;
    if (k >= 0) {
        value = s.data[k];
        slot = k;
    }
    tile_sync();
    if (tile_lane() == 0 && *s.count < 0) *s.count = 0;
    tile_sync();
#else
    if (*s.count > 0) {
        slot = --*s.count;
        value = s.data[slot];
    }
#endif
}

/// The number of elements on the stack (the same in every thread). No barrier: every
/// operation that changes the count starts and ends with one, so the count is settled
/// whenever a thread can read it, and a thread may ask in a branch of its own.
template <typename T, int Cap>
CUDA_CALLABLE int32 tile_stack_count(const tile_stack_t<T, Cap>& s) {
    return *s.count;
}

/// Empties the stack. Returns a dummy int32 (calls without a result give one).
template <typename T, int Cap>
CUDA_CALLABLE int32 tile_stack_clear(const tile_stack_t<T, Cap>& s) {
    tile_sync();
    if (tile_lane() == 0) *s.count = 0;
    tile_sync();
    return 0;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
