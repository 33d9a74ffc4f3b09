"""treadle.sim model building: masses and inertias of shapes against closed forms, the element
helpers (cloth and soft grids, triangles, edges, tetrahedra), joints and their coordinates,
merging and collapsing builders, and the arrays finalize() makes (names, dtypes, shapes)."""

import math

import numpy as np
import pytest

import treadle as wp
import treadle.sim
from treadle.sim.inertia import (compute_box_inertia, compute_capsule_inertia,
                                 compute_cone_inertia, compute_cylinder_inertia,
                                 compute_mesh_inertia, compute_sphere_inertia)
from treadle.render.render_opengl import OpenGLRenderer


def _diag(mat):
    return np.diag(np.array(mat, dtype=np.float64).reshape(3, 3))


def test_primitive_inertias_match_closed_forms():
    rho, r, h = 7.0, 0.3, 1.1
    m, com, inertia = compute_sphere_inertia(rho, r)
    assert m == pytest.approx(rho * 4.0 / 3.0 * math.pi * r**3)
    assert np.allclose(_diag(inertia), 0.4 * m * r * r)
    assert np.allclose(np.array(com), 0.0)
    m, _, inertia = compute_box_inertia(rho, 1.0, 2.0, 3.0)
    assert m == pytest.approx(6.0 * rho)
    assert np.allclose(_diag(inertia), m / 12.0 * np.array([13.0, 10.0, 5.0]), rtol=1e-6)
    m, _, inertia = compute_cylinder_inertia(rho, r, h)
    assert m == pytest.approx(rho * math.pi * r * r * h)
    assert np.allclose(_diag(inertia), [m * (3 * r * r + h * h) / 12, m * r * r / 2,
                                        m * (3 * r * r + h * h) / 12], rtol=1e-6)
    m, _, inertia = compute_cone_inertia(rho, r, h)
    assert m == pytest.approx(rho * math.pi * r * r * h / 3.0)
    assert _diag(inertia)[1] == pytest.approx(0.3 * m * r * r, rel=1e-6)


def test_capsule_inertia_is_cylinder_plus_shifted_hemispheres():
    rho, r, h = 2.0, 0.25, 0.8
    m, _, inertia = compute_capsule_inertia(rho, r, h)
    m_cyl = rho * math.pi * r * r * h
    m_hemi = rho * 2.0 / 3.0 * math.pi * r**3
    assert m == pytest.approx(m_cyl + 2 * m_hemi)
    # a hemisphere's inertia about a diameter of its base is 2/5 m r^2; its centre of mass is
    # 3r/8 from the base, which sits h/2 from the capsule's centre
    d = 3.0 * r / 8.0
    hemi_own = 0.4 * m_hemi * r * r - m_hemi * d * d
    side = m_cyl * (3 * r * r + h * h) / 12 + 2 * (hemi_own + m_hemi * (h / 2 + d) ** 2)
    assert _diag(inertia)[0] == pytest.approx(side, rel=1e-6)
    assert _diag(inertia)[1] == pytest.approx(m_cyl * r * r / 2 + 2 * 0.4 * m_hemi * r * r)


def test_mesh_inertia_of_a_sphere_converges_to_the_sphere():
    vertices, indices = OpenGLRenderer._create_sphere_mesh(radius=0.5, num_latitudes=200,
                                                           num_longitudes=200)
    offset = np.array([1.0, -2.0, 0.5])
    mass, com, inertia, volume = compute_mesh_inertia(3.0, vertices[:, :3] + offset, indices)
    m_ref, _, i_ref = compute_sphere_inertia(3.0, 0.5)
    assert volume == pytest.approx(4.0 / 3.0 * math.pi * 0.125, rel=1e-3)
    assert mass == pytest.approx(m_ref, rel=1e-3)
    assert np.allclose(np.array(com), offset, atol=1e-5)
    assert np.allclose(np.array(inertia), np.array(i_ref), rtol=2e-3, atol=1e-6)


def test_hollow_mesh_is_a_thin_shell():
    vertices, indices = OpenGLRenderer._create_sphere_mesh(radius=1.0, num_latitudes=150,
                                                           num_longitudes=150)
    t = 0.01
    mass, _, inertia, volume = compute_mesh_inertia(1.0, vertices[:, :3], indices,
                                                    is_solid=False, thickness=t)
    # a shell of thickness 2t around the unit sphere
    shell = 4.0 / 3.0 * math.pi * ((1 + t) ** 3 - (1 - t) ** 3)
    assert volume == pytest.approx(shell, rel=2e-3)
    i_shell = 0.4 * 4.0 / 3.0 * math.pi * ((1 + t) ** 5 - (1 - t) ** 5)
    assert _diag(inertia) == pytest.approx([i_shell] * 3, rel=3e-3)


def test_shapes_give_their_body_mass_centre_and_parallel_axis_inertia():
    builder = wp.sim.ModelBuilder()
    b = builder.add_body()
    builder.add_shape_sphere(b, pos=(1.0, 0.0, 0.0), radius=0.5, density=2.0)
    builder.add_shape_box(b, pos=(-1.0, 0.0, 0.0), hx=0.5, hy=0.5, hz=0.5, density=3.0)
    m_s = 2.0 * 4.0 / 3.0 * math.pi * 0.125
    m_b = 3.0
    assert builder.body_mass[b] == pytest.approx(m_s + m_b)
    x_com = (m_s - m_b) / (m_s + m_b)
    assert np.allclose(np.array(builder.body_com[b]), [x_com, 0.0, 0.0], atol=1e-6)
    i_yy = (0.4 * m_s * 0.25 + m_s * (1.0 - x_com) ** 2
            + m_b / 6.0 + m_b * (1.0 + x_com) ** 2)
    i_xx = 0.4 * m_s * 0.25 + m_b / 6.0
    assert _diag(builder.body_inertia[b]) == pytest.approx([i_xx, i_yy, i_yy], rel=1e-5)
    assert builder.body_inv_mass[b] == pytest.approx(1.0 / (m_s + m_b))
    inv = np.array(builder.body_inv_inertia[b]).reshape(3, 3)
    assert np.allclose(inv @ np.array(builder.body_inertia[b]).reshape(3, 3), np.eye(3),
                       atol=1e-5)


def test_hollow_sphere_shape_and_scaled_mesh_shape():
    builder = wp.sim.ModelBuilder()
    b = builder.add_body()
    builder.add_shape_sphere(b, radius=1.0, density=1.0, is_solid=False, thickness=0.1)
    # the shape's thickness is stored as radius + thickness (its collision thickness); the
    # hollow mass is that of the sphere of radius 1 minus the sphere of radius 1 - 1.1
    assert builder.shape_geo_thickness[0] == pytest.approx(1.1)
    cube_v = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    cube_i = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6,
              0, 6, 4, 1, 5, 7, 1, 7, 3]
    mesh = wp.sim.Mesh(cube_v, cube_i)
    assert mesh.mass == pytest.approx(1.0)
    c = builder.add_body()
    builder.add_shape_mesh(c, mesh=mesh, scale=(2.0, 1.0, 1.0), density=5.0)
    assert builder.body_mass[c] == pytest.approx(10.0)
    m, _, i_ref = compute_box_inertia(5.0, 2.0, 1.0, 1.0)
    assert _diag(builder.body_inertia[c]) == pytest.approx(_diag(i_ref), rel=1e-5)


def test_capsule_up_axis_rotates_the_shape():
    builder = wp.sim.ModelBuilder()
    b = builder.add_body()
    builder.add_shape_capsule(b, radius=0.1, half_height=1.0, up_axis=0, density=1.0)
    axis = wp.quat_rotate(builder.shape_transform[0].q, wp.vec3(0.0, 1.0, 0.0))
    assert np.allclose(np.abs(np.array(axis)), [1.0, 0.0, 0.0], atol=1e-6)
    # the long axis is x, so the inertia about x is the smallest
    d = _diag(builder.body_inertia[b])
    assert d[0] < d[1] and d[1] == pytest.approx(d[2])


def test_triangles_and_edges_rest_state():
    builder = wp.sim.ModelBuilder()
    for p in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0.5)]:
        builder.add_particle(wp.vec3(p), wp.vec3(), 1.0)
    area = builder.add_triangle(0, 1, 2)
    assert area == pytest.approx(0.5)
    pose = np.array(builder.tri_poses[0])
    assert np.linalg.det(pose) == pytest.approx(1.0 / (2.0 * area))
    assert builder.add_triangle(0, 0, 1) == 0.0  # degenerate: left out
    assert builder.tri_count == 1
    builder.add_edge(0, 3, 1, 2)
    n1 = np.cross([1, 0, 0], [0, 1, 0])
    n2 = np.cross(np.subtract((0, 1, 0), (1, 1, 0.5)), np.subtract((1, 0, 0), (1, 1, 0.5)))
    cos = np.dot(n1, n2) / np.linalg.norm(n1) / np.linalg.norm(n2)
    assert abs(builder.edge_rest_angle[0]) == pytest.approx(math.acos(cos), rel=1e-6)
    assert builder.edge_rest_length[0] == pytest.approx(math.sqrt(2.0))


def test_cloth_grid_counts_and_open_edges():
    builder = wp.sim.ModelBuilder()
    builder.add_cloth_grid(pos=wp.vec3(0.0, 1.0, 0.0), rot=wp.quat_identity(), vel=wp.vec3(),
                           dim_x=4, dim_y=3, cell_x=0.1, cell_y=0.2, mass=0.5, fix_left=True,
                           add_springs=True)
    assert builder.particle_count == 20
    assert builder.tri_count == 24
    # edges of a 4 x 3 grid cut into triangles: 5 * 3 + 4 * 4 + 12 diagonals; 14 on the border
    assert builder.edge_count == 43
    assert int(np.sum(np.array(builder.edge_indices)[:, 1] == -1)) == 14
    assert sum(builder.tri_areas) == pytest.approx(0.4 * 0.6)
    assert builder.particle_mass.count(0.0) == 4  # the left column
    assert wp.sim.constants.flag_to_int(builder.particle_flags[0]) == 0
    assert builder.spring_count > builder.edge_count


def test_cloth_mesh_distributes_area_mass():
    builder = wp.sim.ModelBuilder()
    vertices = [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (0.0, 0.0, 2.0), (2.0, 0.0, 2.0)]
    builder.add_cloth_mesh(pos=wp.vec3(), rot=wp.quat_identity(), scale=1.0, vel=wp.vec3(),
                           vertices=vertices, indices=[0, 2, 1, 1, 2, 3], density=3.0)
    assert sum(builder.particle_mass) == pytest.approx(3.0 * 4.0)
    assert builder.edge_count == 5


def test_soft_grid_tetrahedra_fill_the_box():
    builder = wp.sim.ModelBuilder()
    builder.add_soft_grid(pos=wp.vec3(), rot=wp.quat_identity(), vel=wp.vec3(), dim_x=2,
                          dim_y=3, dim_z=2, cell_x=0.5, cell_y=0.5, cell_z=0.5, density=10.0,
                          k_mu=1000.0, k_lambda=1000.0, k_damp=0.0)
    assert builder.tet_count == 5 * 12
    volumes = [1.0 / (6.0 * np.linalg.det(np.array(p))) for p in builder.tet_poses]
    assert sum(volumes) == pytest.approx(12 * 0.125)
    # the surface: two triangles per boundary cell face
    assert builder.tri_count == 2 * 2 * (2 * 3 + 2 * 2 + 3 * 2)


def test_soft_mesh_single_tetrahedron():
    builder = wp.sim.ModelBuilder()
    builder.add_soft_mesh(pos=wp.vec3(), rot=wp.quat_identity(), scale=1.0, vel=wp.vec3(),
                          vertices=[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
                          indices=[0, 1, 2, 3], density=6.0, k_mu=1.0, k_lambda=1.0, k_damp=0.0)
    assert builder.particle_mass == pytest.approx([0.25] * 4)
    assert builder.tri_count == 4
    assert builder.add_tetrahedron(0, 2, 1, 3) < 0.0  # inverted: left out
    assert builder.tet_count == 1


def test_joint_coordinates_and_axes():
    builder = wp.sim.ModelBuilder()
    bodies = [builder.add_body() for _ in range(6)]
    builder.add_joint_free(bodies[0])
    builder.add_joint_revolute(bodies[0], bodies[1], axis=(0.0, 0.0, 2.0), target=0.5,
                               target_ke=10.0)
    builder.add_joint_ball(bodies[1], bodies[2])
    builder.add_joint_universal(bodies[2], bodies[3], (1, 0, 0), (0, 1, 0))
    builder.add_joint_d6(bodies[3], bodies[4], linear_axes=[wp.sim.JointAxis((1, 0, 0))],
                         angular_axes=[wp.sim.JointAxis((0, 1, 0), limit_lower=-1.0,
                                                        limit_upper=1.0)])
    builder.add_joint_fixed(bodies[4], bodies[5])
    assert builder.joint_q_start == [0, 7, 8, 12, 14, 16]
    assert builder.joint_qd_start == [0, 6, 7, 10, 12, 14]
    assert builder.joint_coord_count == 16 and builder.joint_dof_count == 14
    assert builder.joint_q[6] == 1.0 and builder.joint_q[11] == 1.0  # quaternion w
    assert np.allclose(np.array(builder.joint_axis[0]), [0.0, 0.0, 1.0])
    assert builder.joint_axis_mode[0] == wp.sim.JOINT_MODE_TARGET_POSITION
    assert builder.joint_act[0] == 0.5
    assert builder.joint_axis_dim == [(0, 0), (0, 1), (0, 0), (0, 2), (1, 1), (0, 0)]
    assert builder.joint_limit_lower[3] == -1e6 and builder.joint_limit_lower[4] == -1.0
    assert builder.articulation_count == 1


def test_collapse_fixed_joints_merges_mass_into_the_moving_parent():
    builder = wp.sim.ModelBuilder()
    a = builder.add_body()
    builder.add_shape_box(a, hx=0.5, hy=0.5, hz=0.5, density=1.0)
    builder.add_joint_revolute(-1, a, axis=(0, 0, 1))
    b = builder.add_body()
    builder.add_shape_box(b, hx=0.5, hy=0.5, hz=0.5, density=1.0)
    builder.add_joint_fixed(a, b, parent_xform=wp.transform(wp.vec3(2.0, 0.0, 0.0)))
    builder.collapse_fixed_joints()
    assert builder.body_count == 1 and builder.joint_count == 1
    assert builder.body_mass == [2.0]
    assert np.allclose(np.array(builder.body_com[0]), [1.0, 0.0, 0.0])
    assert builder.shape_body == [0, 0]
    assert np.allclose(np.array(builder.shape_transform[1].p), [2.0, 0.0, 0.0])


def test_add_builder_offsets_indices_and_groups():
    env = wp.sim.ModelBuilder()
    b = env.add_body(origin=wp.transform(wp.vec3(0.0, 1.0, 0.0)))
    env.add_shape_sphere(b, radius=0.1)
    env.add_joint_free(b)
    env.add_particle(wp.vec3(0.0, 2.0, 0.0), wp.vec3(), 1.0)
    env.add_particle(wp.vec3(1.0, 2.0, 0.0), wp.vec3(), 1.0)
    env.add_spring(0, 1, 10.0, 0.0, 0.0)
    scene = wp.sim.ModelBuilder()
    for i in range(3):
        scene.add_builder(env, xform=wp.transform(wp.vec3(float(i), 0.0, 0.0)))
    assert scene.num_envs == 3 and scene.body_count == 3 and scene.particle_count == 6
    assert scene.spring_indices == [0, 1, 2, 3, 4, 5]
    assert scene.shape_collision_group == [1, 2, 3]
    assert scene.joint_q_start == [0, 7, 14]
    assert np.allclose(scene.joint_q[14:17], [2.0, 0.0, 0.0])  # free joints move too
    assert np.allclose(np.array(scene.body_q[2].p), [2.0, 1.0, 0.0])
    assert np.allclose(np.array(scene.particle_q[5]), [3.0, 2.0, 0.0])


def test_finalize_makes_arrays_with_warp_names_and_dtypes():
    builder = wp.sim.ModelBuilder()
    builder.add_cloth_grid(pos=wp.vec3(), rot=wp.quat_identity(), vel=wp.vec3(), dim_x=2,
                           dim_y=2, cell_x=0.1, cell_y=0.1, mass=1.0)
    b = builder.add_body()
    builder.add_shape_box(b, hx=0.1, hy=0.1, hz=0.1)
    builder.add_joint_revolute(-1, b)
    model = builder.finalize("cpu", requires_grad=True)
    assert model.particle_q.dtype == wp.vec3 and model.particle_q.requires_grad
    assert model.tri_indices.shape == (8, 3) and model.tri_indices.dtype == wp.int32
    assert model.tri_poses.dtype == wp.mat22 and model.tri_materials.shape == (8, 5)
    assert model.edge_indices.shape == (model.edge_count, 4)
    assert model.body_q.dtype == wp.transform and model.body_qd.dtype == wp.spatial_vector
    assert model.joint_axis_dim.shape == (1, 2)
    assert list(model.joint_q_start.numpy()) == [0, 1]
    assert list(model.articulation_start.numpy()) == [0, 1]
    assert model.shape_count == 2 and model.shape_geo.type.numpy()[-1] == wp.sim.GEO_PLANE
    assert np.allclose(model.gravity, [0.0, -9.80665, 0.0])
    assert model.shape_ground_contact_pair_count == 1
    assert model.rigid_contact_max == 8  # the box's corners against the infinite ground
    state = model.state()
    assert state.particle_count == 9 and state.body_count == 1 and state.requires_grad
    control = model.control()
    assert control.joint_act.shape == (1,) and control.tri_activations.shape == (8,)
    state.clear_forces()
    assert not state.particle_f.numpy().any()
