// tests/cpp/api/mesh_fixtures.h -- test meshes (cube, sphere, torus, soup) and brute-force
// references
#pragma once

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "../../../native/treadle/mesh.h"
#include "treadle/mesh.h"

namespace mesh_fixtures {

using Vec = std::array<float, 3>;

struct TriMesh {
    std::vector<Vec> points;
    std::vector<int32_t> indices;
};

inline wp::vec3 v(const Vec& a) { return wp::vec3(a[0], a[1], a[2]); }

/// The unit cube [0, 1]^3, twelve faces wound counter-clockwise seen from outside.
inline TriMesh cube() {
    TriMesh m;
    for (int i = 0; i < 8; ++i)
        m.points.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)});
    m.indices = {0, 2, 3, 0, 3, 1,   // z = 0 (normal -z)
                 4, 5, 7, 4, 7, 6,   // z = 1
                 0, 1, 5, 0, 5, 4,   // y = 0
                 2, 6, 7, 2, 7, 3,   // y = 1
                 0, 4, 6, 0, 6, 2,   // x = 0
                 1, 3, 7, 1, 7, 5};  // x = 1
    return m;
}

/// A latitude-longitude sphere of radius r about the origin, outward wound.
inline TriMesh sphere(float r, int lat, int lon) {
    TriMesh m;
    m.points.push_back({0.0f, 0.0f, r});
    for (int i = 1; i < lat; ++i) {
        const double th = M_PI * i / lat;
        for (int j = 0; j < lon; ++j) {
            const double ph = 2.0 * M_PI * j / lon;
            m.points.push_back({float(r * std::sin(th) * std::cos(ph)),
                                float(r * std::sin(th) * std::sin(ph)), float(r * std::cos(th))});
        }
    }
    m.points.push_back({0.0f, 0.0f, -r});
    const int south = static_cast<int>(m.points.size()) - 1;
    auto ring = [&](int i, int j) { return 1 + (i - 1) * lon + (j % lon); };
    for (int j = 0; j < lon; ++j)
        m.indices.insert(m.indices.end(), {0, ring(1, j), ring(1, j + 1)});
    for (int i = 1; i < lat - 1; ++i)
        for (int j = 0; j < lon; ++j) {
            const int a = ring(i, j), b = ring(i, j + 1), c = ring(i + 1, j),
                      d = ring(i + 1, j + 1);
            m.indices.insert(m.indices.end(), {a, c, d, a, d, b});
        }
    for (int j = 0; j < lon; ++j)
        m.indices.insert(m.indices.end(), {south, ring(lat - 1, j + 1), ring(lat - 1, j)});
    return m;
}

/// A torus about the z axis (tube radius r around a circle of radius R), outward wound.
inline TriMesh torus(float R, float r, int nu, int nv) {
    TriMesh m;
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            const double u = 2.0 * M_PI * i / nu, w = 2.0 * M_PI * j / nv;
            m.points.push_back({float((R + r * std::cos(w)) * std::cos(u)),
                                float((R + r * std::cos(w)) * std::sin(u)),
                                float(r * std::sin(w))});
        }
    auto id = [&](int i, int j) { return (i % nu) * nv + (j % nv); };
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
            m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
        }
    return m;
}

/// Random triangles in [-5, 5]^3 (not closed, some nearly degenerate).
inline TriMesh soup(int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> pos(-5.0f, 5.0f), off(-1.5f, 1.5f);
    TriMesh m;
    for (int i = 0; i < n; ++i) {
        const Vec c{pos(rng), pos(rng), pos(rng)};
        for (int k = 0; k < 3; ++k)
            m.points.push_back({c[0] + off(rng), c[1] + off(rng), c[2] + off(rng)});
        m.indices.insert(m.indices.end(), {3 * i, 3 * i + 1, 3 * i + 2});
    }
    return m;
}

/// A Mesh owning copies of m's points and indices (default options).
inline treadle::Mesh make_mesh(const TriMesh& m) { return treadle::Mesh(m.points, m.indices); }

inline void face(const TriMesh& m, int f, wp::vec3& a, wp::vec3& b, wp::vec3& c) {
    a = v(m.points[m.indices[3 * f]]);
    b = v(m.points[m.indices[3 * f + 1]]);
    c = v(m.points[m.indices[3 * f + 2]]);
}

/// Signed volume (> 0 for an outward-wound closed mesh).
inline double volume(const TriMesh& m) {
    double vol = 0.0;
    for (size_t f = 0; f < m.indices.size() / 3; ++f) {
        wp::vec3 a, b, c;
        face(m, int(f), a, b, c);
        vol += wp::dot(a, wp::cross(b, c)) / 6.0;
    }
    return vol;
}

/// Brute-force closest distance over the non-sliver faces.
inline float brute_closest(const TriMesh& m, const wp::vec3& p) {
    float best = 3.4e38f;
    for (size_t f = 0; f < m.indices.size() / 3; ++f) {
        wp::vec3 a, b, c;
        face(m, int(f), a, b, c);
        if (wp::mesh_detail::sliver(a, b, c)) continue;
        const wp::vec3 w = wp::triangle_closest_point_barycentric(a, b, c, p);
        const wp::vec3 q =
            wp::add(wp::add(wp::mul(a, w.c[0]), wp::mul(b, w.c[1])), wp::mul(c, w.c[2]));
        best = std::min(best, wp::length(wp::sub(q, p)));
    }
    return best;
}

/// One Moeller-Trumbore hit in double: t, the weights of the first two vertices, and whether
/// the ray meets the front (dot(dir, normal) < 0).
struct RefHit {
    bool hit = false;
    double t = 0, u = 0, v = 0;
    bool front = false;
};

inline RefHit moeller_trumbore(const wp::vec3& o, const wp::vec3& d, const wp::vec3& a,
                               const wp::vec3& b, const wp::vec3& c) {
    const double e1[3] = {double(b.c[0]) - a.c[0], double(b.c[1]) - a.c[1],
                          double(b.c[2]) - a.c[2]};
    const double e2[3] = {double(c.c[0]) - a.c[0], double(c.c[1]) - a.c[1],
                          double(c.c[2]) - a.c[2]};
    const double dd[3] = {d.c[0], d.c[1], d.c[2]};
    auto cr = [](const double* x, const double* y, double* z) {
        z[0] = x[1] * y[2] - x[2] * y[1];
        z[1] = x[2] * y[0] - x[0] * y[2];
        z[2] = x[0] * y[1] - x[1] * y[0];
    };
    auto dt = [](const double* x, const double* y) {
        return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    };
    double p[3], q[3], n[3];
    cr(dd, e2, p);
    const double det = dt(e1, p);
    RefHit h;
    if (std::abs(det) < 1e-12) return h;
    const double s[3] = {double(o.c[0]) - a.c[0], double(o.c[1]) - a.c[1], double(o.c[2]) - a.c[2]};
    const double wb = dt(s, p) / det;
    cr(s, e1, q);
    const double wc = dt(dd, q) / det;
    const double t = dt(e2, q) / det;
    if (wb < 0 || wc < 0 || wb + wc > 1 || t < 0) return h;
    cr(e1, e2, n);
    h.hit = true;
    h.t = t;
    h.u = 1.0 - wb - wc;
    h.v = wb;
    h.front = dt(dd, n) < 0;
    return h;
}

}  // namespace mesh_fixtures
