"""treadle.sim.import_mjcf_shapes -- the geom part of the MJCF importer: <geom> elements of a
body (or the world) as builder shapes."""

import importlib
import math
import re

import numpy as np

import treadle as wp

from .geometry import Mesh
from .mjcf_attributes import parse_float, parse_vec

def _fromto_frame(fromto, scale):
    """Centre, rotation (y onto the segment) and half length of a ``fromto`` segment."""
    start = wp.vec3(fromto[0], fromto[1], fromto[2]) * scale
    end = wp.vec3(fromto[3], fromto[4], fromto[5]) * scale
    direction = wp.normalize(end - start)
    angle = math.acos(min(max(wp.dot(direction, wp.vec3(0.0, 1.0, 0.0)), -1.0), 1.0))
    axis = wp.normalize(wp.cross(direction, wp.vec3(0.0, 1.0, 0.0)))
    return (start + end) * 0.5, wp.quat_from_axis_angle(axis, -angle), wp.length(end - start) * 0.5


class MjcfShapes:
    """parse_shapes, a method of the MJCF importer (which holds builder, options o, scale,
    up_axis, contact, defaults and mesh_assets)."""

    def parse_shapes(self, defaults, body_name, link, geoms, density, visible=True,
                     just_visual=False, incoming_xform=None):
        """Adds the shapes of `geoms` to body `link` (-1: static); returns their indices."""
        o = self.o
        shapes = []
        flags = {"is_visible": visible, "has_ground_collision": not just_visual,
                 "has_shape_collision": not just_visual, **self.contact}
        for count, geom in enumerate(geoms):
            geom_class = geom.attrib.get("class")
            if geom_class is not None and any(re.match(p, geom_class)
                                              for p in o["ignore_classes"]):
                continue
            attrib = self.defaults.element(defaults, geom)
            suffix = "_visual" if just_visual else ""
            name = attrib.get("name", f"{body_name}_geom_{count}{suffix}")
            kind = "mesh" if "mesh" in attrib else attrib.get("type", "sphere")
            if any(re.match(p, name) for p in o["ignore_names"]):
                continue
            size = parse_vec(attrib, "size", [1.0, 1.0, 1.0]) * self.scale
            pos = wp.vec3(parse_vec(attrib, "pos", (0.0, 0.0, 0.0))) * self.scale
            rot = self.orientation(attrib)
            geom_density = parse_float(attrib, "density", density)
            if incoming_xform is not None:
                pos = wp.transform_point(incoming_xform, pos)
                rot = incoming_xform.q * rot
            b = self.builder
            if kind == "sphere":
                shapes.append(b.add_shape_sphere(link, pos=pos, rot=rot, radius=size[0],
                                                 density=geom_density, **flags))
            elif kind == "box":
                shapes.append(b.add_shape_box(link, pos=pos, rot=rot, hx=size[0], hy=size[1],
                                              hz=size[2], density=geom_density, **flags))
            elif kind == "mesh" and o["parse_meshes"]:
                shapes.extend(self._mesh_shapes(attrib, defaults, link, pos, rot, density, flags))
            elif kind in ("capsule", "cylinder"):
                radius, half, up_axis = size[0], size[1], self.up_axis
                if "fromto" in attrib:
                    fromto = parse_vec(attrib, "fromto", (0.0, 0.0, 0.0, 1.0, 0.0, 0.0))
                    pos, rot, half = _fromto_frame(fromto, self.scale)
                    up_axis = 1
                add = b.add_shape_cylinder if kind == "cylinder" else b.add_shape_capsule
                shapes.append(add(link, pos=pos, rot=rot, radius=radius, half_height=half,
                                  density=density, up_axis=up_axis, **flags))
            elif kind == "plane":
                normal = wp.quat_rotate(rot, wp.vec3(0.0, 0.0, 1.0))
                plane_flags = dict(flags, has_ground_collision=False)
                shapes.append(b.add_shape_plane(body=link, plane=(*normal, wp.dot(pos, normal)),
                                                width=size[0], length=size[1], **plane_flags))
            elif o["verbose"]:
                print(f"MJCF parsing shape {name} issue: geom type {kind} is unsupported")
        return shapes

    def _mesh_shapes(self, attrib, defaults, link, pos, rot, density, flags):
        trimesh = importlib.import_module("trimesh")  # optional: only mesh geoms need it
        asset = self.mesh_assets[attrib["mesh"]]
        loaded = trimesh.load(asset["file"], force="mesh")
        mesh_scale = asset["scale"]
        if "mesh" in defaults:
            mesh_scale = parse_vec(defaults["mesh"], "scale", asset["scale"])
        scaling = np.array(mesh_scale) * self.scale
        parts = list(loaded.geometry.values()) if hasattr(loaded, "geometry") else [loaded]
        shapes = []
        for part in parts:
            mesh = Mesh(np.array(part.vertices, dtype=np.float32) * scaling,
                        np.array(part.faces, dtype=np.int32).flatten())
            shapes.append(self.builder.add_shape_mesh(body=link, pos=pos, rot=rot, mesh=mesh,
                                                      density=density, **flags))
        return shapes
