// native/treadle/adjoint.h -- adjoints of array access: loads, stores and atomics (backward pass)
//
// An array's gradient lives in a.grad with the same strides as a.data (null: the array does
// not require gradients, and these functions do nothing). Many threads may add to the same
// gradient element, so every accumulation into memory is atomic. Accumulation into a local
// adjoint (adj_v) is a plain add: locals belong to one thread.
#pragma once

#include "array.h"
#include "atomic.h"
#include "transform.h"
#if defined(WP_DETERMINISTIC)
#include "deterministic.h"
#endif

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// ---- atomic accumulation of a value into gradient memory ------------------------------------

/// grad_accumulate(p, v): *p += v, atomically per scalar component (integers: nothing).
template <typename T>
CUDA_CALLABLE void grad_accumulate(T* p, T v) {
    if constexpr (is_float_v<T>) atomic_rmw<atomic_op_add>(p, v);
}
template <int N, typename T>
CUDA_CALLABLE void grad_accumulate(vec_t<N, T>* p, const vec_t<N, T>& v) {
    for (int k = 0; k < N; ++k) grad_accumulate(&p->c[k], v.c[k]);
}
template <int R, int C, typename T>
CUDA_CALLABLE void grad_accumulate(mat_t<R, C, T>* p, const mat_t<R, C, T>& v) {
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) grad_accumulate(&p->m[i][j], v.m[i][j]);
}
template <typename T>
CUDA_CALLABLE void grad_accumulate(quat_t<T>* p, const quat_t<T>& v) {
    for (int k = 0; k < 4; ++k) grad_accumulate(&p->c[k], v.c[k]);
}
template <typename T>
CUDA_CALLABLE void grad_accumulate(transform_t<T>* p, const transform_t<T>& v) {
    grad_accumulate(&p->p, v.p);
    grad_accumulate(&p->q, v.q);
}

/// grad_add(p, v): grad_accumulate when there is a gradient (p not null). The adjoint of a load
/// a[i...] is grad_add(grad_address(a, i...), adj_ret).
template <typename T>
CUDA_CALLABLE void grad_add(T* p, const T& v) {
    if (p) grad_accumulate(p, v);
}

/// grad_add_owned(p, v, bounds): grad_add where this thread is the only one adding to *p (every
/// access to the array is at the thread's own index): a plain add, unless two arrays of the
/// launch share memory.
template <typename T>
CUDA_CALLABLE void grad_add_owned(T* p, const T& v, const launch_bounds_t& bounds) {
    if (!p) return;
    if (bounds.flags & launch_aliased_arrays)
        grad_accumulate(p, v);
    else
        *p = add(*p, v);
}

/// grad_read(p): the gradient element at p, or zero when there is no gradient (p null). The
/// adjoint of a store a[i...] = v and of atomic_add(a, i..., v) is adj_v += grad_read(...);
/// atomic_sub subtracts it.
template <typename T>
CUDA_CALLABLE T grad_read(const T* p) {
    if (!p) return T{};
    T g = *p;
#if defined(WP_DETERMINISTIC)
    det_own_pending(p, g, false);  // this thread's recorded accumulations count
#endif
    return g;
}

/// grad_take(a, p): the adjoint of a store a[i...] = v, Warp's final-write-wins rule: the
/// gradient element at p (zero without a gradient) goes to v and is consumed (zeroed: the
/// store overwrote the element, so earlier writes of it, in this launch or before, receive no
/// gradient), unless the array was created with retain_grad=True. Deterministic builds count
/// the thread's own recorded accumulations of the element too (det_own_pending).
template <typename A, typename T>
CUDA_CALLABLE T grad_take(const A& a, T* p) {
    if (!p) return T{};
    T g = *p;
    const bool consume = !(array_flags(a) & array_retain_grad);
#if defined(WP_DETERMINISTIC)
    det_own_pending(p, g, consume);  // and are consumed with the element
#endif
    if (consume) *p = T{};
    return g;
}

/// adj_atomic_minmax(current, v, g, adj_v): atomic_min/max(a, i..., v) wrote v when the element
/// now holds v; then v receives the element's gradient (ties share it, as Warp does).
/// Both NaN also counts as holding v (the reduction kept a NaN it was given).
template <typename T>
CUDA_CALLABLE void adj_atomic_minmax(T current, T v, const T* g, T& adj_v) {
    if constexpr (is_float_v<T>) {
        if (current == v || (!(current == current) && !(v == v))) adj_v = add(adj_v, grad_read(g));
    }
}
/// Vectors and matrices: component by component, as their atomics are.
template <int N, typename T>
CUDA_CALLABLE void adj_atomic_minmax(const vec_t<N, T>& current, const vec_t<N, T>& v,
                                     const vec_t<N, T>* g, vec_t<N, T>& adj_v) {
    if constexpr (is_float_v<T>) {
        const vec_t<N, T> gv = grad_read(g);
        for (int i = 0; i < N; ++i) adj_atomic_minmax(current.c[i], v.c[i], &gv.c[i], adj_v.c[i]);
    }
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_atomic_minmax(const mat_t<R, C, T>& current, const mat_t<R, C, T>& v,
                                     const mat_t<R, C, T>* g, mat_t<R, C, T>& adj_v) {
    if constexpr (is_float_v<T>) {
        const mat_t<R, C, T> gm = grad_read(g);
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < C; ++j)
                adj_atomic_minmax(current.m[i][j], v.m[i][j], &gm.m[i][j], adj_v.m[i][j]);
    }
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
