"""treadle.sim.collide -- ``collide(model, state)``: contact generation for a state, writing the
model's soft (particle-shape) and rigid (shape-shape and shape-ground) contact buffers, which
the integrators read. The kernels live in collide_soft.py and collide_rigid.py, the geometry
functions (also importable from here, as from ``warp.sim.collide``) in collide_geometry.py.

With gradients (``requires_grad``, the model's by default) every call writes fresh contact
arrays, so that each step recorded on a tape keeps the contacts it was computed with (and
treadle's tape, which refuses arrays overwritten after a recorded launch read them, accepts
the steps).
"""

import sys
import types

import treadle as wp

from .collide_geometry import TRI_CONTACT_FEATURE_EDGE_AB as TRI_CONTACT_FEATURE_EDGE_AB
from .collide_geometry import TRI_CONTACT_FEATURE_EDGE_AC as TRI_CONTACT_FEATURE_EDGE_AC
from .collide_geometry import TRI_CONTACT_FEATURE_EDGE_BC as TRI_CONTACT_FEATURE_EDGE_BC
from .collide_geometry import TRI_CONTACT_FEATURE_FACE_INTERIOR as TRI_CONTACT_FEATURE_FACE_INTERIOR
from .collide_geometry import TRI_CONTACT_FEATURE_VERTEX_A as TRI_CONTACT_FEATURE_VERTEX_A
from .collide_geometry import TRI_CONTACT_FEATURE_VERTEX_B as TRI_CONTACT_FEATURE_VERTEX_B
from .collide_geometry import TRI_CONTACT_FEATURE_VERTEX_C as TRI_CONTACT_FEATURE_VERTEX_C
from .collide_geometry import box_sdf as box_sdf
from .collide_geometry import box_sdf_grad as box_sdf_grad
from .collide_geometry import build_orthonormal_basis as build_orthonormal_basis
from .collide_geometry import capsule_sdf as capsule_sdf
from .collide_geometry import capsule_sdf_grad as capsule_sdf_grad
from .collide_geometry import closest_edge_coordinate_box as closest_edge_coordinate_box
from .collide_geometry import closest_edge_coordinate_capsule as closest_edge_coordinate_capsule
from .collide_geometry import closest_edge_coordinate_mesh as closest_edge_coordinate_mesh
from .collide_geometry import closest_edge_coordinate_plane as closest_edge_coordinate_plane
from .collide_geometry import closest_point_box as closest_point_box
from .collide_geometry import closest_point_line_segment as closest_point_line_segment
from .collide_geometry import closest_point_mesh as closest_point_mesh
from .collide_geometry import closest_point_plane as closest_point_plane
from .collide_geometry import cone_sdf as cone_sdf
from .collide_geometry import cone_sdf_grad as cone_sdf_grad
from .collide_geometry import cylinder_sdf as cylinder_sdf
from .collide_geometry import cylinder_sdf_grad as cylinder_sdf_grad
from .collide_geometry import get_box_edge as get_box_edge
from .collide_geometry import get_box_vertex as get_box_vertex
from .collide_geometry import get_plane_edge as get_plane_edge
from .collide_geometry import mesh_sdf as mesh_sdf
from .collide_geometry import plane_sdf as plane_sdf
from .collide_geometry import sphere_sdf as sphere_sdf
from .collide_geometry import sphere_sdf_grad as sphere_sdf_grad
from .collide_geometry import triangle_closest_point as triangle_closest_point
from .collide_geometry import \
    triangle_closest_point_barycentric as triangle_closest_point_barycentric
from .collide_geometry import volume_grad as volume_grad
from .collide_rigid import broadphase_collision_pairs, handle_contact_pairs
from .collide_soft import counter_increment as counter_increment
from .collide_soft import create_soft_contacts
from .collide_soft import limited_counter_increment as limited_counter_increment
from .collide_trimesh import TriMeshCollisionDetector as TriMeshCollisionDetector
from .collide_trimesh import compute_edge_aabbs as compute_edge_aabbs
from .collide_trimesh import compute_tri_aabb as compute_tri_aabb
from .collide_trimesh import compute_tri_aabbs as compute_tri_aabbs
from .collide_trimesh import \
    init_triangle_collision_data_kernel as init_triangle_collision_data_kernel
from .collide_trimesh import tri_is_neighbor as tri_is_neighbor
from .collide_trimesh import vertex_adjacent_to_triangle as vertex_adjacent_to_triangle
from .host_utils import or_empty


def _soft_contacts(model, state, requires_grad):
    if requires_grad:
        for name in ("body_pos", "body_vel", "normal", "particle", "shape", "tids"):
            name = "soft_contact_" + name
            setattr(model, name, wp.empty_like(getattr(model, name)))
        model.soft_contact_count = wp.zeros_like(model.soft_contact_count)
    else:
        model.soft_contact_count.zero_()
    wp.launch(create_soft_contacts, dim=model.particle_count * (model.shape_count - 1),
              inputs=[state.particle_q, model.particle_radius, model.particle_flags,
                      or_empty(state.body_q, wp.transform, model.device), model.shape_transform, model.shape_body, model.shape_geo,
                      model.soft_contact_margin, model.soft_contact_max, model.shape_count - 1],
              outputs=[model.soft_contact_count, model.soft_contact_particle,
                       model.soft_contact_shape, model.soft_contact_body_pos,
                       model.soft_contact_body_vel, model.soft_contact_normal,
                       model.soft_contact_tids],
              device=model.device)


def _broad_phase(model, state, pairs, pair_count, iterate_mesh_vertices):
    wp.launch(broadphase_collision_pairs, dim=pair_count,
              inputs=[pairs, state.body_q, model.shape_transform, model.shape_body,
                      model.body_mass, model.shape_count, model.shape_geo,
                      model.shape_collision_radius, model.rigid_contact_max,
                      model.rigid_contact_margin, model.rigid_mesh_contact_max,
                      iterate_mesh_vertices],
              outputs=[model.rigid_contact_count, model.rigid_contact_broad_shape0,
                       model.rigid_contact_broad_shape1, model.rigid_contact_point_id,
                       model.rigid_contact_point_limit],
              device=model.device, record_tape=False)


def _fresh_rigid_buffers(model, requires_grad):
    if requires_grad:
        for name in ("point0", "point1", "offset0", "offset1", "normal", "thickness", "shape0",
                     "shape1"):
            name = "rigid_contact_" + name
            setattr(model, name, wp.empty_like(getattr(model, name)))
        model.rigid_contact_count = wp.zeros_like(model.rigid_contact_count)
        model.rigid_contact_tids = wp.full_like(model.rigid_contact_tids, -1)
        if model.rigid_contact_pairwise_counter is not None:
            model.rigid_contact_pairwise_counter = wp.zeros_like(
                model.rigid_contact_pairwise_counter)
    else:
        model.rigid_contact_count.zero_()
        model.rigid_contact_tids.fill_(-1)
        if model.rigid_contact_pairwise_counter is not None:
            model.rigid_contact_pairwise_counter.zero_()
    model.rigid_contact_shape0.fill_(-1)
    model.rigid_contact_shape1.fill_(-1)


def collide(model, state, edge_sdf_iter: int = 10, iterate_mesh_vertices: bool = True,
            requires_grad: bool = None) -> None:
    """Generates the contacts of `state`: particles against every shape but the ground plane
    (within ``model.soft_contact_margin``), and the rigid contacts of the shape pairs and, when
    ``model.ground``, of shapes against the ground plane (within ``rigid_contact_margin``).
    `edge_sdf_iter` is the number of search steps along edges; `iterate_mesh_vertices` adds
    the vertices of meshes as contact points against boxes and capsules."""
    if requires_grad is None:
        requires_grad = model.requires_grad
    if model.particle_count and model.shape_count > 1:
        _soft_contacts(model, state, requires_grad)
    ground = model.ground and model.shape_ground_contact_pair_count
    if not (model.shape_contact_pair_count or ground) or not model.rigid_contact_max:
        return
    if requires_grad:
        # the arrays a taped launch read in an earlier step are never written again
        model.rigid_contact_count = wp.zeros_like(model.rigid_contact_count)
        for name in ("broad_shape0", "broad_shape1", "point_id"):
            name = "rigid_contact_" + name
            setattr(model, name, wp.empty_like(getattr(model, name)))
        if model.rigid_contact_point_limit is not None:
            model.rigid_contact_point_limit = wp.zeros_like(model.rigid_contact_point_limit)
    else:
        model.rigid_contact_count.zero_()
    model.rigid_contact_broad_shape0.fill_(-1)
    model.rigid_contact_broad_shape1.fill_(-1)
    if model.shape_contact_pair_count:
        _broad_phase(model, state, model.shape_contact_pairs, model.shape_contact_pair_count,
                     iterate_mesh_vertices)
    if ground:
        _broad_phase(model, state, model.shape_ground_contact_pairs,
                     model.shape_ground_contact_pair_count, iterate_mesh_vertices)
    _fresh_rigid_buffers(model, requires_grad)
    wp.launch(handle_contact_pairs, dim=model.rigid_contact_max,
              inputs=[state.body_q, model.shape_transform, model.shape_body, model.shape_geo,
                      model.rigid_contact_margin, model.rigid_contact_broad_shape0,
                      model.rigid_contact_broad_shape1, model.shape_count,
                      model.rigid_contact_point_id, model.rigid_contact_point_limit,
                      edge_sdf_iter],
              outputs=[model.rigid_contact_count, model.rigid_contact_shape0,
                       model.rigid_contact_shape1, model.rigid_contact_point0,
                       model.rigid_contact_point1, model.rigid_contact_offset0,
                       model.rigid_contact_offset1, model.rigid_contact_normal,
                       model.rigid_contact_thickness, model.rigid_contact_pairwise_counter,
                       model.rigid_contact_tids],
              device=model.device)


class _CallableModule(types.ModuleType):
    """This module's class: calling the module calls ``collide``. ``treadle.sim.collide`` is
    the function, but an import system that registers this module under a second name (as
    the conformance runner's ``warp`` alias does) rebinds the package attribute to the module;
    the module then still works as the function."""

    def __call__(self, *args, **kwargs):
        return collide(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
