"""treadle.sim dynamics against analytic answers: symplectic Euler free fall of particles and
bodies, a spring's period, a cloth and a soft block coming to rest on the ground, a particle
resting on a shape, a rigid ball resting on the ground, and the contact points collide()
finds on spheres, boxes, capsules and meshes."""

import math

import numpy as np
import pytest

import treadle as wp
import treadle.sim


def _run(model, steps, dt, state=None, collide=True):
    integrator = wp.sim.SemiImplicitIntegrator()
    s0 = state or model.state()
    s1 = model.state()
    for _ in range(steps):
        s0.clear_forces()
        if collide:
            wp.sim.collide(model, s0)
        integrator.simulate(model, s0, s1, dt)
        s0, s1 = s1, s0
    return s0


def test_particle_free_fall_matches_symplectic_euler(device):
    builder = wp.sim.ModelBuilder()
    x0 = np.array([0.0, 10.0, 0.0])
    v0 = np.array([1.0, 2.0, -0.5])
    builder.add_particle(wp.vec3(x0), wp.vec3(v0), 2.0)
    model = builder.finalize(device)
    model.ground = False
    n, dt = 50, 0.01
    state = _run(model, n, dt, collide=False)
    g = np.array([0.0, -9.80665, 0.0])
    # v_k = v0 + k g dt, x_n = x0 + dt sum_{k=1..n} v_k
    expected = x0 + n * dt * v0 + g * dt * dt * n * (n + 1) / 2
    assert np.allclose(state.particle_q.numpy()[0], expected, atol=1e-4)
    assert np.allclose(state.particle_qd.numpy()[0], v0 + n * dt * g, atol=1e-4)


def test_rigid_body_free_flight_keeps_spin_and_falls(device):
    builder = wp.sim.ModelBuilder(gravity=-10.0)
    b = builder.add_body(origin=wp.transform(wp.vec3(0.0, 5.0, 0.0)))
    builder.add_shape_sphere(b, radius=0.5, density=10.0)
    model = builder.finalize(device)
    model.ground = False
    state = model.state()
    state.body_qd.assign([wp.spatial_vector(0.0, 2.0, 0.0, 1.0, 0.0, 0.0)])
    n, dt = 100, 0.01
    integrator = wp.sim.SemiImplicitIntegrator(angular_damping=0.0)
    s1 = model.state()
    for _ in range(n):
        state.clear_forces()
        integrator.simulate(model, state, s1, dt)
        state, s1 = s1, state
    q = state.body_q.numpy()[0]
    assert q[0] == pytest.approx(1.0, abs=1e-4)
    assert q[1] == pytest.approx(5.0 - 10.0 * dt * dt * n * (n + 1) / 2, abs=1e-3)
    # a sphere spinning about y at 2 rad/s for 1 s has turned by 2 rad
    assert abs(q[4]) == pytest.approx(math.sin(1.0), abs=1e-3)


def test_spring_oscillates_at_its_natural_period(device):
    builder = wp.sim.ModelBuilder(gravity=0.0)
    builder.add_particle(wp.vec3(0.0, 0.0, 0.0), wp.vec3(), 0.0)
    builder.add_particle(wp.vec3(1.0, 0.0, 0.0), wp.vec3(), 0.5)
    builder.add_spring(0, 1, ke=50.0, kd=0.0, control=0.0)
    model = builder.finalize(device)
    model.ground = False
    state = model.state()
    state.particle_q.assign([[0.0, 0.0, 0.0], [1.1, 0.0, 0.0]])
    integrator = wp.sim.SemiImplicitIntegrator()
    s1 = model.state()
    dt = 1e-3
    xs = []
    for _ in range(2000):
        state.clear_forces()
        integrator.simulate(model, state, s1, dt)
        state, s1 = s1, state
        xs.append(state.particle_q.numpy()[1, 0] - 1.0)
    xs = np.array(xs)
    upward = np.nonzero((xs[:-1] < 0.0) & (xs[1:] >= 0.0))[0]
    period = np.mean(np.diff(upward)) * dt
    assert period == pytest.approx(2.0 * math.pi * math.sqrt(0.5 / 50.0), rel=5e-3)
    assert np.max(np.abs(xs)) == pytest.approx(0.1, rel=1e-2)


def test_cloth_comes_to_rest_on_the_ground(device):
    builder = wp.sim.ModelBuilder()
    builder.add_cloth_grid(pos=wp.vec3(-0.2, 0.3, -0.2), rot=wp.quat_from_axis_angle(
        wp.vec3(1.0, 0.0, 0.0), -math.pi * 0.5), vel=wp.vec3(), dim_x=4, dim_y=4, cell_x=0.1,
        cell_y=0.1, mass=0.05, tri_kd=1.0, particle_radius=0.02)
    model = builder.finalize(device)
    model.soft_contact_kd = 20.0
    state = _run(model, 1500, 2e-3, collide=False)
    y = state.particle_q.numpy()[:, 1]
    # resting on its particles' radius, sunk by m g / ke
    assert np.allclose(y, 0.02 - 0.05 * 9.80665 / model.soft_contact_ke, atol=2e-3)
    assert np.abs(state.particle_qd.numpy()).max() < 0.05


def test_soft_block_comes_to_rest_on_the_ground(device):
    builder = wp.sim.ModelBuilder()
    builder.add_soft_grid(pos=wp.vec3(0.0, 0.2, 0.0), rot=wp.quat_identity(), vel=wp.vec3(),
                          dim_x=2, dim_y=2, dim_z=2, cell_x=0.1, cell_y=0.1, cell_z=0.1,
                          density=100.0, k_mu=2000.0, k_lambda=2000.0, k_damp=5.0)
    model = builder.finalize(device)
    model.soft_contact_kd = 20.0
    state = _run(model, 1000, 1e-3, collide=False)
    q = state.particle_q.numpy()
    radius = model.particle_radius.numpy()[0]
    assert q[:, 1].min() == pytest.approx(radius, abs=5e-3)
    assert q[:, 1].max() - q[:, 1].min() == pytest.approx(0.2, abs=0.03)
    assert np.abs(state.particle_qd.numpy()).max() < 0.1
    assert model.tet_count == 40


def test_particle_rests_on_a_static_box(device):
    builder = wp.sim.ModelBuilder()
    builder.add_shape_box(-1, pos=(0.0, 0.0, 0.0), hx=0.5, hy=0.5, hz=0.5)
    builder.add_particle(wp.vec3(0.1, 0.7, 0.0), wp.vec3(), 1.0, radius=0.05)
    model = builder.finalize(device)
    model.ground = False
    state = _run(model, 1000, 1e-3)
    ke = 0.5 * (model.soft_contact_ke + builder.default_shape_ke)
    assert state.particle_q.numpy()[0, 1] == pytest.approx(0.55 - 9.80665 / ke, abs=1e-4)
    assert np.allclose(state.particle_q.numpy()[0, [0, 2]], [0.1, 0.0], atol=1e-4)


def test_rigid_sphere_rests_on_the_ground(device):
    builder = wp.sim.ModelBuilder()
    b = builder.add_body(origin=wp.transform(wp.vec3(0.0, 0.3, 0.0)))
    builder.add_shape_sphere(b, radius=0.2, density=100.0, ke=1e4, kd=100.0)
    model = builder.finalize(device)
    state = _run(model, 1500, 1e-3)
    mass = 100.0 * 4.0 / 3.0 * math.pi * 0.008
    ke = 0.5 * (1e4 + builder.default_shape_ke)
    thickness = 0.2 + builder.default_shape_thickness
    y = state.body_q.numpy()[0, 1]
    assert y == pytest.approx(thickness - mass * 9.80665 / ke, abs=1e-4)
    assert np.abs(state.body_qd.numpy()).max() < 1e-2


def _contacts(model):
    n = int(model.soft_contact_count.numpy()[0])
    return (model.soft_contact_particle.numpy()[:n], model.soft_contact_shape.numpy()[:n],
            model.soft_contact_body_pos.numpy()[:n], model.soft_contact_normal.numpy()[:n])


def test_collide_finds_soft_contacts_on_each_shape_kind(device):
    builder = wp.sim.ModelBuilder()
    b = builder.add_body(origin=wp.transform(wp.vec3(10.0, 0.0, 0.0)))
    builder.add_shape_sphere(b, radius=0.5)
    builder.add_shape_box(-1, pos=(0.0, 0.0, 0.0), hx=0.5, hy=0.25, hz=0.5)
    builder.add_shape_capsule(-1, pos=(0.0, 0.0, 5.0), radius=0.2, half_height=1.0, up_axis=0)
    tet_v = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    mesh = wp.sim.Mesh(tet_v, [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])
    builder.add_shape_mesh(-1, pos=wp.vec3(0.0, 0.0, -5.0), mesh=mesh)
    points = [(10.0, 0.6, 0.0), (0.2, 0.3, 0.1), (1.1, 0.0, 5.15), (0.2, 0.2, -5.05),
              (0.0, 3.0, 0.0)]
    for p in points:
        builder.add_particle(wp.vec3(p), wp.vec3(), 1.0, radius=0.01)
    model = builder.finalize(device)
    state = model.state()
    wp.sim.collide(model, state)
    particles, shapes, body_pos, normals = _contacts(model)
    found = {int(p): (int(s), body_pos[i], normals[i]) for i, (p, s) in
             enumerate(zip(particles, shapes))}
    assert set(found) == {0, 1, 2, 3}
    shape, pos, n = found[0]  # above the sphere of the body at x = 10
    assert shape == 0 and np.allclose(pos, [0.0, 0.5, 0.0], atol=1e-5)
    assert np.allclose(n, [0.0, 1.0, 0.0], atol=1e-5)
    shape, pos, n = found[1]  # above the box top
    assert shape == 1 and np.allclose(pos, [0.2, 0.25, 0.1], atol=1e-5)
    shape, pos, n = found[2]  # beside the capsule, near its end cap
    assert shape == 2 and np.allclose(n, np.array([0.1, 0.0, 0.15]) / math.hypot(0.1, 0.15),
                                      atol=1e-4)
    shape, pos, n = found[3]  # just outside the tetrahedron's z = 0 face
    assert shape == 3 and np.allclose(n, [0.0, 0.0, -1.0], atol=1e-5)
    assert np.allclose(pos, [0.2, 0.2, -5.0], atol=1e-5)
