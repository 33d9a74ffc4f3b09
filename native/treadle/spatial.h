// native/treadle/spatial.h -- spatial vectors (vec_t<6, T>) and matrices (mat_t<6, 6, T>)
//
// As in Warp, a spatial vector is a plain 6-vector: a twist (angular velocity w, linear
// velocity v) or a wrench (torque, force), the angular part first. A spatial matrix is a plain
// 6x6 matrix. Float types only; adjoints follow vec.h (adj_f(inputs..., adj_inputs&...,
// adj_ret), adding to the input adjoints).
#pragma once

#include "adjoint.h"
#include "mat.h"
#include "quat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

template <typename T>
using spatial_vector_t = vec_t<6, T>;
template <typename T>
using spatial_matrix_t = mat_t<6, 6, T>;

/// spatial_vector(w, v): (w.x, w.y, w.z, v.x, v.y, v.z).
template <typename T>
CUDA_CALLABLE vec_t<6, T> spatial_vector(const vec_t<3, T>& w, const vec_t<3, T>& v) {
    return vec_t<6, T>{{w.c[0], w.c[1], w.c[2], v.c[0], v.c[1], v.c[2]}};
}

/// spatial_top(a) / spatial_bottom(a): the angular (first three) / linear (last three) part.
template <typename T>
CUDA_CALLABLE vec_t<3, T> spatial_top(const vec_t<6, T>& a) {
    return vec_t<3, T>{{a.c[0], a.c[1], a.c[2]}};
}
template <typename T>
CUDA_CALLABLE vec_t<3, T> spatial_bottom(const vec_t<6, T>& a) {
    return vec_t<3, T>{{a.c[3], a.c[4], a.c[5]}};
}

/// spatial_dot(a, b): the 6-D dot product (a wrench dotted with a twist is a power).
template <typename T>
CUDA_CALLABLE T spatial_dot(const vec_t<6, T>& a, const vec_t<6, T>& b) {
    return dot(a, b);
}

/// spatial_cross(a, b) of twists (w_a, v_a), (w_b, v_b): (w_a x w_b, v_a x w_b + w_a x v_b).
template <typename T>
CUDA_CALLABLE vec_t<6, T> spatial_cross(const vec_t<6, T>& a, const vec_t<6, T>& b) {
    const vec_t<3, T> wa = spatial_top(a), va = spatial_bottom(a);
    const vec_t<3, T> wb = spatial_top(b), vb = spatial_bottom(b);
    return spatial_vector(cross(wa, wb), add(cross(va, wb), cross(wa, vb)));
}

/// spatial_cross_dual(a, b) of a twist (w, v) and a wrench (n, f): (w x n + v x f, w x f).
template <typename T>
CUDA_CALLABLE vec_t<6, T> spatial_cross_dual(const vec_t<6, T>& a, const vec_t<6, T>& b) {
    const vec_t<3, T> w = spatial_top(a), v = spatial_bottom(a);
    const vec_t<3, T> n = spatial_top(b), f = spatial_bottom(b);
    return spatial_vector(add(cross(w, n), cross(v, f)), cross(w, f));
}

/// spatial_adjoint(r, s): the block matrix [[r, 0], [s, r]].
template <typename T>
CUDA_CALLABLE mat_t<6, 6, T> spatial_adjoint(const mat_t<3, 3, T>& r, const mat_t<3, 3, T>& s) {
    mat_t<6, 6, T> m = mat_fill<6, 6, T>(T(0));
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            m.m[i][j] = r.m[i][j];
            m.m[i + 3][j + 3] = r.m[i][j];
            m.m[i + 3][j] = s.m[i][j];
        }
    }
    return m;
}

// ---- adjoints -------------------------------------------------------------------------------

template <typename T>
CUDA_CALLABLE void adj_spatial_vector(const vec_t<3, T>&, const vec_t<3, T>&, vec_t<3, T>& adj_w,
                                      vec_t<3, T>& adj_v, const vec_t<6, T>& adj_ret) {
    adj_w = add(adj_w, spatial_top(adj_ret));
    adj_v = add(adj_v, spatial_bottom(adj_ret));
}
template <typename T>
CUDA_CALLABLE void adj_spatial_top(const vec_t<6, T>&, vec_t<6, T>& adj_a,
                                   const vec_t<3, T>& adj_ret) {
    for (int i = 0; i < 3; ++i) adj_a.c[i] += adj_ret.c[i];
}
template <typename T>
CUDA_CALLABLE void adj_spatial_bottom(const vec_t<6, T>&, vec_t<6, T>& adj_a,
                                      const vec_t<3, T>& adj_ret) {
    for (int i = 0; i < 3; ++i) adj_a.c[i + 3] += adj_ret.c[i];
}
template <typename T>
CUDA_CALLABLE void adj_spatial_dot(const vec_t<6, T>& a, const vec_t<6, T>& b, vec_t<6, T>& adj_a,
                                   vec_t<6, T>& adj_b, T adj_ret) {
    adj_dot(a, b, adj_a, adj_b, adj_ret);
}

/// adj_spatial_cross: the cross-product rule (adj of x × y: adj_x += y × g, adj_y += g × x)
/// on each of the three products.
template <typename T>
CUDA_CALLABLE void adj_spatial_cross(const vec_t<6, T>& a, const vec_t<6, T>& b, vec_t<6, T>& adj_a,
                                     vec_t<6, T>& adj_b, const vec_t<6, T>& adj_ret) {
    const vec_t<3, T> wa = spatial_top(a), va = spatial_bottom(a);
    const vec_t<3, T> wb = spatial_top(b), vb = spatial_bottom(b);
    const vec_t<3, T> gt = spatial_top(adj_ret), gb = spatial_bottom(adj_ret);
    const vec_t<3, T> g_wa = add(cross(wb, gt), cross(vb, gb)), g_va = cross(wb, gb);
    const vec_t<3, T> g_wb = add(cross(gt, wa), cross(gb, va)), g_vb = cross(gb, wa);
    adj_a = add(adj_a, spatial_vector(g_wa, g_va));
    adj_b = add(adj_b, spatial_vector(g_wb, g_vb));
}

/// adj_spatial_cross_dual: the same rule on w x n, v x f and w x f.
template <typename T>
CUDA_CALLABLE void adj_spatial_cross_dual(const vec_t<6, T>& a, const vec_t<6, T>& b,
                                          vec_t<6, T>& adj_a, vec_t<6, T>& adj_b,
                                          const vec_t<6, T>& adj_ret) {
    const vec_t<3, T> w = spatial_top(a), v = spatial_bottom(a);
    const vec_t<3, T> n = spatial_top(b), f = spatial_bottom(b);
    const vec_t<3, T> gt = spatial_top(adj_ret), gb = spatial_bottom(adj_ret);
    const vec_t<3, T> g_w = add(cross(n, gt), cross(f, gb)), g_v = cross(f, gt);
    const vec_t<3, T> g_n = cross(gt, w), g_f = add(cross(gt, v), cross(gb, w));
    adj_a = add(adj_a, spatial_vector(g_w, g_v));
    adj_b = add(adj_b, spatial_vector(g_n, g_f));
}

/// adj_spatial_adjoint: adj_r += both diagonal blocks of adj_ret, adj_s += its lower-left block.
template <typename T>
CUDA_CALLABLE void adj_spatial_adjoint(const mat_t<3, 3, T>&, const mat_t<3, 3, T>&,
                                       mat_t<3, 3, T>& adj_r, mat_t<3, 3, T>& adj_s,
                                       const mat_t<6, 6, T>& adj_ret) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            adj_r.m[i][j] += adj_ret.m[i][j] + adj_ret.m[i + 3][j + 3];
            adj_s.m[i][j] += adj_ret.m[i + 3][j];
        }
    }
}

// ---- spatial vectors moved by rigid transforms ----------------------------------------------

/// transform_twist(t, x): the twist x = (w, v) expressed in the frame t maps to:
/// w' = R w, v' = R v + p x w' (R the rotation t.q, p the translation t.p).
template <typename T>
CUDA_CALLABLE vec_t<6, T> transform_twist(const transform_t<T>& t, const vec_t<6, T>& x) {
    const vec_t<3, T> w = quat_rotate(t.q, spatial_top(x));
    return spatial_vector(w, add(quat_rotate(t.q, spatial_bottom(x)), cross(t.p, w)));
}

/// transform_wrench(t, x): the wrench x = (tau, f): f' = R f, tau' = R tau + p x f'.
template <typename T>
CUDA_CALLABLE vec_t<6, T> transform_wrench(const transform_t<T>& t, const vec_t<6, T>& x) {
    const vec_t<3, T> f = quat_rotate(t.q, spatial_bottom(x));
    return spatial_vector(add(quat_rotate(t.q, spatial_top(x)), cross(t.p, f)), f);
}

/// Shared adjoint of the two: `lead` is rotated only (w of a twist, f of a wrench) and also
/// crossed with p; `other` is rotated and gets p x lead' added. `lead_top` says which half of x
/// and of the result the lead part occupies.
template <typename T>
CUDA_CALLABLE void adj_transform_spatial(const transform_t<T>& t, const vec_t<6, T>& x,
                                         bool lead_top, transform_t<T>& adj_t, vec_t<6, T>& adj_x,
                                         const vec_t<6, T>& adj_ret) {
    const vec_t<3, T> lead_in = lead_top ? spatial_top(x) : spatial_bottom(x);
    const vec_t<3, T> other_in = lead_top ? spatial_bottom(x) : spatial_top(x);
    const vec_t<3, T> lead = quat_rotate(t.q, lead_in);
    vec_t<3, T> adj_lead = lead_top ? spatial_top(adj_ret) : spatial_bottom(adj_ret);
    const vec_t<3, T> adj_other = lead_top ? spatial_bottom(adj_ret) : spatial_top(adj_ret);
    adj_cross(t.p, lead, adj_t.p, adj_lead, adj_other);
    vec_t<3, T> adj_lead_in{}, adj_other_in{};
    adj_quat_rotate(t.q, other_in, adj_t.q, adj_other_in, adj_other);
    adj_quat_rotate(t.q, lead_in, adj_t.q, adj_lead_in, adj_lead);
    const vec_t<6, T> parts = lead_top ? spatial_vector(adj_lead_in, adj_other_in)
                                       : spatial_vector(adj_other_in, adj_lead_in);
    adj_x = add(adj_x, parts);
}
template <typename T>
CUDA_CALLABLE void adj_transform_twist(const transform_t<T>& t, const vec_t<6, T>& x,
                                       transform_t<T>& adj_t, vec_t<6, T>& adj_x,
                                       const vec_t<6, T>& adj_ret) {
    adj_transform_spatial(t, x, true, adj_t, adj_x, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_transform_wrench(const transform_t<T>& t, const vec_t<6, T>& x,
                                        transform_t<T>& adj_t, vec_t<6, T>& adj_x,
                                        const vec_t<6, T>& adj_ret) {
    adj_transform_spatial(t, x, false, adj_t, adj_x, adj_ret);
}

/// velocity_at_point(qd, r): the linear velocity v + w x r of the point at offset r from the
/// origin of a body moving with the twist qd = (w, v).
template <typename T>
CUDA_CALLABLE vec_t<3, T> velocity_at_point(const vec_t<6, T>& qd, const vec_t<3, T>& r) {
    return add(spatial_bottom(qd), cross(spatial_top(qd), r));
}
/// adj_velocity_at_point: adj_v += g, adj_w += r x g, adj_r += g x w.
template <typename T>
CUDA_CALLABLE void adj_velocity_at_point(const vec_t<6, T>& qd, const vec_t<3, T>& r,
                                         vec_t<6, T>& adj_qd, vec_t<3, T>& adj_r,
                                         const vec_t<3, T>& adj_ret) {
    const vec_t<3, T> w = spatial_top(qd), adj_w = cross(r, adj_ret);
    adj_qd = add(adj_qd, spatial_vector(adj_w, adj_ret));
    adj_r = add(adj_r, cross(adj_ret, w));
}

// ---- articulation helpers: Jacobian and mass matrix of a kinematic chain --------------------

/// Calls visit(d, e, n) for each dof d a row block of the chain's Jacobian holds: J[e + r * n]
/// (r = 0..5) is that block's column for d; n is the chain's dof count (see spatial_jacobian).
template <typename Visit>
CUDA_CALLABLE void for_each_jacobian_column(const array_t<int32>& parents,
                                            const array_t<int32>& qd_start, int32 joint_start,
                                            int32 joint_count, int32 J_start, Visit visit) {
    const int32 d0 = load(qd_start, joint_start);
    const int32 n = load(qd_start, joint_start + joint_count) - d0;
    // A chain has at most parents.shape[0] joints: the step count ends the walk on a parents
    // array that holds a cycle instead of looping forever.
    for (int32 i = 0; i < joint_count; ++i) {
        int32 steps = 0;
        for (int32 j = joint_start + i; j != -1 && steps < parents.shape[0];
             j = load(parents, j), ++steps)
            for (int32 d = load(qd_start, j); d < load(qd_start, j + 1); ++d)
                visit(d, J_start + 6 * i * n + (d - d0), n);
    }
}

/// spatial_jacobian(S, joint_parents, joint_qd_start, joint_start, joint_count, J_start, J):
/// fills the Jacobian of the chain of joint_count joints from joint_start. With d0 =
/// joint_qd_start[joint_start] and n = joint_qd_start[joint_start + joint_count] - d0 degrees
/// of freedom, row block i (rows 6i..6i+5) holds, for joint_start + i and each of its ancestors
/// (joint_parents, -1 ends), the motion subspace S[d] of each of that joint's dofs d in column
/// d - d0: J[J_start + row * n + col]. Other entries are left as they are. Returns 0.
template <typename T>
CUDA_CALLABLE int32 spatial_jacobian(const array_t<vec_t<6, T>>& S, const array_t<int32>& parents,
                                     const array_t<int32>& qd_start, int32 joint_start,
                                     int32 joint_count, int32 J_start, const array_t<T>& J) {
    for_each_jacobian_column(parents, qd_start, joint_start, joint_count, J_start,
                             [&](int32 d, int32 e, int32 n) {
                                 const vec_t<6, T> s = load(S, d);
                                 for (int r = 0; r < 6; ++r) store(J, e + r * n, s.c[r]);
                             });
    return 0;
}

/// adj_spatial_jacobian(same arguments): S.grad[d] += the gradients of the J entries it filled.
template <typename T>
CUDA_CALLABLE void adj_spatial_jacobian(const array_t<vec_t<6, T>>& S,
                                        const array_t<int32>& parents,
                                        const array_t<int32>& qd_start, int32 joint_start,
                                        int32 joint_count, int32 J_start, const array_t<T>& J) {
    for_each_jacobian_column(parents, qd_start, joint_start, joint_count, J_start,
                             [&](int32 d, int32 e, int32 n) {
                                 vec_t<6, T> g{};
                                 for (int r = 0; r < 6; ++r)
                                     g.c[r] = grad_read(grad_address(J, e + r * n));
                                 grad_add(grad_address(S, d), g);
                             });
}

/// spatial_mass(I_s, joint_start, joint_count, M_start, M): writes the 6x6 inertia of joint
/// joint_start + l as diagonal block l of the (6 joint_count)^2 row-major matrix at M[M_start]
/// (off-diagonal blocks are left as they are). Returns 0.
template <typename T>
CUDA_CALLABLE int32 spatial_mass(const array_t<mat_t<6, 6, T>>& I_s, int32 joint_start,
                                 int32 joint_count, int32 M_start, const array_t<T>& M) {
    const int32 stride = 6 * joint_count;
    for (int32 l = 0; l < joint_count; ++l) {
        const mat_t<6, 6, T> I = load(I_s, joint_start + l);
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c)
                store(M, M_start + (6 * l + r) * stride + 6 * l + c, I.m[r][c]);
    }
    return 0;
}

/// adj_spatial_mass(same arguments): I_s.grad[joint_start + l] += the gradient of block l.
template <typename T>
CUDA_CALLABLE void adj_spatial_mass(const array_t<mat_t<6, 6, T>>& I_s, int32 joint_start,
                                    int32 joint_count, int32 M_start, const array_t<T>& M) {
    const int32 stride = 6 * joint_count;
    for (int32 l = 0; l < joint_count; ++l) {
        mat_t<6, 6, T> g{};
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c)
                g.m[r][c] = grad_read(grad_address(M, M_start + (6 * l + r) * stride + 6 * l + c));
        grad_add(grad_address(I_s, joint_start + l), g);
    }
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
