"""treadle.sim.forces_elastic -- elastic forces on particles, one kernel per element kind:
damped springs, triangular membranes, bending edges and tetrahedra. Each thread evaluates one
element and scatters its forces with atomics into ``f``.

Triangles are Warp's stable Neo-Hookean membrane: a deviatoric term k_mu F (F the 3x2
deformation gradient against the rest pose), an area term k_lambda (J - alpha + activation)
with alpha = 1 + k_mu / k_lambda, damping on both, and optional lift and drag. Tetrahedra are
the stable Neo-Hookean solid of Smith et al. 2018 (deviatoric k_mu F (1 - 1 / (I_c + 1)),
volume term k_lambda (J - alpha + activation)). Stiffnesses are per rest area or volume.
"""

import treadle as wp

from .utils import acos_clamped


@wp.kernel
def eval_springs(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                 spring_indices: wp.array(dtype=int), spring_rest_lengths: wp.array(dtype=float),
                 spring_stiffness: wp.array(dtype=float), spring_damping: wp.array(dtype=float),
                 f: wp.array(dtype=wp.vec3)):
    """Spring s pulls its particles together with ke (length - rest) + kd d(length)/dt."""
    tid = wp.tid()
    i = spring_indices[tid * 2 + 0]
    j = spring_indices[tid * 2 + 1]
    if i == -1 or j == -1:
        return
    xij = x[i] - x[j]
    length = wp.length(xij)
    direction = xij / length
    stretch = length - spring_rest_lengths[tid]
    stretch_rate = wp.dot(direction, v[i] - v[j])
    fs = direction * (spring_stiffness[tid] * stretch + spring_damping[tid] * stretch_rate)
    wp.atomic_sub(f, i, fs)
    wp.atomic_add(f, j, fs)


@wp.kernel
def eval_triangles(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                   indices: wp.array2d(dtype=int), pose: wp.array(dtype=wp.mat22),
                   activation: wp.array(dtype=float), materials: wp.array2d(dtype=float),
                   f: wp.array(dtype=wp.vec3)):
    """Membrane forces of triangle t; materials[t] = (k_mu, k_lambda, k_damp, k_drag, k_lift)."""
    tid = wp.tid()
    i = indices[tid, 0]
    j = indices[tid, 1]
    k = indices[tid, 2]
    x0 = x[i]
    v0 = v[i]
    v1 = v[j]
    v2 = v[k]
    x10 = x[j] - x0
    x20 = x[k] - x0
    v10 = v1 - v0
    v20 = v2 - v0
    dm = pose[tid]
    inv_rest_area = wp.determinant(dm) * 2.0
    rest_area = 1.0 / inv_rest_area
    k_mu = materials[tid, 0] * rest_area
    k_lambda = materials[tid, 1] * rest_area
    k_damp = materials[tid, 2] * rest_area
    k_drag = materials[tid, 3]
    k_lift = materials[tid, 4]
    # deformation gradient columns and their rates
    f_col0 = x10 * dm[0, 0] + x20 * dm[1, 0]
    f_col1 = x10 * dm[0, 1] + x20 * dm[1, 1]
    p_col0 = f_col0 * k_mu + (v10 * dm[0, 0] + v20 * dm[1, 0]) * k_damp
    p_col1 = f_col1 * k_mu + (v10 * dm[0, 1] + v20 * dm[1, 1]) * k_damp
    # forces on vertices 1 and 2 (vertex 0 takes minus their sum): P Dm^T
    f1 = p_col0 * dm[0, 0] + p_col1 * dm[0, 1]
    f2 = p_col0 * dm[1, 0] + p_col1 * dm[1, 1]
    alpha = 1.0 + materials[tid, 0] / materials[tid, 1]
    cross = wp.cross(x10, x20)
    area = wp.length(cross) * 0.5
    n = wp.normalize(cross)
    c = area * inv_rest_area - alpha + activation[tid]
    dcdq = wp.cross(x20, n) * inv_rest_area * 0.5
    dcdr = wp.cross(n, x10) * inv_rest_area * 0.5
    dcdt = wp.dot(dcdq, v1) + wp.dot(dcdr, v2) - wp.dot(dcdq + dcdr, v0)
    f_area = k_lambda * c + k_damp * dcdt
    f1 = f1 + dcdq * f_area
    f2 = f2 + dcdr * f_area
    f0 = f1 + f2
    # aerodynamic drag and lift from the mean velocity
    vmid = (v0 + v1 + v2) * 0.3333
    vdir = wp.normalize(vmid)
    f_drag = vmid * (k_drag * area * wp.abs(wp.dot(n, vmid)))
    f_lift = n * (k_lift * area * (wp.HALF_PI - acos_clamped(wp.dot(n, vdir)))) * wp.dot(vmid, vmid)
    f0 = f0 - f_drag - f_lift
    f1 = f1 + f_drag + f_lift
    f2 = f2 + f_drag + f_lift
    wp.atomic_add(f, i, f0)
    wp.atomic_sub(f, j, f1)
    wp.atomic_sub(f, k, f2)


@wp.kernel
def eval_bending(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                 indices: wp.array2d(dtype=int), rest: wp.array(dtype=float),
                 bending_properties: wp.array2d(dtype=float), f: wp.array(dtype=wp.vec3)):
    """Bending force of edge e (Bridson et al. 2002): ke (angle - rest) + kd d(angle)/dt along
    the angle's gradient, scaled by the edge length; bending_properties[e] = (ke, kd)."""
    tid = wp.tid()
    i = indices[tid, 0]
    j = indices[tid, 1]
    k = indices[tid, 2]
    l = indices[tid, 3]
    if i == -1 or j == -1 or k == -1 or l == -1:
        return
    x1 = x[i]
    x2 = x[j]
    x3 = x[k]
    x4 = x[l]
    n1 = wp.cross(x3 - x1, x4 - x1)
    n2 = wp.cross(x4 - x2, x3 - x2)
    len1 = wp.length(n1)
    len2 = wp.length(n2)
    if len1 < 1.0e-6 or len2 < 1.0e-6:
        return
    cos_theta = wp.dot(n1, n2) / (len1 * len2)
    n1 = n1 / (len1 * len1)
    n2 = n2 / (len2 * len2)
    e = x4 - x3
    e_hat = wp.normalize(e)
    e_length = wp.length(e)
    angle = acos_clamped(cos_theta) * wp.sign(wp.dot(wp.cross(n2, n1), e_hat))
    # gradients of the angle with respect to the four vertices
    d1 = n1 * e_length
    d2 = n2 * e_length
    d3 = n1 * wp.dot(x1 - x4, e_hat) + n2 * wp.dot(x2 - x4, e_hat)
    d4 = n1 * wp.dot(x3 - x1, e_hat) + n2 * wp.dot(x3 - x2, e_hat)
    angle_rate = wp.dot(d1, v[i]) + wp.dot(d2, v[j]) + wp.dot(d3, v[k]) + wp.dot(d4, v[l])
    magnitude = -e_length * (bending_properties[tid, 0] * (angle - rest[tid])
                             + bending_properties[tid, 1] * angle_rate)
    wp.atomic_add(f, i, d1 * magnitude)
    wp.atomic_add(f, j, d2 * magnitude)
    wp.atomic_add(f, k, d3 * magnitude)
    wp.atomic_add(f, l, d4 * magnitude)


@wp.kernel
def eval_tetrahedra(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                    indices: wp.array2d(dtype=int), pose: wp.array(dtype=wp.mat33),
                    activation: wp.array(dtype=float), materials: wp.array2d(dtype=float),
                    f: wp.array(dtype=wp.vec3)):
    """Neo-Hookean forces of tetrahedron t; materials[t] = (k_mu, k_lambda, k_damp)."""
    tid = wp.tid()
    i = indices[tid, 0]
    j = indices[tid, 1]
    k = indices[tid, 2]
    l = indices[tid, 3]
    x0 = x[i]
    v0 = v[i]
    x10 = x[j] - x0
    x20 = x[k] - x0
    x30 = x[l] - x0
    v10 = v[j] - v0
    v20 = v[k] - v0
    v30 = v[l] - v0
    dm = pose[tid]
    inv_rest_volume = wp.determinant(dm) * 6.0
    rest_volume = 1.0 / inv_rest_volume
    mu = materials[tid, 0]
    lam = materials[tid, 1]
    alpha = 1.0 + mu / lam - mu / (4.0 * lam)
    k_mu = mu * rest_volume
    k_lambda = lam * rest_volume
    k_damp = materials[tid, 2] * rest_volume
    F = wp.matrix_from_cols(x10, x20, x30) * dm
    dFdt = wp.matrix_from_cols(v10, v20, v30) * dm
    ic = wp.ddot(F, F)
    H = (F * (k_mu * (1.0 - 1.0 / (ic + 1.0))) + dFdt * k_damp) * wp.transpose(dm)
    f1 = wp.vec3(H[0, 0], H[1, 0], H[2, 0])
    f2 = wp.vec3(H[0, 1], H[1, 1], H[2, 1])
    f3 = wp.vec3(H[0, 2], H[1, 2], H[2, 2])
    # volume term: J = det F and its gradient with respect to vertices 1..3
    J = wp.determinant(F)
    s = inv_rest_volume / 6.0
    dJdx1 = wp.cross(x20, x30) * s
    dJdx2 = wp.cross(x30, x10) * s
    dJdx3 = wp.cross(x10, x20) * s
    f_volume = (J - alpha + activation[tid]) * k_lambda
    f_damp = (wp.dot(dJdx1, v[j]) + wp.dot(dJdx2, v[k]) + wp.dot(dJdx3, v[l])) * k_damp
    f1 = f1 + dJdx1 * (f_volume + f_damp)
    f2 = f2 + dJdx2 * (f_volume + f_damp)
    f3 = f3 + dJdx3 * (f_volume + f_damp)
    wp.atomic_add(f, i, f1 + f2 + f3)
    wp.atomic_sub(f, j, f1)
    wp.atomic_sub(f, k, f2)
    wp.atomic_sub(f, l, f3)
