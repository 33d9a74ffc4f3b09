"""treadle.sim.integrator_euler -- ``SemiImplicitIntegrator``: sums every force of the model
into the input state's ``particle_f`` and ``body_f`` (the kernels of forces_elastic.py,
forces_joints.py and forces_contact.py, re-exported here under Warp's names), then takes a
symplectic Euler step (integrator.py).

The forces of a step are computed from ``state_in``; call ``state_in.clear_forces()`` before
``simulate`` when a state is reused. Rigid and soft contacts are those the last ``collide``
call stored in the model.
"""

import treadle as wp

from .forces_contact import eval_particle_contacts as eval_particle_contacts
from .forces_contact import eval_particle_ground_contacts as eval_particle_ground_contacts
from .forces_contact import eval_rigid_contacts as eval_rigid_contacts
from .forces_contact import eval_triangles_contact as eval_triangles_contact
from .forces_elastic import eval_bending as eval_bending
from .forces_elastic import eval_springs as eval_springs
from .forces_elastic import eval_tetrahedra as eval_tetrahedra
from .forces_elastic import eval_triangles as eval_triangles
from .forces_joints import eval_body_joints as eval_body_joints
from .forces_joints import eval_joint_force as eval_joint_force
from .host_utils import or_empty
from .integrator import Integrator
from .particles import eval_particle_forces as eval_particle_forces


def _launch(kernel, dim, model, inputs, outputs):
    wp.launch(kernel, dim=dim, inputs=inputs, outputs=outputs, device=model.device)


def eval_spring_forces(model, state, particle_f):
    """Adds the spring forces of `state` to `particle_f`."""
    if model.spring_count:
        _launch(eval_springs, model.spring_count, model,
                [state.particle_q, state.particle_qd, model.spring_indices,
                 model.spring_rest_length, model.spring_stiffness, model.spring_damping],
                [particle_f])


def eval_triangle_forces(model, state, control, particle_f):
    """Adds the membrane forces of the triangles to `particle_f`."""
    if model.tri_count:
        _launch(eval_triangles, model.tri_count, model,
                [state.particle_q, state.particle_qd, model.tri_indices, model.tri_poses,
                 control.tri_activations, model.tri_materials], [particle_f])


def eval_triangle_contact_forces(model, state, particle_f):
    """Adds particle-triangle contact forces when ``model.enable_tri_collisions``."""
    if model.enable_tri_collisions:
        _launch(eval_triangles_contact, model.tri_count * model.particle_count, model,
                [model.particle_count, state.particle_q, state.particle_qd, model.tri_indices,
                 model.tri_materials, model.particle_radius], [particle_f])


def eval_bending_forces(model, state, particle_f):
    """Adds the bending forces of the edges to `particle_f`."""
    if model.edge_count:
        _launch(eval_bending, model.edge_count, model,
                [state.particle_q, state.particle_qd, model.edge_indices, model.edge_rest_angle,
                 model.edge_bending_properties], [particle_f])


def eval_tetrahedral_forces(model, state, control, particle_f):
    """Adds the Neo-Hookean forces of the tetrahedra to `particle_f`."""
    if model.tet_count:
        _launch(eval_tetrahedra, model.tet_count, model,
                [state.particle_q, state.particle_qd, model.tet_indices, model.tet_poses,
                 control.tet_activations, model.tet_materials], [particle_f])


def eval_particle_ground_contact_forces(model, state, particle_f):
    """Adds particle-ground contact forces (``soft_contact_*`` materials) when ``model.ground``."""
    if model.ground and model.particle_count:
        _launch(eval_particle_ground_contacts, model.particle_count, model,
                [state.particle_q, state.particle_qd, model.particle_radius, model.particle_flags,
                 model.soft_contact_ke, model.soft_contact_kd, model.soft_contact_kf,
                 model.soft_contact_mu, model.ground_plane], [particle_f])


def eval_body_contact_forces(model, state, particle_f, friction_smoothing: float = 1.0):
    """Adds the rigid contact forces to ``state.body_f``."""
    ground = model.ground and model.shape_ground_contact_pair_count
    if model.rigid_contact_max and (ground or model.shape_contact_pair_count):
        _launch(eval_rigid_contacts, model.rigid_contact_max, model,
                [state.body_q, state.body_qd, model.body_com, model.shape_materials,
                 model.shape_geo, model.shape_body, model.rigid_contact_count,
                 model.rigid_contact_point0, model.rigid_contact_point1,
                 model.rigid_contact_normal, model.rigid_contact_shape0,
                 model.rigid_contact_shape1, False, friction_smoothing], [state.body_f])


def eval_body_joint_forces(model, state, control, body_f):
    """Adds the joint forces to `body_f`."""
    if model.joint_count:
        _launch(eval_body_joints, model.joint_count, model,
                [state.body_q, state.body_qd, model.body_com, model.joint_qd_start,
                 model.joint_type, model.joint_enabled, model.joint_child, model.joint_parent,
                 model.joint_X_p, model.joint_X_c, model.joint_axis, model.joint_axis_start,
                 model.joint_axis_dim, model.joint_axis_mode, control.joint_act,
                 model.joint_target_ke, model.joint_target_kd, model.joint_limit_lower,
                 model.joint_limit_upper, model.joint_limit_ke, model.joint_limit_kd,
                 model.joint_attach_ke, model.joint_attach_kd], [body_f])


def eval_particle_body_contact_forces(model, state, particle_f, body_f,
                                      body_f_in_world_frame: bool = False):
    """Adds the soft contact forces to the particles and their shapes' bodies."""
    if model.particle_count and model.shape_count > 1:
        body_q = or_empty(state.body_q, wp.transform, model.device)
        body_qd = or_empty(state.body_qd, wp.spatial_vector, model.device)
        body_f = or_empty(body_f, wp.spatial_vector, model.device)
        _launch(eval_particle_contacts, model.soft_contact_max, model,
                [state.particle_q, state.particle_qd, body_q, body_qd,
                 model.particle_radius, model.particle_flags, model.body_com, model.shape_body,
                 model.shape_materials, model.soft_contact_ke, model.soft_contact_kd,
                 model.soft_contact_kf, model.soft_contact_mu, model.particle_adhesion,
                 model.soft_contact_count, model.soft_contact_particle, model.soft_contact_shape,
                 model.soft_contact_body_pos, model.soft_contact_body_vel,
                 model.soft_contact_normal, model.soft_contact_max, body_f_in_world_frame],
                [particle_f, body_f])


def compute_forces(model, state, control, particle_f, body_f, dt: float,
                   friction_smoothing: float = 1.0):
    """Accumulates every force of the model at `state` into `particle_f` and `body_f`."""
    eval_spring_forces(model, state, particle_f)
    eval_triangle_forces(model, state, control, particle_f)
    eval_triangle_contact_forces(model, state, particle_f)
    eval_bending_forces(model, state, particle_f)
    eval_tetrahedral_forces(model, state, control, particle_f)
    eval_body_joint_forces(model, state, control, body_f)
    eval_particle_forces(model, state, particle_f)
    eval_particle_ground_contact_forces(model, state, particle_f)
    eval_body_contact_forces(model, state, particle_f, friction_smoothing=friction_smoothing)
    eval_particle_body_contact_forces(model, state, particle_f, body_f,
                                      body_f_in_world_frame=False)


class SemiImplicitIntegrator(Integrator):
    """Symplectic Euler with penalty forces: energy-conserving in the limit, stable for time
    steps small against the stiffest spring (dt << 2 sqrt(m / k)).

    `angular_damping` (1/s) damps body spins; `friction_smoothing` is the Huber width of the
    rigid-contact friction direction."""

    def __init__(self, angular_damping: float = 0.05, friction_smoothing: float = 1.0):
        self.angular_damping = angular_damping
        self.friction_smoothing = friction_smoothing

    def simulate(self, model, state_in, state_out, dt: float, control=None):
        """Adds the model's forces at `state_in` to its force arrays and writes the state `dt`
        seconds later into `state_out`; returns `state_out`."""
        particle_f = state_in.particle_f if state_in.particle_count else None
        body_f = state_in.body_f if state_in.body_count else None
        if control is None:
            control = model.control(clone_variables=False)
        compute_forces(model, state_in, control, particle_f, body_f, dt,
                       friction_smoothing=self.friction_smoothing)
        self.integrate_bodies(model, state_in, state_out, dt, self.angular_damping)
        self.integrate_particles(model, state_in, state_out, dt)
        return state_out
