"""Gradients through treadle.sim simulations (wp.Tape over SemiImplicitIntegrator steps and
collide()) against the analytic derivative of free flight and against central finite
differences for springs, cloth (membrane and bending), tetrahedra, particle-ground contact
with friction and a rigid ball's contact with the ground."""

import numpy as np
import pytest

import treadle as wp
import treadle.sim


@wp.kernel
def particle_loss(q: wp.array(dtype=wp.vec3), weights: wp.array(dtype=wp.vec3),
                  loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.dot(q[i], weights[i]))


@wp.kernel
def body_height_loss(q: wp.array(dtype=wp.transform), loss: wp.array(dtype=float)):
    loss[0] = wp.transform_get_translation(q[0])[1]


def _simulate(model, state0, steps, dt, collide):
    """Runs `steps` steps from state0 (fresh states, so that a tape can replay them) and
    returns the last state."""
    integrator = wp.sim.SemiImplicitIntegrator()
    states = [state0] + [model.state() for _ in range(steps)]
    for i in range(steps):
        if collide:
            wp.sim.collide(model, states[i])
        integrator.simulate(model, states[i], states[i + 1], dt)
    return states[-1]


def _particle_gradient_check(model, steps, dt, collide=False, eps=1e-3, rtol=3e-2,
                             entries=((0, 1), (3, 0), (5, 2))):
    rng = np.random.default_rng(1)
    weights = wp.array(rng.uniform(-1.0, 1.0, (model.particle_count, 3)), dtype=wp.vec3)

    def loss_of(q0, tape=None):
        state = model.state()
        state.particle_q.assign(q0)  # before the tape: an assign on it would take the gradient
        with tape or wp.ScopedDevice(model.device):
            last = _simulate(model, state, steps, dt, collide)
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(particle_loss, model.particle_count,
                      inputs=[last.particle_q, weights, loss])
        return state, loss

    q0 = model.particle_q.numpy()
    tape = wp.Tape()
    state, loss = loss_of(q0, tape)
    tape.backward(loss)
    grad = state.particle_q.grad.numpy()
    for i, k in entries:
        plus, minus = q0.copy(), q0.copy()
        plus[i, k] += eps
        minus[i, k] -= eps
        fd = (loss_of(plus)[1].numpy()[0] - loss_of(minus)[1].numpy()[0]) / (2.0 * eps)
        assert grad[i, k] == pytest.approx(fd, rel=rtol, abs=2e-3), (i, k)
    return grad


def test_free_flight_gradient_is_analytic(device):
    builder = wp.sim.ModelBuilder()
    builder.add_particle(wp.vec3(0.0, 2.0, 0.0), wp.vec3(1.0, 0.0, 0.0), 1.0)
    model = builder.finalize(device, requires_grad=True)
    model.ground = False
    state = model.state()
    weights = wp.array([[1.0, 2.0, 3.0]], dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    n, dt = 20, 0.01
    tape = wp.Tape()
    with tape:
        last = _simulate(model, state, n, dt, collide=False)
        wp.launch(particle_loss, 1, inputs=[last.particle_q, weights, loss])
    tape.backward(loss)
    # x_n = x0 + n dt v0 + g dt^2 n (n + 1) / 2
    assert np.allclose(state.particle_q.grad.numpy(), [[1.0, 2.0, 3.0]], atol=1e-5)
    assert np.allclose(state.particle_qd.grad.numpy(), [[n * dt, 2 * n * dt, 3 * n * dt]],
                       atol=1e-5)


def test_cloth_gradient_matches_finite_differences(device):
    builder = wp.sim.ModelBuilder(gravity=-2.0)
    builder.add_cloth_grid(pos=wp.vec3(0.0, 1.0, 0.0), rot=wp.quat_identity(), vel=wp.vec3(),
                           dim_x=2, dim_y=2, cell_x=0.2, cell_y=0.2, mass=0.1, tri_ke=50.0,
                           tri_ka=50.0, tri_kd=0.5, edge_ke=1.0, add_springs=True,
                           spring_ke=20.0, fix_left=True)
    model = builder.finalize(device, requires_grad=True)
    model.ground = False
    model.particle_q.assign(model.particle_q.numpy() + np.random.default_rng(3).uniform(
        -0.02, 0.02, (model.particle_count, 3)))
    _particle_gradient_check(model, steps=20, dt=2e-3)


def test_tetrahedron_gradient_matches_finite_differences(device):
    builder = wp.sim.ModelBuilder(gravity=0.0)
    builder.add_soft_mesh(pos=wp.vec3(), rot=wp.quat_identity(), scale=1.0, vel=wp.vec3(),
                          vertices=[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)],
                          indices=[0, 1, 2, 3, 1, 2, 3, 4], density=10.0, k_mu=30.0,
                          k_lambda=60.0, k_damp=0.1)
    model = builder.finalize(device, requires_grad=True)
    model.ground = False
    model.particle_q.assign(model.particle_q.numpy() * 1.05)
    _particle_gradient_check(model, steps=20, dt=2e-3, entries=((0, 0), (2, 1), (4, 2)))


def test_ground_contact_gradient_matches_finite_differences(device):
    # heavy particles sliding on the ground, in contact all along (through a contact's onset
    # the step response is too stiff for finite differences; Warp's gradients are the same)
    builder = wp.sim.ModelBuilder()
    for i in range(6):
        builder.add_particle(wp.vec3(0.1 * i, 0.098 + 0.0005 * i, 0.0),
                             wp.vec3(0.3, 0.0, 0.1 * i), 10.0, radius=0.1)
    model = builder.finalize(device, requires_grad=True)
    model.soft_contact_kf = 10.0
    _particle_gradient_check(model, steps=30, dt=2e-3)


def test_shape_contact_gradient_matches_finite_differences(device):
    # particles pressed into a static box and a sphere on a body (soft contacts through
    # collide() on the tape), sliding with friction
    builder = wp.sim.ModelBuilder(gravity=-2.0)
    builder.add_shape_box(-1, pos=(0.0, 0.0, 0.0), hx=1.0, hy=0.5, hz=1.0, ke=2000.0, kd=10.0,
                          kf=100.0)
    b = builder.add_body(origin=wp.transform(wp.vec3(3.0, 0.0, 0.0)))
    builder.add_shape_sphere(b, radius=0.5, density=1000.0, ke=2000.0, kd=10.0)
    for i in range(6):
        x = 0.1 * i if i < 3 else 3.0 + 0.05 * (i - 3)
        builder.add_particle(wp.vec3(x, 0.548 - 0.001 * i, 0.02 * i), wp.vec3(0.2, 0.0, 0.1), 2.0,
                             radius=0.05)
    model = builder.finalize(device, requires_grad=True)
    model.ground = False
    # sliding directions on the box, all directions on the sphere (finite differences of the
    # 2 mm penetrations into the box are too coarse in float32)
    _particle_gradient_check(model, steps=30, dt=2e-3, collide=True,
                             entries=((1, 0), (2, 2), (3, 0), (4, 1), (5, 2)))


def test_ball_on_ground_gradient_matches_finite_differences(device):
    # a ball pressed into a damped ground, its height after 0.08 s against its initial speed
    builder = wp.sim.ModelBuilder()
    b = builder.add_body(origin=wp.transform(wp.vec3(0.0, 0.098, 0.0)))
    builder.add_shape_sphere(b, radius=0.1, density=100.0, ke=2000.0, kd=50.0)
    builder.set_ground_plane(ke=2000.0, kd=50.0)
    model = builder.finalize(device, requires_grad=True)
    steps, dt = 40, 2e-3

    def loss_of(vy, tape=None):
        state = model.state()
        state.body_qd.assign([wp.spatial_vector(0.0, 0.0, 0.0, 0.0, vy, 0.0)])
        with tape or wp.ScopedDevice(model.device):
            last = _simulate(model, state, steps, dt, collide=True)
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(body_height_loss, 1, inputs=[last.body_q, loss])
        return state, loss

    tape = wp.Tape()
    state, loss = loss_of(-0.1, tape)
    tape.backward(loss)
    grad = state.body_qd.grad.numpy()[0, 4]
    eps = 1e-2
    fd = (loss_of(-0.1 + eps)[1].numpy()[0] - loss_of(-0.1 - eps)[1].numpy()[0]) / (2 * eps)
    assert grad == pytest.approx(fd, rel=2e-2)
    assert abs(grad) > 1e-3
