// native/treadle/atomic.h -- atomic_add/sub/min/max/and/or/xor on scalars and array elements
//
// Supported element types: all eight integer types, float16, float32, float64. Each function
// returns the value the location held before the update. The update itself uses the builtin's
// semantics from scalar.h: integer add/sub wrap; min/max keep the old value on ties and ignore
// an incoming NaN (a stored NaN stays). and/or/xor take integer elements only.
//
// CPU: GCC __atomic builtins (lock-free, sequentially consistent); float types and min/max use a
// compare-exchange loop on the value's bytes. CUDA: native atomicAdd/Sub/Min/Max where the
// hardware has them, otherwise an atomicCAS loop on the value's bits; 8- and 16-bit types
// (int8/uint8/int16/uint16/float16) CAS the aligned 32-bit word that contains them.
#pragma once

#include "array.h"
#include "scalar.h"
#if defined(WP_DETERMINISTIC)
#include "det_record.h"
#endif

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The operations atomic_rmw<Op> implements.
enum {
    atomic_op_add = 0,
    atomic_op_sub = 1,
    atomic_op_min = 2,
    atomic_op_max = 3,
    atomic_op_and = 4,
    atomic_op_or = 5,
    atomic_op_xor = 6
};

/// The value an atomic operation Op stores, given the old value and the operand.
template <int Op, typename T>
CUDA_CALLABLE T atomic_combine(T old, T v) {
    if constexpr (Op == atomic_op_add) {
        return add(old, v);
    } else if constexpr (Op == atomic_op_sub) {
        return sub(old, v);
    } else if constexpr (Op == atomic_op_min) {
        return min(old, v);
    } else if constexpr (Op == atomic_op_max) {
        return max(old, v);
    } else if constexpr (Op == atomic_op_and) {
        return bit_and(old, v);
    } else if constexpr (Op == atomic_op_or) {
        return bit_or(old, v);
    } else {
        return bit_xor(old, v);
    }
}

#if WP_DEVICE_CODE
/// CUDA: read-modify-write by an atomicCAS loop on the bits (T of 4 or 8 bytes) or on the
/// aligned 32-bit word containing T (T of 1 or 2 bytes).
template <int Op, typename T>
__device__ inline T atomic_cas_loop(T* p, T v) {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        using W = unsigned_t<T>;  // unsigned int or unsigned long long, as atomicCAS takes
        W* w = reinterpret_cast<W*>(p);
        W old = *reinterpret_cast<volatile W*>(w);
        for (;;) {
            const T o = from_bits<T>(old);
            const W nb = to_bits(atomic_combine<Op>(o, v));
            if (nb == old) return o;
            const W prev = atomicCAS(w, old, nb);
            if (prev == old) return o;
            old = prev;
        }
    } else {
        const uint64 addr = reinterpret_cast<uint64>(p);
        uint32* w = reinterpret_cast<uint32*>(addr & ~uint64(3));
        const uint32 shift = uint32(addr & 3u) * 8u;
        const uint32 mask = uint32(sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
        uint32 old = *reinterpret_cast<volatile uint32*>(w);
        for (;;) {
            const T o = from_bits<T>(unsigned_t<T>((old & mask) >> shift));
            const uint32 nb = (old & ~mask) | (uint32(to_bits(atomic_combine<Op>(o, v))) << shift);
            if (nb == old) return o;
            const uint32 prev = atomicCAS(w, old, nb);
            if (prev == old) return o;
            old = prev;
        }
    }
}
#endif

#if defined(WP_DET_COUNTERS) && WP_DEVICE_CODE
/// Counter kernels on CUDA run twice (src/runtime/deterministic.cpp). The counting pass
/// records every int32 atomic_add (the counters and the plain increments alike: integer sums
/// are exact) and drops every other atomic, store and print; the runtime then answers each
/// record with the old value the sequential order (launch index, then program order) gives it
/// and adds the totals. The replay runs the kernel for real, each int32 atomic_add taking its
/// answer; a replay that reaches a different counter than the counting pass did (control flow
/// that depends on a counter's value) flags the launch. True when handled; `old` is the result.
template <int Op, typename T>
__device__ bool det_counter(T* p, T v, T& old) {
    det_thread_t* d = det_current();
    const det_launch_t* l = det_launch();
    constexpr bool counts = is_same_v<T, int32> && Op == atomic_op_add;
    if (l->phase == 0) {
        if constexpr (counts) det_append<Op>(d, l, p, v);
        old = T(0);
        return true;
    }
    if constexpr (!counts) {
        return false;
    } else {
        const uint32 k = d->ccount++;
        const uint32 index = d->first / l->per_thread;
        const det_counter_t& r = l->results[d->first + k];
        if (k >= l->counter_counts[index] || r.address != (uint64)p) {
            det_flag(2);
            old = T(0);
            return true;
        }
        old = r.value;
        return true;
    }
}
#endif

/// atomic_rmw<Op>(p, v): atomically *p = atomic_combine<Op>(*p, v); returns the old *p.
template <int Op, typename T>
CUDA_CALLABLE T atomic_rmw(T* p, T v) {
    static_assert(is_int_v<T> || is_float_v<T>, "atomics take integer or float elements");
    static_assert(is_int_v<T> || Op < atomic_op_and, "bitwise atomics take integer elements");
#if defined(WP_DETERMINISTIC)
    // deterministic builds: float add/sub/min/max are recorded and applied after the launch in
    // sequential order (det_record.h); the old value is not known, and the compiler refuses
    // kernels that read it
    if constexpr (is_float_v<T> && Op <= atomic_op_max) {
        if (det_record<Op>(p, v)) return T(0);
    }
#if defined(WP_DET_COUNTERS) && WP_DEVICE_CODE
    // counter kernels on CUDA: integer atomics in two passes (det_counter above)
    if constexpr (is_int_v<T>) {
        T old;
        if (det_counter<Op>(p, v, old)) return old;
    }
#endif
#endif
#if WP_DEVICE_CODE
    using ull = unsigned long long;
    constexpr bool i32 = is_same_v<T, int32> || is_same_v<T, uint32>;
    constexpr bool i64 = is_same_v<T, int64> || is_same_v<T, uint64>;
    constexpr bool f32 = is_same_v<T, float>;
#if __CUDA_ARCH__ >= 600
    constexpr bool f64 = is_same_v<T, double>;
#else
    constexpr bool f64 = false;
#endif
    if constexpr (Op == atomic_op_add && (i32 || f32 || f64)) {
        return atomicAdd(p, v);
    } else if constexpr (Op == atomic_op_add && i64) {
        return T(atomicAdd(reinterpret_cast<ull*>(p), ull(v)));
    } else if constexpr (Op == atomic_op_sub && i32) {
        return atomicSub(p, v);
    } else if constexpr (Op == atomic_op_sub && i64) {
        return T(atomicAdd(reinterpret_cast<ull*>(p), ull(0) - ull(v)));
    } else if constexpr (Op == atomic_op_sub && (f32 || f64)) {
        return atomicAdd(p, -v);
    } else if constexpr (Op == atomic_op_min && (i32 || i64)) {
        return atomicMin(p, v);
    } else if constexpr (Op == atomic_op_max && (i32 || i64)) {
        return atomicMax(p, v);
    } else if constexpr (Op == atomic_op_and && i32) {
        return atomicAnd(p, v);
    } else if constexpr (Op == atomic_op_or && i32) {
        return atomicOr(p, v);
    } else if constexpr (Op == atomic_op_xor && i32) {
        return atomicXor(p, v);
    } else if constexpr (Op == atomic_op_and && i64) {
        return T(atomicAnd(reinterpret_cast<ull*>(p), ull(v)));
    } else if constexpr (Op == atomic_op_or && i64) {
        return T(atomicOr(reinterpret_cast<ull*>(p), ull(v)));
    } else if constexpr (Op == atomic_op_xor && i64) {
        return T(atomicXor(reinterpret_cast<ull*>(p), ull(v)));
    } else {
        return atomic_cas_loop<Op>(p, v);
    }
#else
    if constexpr (is_int_v<T> && Op == atomic_op_add) {
        return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    } else if constexpr (is_int_v<T> && Op == atomic_op_sub) {
        return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);
    } else if constexpr (is_int_v<T> && Op == atomic_op_and) {
        return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    } else if constexpr (is_int_v<T> && Op == atomic_op_or) {
        return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    } else if constexpr (is_int_v<T> && Op == atomic_op_xor) {
        return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
    } else {
        T old;
        __atomic_load(p, &old, __ATOMIC_RELAXED);
        for (;;) {
            T nv = atomic_combine<Op>(old, v);
            if (to_bits(nv) == to_bits(old)) return old;
            // On failure `old` is refreshed with the current value.
            if (__atomic_compare_exchange(p, &old, &nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
                return old;
            }
        }
    }
#endif
}

/// atomic_add/sub/min/max/and/or/xor(ptr, v) and (array, i..., v) for 1-4 indices
/// (unchecked addressing; in checked mode pass address_checked(...) as ptr). Return the old
/// value.
#define WP_ATOMIC_FAMILY(name, op)                                                               \
    template <typename T>                                                                        \
    CUDA_CALLABLE T name(T* ptr, type_identity_t<T> v) {                                         \
        return atomic_rmw<op>(ptr, v);                                                           \
    }                                                                                            \
    template <typename T>                                                                        \
    CUDA_CALLABLE T name(const array_t<T>& a, int32 i, type_identity_t<T> v) {                   \
        return atomic_rmw<op>(address(a, i), v);                                                 \
    }                                                                                            \
    template <typename T>                                                                        \
    CUDA_CALLABLE T name(const array_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {          \
        return atomic_rmw<op>(address(a, i, j), v);                                              \
    }                                                                                            \
    template <typename T>                                                                        \
    CUDA_CALLABLE T name(const array_t<T>& a, int32 i, int32 j, int32 k, type_identity_t<T> v) { \
        return atomic_rmw<op>(address(a, i, j, k), v);                                           \
    }                                                                                            \
    template <typename T>                                                                        \
    CUDA_CALLABLE T name(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l,                \
                         type_identity_t<T> v) {                                                 \
        return atomic_rmw<op>(address(a, i, j, k, l), v);                                        \
    }

WP_ATOMIC_FAMILY(atomic_add, atomic_op_add)
WP_ATOMIC_FAMILY(atomic_sub, atomic_op_sub)
WP_ATOMIC_FAMILY(atomic_min, atomic_op_min)
WP_ATOMIC_FAMILY(atomic_max, atomic_op_max)
WP_ATOMIC_FAMILY(atomic_and, atomic_op_and)
WP_ATOMIC_FAMILY(atomic_or, atomic_op_or)
WP_ATOMIC_FAMILY(atomic_xor, atomic_op_xor)

#undef WP_ATOMIC_FAMILY

/// atomic_exch(p, v): *p = v, returning the old value. atomic_cas(p, compare, v): *p = v when
/// *p equals compare bit for bit, returning the old value either way. 4- and 8-byte elements.
template <typename T>
CUDA_CALLABLE T atomic_exch(T* p, type_identity_t<T> v) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic_exch takes 4- or 8-byte elements");
    using W = unsigned_t<T>;
#if WP_DEVICE_CODE
    if constexpr (sizeof(T) == 4)
        return from_bits<T>(
            W(atomicExch(reinterpret_cast<unsigned int*>(p), (unsigned int)to_bits(v))));
    else
        return from_bits<T>(W(
            atomicExch(reinterpret_cast<unsigned long long*>(p), (unsigned long long)to_bits(v))));
#else
    return from_bits<T>(__atomic_exchange_n(reinterpret_cast<W*>(p), to_bits(v), __ATOMIC_SEQ_CST));
#endif
}
template <typename T>
CUDA_CALLABLE T atomic_cas(T* p, type_identity_t<T> compare, type_identity_t<T> v) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic_cas takes 4- or 8-byte elements");
    using W = unsigned_t<T>;
#if WP_DEVICE_CODE
    if constexpr (sizeof(T) == 4)
        return from_bits<T>(W(atomicCAS(reinterpret_cast<unsigned int*>(p),
                                        (unsigned int)to_bits(compare), (unsigned int)to_bits(v))));
    else
        return from_bits<T>(
            W(atomicCAS(reinterpret_cast<unsigned long long*>(p),
                        (unsigned long long)to_bits(compare), (unsigned long long)to_bits(v))));
#else
    W expected = to_bits(compare);
    __atomic_compare_exchange_n(reinterpret_cast<W*>(p), &expected, to_bits(v), false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return from_bits<T>(expected);  // the old value: compare on success, the current on failure
#endif
}
template <typename T>
CUDA_CALLABLE T atomic_exch(const array_t<T>& a, int32 i, type_identity_t<T> v) {
    return atomic_exch(address(a, i), v);
}
template <typename T>
CUDA_CALLABLE T atomic_exch(const array_t<T>& a, int32 i, int32 j, type_identity_t<T> v) {
    return atomic_exch(address(a, i, j), v);
}
template <typename T>
CUDA_CALLABLE T atomic_exch(const array_t<T>& a, int32 i, int32 j, int32 k, type_identity_t<T> v) {
    return atomic_exch(address(a, i, j, k), v);
}
template <typename T>
CUDA_CALLABLE T atomic_exch(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l,
                            type_identity_t<T> v) {
    return atomic_exch(address(a, i, j, k, l), v);
}
template <typename T>
CUDA_CALLABLE T atomic_cas(const array_t<T>& a, int32 i, type_identity_t<T> c,
                           type_identity_t<T> v) {
    return atomic_cas(address(a, i), c, v);
}
template <typename T>
CUDA_CALLABLE T atomic_cas(const array_t<T>& a, int32 i, int32 j, type_identity_t<T> c,
                           type_identity_t<T> v) {
    return atomic_cas(address(a, i, j), c, v);
}
template <typename T>
CUDA_CALLABLE T atomic_cas(const array_t<T>& a, int32 i, int32 j, int32 k, type_identity_t<T> c,
                           type_identity_t<T> v) {
    return atomic_cas(address(a, i, j, k), c, v);
}
template <typename T>
CUDA_CALLABLE T atomic_cas(const array_t<T>& a, int32 i, int32 j, int32 k, int32 l,
                           type_identity_t<T> c, type_identity_t<T> v) {
    return atomic_cas(address(a, i, j, k, l), c, v);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
