// include/treadle/marching_cubes.h -- isosurfaces of 3-D scalar fields by marching cubes
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "treadle/array.h"

namespace treadle {

class Tape;

/// The case tables of marching cubes. Corner c of a cell at node (i, j, k) is the node
/// (i, j, k) + corner_offsets[c]; edge e joins corners edge_corners[e][0] and [1], running
/// along +x, +y or +z. A cell's case has bit c set when corner c's value is below the
/// threshold; case c's triangles are the edge triples tri_edges[case_first[c] ..
/// case_first[c + 1]) (257 entries; 820 triangles in all), their right-hand normals pointing
/// towards higher values. Ambiguous faces keep the corners below the threshold apart, the same
/// way in every cell, so a surface has no cracks.
struct MarchingCubesTables {
    std::array<std::array<int, 3>, 8> corner_offsets;
    std::array<std::array<int, 2>, 12> edge_corners;
    std::vector<int32_t> case_first;
    std::vector<int32_t> tri_edges;
};

/// The tables, built on first use (thread-safe).
const MarchingCubesTables& marching_cubes_tables();

/// A triangle mesh extracted from a field.
struct SurfaceMesh {
    /// vec3 float32 positions: one vertex per grid edge the surface crosses, in the order of
    /// the edge's lower node (row-major over (i, j, k)) and, at one node, of x, y, z.
    Array verts;
    /// int32, three per triangle (a flat array), cells in row-major order.
    Array indices;
    /// int32 per node: the number of vertices of the nodes before it and itself (an inclusive
    /// scan); what extract_surface_adjoint needs to find each node's vertices.
    Array vertex_ends;
};

/// Where the grid's corner nodes lie: node (0, 0, 0) at `lower`, node (nx-1, ny-1, nz-1) at
/// `upper`, linearly between. Left out, lower is (0, 0, 0) and upper (nx-1, ny-1, nz-1), so
/// that positions are in node indices.
struct SurfaceBounds {
    std::optional<std::array<float, 3>> lower;
    std::optional<std::array<float, 3>> upper;
};

/// The isosurface of `field` (a 3-D float32 array of node values, on any device, any strides)
/// at `threshold`. Each vertex lies on a crossed edge where the linear interpolation of the
/// edge's two values meets the threshold. Arrays come back on the field's device (empty when
/// nothing crosses). Throws treadle::Error: Value for a field that is not 3-D, empty, or has
/// fewer than 2 nodes along an axis; Type for a dtype other than float32.
///
/// With `tape`, the extraction is recorded: its backward pass adds the gradient of the
/// vertices into the field's (both need gradients: `verts` gets one when the field has one).
SurfaceMesh extract_surface(const Array& field, float threshold, const SurfaceBounds& bounds = {},
                            Tape* tape = nullptr);

/// The backward pass of extract_surface(field, threshold, bounds) that gave `mesh` (the field
/// holding the same values): adds d loss / d field, from `adj_verts` (d loss / d mesh.verts,
/// shaped like it), to `adj_field` (shaped like the field). Indices carry no gradient.
void extract_surface_adjoint(const Array& field, float threshold, const SurfaceBounds& bounds,
                             const SurfaceMesh& mesh, const Array& adj_verts,
                             const Array& adj_field);

}  // namespace treadle
