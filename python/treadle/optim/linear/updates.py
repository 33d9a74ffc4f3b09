"""The element-wise update kernels of CG, CR and BiCGSTAB: one thread per element of the solver
vectors, each reading the step lengths of its batch from the per-batch reduction results.

Every kernel takes the squared tolerances and residual norms of the batches: a batch that has
converged (``r_norm_sq <= atol_sq``) gets zero step lengths, so its ``x`` stops changing while
other batches go on. Elements outside every batch (an inactive tail) are never written.
"""

from typing import Any

from ... import builtin_functions as wpb
from ...array import array
from ...kernel import kernel
from .layout import batch_of_entry, guarded_ratio


@kernel(enable_backward=False)
def cg_step(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    rz: array(dtype=Any),
    p_Ap: array(dtype=Any),
    x: array(dtype=Any),
    r: array(dtype=Any),
    p: array(dtype=Any),
    Ap: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """x += alpha p, r -= alpha Ap with alpha = rz / (p . Ap) per batch."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        alpha = guarded_ratio(r_norm_sq[k] > atol_sq[k], rz[k], p_Ap[k])
        x[i] = x[i] + alpha * p[i]
        r[i] = r[i] - alpha * Ap[i]


@kernel(enable_backward=False)
def cg_direction(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    rz_old: array(dtype=Any),
    rz_new: array(dtype=Any),
    z: array(dtype=Any),
    p: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """p = z + beta p with beta = rz_new / rz_old per batch."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        beta = guarded_ratio(r_norm_sq[k] > atol_sq[k], rz_new[k], rz_old[k])
        p[i] = z[i] + beta * p[i]


@kernel(enable_backward=False)
def cr_step(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    zAz: array(dtype=Any),
    y_Ap: array(dtype=Any),
    x: array(dtype=Any),
    r: array(dtype=Any),
    z: array(dtype=Any),
    p: array(dtype=Any),
    Ap: array(dtype=Any),
    y: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """Preconditioned CR: x += alpha p, r -= alpha Ap, z -= alpha y (y = M Ap) with
    alpha = (z . Az) / (Ap . y) per batch (zero unless Ap . y > 0)."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        zero = type(y_Ap[k])(0.0)
        alpha = guarded_ratio(r_norm_sq[k] > atol_sq[k] and y_Ap[k] > zero, zAz[k], y_Ap[k])
        x[i] = x[i] + alpha * p[i]
        r[i] = r[i] - alpha * Ap[i]
        z[i] = z[i] - alpha * y[i]


@kernel(enable_backward=False)
def cr_direction(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    zAz_old: array(dtype=Any),
    zAz_new: array(dtype=Any),
    z: array(dtype=Any),
    p: array(dtype=Any),
    Az: array(dtype=Any),
    Ap: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """p = z + beta p and Ap = Az + beta Ap with beta = zAz_new / zAz_old per batch (zero
    unless zAz_old > 0)."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        zero = type(zAz_old[k])(0.0)
        active = r_norm_sq[k] > atol_sq[k] and zAz_old[k] > zero
        beta = guarded_ratio(active, zAz_new[k], zAz_old[k])
        p[i] = z[i] + beta * p[i]
        Ap[i] = Az[i] + beta * Ap[i]


@kernel(enable_backward=False)
def bicgstab_half_step(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    rho: array(dtype=Any),
    r0v: array(dtype=Any),
    x: array(dtype=Any),
    r: array(dtype=Any),
    y: array(dtype=Any),
    v: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """x += alpha y, r -= alpha v (y = M p, v = A y) with alpha = rho / (r0 . v) per batch."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        alpha = guarded_ratio(r_norm_sq[k] > atol_sq[k], rho[k], r0v[k])
        x[i] = x[i] + alpha * y[i]
        r[i] = r[i] - alpha * v[i]


@kernel(enable_backward=False)
def bicgstab_stabilize(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    st: array(dtype=Any),
    tt: array(dtype=Any),
    z: array(dtype=Any),
    t: array(dtype=Any),
    x: array(dtype=Any),
    r: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """x += omega z, r -= omega t (z = M r, t = A z) with omega = st / tt per batch."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        omega = guarded_ratio(r_norm_sq[k] > atol_sq[k], st[k], tt[k])
        x[i] = x[i] + omega * z[i]
        r[i] = r[i] - omega * t[i]


@kernel(enable_backward=False)
def bicgstab_direction(
    atol_sq: array(dtype=Any),
    r_norm_sq: array(dtype=Any),
    rho_new: array(dtype=Any),
    r0v: array(dtype=Any),
    st: array(dtype=Any),
    tt: array(dtype=Any),
    p: array(dtype=Any),
    r: array(dtype=Any),
    v: array(dtype=Any),
    batch_offsets: array(dtype=int),
    dofs_per_entry: int,
):
    """p = r + beta (p - omega v) with beta = (rho_new / rho) (alpha / omega), that is
    beta = rho_new tt / (r0v st) and beta omega = rho_new / r0v, per batch."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        zero = type(st[k])(0.0)
        active = r_norm_sq[k] > atol_sq[k] and st[k] != zero
        beta = guarded_ratio(active, rho_new[k] * tt[k], r0v[k] * st[k])
        beta_omega = guarded_ratio(active, rho_new[k], r0v[k])
        p[i] = r[i] + beta * p[i] - beta_omega * v[i]
