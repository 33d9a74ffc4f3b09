"""treadle.sim.builder_bodies -- the rigid-body part of ``ModelBuilder``: bodies, the mass their
shapes give them, muscles, and ``collapse_fixed_joints``, which merges bodies welded by fixed
joints into the nearest body above them that keeps a moving joint."""

import numpy as np

import treadle as wp

from .constants import JOINT_FIXED
from .host_utils import as_transform, inverse_or_zero
from .inertia import transform_inertia


class BodyBuilder:
    """Methods of ModelBuilder that add rigid bodies and muscles."""

    def add_body(self, origin=None, armature: float = 0.0, com=None, I_m=None, m: float = 0.0,
                 name: str = None) -> int:
        """Adds a rigid body with world pose `origin`, centre of mass `com` (body frame),
        inertia `I_m` about it plus `armature` on the diagonal, and mass `m` (0: kinematic
        until shapes add mass); returns its index."""
        origin = wp.transform() if origin is None else as_transform(origin)
        com = wp.vec3() if com is None else wp.vec3(com)
        inertia = (wp.mat33() if I_m is None else wp.mat33(I_m)) + wp.mat33(np.eye(3)) * armature
        body_id = len(self.body_mass)
        self.body_inertia.append(inertia)
        self.body_mass.append(m)
        self.body_com.append(com)
        self.body_inv_mass.append(1.0 / m if m > 0.0 else 0.0)
        self.body_inv_inertia.append(inverse_or_zero(inertia))
        self.body_q.append(origin)
        self.body_qd.append(wp.spatial_vector())
        self.body_name.append(name or f"body {body_id}")
        self.body_shapes[body_id] = []
        return body_id

    def _update_body_mass(self, i, m, I, p, q):
        """Adds mass `m` with inertia `I` (about its centre of mass `p`, rotated by `q`, both
        in the frame of body `i`) to body `i`: new centre of mass, parallel-axis inertia."""
        if i == -1:
            return
        new_mass = self.body_mass[i] + m
        if new_mass == 0.0:
            return
        new_com = (self.body_com[i] * self.body_mass[i] + p * m) / new_mass
        new_inertia = (transform_inertia(self.body_mass[i], self.body_inertia[i],
                                         new_com - self.body_com[i], wp.quat_identity())
                       + transform_inertia(m, I, new_com - p, q))
        self.body_mass[i] = new_mass
        self.body_inertia[i] = new_inertia
        self.body_com[i] = new_com
        self.body_inv_mass[i] = 1.0 / new_mass
        self.body_inv_inertia[i] = inverse_or_zero(new_inertia)

    def add_muscle(self, bodies, positions, f0: float, lm: float, lt: float, lmax: float,
                   pen: float) -> float:
        """Adds a muscle-tendon unit through the waypoints `positions` (each in the frame of
        the body in `bodies`) with force scale `f0`, muscle length `lm`, tendon length `lt`,
        most efficient length `lmax` and `pen`; returns its index. (Muscles are not simulated
        yet, as in Warp.)"""
        self.muscle_start.append(len(self.muscle_bodies))
        self.muscle_params.append((f0, lm, lt, lmax, pen))
        self.muscle_activations.append(0.0)
        for body, point in zip(bodies, positions):
            self.muscle_bodies.append(body)
            self.muscle_points.append(point)
        return len(self.muscle_start) - 1

    def collapse_fixed_joints(self, verbose=None):
        """Removes the fixed joints and merges each body they attach into the closest body
        above it that keeps a moving joint (or the world): its shapes move there, its mass and
        inertia are added, and the joints below it are re-parented. `verbose` (default
        ``wp.config.verbose``) prints each merge."""
        merge = _FixedJointMerge(self, wp.config.verbose if verbose is None else verbose)
        merge.run()
        merge.write_back()


class _FixedJointMerge:
    """One collapse_fixed_joints pass: walks the joint tree depth first from the world,
    keeping the moving joints and folding fixed ones into their last moving ancestor."""

    def __init__(self, builder, verbose):
        self.b = builder
        self.verbose = verbose
        self.bodies = {}
        self.children = {-1: []}
        for i in range(builder.body_count):
            self.bodies[i] = {"shapes": builder.body_shapes[i], "q": builder.body_q[i],
                              "qd": builder.body_qd[i], "mass": builder.body_mass[i],
                              "inertia": builder.body_inertia[i],
                              "inv_mass": builder.body_inv_mass[i],
                              "inv_inertia": builder.body_inv_inertia[i],
                              "com": builder.body_com[i], "name": builder.body_name[i]}
            self.children[i] = []
        self.joints = {}
        for i in range(builder.joint_count):
            joint = self._joint_record(i)
            self.children[joint["parent"]].append(joint["child"])
            self.joints[(joint["parent"], joint["child"])] = joint
        for kids in self.children.values():
            kids.sort()
        self.visited = {i: False for i in self.bodies}
        self.visited[-1] = False
        self.kept_joints = []
        self.kept_bodies = []

    def _joint_record(self, i):
        b = self.b
        q0, qd0 = b.joint_q_start[i], b.joint_qd_start[i]
        q1 = b.joint_q_start[i + 1] if i + 1 < b.joint_count else len(b.joint_q)
        qd1 = b.joint_qd_start[i + 1] if i + 1 < b.joint_count else len(b.joint_qd)
        start = b.joint_axis_start[i]
        axes = []
        for j in range(start, start + sum(b.joint_axis_dim[i])):
            axes.append({name: getattr(b, "joint_" + name)[j] for name in (
                "axis", "axis_mode", "target_ke", "target_kd", "limit_ke", "limit_kd",
                "limit_lower", "limit_upper", "act")})
        return {"id": i, "type": b.joint_type[i], "q": b.joint_q[q0:q1], "qd": b.joint_qd[qd0:qd1],
                "armature": b.joint_armature[qd0:qd1], "name": b.joint_name[i],
                "linear_compliance": b.joint_linear_compliance[i],
                "angular_compliance": b.joint_angular_compliance[i],
                "parent_xform": as_transform(b.joint_X_p[i]),
                "child_xform": as_transform(b.joint_X_c[i]), "enabled": b.joint_enabled[i],
                "axes": axes, "axis_dim": b.joint_axis_dim[i], "parent": b.joint_parent[i],
                "child": b.joint_child[i]}

    def run(self):
        for body in self.children[-1]:
            if not self.visited[body]:
                self._visit(-1, body, wp.transform(), -1)

    def _visit(self, parent, child, incoming, last_moving):
        joint = self.joints[(parent, child)]
        if joint["type"] == JOINT_FIXED:
            incoming = incoming * (joint["parent_xform"]
                                   * wp.transform_inverse(joint["child_xform"]))
            self._merge(child, incoming, last_moving)
        else:
            joint["parent_xform"] = incoming * joint["parent_xform"]
            joint["parent"] = last_moving
            last_moving = child
            incoming = wp.transform()
            self.kept_joints.append(joint)
            self.bodies[child]["id"] = len(self.kept_bodies)
            self.kept_bodies.append(child)
            for shape in self.bodies[child]["shapes"]:
                self.b.shape_body[shape] = self.bodies[child]["id"]
        self.visited[parent] = True
        if self.visited[child]:
            return
        for grandchild in self.children[child]:
            if not self.visited[grandchild]:
                self._visit(child, grandchild, incoming, last_moving)

    def _merge(self, child, incoming, target):
        """Moves body `child`'s shapes and mass into body `target` (-1: the world), `incoming`
        being child's pose in target's frame."""
        b = self.b
        if self.verbose:
            target_name = b.body_name[target] if target > -1 else "world"
            print(f"Remove fixed joint above {b.body_name[child]}, merging it into {target_name}")
        for shape in list(b.body_shapes[child]):
            b.shape_transform[shape] = incoming * as_transform(b.shape_transform[shape])
            if target > -1:
                b.shape_body[shape] = self.bodies[target]["id"]
                self.bodies[target]["shapes"].append(shape)
            else:
                b.shape_body[shape] = -1
        if target == -1:
            return
        dest, src = self.bodies[target], self.bodies[child]
        m = src["mass"]
        com = wp.transform_point(incoming, src["com"])
        dest["inertia"] = dest["inertia"] + transform_inertia(m, src["inertia"], incoming.p,
                                                              incoming.q)
        dest["com"] = (com * m + dest["com"] * dest["mass"]) / (m + dest["mass"])
        dest["mass"] = dest["mass"] + m
        dest["inv_mass"] = None  # recomputed in write_back

    def write_back(self):
        b = self.b
        for name in ("body_name", "body_q", "body_qd", "body_mass", "body_inertia", "body_com",
                     "body_inv_mass", "body_inv_inertia"):
            getattr(b, name).clear()
        b.body_shapes.clear()
        remap = {-1: -1}
        for i in self.kept_bodies:
            body = self.bodies[i]
            remap[i] = len(b.body_name)
            b.body_name.append(body["name"])
            b.body_q.append(body["q"])
            b.body_qd.append(body["qd"])
            b.body_mass.append(body["mass"])
            b.body_inertia.append(body["inertia"])
            b.body_com.append(body["com"])
            if body["inv_mass"] is None:
                m = body["mass"]
                b.body_inv_mass.append(1.0 / m if m > 0.0 else 0.0)
                b.body_inv_inertia.append(inverse_or_zero(body["inertia"]) if m > 0.0
                                          else wp.mat33())
            else:
                b.body_inv_mass.append(body["inv_mass"])
                b.body_inv_inertia.append(body["inv_inertia"])
            b.body_shapes[remap[i]] = body["shapes"]
        self.kept_joints.sort(key=lambda joint: joint["id"])
        joint_remap = {joint["id"]: i for i, joint in enumerate(self.kept_joints)}
        starts = []
        for start in b.articulation_start:
            while start not in joint_remap and start < b.joint_count:
                start += 1
            starts.append(joint_remap.get(start, start))
        b.articulation_start = sorted(set(starts))
        self._write_joints(remap)

    def _write_joints(self, remap):
        b = self.b
        for name in ("name", "type", "parent", "child", "q", "qd", "q_start", "qd_start",
                     "enabled", "linear_compliance", "angular_compliance", "armature", "X_p",
                     "X_c", "axis", "axis_mode", "target_ke", "target_kd", "limit_lower",
                     "limit_upper", "limit_ke", "limit_kd", "axis_dim", "axis_start", "act"):
            getattr(b, "joint_" + name).clear()
        for joint in self.kept_joints:
            b.joint_name.append(joint["name"])
            b.joint_type.append(joint["type"])
            b.joint_parent.append(remap[joint["parent"]])
            b.joint_child.append(remap[joint["child"]])
            b.joint_q_start.append(len(b.joint_q))
            b.joint_qd_start.append(len(b.joint_qd))
            b.joint_q.extend(joint["q"])
            b.joint_qd.extend(joint["qd"])
            b.joint_armature.extend(joint["armature"])
            b.joint_enabled.append(joint["enabled"])
            b.joint_linear_compliance.append(joint["linear_compliance"])
            b.joint_angular_compliance.append(joint["angular_compliance"])
            b.joint_X_p.append(joint["parent_xform"])
            b.joint_X_c.append(joint["child_xform"])
            b.joint_axis_dim.append(joint["axis_dim"])
            b.joint_axis_start.append(len(b.joint_axis))
            for axis in joint["axes"]:
                for name, value in axis.items():
                    getattr(b, "joint_" + name).append(value)
        b.joint_coord_count = len(b.joint_q)
        b.joint_dof_count = len(b.joint_qd)
        b.joint_axis_total_count = len(b.joint_axis)
