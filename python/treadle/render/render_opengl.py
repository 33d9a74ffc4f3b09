"""treadle.render.render_opengl -- Warp's ``OpenGLRenderer`` name: no window or drawing, only
the static triangle-mesh generators that programs call without a renderer."""

import numpy as np


class OpenGLRenderer:
    """Warp's OpenGL renderer, which treadle does not have: constructing one raises; the static
    mesh generators work."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("OpenGLRenderer(): treadle has no OpenGL renderer")

    @staticmethod
    def _create_sphere_mesh(radius=1.0, num_latitudes=32, num_longitudes=32,
                            reverse_winding=False):
        """A UV sphere of `radius`: (vertices, indices), vertices float32 rows of position,
        normal and texture coordinates (8 values), indices uint32, 3 per triangle, wound
        outward (inward with `reverse_winding`). Rings run from the +y pole to the -y pole."""
        theta = np.arange(num_latitudes + 1) * np.pi / num_latitudes
        phi = np.arange(num_longitudes + 1) * 2.0 * np.pi / num_longitudes
        t, p = np.meshgrid(theta, phi, indexing="ij")
        normal = np.stack((np.cos(p) * np.sin(t), np.cos(t), np.sin(p) * np.sin(t)), axis=-1)
        u, v = np.meshgrid(np.arange(num_longitudes + 1) / num_longitudes,
                           np.arange(num_latitudes + 1) / num_latitudes)
        vertices = np.concatenate((normal * radius, normal, u[..., None], v[..., None]), axis=-1)
        i, j = np.meshgrid(np.arange(num_latitudes), np.arange(num_longitudes), indexing="ij")
        first = (i * (num_longitudes + 1) + j).ravel()
        second = first + num_longitudes + 1
        if reverse_winding:
            quads = (first, second, first + 1, second, second + 1, first + 1)
        else:
            quads = (first, first + 1, second, second, first + 1, second + 1)
        indices = np.stack(quads, axis=-1).ravel()
        return (vertices.reshape(-1, 8).astype(np.float32), indices.astype(np.uint32))
