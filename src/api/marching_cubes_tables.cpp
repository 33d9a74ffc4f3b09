// src/api/marching_cubes_tables.cpp -- the marching-cubes case tables, derived once from a rule
//
// A cube corner is "inside" when its value is below the threshold; a case is the set of inside
// corners (bit c for corner c). On each face of the cube the surface crosses the edges whose
// corners differ; a face with two crossed edges gets one segment between them, and a face
// whose inside corners are diagonal gets two segments, each cutting off one inside corner (the
// inside corners stay apart, on every face alike, so neighbouring cells agree and the surface
// has no cracks). Each segment is oriented so that, seen from outside the cube, the inside
// region is on its right; the segments then chain into closed loops around the inside corners,
// and each loop is cut into a fan of triangles from its first (lowest-numbered) edge. The
// triangles' right-hand normals point from the inside (lower values) to the outside.
#include <array>
#include <map>

#include "treadle/marching_cubes.h"

namespace treadle {

namespace {

using Vec = std::array<int, 3>;

constexpr std::array<std::array<int, 3>, 8> k_corners = {
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}};
// Each edge runs from its lower corner along +x, +y or +z: the bottom ring, the top ring, then
// the four vertical edges.
constexpr std::array<std::array<int, 2>, 12> k_edges = {{{0, 1},
                                                         {1, 2},
                                                         {3, 2},
                                                         {0, 3},
                                                         {4, 5},
                                                         {5, 6},
                                                         {7, 6},
                                                         {4, 7},
                                                         {0, 4},
                                                         {1, 5},
                                                         {2, 6},
                                                         {3, 7}}};

Vec operator-(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec operator+(const Vec& a, const Vec& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec scaled(const Vec& a, int s) { return {a[0] * s, a[1] * s, a[2] * s}; }
int dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec cross(const Vec& a, const Vec& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec corner(int c) { return {k_corners[c][0], k_corners[c][1], k_corners[c][2]}; }
/// Twice the midpoint of edge e (integer).
Vec midpoint2(int e) { return corner(k_edges[e][0]) + corner(k_edges[e][1]); }

int edge_between(int a, int b) {
    for (int e = 0; e < 12; ++e)
        if ((k_edges[e][0] == a && k_edges[e][1] == b) ||
            (k_edges[e][0] == b && k_edges[e][1] == a))
            return e;
    return -1;
}

/// A face: its corners counter-clockwise seen from outside, and its outward normal.
struct Face {
    std::array<int, 4> corners;
    Vec normal;
};

std::array<Face, 6> faces() {
    std::array<Face, 6> out{};
    int n = 0;
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            Vec normal{0, 0, 0};
            normal[axis] = side ? 1 : -1;
            // The face's corners in the order of the two other axes' square (0,0) (1,0) (1,1)
            // (0,1), which runs counter-clockwise about +axis; reversed for the -axis side.
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            const int square[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            std::array<int, 4> cs{};
            for (int k = 0; k < 4; ++k) {
                Vec p{0, 0, 0};
                p[axis] = side;
                p[u] = square[k][0];
                p[v] = square[k][1];
                for (int c = 0; c < 8; ++c)
                    if (corner(c) == p) cs[k] = c;
            }
            if (!side) std::swap(cs[1], cs[3]);
            out[n++] = {cs, normal};
        }
    }
    return out;
}

/// Orients segment (ea, eb) on a face of normal `n` so that `inside` (a direction from the
/// segment towards the inside region) lies on its right seen from outside; returns (from, to).
std::array<int, 2> oriented(int ea, int eb, const Vec& n, const Vec& inside) {
    const Vec d = midpoint2(eb) - midpoint2(ea);
    return dot(inside, cross(n, d)) < 0 ? std::array<int, 2>{ea, eb} : std::array<int, 2>{eb, ea};
}

/// The triangles (edge triples) of case `c`, in order.
std::vector<std::array<int, 3>> case_triangles(int c, const std::array<Face, 6>& fs) {
    auto inside = [c](int corner_index) { return (c >> corner_index) & 1; };
    std::map<int, int> next;  // segment start edge -> end edge
    for (const Face& f : fs) {
        int edges[4], crossed = 0;
        for (int k = 0; k < 4; ++k) {
            edges[k] = edge_between(f.corners[k], f.corners[(k + 1) % 4]);
            crossed += inside(f.corners[k]) != inside(f.corners[(k + 1) % 4]);
        }
        if (crossed == 2) {
            int ends[2], m = 0, in_count = 0;
            Vec in_sum{0, 0, 0}, out_sum{0, 0, 0};
            for (int k = 0; k < 4; ++k) {
                if (inside(f.corners[k]) != inside(f.corners[(k + 1) % 4])) ends[m++] = edges[k];
                if (inside(f.corners[k])) {
                    in_sum = in_sum + corner(f.corners[k]);
                    ++in_count;
                } else {
                    out_sum = out_sum + corner(f.corners[k]);
                }
            }
            // From the outside corners' centroid towards the inside corners' one.
            const Vec towards = scaled(in_sum, 4 - in_count) - scaled(out_sum, in_count);
            const auto s = oriented(ends[0], ends[1], f.normal, towards);
            next[s[0]] = s[1];
        } else if (crossed == 4) {
            for (int k = 0; k < 4; ++k) {
                if (!inside(f.corners[k])) continue;
                const int ea = edges[(k + 3) % 4], eb = edges[k];
                const Vec towards = scaled(corner(f.corners[k]), 4) - midpoint2(ea) - midpoint2(eb);
                const auto s = oriented(ea, eb, f.normal, towards);
                next[s[0]] = s[1];
            }
        }
    }
    std::vector<std::array<int, 3>> tris;
    while (!next.empty()) {
        std::vector<int> loop{next.begin()->first};
        int e = next.begin()->second;
        next.erase(next.begin());
        while (e != loop[0]) {
            loop.push_back(e);
            auto it = next.find(e);
            e = it->second;
            next.erase(it);
        }
        for (size_t k = 1; k + 1 < loop.size(); ++k)
            tris.push_back({loop[0], loop[k], loop[k + 1]});
    }
    return tris;
}

MarchingCubesTables build_tables() {
    MarchingCubesTables t;
    t.corner_offsets = k_corners;
    t.edge_corners = k_edges;
    const std::array<Face, 6> fs = faces();
    t.case_first.push_back(0);
    for (int c = 0; c < 256; ++c) {
        for (const auto& tri : case_triangles(c, fs))
            for (int e : tri) t.tri_edges.push_back(e);
        t.case_first.push_back((int32_t)t.tri_edges.size());
    }
    return t;
}

}  // namespace

const MarchingCubesTables& marching_cubes_tables() {
    static const MarchingCubesTables k_tables = build_tables();
    return k_tables;
}

}  // namespace treadle
