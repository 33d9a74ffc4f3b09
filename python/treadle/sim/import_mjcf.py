"""treadle.sim.import_mjcf -- ``parse_mjcf``: adds the bodies, joints and collision shapes of a
MuJoCo XML file to a ModelBuilder, with Warp 1.9.1's conventions.

Each <body> becomes a body and one joint to its parent: its <freejoint> or its <joint>s
(hinges as angular axes, other kinds as linear ones; a single hinge is a revolute joint, two a
universal, three a compound, one slide a prismatic joint, any other mix a D6), a fixed joint
without any. Geoms become shapes (sphere, box, capsule and cylinder, also from ``fromto``,
plane, and meshes through trimesh when it is installed); masses come from the geoms' density
unless ``ignore_inertial_definitions`` is off. The file's z-up frame is turned to `up_axis`.
"""

import math
import os
import re
import xml.etree.ElementTree as ET

import numpy as np

import treadle as wp

from .constants import (JOINT_COMPOUND, JOINT_D6, JOINT_FIXED, JOINT_FREE, JOINT_MODE_FORCE,
                        JOINT_MODE_TARGET_POSITION, JOINT_PRISMATIC, JOINT_REVOLUTE,
                        JOINT_UNIVERSAL)
from .host_utils import inverse_or_zero
from .import_mjcf_shapes import MjcfShapes
from .joint_axis import JointAxis
from .mjcf_attributes import MjcfDefaults, merge, parse_float, parse_orientation, parse_vec

_HALF_SQRT = math.sqrt(0.5)
_ANGULAR_KINDS = {0: JOINT_FIXED, 1: JOINT_REVOLUTE, 2: JOINT_UNIVERSAL, 3: JOINT_COMPOUND}


def _matches(patterns, name):
    return any(re.match(p, name) for p in patterns)


class _MjcfImporter(MjcfShapes):
    """One parse_mjcf call: the file's settings and the builder being filled (geoms are
    read by MjcfShapes, import_mjcf_shapes.py)."""

    def __init__(self, filename, builder, options):
        self.builder = builder
        self.o = options
        self.dirname = os.path.dirname(filename)
        self.root = ET.parse(filename).getroot()
        self.contact = {"ke": options["contact_ke"], "kd": options["contact_kd"],
                        "kf": options["contact_kf"], "ka": options["contact_ka"],
                        "mu": options["contact_mu"], "restitution": options["contact_restitution"],
                        "thickness": options["contact_thickness"]}
        compiler = self.root.find("compiler")
        attrib = compiler.attrib if compiler is not None else {}
        self.use_degrees = attrib.get("angle", "degree").lower() == "degree"
        self.euler_seq = ["xyz".index(c) for c in attrib.get("eulerseq", "xyz").lower()]
        self.mesh_assets = self._mesh_assets(attrib.get("meshdir", "."))
        self.defaults = MjcfDefaults(self.root)
        self.scale = options["scale"]
        up_axis = options["up_axis"]
        self.up_axis = "XYZ".index(up_axis.upper()) if isinstance(up_axis, str) else up_axis
        xform = options["xform"] or wp.transform()
        turn = {0: wp.quat(0.0, 0.0, -_HALF_SQRT, _HALF_SQRT),
                2: wp.quat(_HALF_SQRT, 0.0, 0.0, -_HALF_SQRT)}.get(self.up_axis)
        rot = turn * xform.q if turn is not None else xform.q
        # the root transform's translation is not scaled with the mechanism
        self.xform = wp.transform(wp.vec3(np.array(xform.p) / self.scale), rot)
        self.visual_shapes = []

    def _mesh_assets(self, mesh_dir):
        assets = {}
        for asset in self.root.findall("asset"):
            for mesh in asset.findall("mesh"):
                if "file" not in mesh.attrib:
                    continue
                path = os.path.join(mesh_dir, mesh.attrib["file"])
                if not os.path.isabs(path):
                    path = os.path.abspath(os.path.join(self.dirname, path))
                name = mesh.attrib.get("name", os.path.splitext(os.path.basename(path))[0])
                scale = np.array(mesh.attrib.get("scale", "1.0 1.0 1.0").split(), np.float32)
                assets[name] = {"file": path, "scale": scale}
        return assets

    def orientation(self, attrib):
        return parse_orientation(attrib, self.use_degrees, self.euler_seq)

    def run(self):
        b = self.builder
        start_shape = b.shape_count
        b.add_articulation()
        world = self.root.find("worldbody")
        world_defaults = self.defaults.with_class(self.defaults.classes["__all__"],
                                                  world.attrib.get("class"))
        for body in world.findall("body"):
            self.parse_body(body, -1, world_defaults, None)
        self.parse_shapes(world_defaults, "world", -1, world.findall("geom"), self.o["density"],
                          incoming_xform=self.xform)
        end_shape = b.shape_count
        for i in range(start_shape, end_shape):
            for j in self.visual_shapes:
                b.shape_collision_filter_pairs.add((i, j))
            if not self.o["enable_self_collisions"]:
                for j in range(i + 1, end_shape):
                    b.shape_collision_filter_pairs.add((i, j))
        if self.o["collapse_fixed_joints"]:
            b.collapse_fixed_joints()

    def parse_body(self, body, parent, incoming_defaults, childclass):
        body_class = body.attrib.get("class")
        defaults = incoming_defaults
        if body_class is not None:
            if _matches(self.o["ignore_classes"], body_class):
                return
            defaults = self.defaults.with_class(incoming_defaults, body_class)
        else:
            body_class = childclass
        attrib = merge(defaults.get("body", {}), body.attrib)
        name = attrib["name"].replace("-", "_")
        pos = parse_vec(attrib, "pos", (0.0, 0.0, 0.0))
        rot = self.orientation(attrib)
        if parent == -1:
            pos = wp.transform_point(self.xform, pos)
            rot = self.xform.q * rot
        pos = wp.vec3(pos) * self.scale
        kind, joint_names, joint_pos, armatures, linear, angular = self._joints(body, defaults)
        link = self.builder.add_body(origin=wp.transform(pos, rot),
                                     armature=armatures[0] if armatures else self.o["armature"],
                                     name=name)
        if kind is None:
            kind = self._joint_kind(linear, angular)
        self._connect(body, parent, link, name, kind, joint_names, joint_pos, armatures, linear,
                      angular, pos, rot)
        self._body_shapes(body, defaults, name, link)
        self._inertia(body, defaults, link)
        for child in body.findall("body"):
            child_class = body.attrib.get("childclass")
            if child_class is None:
                self.parse_body(child, link, defaults, childclass)
            else:
                self.parse_body(child, link, self.defaults.with_class(defaults, child_class),
                                child_class)

    def _joints(self, body, defaults):
        """(kind or None, names, anchor positions, armatures, linear axes, angular axes)."""
        o = self.o
        free = body.findall("freejoint")
        if free:
            name = free[0].attrib.get("name", f"{body.attrib['name']}_freejoint")
            return JOINT_FREE, [name], [], [0.0], [], []
        names, positions, armatures, linear, angular = [], [], [], [], []
        for joint in body.findall("joint"):
            attrib = self.defaults.element(defaults, joint)
            kind = attrib.get("type", "hinge")
            names.append(attrib["name"])
            positions.append(wp.vec3(parse_vec(attrib, "pos", (0.0, 0.0, 0.0))) * self.scale)
            armatures.append(parse_float(attrib, "armature", o["armature"]) * o["armature_scale"])
            if kind == "free":
                return JOINT_FREE, names, positions, armatures, linear, angular
            if kind == "fixed":
                return JOINT_FIXED, names, positions, armatures, linear, angular
            angular_axis = kind == "hinge"
            limits = parse_vec(attrib, "range", (o["joint_limit_lower"], o["joint_limit_upper"]))
            lower, upper = float(limits[0]), float(limits[1])
            if angular_axis and self.use_degrees:
                lower, upper = math.radians(lower), math.radians(upper)
            mode = JOINT_MODE_FORCE
            if o["stiffness"] > 0.0 or "stiffness" in attrib:
                mode = JOINT_MODE_TARGET_POSITION
            axis = JointAxis(axis=parse_vec(attrib, "axis", (0.0, 0.0, 0.0)), limit_lower=lower,
                             limit_upper=upper,
                             target_ke=parse_float(attrib, "stiffness", o["stiffness"]),
                             target_kd=parse_float(attrib, "damping", o["damping"]),
                             limit_ke=o["limit_ke"], limit_kd=o["limit_kd"], mode=mode)
            (angular if angular_axis else linear).append(axis)
        return None, names, positions, armatures, linear, angular

    @staticmethod
    def _joint_kind(linear, angular):
        if not linear and len(angular) in _ANGULAR_KINDS:
            return _ANGULAR_KINDS[len(angular)]
        if len(linear) == 1 and not angular:
            return JOINT_PRISMATIC
        return JOINT_D6

    def _connect(self, body, parent, link, name, kind, joint_names, joint_pos, armatures,
                 linear, angular, pos, rot):
        b, o = self.builder, self.o
        anchor = joint_pos[0] if joint_pos else wp.vec3()
        if body.findall("freejoint") and parent == -1 and (o["base_joint"] is not None
                                                           or o["floating"] is not None):
            self._base_joint(link, wp.transform(pos + anchor, rot))
            return
        b.add_joint(kind, parent, link, linear, angular,
                    name="_".join(joint_names) if joint_names else f"{name}_joint",
                    parent_xform=wp.transform(pos + anchor, rot),
                    child_xform=wp.transform(anchor, wp.quat_identity()),
                    armature=armatures[0] if armatures else o["armature"])

    def _base_joint(self, link, xform):
        b, base = self.builder, self.o["base_joint"]
        if base is not None:
            # the base joint's axes stay in the world frame: the rotation comes after it
            parent_xform = wp.transform(xform.p, wp.quat_identity())
            child_xform = wp.transform(wp.vec3(), wp.quat_inverse(xform.q))
            if isinstance(base, str):
                unit = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}
                axes = [a.strip() for a in base.lower().split(",")]
                b.add_joint_d6(-1, link,
                               linear_axes=[JointAxis(unit[a[-1]]) for a in axes if a[0] in "lp"],
                               angular_axes=[JointAxis(unit[a[-1]]) for a in axes if a[0] in "ar"],
                               parent_xform=parent_xform, child_xform=child_xform,
                               name="base_joint")
            elif isinstance(base, dict):
                b.add_joint(**dict(base, parent=-1, child=link, parent_xform=parent_xform,
                                   child_xform=child_xform, name="base_joint"))
            else:
                raise ValueError("parse_mjcf(): base_joint must be a comma-separated string of "
                                 f"joint axes or a dict of add_joint arguments (got {base!r})")
        elif self.o["floating"]:
            b.add_joint_free(link, name="floating_base")
            start = b.joint_q_start[-1]
            b.joint_q[start:start + 7] = [*xform.p, *xform.q]
        else:
            b.add_joint_fixed(-1, link, parent_xform=xform, name="fixed_base")

    def _body_shapes(self, body, defaults, name, link):
        o = self.o
        visuals, colliders = [], []
        for geom in body.findall("geom"):
            geom_class = geom.attrib.get("class")
            if geom_class is None:
                (colliders if o["no_class_as_colliders"] else visuals).append(geom)
                continue
            if _matches(o["ignore_classes"], geom_class):
                continue
            if _matches(o["visual_classes"], geom_class):
                visuals.append(geom)
            if _matches(o["collider_classes"], geom_class):
                colliders.append(geom)
        if o["parse_visuals_as_colliders"]:
            colliders = visuals
        else:
            self.visual_shapes.extend(self.parse_shapes(defaults, name, link, visuals, 0.0,
                                                        visible=not o["hide_visuals"],
                                                        just_visual=True))
        show = o["force_show_colliders"] or o["parse_visuals_as_colliders"] or not visuals
        self.parse_shapes(defaults, name, link, colliders, o["density"], visible=show)

    def _inertia(self, body, defaults, link):
        b, o = self.builder, self.o
        inertial = body.find("inertial")
        if not o["ignore_inertial_definitions"] and inertial is not None:
            attrib = merge(defaults.get("inertial", {}), inertial.attrib)
            frame = wp.transform(wp.vec3(parse_vec(attrib, "pos", (0.0, 0.0, 0.0))) * self.scale,
                                 self.orientation(attrib))
            s2 = self.scale**2
            inertia = np.zeros((3, 3))
            if attrib.get("diaginertia") is not None:
                inertia[np.diag_indices(3)] = np.array(attrib["diaginertia"].split(), float) * s2
            else:
                full = np.array(attrib["fullinertia"].split(), dtype=np.float32) * s2
                inertia[np.diag_indices(3)] = full[:3]
                inertia[0, 1] = inertia[1, 0] = full[3]
                inertia[0, 2] = inertia[2, 0] = full[4]
                inertia[1, 2] = inertia[2, 1] = full[5]
            # Warp rotates the tensor by R only (not R I R^T); kept for the same models
            rotated = wp.quat_to_matrix(frame.q) @ wp.mat33(*inertia.flatten())
            m = float(attrib.get("mass", "0"))
            b.body_mass[link] = m
            b.body_inv_mass[link] = 1.0 / m if m > 0.0 else 0.0
            b.body_com[link] = frame.p
            b.body_inertia[link] = rotated
            b.body_inv_inertia[link] = inverse_or_zero(rotated)
        if b.body_mass[link] == 0.0 and o["ensure_nonstatic_links"]:
            m = o["static_link_mass"]
            # a cube of side 0.5 (scaled), plus the armature
            inertia = wp.mat33(np.eye(3) * (m / 12.0 * (0.5 * self.scale) ** 2 * 2.0
                                            + o["armature"]))
            b.body_mass[link] = m
            b.body_inv_mass[link] = 1.0 / m
            b.body_inertia[link] = inertia
            b.body_inv_inertia[link] = inverse_or_zero(inertia)


def parse_mjcf(mjcf_filename, builder, xform=None, floating=False, base_joint=None,
               density=1000.0, stiffness=100.0, damping=10.0, armature=0.0, armature_scale=1.0,
               contact_ke=1.0e4, contact_kd=1.0e3, contact_kf=1.0e2, contact_ka=0.0,
               contact_mu=0.25, contact_restitution=0.5, contact_thickness=0.0, limit_ke=100.0,
               limit_kd=10.0, joint_limit_lower=-1e6, joint_limit_upper=1e6, scale=1.0,
               hide_visuals=False, parse_visuals_as_colliders=False, parse_meshes=True,
               up_axis="Z", ignore_names=(), ignore_classes=None, visual_classes=("visual",),
               collider_classes=("collision",), no_class_as_colliders=True,
               force_show_colliders=False, enable_self_collisions=False,
               ignore_inertial_definitions=True, ensure_nonstatic_links=True,
               static_link_mass=1e-2, collapse_fixed_joints=False, verbose=False):
    """Adds the mechanism of MuJoCo file `mjcf_filename` to `builder` (Warp's arguments:
    `xform` places it, `floating` / `base_joint` connect its root body to the world, the
    contact_* and limit settings apply to every shape and joint, `stiffness` > 0 makes the
    joints position-driven, `up_axis` is the axis the file's z turns to)."""
    options = dict(locals())
    options.pop("mjcf_filename")
    options.pop("builder")
    options["ignore_classes"] = list(ignore_classes or [])
    _MjcfImporter(mjcf_filename, builder, options).run()
