"""treadle.sim.mjcf_attributes -- reading MuJoCo XML (MJCF) attributes for the importer: numbers
and vectors, orientations in every MJCF form, default classes and their inheritance."""

import numpy as np

import treadle as wp

from .utils import quat_from_euler


def parse_float(attrib, key, default):
    """Attribute `key` as a float, or `default`."""
    return float(attrib[key]) if key in attrib else default


def parse_vec(attrib, key, default):
    """Attribute `key` as a float32 vector (a single number is repeated to the length of
    `default`), or `default`."""
    if key in attrib:
        values = np.array(attrib[key].split(), dtype=np.float32)
    else:
        values = np.array(default, dtype=np.float32)
    if len(values) == 1:
        values = np.repeat(values, len(default))
    return wp.types.vector(length=len(values), dtype=wp.float32)(*values)


def _frame_quat(x_axis, z_axis):
    y_axis = wp.normalize(wp.cross(z_axis, x_axis))
    return wp.quat_from_matrix(wp.matrix_from_cols(x_axis, y_axis, z_axis))


def parse_orientation(attrib, use_degrees, euler_seq):
    """The rotation an element's quat (w first), euler, axisangle, xyaxes or zaxis attribute
    gives, identity without one."""
    if "quat" in attrib:
        w, x, y, z = (float(v) for v in attrib["quat"].split())
        return wp.normalize(wp.quat(x, y, z, w))
    if "euler" in attrib:
        euler = np.array(attrib["euler"].split(), dtype=np.float64)
        if use_degrees:
            euler = np.deg2rad(euler)
        return quat_from_euler(wp.vec3(*euler), *euler_seq)
    if "axisangle" in attrib:
        values = np.array(attrib["axisangle"].split(), dtype=np.float64)
        angle = np.deg2rad(values[3]) if use_degrees else values[3]
        return wp.quat_from_axis_angle(wp.normalize(wp.vec3(*values[:3])), float(angle))
    if "xyaxes" in attrib:
        values = np.array(attrib["xyaxes"].split(), dtype=np.float64)
        return _frame_quat(wp.normalize(wp.vec3(*values[:3])), wp.normalize(wp.vec3(*values[3:])))
    if "zaxis" in attrib:
        z_axis = wp.normalize(wp.vec3(*np.array(attrib["zaxis"].split(), dtype=np.float64)))
        return _frame_quat(wp.normalize(wp.cross(wp.vec3(0.0, 0.0, 1.0), z_axis)), z_axis)
    return wp.quat_identity()


def merge(defaults: dict, attrib) -> dict:
    """`defaults` overridden by `attrib`."""
    merged = dict(defaults)
    merged.update(attrib)
    return merged


class MjcfDefaults:
    """The <default> classes of a file: ``classes[name][tag]`` holds the attributes the class
    sets for elements of that tag ("__all__" is the unnamed top default)."""

    def __init__(self, root):
        self.classes = {"__all__": {}}
        for default in root.findall("default"):
            self._read(default)

    def _read(self, node):
        name = node.attrib.get("class", "__all__")
        tags = self.classes.setdefault(name, {})
        for child in node:
            if child.tag == "default":
                self._read(child)
            else:
                tags[child.tag] = child.attrib

    def with_class(self, defaults: dict, name) -> dict:
        """`defaults` overridden by class `name`'s (unchanged for an unknown class)."""
        return merge(defaults, self.classes.get(name, {})) if name else defaults

    def element(self, defaults: dict, element) -> dict:
        """The attributes of `element` over the defaults for its tag (its class applied)."""
        defaults = self.with_class(defaults, element.attrib.get("class"))
        return merge(defaults.get(element.tag, {}), element.attrib)
