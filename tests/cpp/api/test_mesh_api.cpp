// tests/cpp/api/test_mesh_api.cpp -- treadle::Mesh builds, queried by id through
// native/treadle/mesh.h
#include <gtest/gtest.h>

#include <cstddef>
#include <set>

#include "mesh_fixtures.h"
#include "treadle/error.h"

namespace {

using namespace mesh_fixtures;

// the host build writes the layout kernels read
static_assert(sizeof(treadle::MeshArrayView) == sizeof(wp::array_t<wp::vec3>));
static_assert(sizeof(treadle::MeshWindingNode) == sizeof(wp::mesh_winding_node_t));
static_assert(sizeof(treadle::MeshDescriptor) == sizeof(wp::mesh_t));
static_assert(offsetof(treadle::MeshDescriptor, bvh) == offsetof(wp::mesh_t, bvh));
static_assert(offsetof(treadle::MeshDescriptor, winding) == offsetof(wp::mesh_t, winding));
static_assert(offsetof(treadle::MeshDescriptor, average_edge_length) ==
              offsetof(wp::mesh_t, average_edge_length));

treadle::Mesh make(const TriMesh& m, bool winding = false,
                   treadle::BvhConstructor c = treadle::BvhConstructor::Sah, int leaf = 4) {
    return treadle::Mesh(m.points, m.indices, {}, winding, c, {}, leaf);
}

/// Whether p is inside the closed test shape, or -1 when it is too near the surface to say.
using Shape = int (*)(const wp::vec3&);
int in_cube(const wp::vec3& p) {
    float d = 1e9f;
    for (int k = 0; k < 3; ++k)
        d = std::min(d, std::min(std::abs(p.c[k]), std::abs(p.c[k] - 1.0f)));
    if (d < 0.02f) return -1;
    for (int k = 0; k < 3; ++k)
        if (p.c[k] < 0.0f || p.c[k] > 1.0f) return 0;
    return 1;
}
int in_sphere(const wp::vec3& p) {
    const float r = wp::length(p);
    if (std::abs(r - 1.0f) < 0.08f) return -1;
    return r < 1.0f;
}
int in_torus(const wp::vec3& p) {
    const float q = std::sqrt(p.c[0] * p.c[0] + p.c[1] * p.c[1]) - 1.0f;
    const float d = std::sqrt(q * q + p.c[2] * p.c[2]);
    if (std::abs(d - 0.4f) < 0.06f) return -1;
    return d < 0.4f;
}

struct Closed {
    const char* name;
    TriMesh mesh;
    Shape inside;
    float extent;
};

std::vector<Closed> closed_meshes() {
    return {{"cube", cube(), in_cube, 1.5f},
            {"sphere", sphere(1.0f, 14, 20), in_sphere, 1.5f},
            {"torus", torus(1.0f, 0.4f, 24, 12), in_torus, 1.6f}};
}

TEST(MeshApi, TestMeshesAreClosedAndOutwardWound) {
    for (const Closed& c : closed_meshes()) EXPECT_GT(volume(c.mesh), 0.0) << c.name;
    EXPECT_GT(sphere(1.0f, 14, 20).indices.size() / 3, 300u);
}

class MeshConstructors : public ::testing::TestWithParam<treadle::BvhConstructor> {};

TEST_P(MeshConstructors, ClosestPointsMatchBruteForce) {
    std::vector<TriMesh> meshes = {cube(), sphere(1.0f, 14, 20), torus(1.0f, 0.4f, 24, 12),
                                   soup(300, 5)};
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> pos(-6.0f, 6.0f);
    for (const TriMesh& tm : meshes)
        for (int leaf : {1, 4}) {
            treadle::Mesh mesh = make(tm, false, GetParam(), leaf);
            for (int t = 0; t < 60; ++t) {
                const wp::vec3 p(pos(rng) * 0.4f, pos(rng) * 0.4f, pos(rng) * 0.4f);
                const float expect = brute_closest(tm, p);
                const wp::mesh_query_point_t q = wp::mesh_query_point_no_sign(mesh.id(), p, 1e6f);
                ASSERT_TRUE(q.result);
                const wp::vec3 x = wp::mesh_eval_position(mesh.id(), q.face, q.u, q.v);
                EXPECT_NEAR(wp::length(wp::sub(x, p)), expect, 1e-5f);
                EXPECT_GE(q.u, -1e-6f);
                EXPECT_GE(q.v, -1e-6f);
                EXPECT_LE(q.u + q.v, 1.0f + 1e-6f);
                // max_dist is strict and bounds the search
                EXPECT_FALSE(wp::mesh_query_point_no_sign(mesh.id(), p, expect * 0.999f).result);
                EXPECT_TRUE(
                    wp::mesh_query_point_no_sign(mesh.id(), p, expect * 1.001f + 1e-6f).result);
            }
        }
}

TEST(MeshApi, CubeClosestPointAndFace) {
    treadle::Mesh mesh = make(cube());
    const wp::mesh_query_point_t q =
        wp::mesh_query_point(mesh.id(), wp::vec3(0.1f, 0.2f, 0.3f), 1e6f);
    ASSERT_TRUE(q.result);
    EXPECT_LT(q.sign, 0.0f);
    const wp::vec3 x = wp::mesh_eval_position(mesh.id(), q.face, q.u, q.v);
    EXPECT_NEAR(x.c[0], 0.0f, 1e-6f);
    EXPECT_NEAR(x.c[1], 0.2f, 1e-6f);
    EXPECT_NEAR(x.c[2], 0.3f, 1e-6f);
    EXPECT_TRUE(q.face == 8 || q.face == 9);
    // nothing found: result false, the rest at their defaults
    const wp::mesh_query_point_t none = wp::mesh_query_point(mesh.id(), wp::vec3(5, 5, 5), 1.0f);
    EXPECT_FALSE(none.result);
    EXPECT_EQ(none.face, 0);
    EXPECT_EQ(none.sign, 0.0f);
}

TEST(MeshApi, EverySignMethodClassifiesClosedMeshes) {
    for (const Closed& c : closed_meshes()) {
        treadle::Mesh plain = make(c.mesh);
        treadle::Mesh winding = make(c.mesh, true);
        std::mt19937 rng(9);
        std::uniform_real_distribution<float> pos(-c.extent, c.extent);
        int checked = 0, inside = 0;
        while (checked < 150) {
            const wp::vec3 p(pos(rng) * (c.inside == in_cube ? 0.5f : 1.0f) +
                                 (c.inside == in_cube ? 0.5f : 0.0f),
                             pos(rng) * (c.inside == in_cube ? 0.5f : 1.0f) +
                                 (c.inside == in_cube ? 0.5f : 0.0f),
                             pos(rng) * (c.inside == in_cube ? 0.5f : 1.0f) +
                                 (c.inside == in_cube ? 0.5f : 0.0f));
            const int expect = c.inside(p);
            if (expect < 0) continue;
            ++checked;
            inside += expect;
            const float want = expect ? -1.0f : 1.0f;
            const float dist = brute_closest(c.mesh, p);
            const wp::mesh_query_point_t results[] = {
                wp::mesh_query_point(plain.id(), p, 1e6f),
                wp::mesh_query_point_sign_normal(plain.id(), p, 1e6f),
                wp::mesh_query_point_sign_winding_number(winding.id(), p, 1e6f),
                wp::mesh_query_point_sign_winding_number(plain.id(), p, 1e6f),  // falls back
                wp::mesh_query_point_sign_parity(plain.id(), p, 1e6f, 3, 0.1f)};
            for (size_t k = 0; k < std::size(results); ++k) {
                ASSERT_TRUE(results[k].result);
                EXPECT_EQ(results[k].sign, want) << c.name << " method " << k << " at " << p.c[0]
                                                 << " " << p.c[1] << " " << p.c[2];
                const wp::vec3 x =
                    wp::mesh_eval_position(plain.id(), results[k].face, results[k].u, results[k].v);
                EXPECT_NEAR(wp::length(wp::sub(x, p)), dist, 1e-5f);
            }
        }
        EXPECT_GT(inside, 5) << c.name;
        EXPECT_LT(inside, 145) << c.name;
    }
}

TEST(MeshApi, WindingNumberIsOneInsideAndZeroOutside) {
    const TriMesh s = sphere(1.0f, 14, 20);
    treadle::Mesh mesh = make(s, true, treadle::BvhConstructor::Sah, 1);
    const wp::mesh_t& m = *reinterpret_cast<const wp::mesh_t*>(mesh.id());
    for (float accuracy : {2.0f, 1e6f}) {
        EXPECT_NEAR(wp::mesh_detail::winding_number(m, wp::vec3(0.1f, 0.2f, -0.3f), accuracy), 1.0f,
                    2e-3f);
        EXPECT_NEAR(wp::mesh_detail::winding_number(m, wp::vec3(3.0f, 1.0f, 0.5f), accuracy), 0.0f,
                    2e-3f);
    }
    // on a soup, the far-field expansion stays close to the exact sum of solid angles
    const TriMesh tm = soup(300, 21);
    treadle::Mesh sm = make(tm, true);
    const wp::mesh_t& smd = *reinterpret_cast<const wp::mesh_t*>(sm.id());
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> pos(-7.0f, 7.0f);
    for (int t = 0; t < 50; ++t) {
        const wp::vec3 p(pos(rng), pos(rng), pos(rng));
        double exact = 0.0;
        for (size_t f = 0; f < tm.indices.size() / 3; ++f) {
            wp::vec3 a, b, c;
            face(tm, int(f), a, b, c);
            exact += wp::mesh_detail::triangle_solid_angle(a, b, c, p) / (4.0 * M_PI);
        }
        EXPECT_NEAR(wp::mesh_detail::winding_number(smd, p, 2.0f), exact, 1e-3);
    }
    // an open mesh (the sphere without its southern cap) gives a fraction near the hole
    TriMesh open = s;
    open.indices.resize(open.indices.size() - 3 * 20);
    treadle::Mesh half = make(open, true);
    const float w = wp::mesh_detail::winding_number(*reinterpret_cast<const wp::mesh_t*>(half.id()),
                                                    wp::vec3(0.0f, 0.0f, -0.99f), 2.0f);
    EXPECT_GT(w, 0.05f);
    EXPECT_LT(w, 0.95f);
}

TEST_P(MeshConstructors, RaysMatchMoellerTrumbore) {
    std::vector<TriMesh> meshes = {cube(), sphere(1.0f, 14, 20), torus(1.0f, 0.4f, 24, 12),
                                   soup(300, 6)};
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f);
    int hits = 0;
    for (const TriMesh& tm : meshes) {
        treadle::Mesh mesh = make(tm, false, GetParam());
        const int nf = int(tm.indices.size() / 3);
        for (int t = 0; t < 80; ++t) {
            // aimed at a point near the origin, from up to 6 away
            wp::vec3 o(pos(rng) * 6.0f, pos(rng) * 6.0f, pos(rng) * 6.0f);
            const wp::vec3 target(pos(rng) * 0.8f, pos(rng) * 0.8f, pos(rng) * 0.8f);
            if (t % 7 == 0) o.c[t % 3] = target.c[t % 3];  // rays parallel to a slab
            const wp::vec3 d = wp::mul(wp::sub(target, o), 0.5f + pos(rng) * 0.4f);
            const float max_t = t % 3 ? 1e6f : 4.0f;
            RefHit best;
            int best_face = -1, count = 0;
            for (int f = 0; f < nf; ++f) {
                wp::vec3 a, b, c;
                face(tm, f, a, b, c);
                const RefHit h = moeller_trumbore(o, d, a, b, c);
                if (!h.hit) continue;
                ++count;
                if (h.t < max_t && (best_face < 0 || h.t < best.t)) best = h, best_face = f;
            }
            const wp::mesh_query_ray_t q = wp::mesh_query_ray(mesh.id(), o, d, max_t);
            EXPECT_EQ(q.result, best_face >= 0);
            EXPECT_EQ(wp::mesh_query_ray_anyhit(mesh.id(), o, d, max_t), best_face >= 0);
            EXPECT_EQ(wp::mesh_query_ray_count_intersections(mesh.id(), o, d), count);
            if (!q.result || best_face < 0) continue;
            ++hits;
            EXPECT_NEAR(q.t, best.t, 1e-4 * (1.0 + best.t));
            wp::vec3 a, b, c;
            face(tm, q.face, a, b, c);
            const wp::vec3 n = wp::normalize(wp::cross(wp::sub(b, a), wp::sub(c, a)));
            for (int k = 0; k < 3; ++k) EXPECT_NEAR(q.normal.c[k], n.c[k], 1e-5f);
            const wp::vec3 at = wp::add(o, wp::mul(d, q.t));
            const wp::vec3 x = wp::mesh_eval_position(mesh.id(), q.face, q.u, q.v);
            EXPECT_NEAR(wp::length(wp::sub(x, at)), 0.0f, 1e-4f);
            if (q.face == best_face) {
                EXPECT_NEAR(q.u, best.u, 1e-4);
                EXPECT_NEAR(q.v, best.v, 1e-4);
                EXPECT_EQ(q.sign > 0.0f, best.front);
            }
        }
    }
    EXPECT_GT(hits, 60);
}

TEST(MeshApi, RayThroughASharedEdgeHitsOnce) {
    treadle::Mesh mesh = make(cube());
    // the diagonal edge of the z = 0 face, and a vertex of the z = 1 face
    const wp::mesh_query_ray_t q =
        wp::mesh_query_ray(mesh.id(), wp::vec3(0.5f, 0.5f, -1.0f), wp::vec3(0, 0, 1), 1e6f);
    ASSERT_TRUE(q.result);
    EXPECT_FLOAT_EQ(q.t, 1.0f);
    EXPECT_GT(q.sign, 0.0f);  // the front of the bottom face
    EXPECT_FLOAT_EQ(q.normal.c[2], -1.0f);
    const int n = wp::mesh_query_ray_count_intersections(mesh.id(), wp::vec3(0.5f, 0.5f, -1.0f),
                                                         wp::vec3(0, 0, 1));
    EXPECT_GE(n, 2);
    EXPECT_EQ(wp::mesh_query_ray_count_intersections(mesh.id(), wp::vec3(0.3f, 0.6f, 0.5f),
                                                     wp::vec3(0, 0, 1)),
              1);
    // a zero direction meets nothing
    EXPECT_EQ(wp::mesh_query_ray_count_intersections(mesh.id(), wp::vec3(0.3f, 0.6f, 0.5f),
                                                     wp::vec3(0, 0, 0)),
              0);
    EXPECT_FALSE(
        wp::mesh_query_ray_anyhit(mesh.id(), wp::vec3(0.3f, 0.6f, 0.5f), wp::vec3(0, 0, 0), 1e6f));
    // from inside, the top face is hit from behind
    const wp::mesh_query_ray_t in =
        wp::mesh_query_ray(mesh.id(), wp::vec3(0.3f, 0.6f, 0.5f), wp::vec3(0, 0, 2), 1e6f);
    ASSERT_TRUE(in.result);
    EXPECT_FLOAT_EQ(in.t, 0.25f);
    EXPECT_LT(in.sign, 0.0f);
}

TEST_P(MeshConstructors, RaysOnEdgesAndSlabBoundariesHit) {
    // a square of two triangles sharing the diagonal from (0, 0.5) to (0.5, 0)
    TriMesh square;
    square.points = {{0, 0, 0}, {0, 0.5f, 0}, {0.5f, 0, 0}, {0.5f, 0.5f, 0}};
    square.indices = {1, 0, 2, 1, 2, 3};
    for (int leaf : {1, 2, 4}) {
        treadle::Mesh mesh = make(square, false, GetParam(), leaf);
        for (int i = 0; i < 30; ++i)
            for (int j = 0; j < 30; ++j) {
                const wp::vec3 o(0.1f + 0.01f * i, 0.1f + 0.01f * j, 1.0f);
                EXPECT_TRUE(wp::mesh_query_ray(mesh.id(), o, wp::vec3(0, 0, -1), 1e6f).result)
                    << o.c[0] << " " << o.c[1];
            }
    }
    // rays parallel to the x and y slabs, starting on the mesh box's faces
    TriMesh quad;
    quad.points = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
    quad.indices = {0, 1, 2, 0, 2, 3};
    treadle::Mesh mesh = make(quad, false, GetParam());
    for (const wp::vec3 o : {wp::vec3(2, 1, 1), wp::vec3(0, 1, 1), wp::vec3(1, 2, 1),
                             wp::vec3(1, 0, 1), wp::vec3(1, 1, 1)}) {
        const wp::vec3 d(0, 0, -1);
        EXPECT_GE(wp::mesh_query_ray_count_intersections(mesh.id(), o, d), 1);
        EXPECT_TRUE(wp::mesh_query_ray(mesh.id(), o, d, 10.0f).result);
        EXPECT_TRUE(wp::mesh_query_ray_anyhit(mesh.id(), o, d, 10.0f));
    }
}

TEST_P(MeshConstructors, BoxAndSphereQueriesMatchBruteForce) {
    const TriMesh tm = soup(400, 8);
    treadle::Mesh mesh = make(tm, false, GetParam());
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> pos(-5.0f, 5.0f);
    for (int t = 0; t < 40; ++t) {
        const wp::vec3 lo(pos(rng), pos(rng), pos(rng));
        const wp::vec3 hi(lo.c[0] + 2.0f, lo.c[1] + 3.0f, lo.c[2] + 1.5f);
        std::set<int> expect_box, expect_sphere, got_box, got_sphere;
        const float r = 1.2f;
        for (int f = 0; f < int(tm.indices.size() / 3); ++f) {
            wp::vec3 a, b, c;
            face(tm, f, a, b, c);
            bool overlap = true;
            for (int k = 0; k < 3; ++k) {
                const float l = std::min({a.c[k], b.c[k], c.c[k]});
                const float u = std::max({a.c[k], b.c[k], c.c[k]});
                overlap = overlap && l <= hi.c[k] && u >= lo.c[k];
            }
            if (overlap) expect_box.insert(f);
            const wp::vec3 w = wp::triangle_closest_point_barycentric(a, b, c, lo);
            const wp::vec3 q =
                wp::add(wp::add(wp::mul(a, w.c[0]), wp::mul(b, w.c[1])), wp::mul(c, w.c[2]));
            if (wp::length(wp::sub(q, lo)) <= r) expect_sphere.insert(f);
        }
        wp::mesh_query_aabb_t qb = wp::mesh_query_aabb(mesh.id(), lo, hi);
        int f = -1;
        while (wp::mesh_query_aabb_next(qb, f)) EXPECT_TRUE(got_box.insert(f).second);
        EXPECT_EQ(got_box, expect_box);
        wp::mesh_query_aabb_t qs = wp::mesh_query_sphere(mesh.id(), lo, r);
        while (wp::mesh_query_sphere_next(qs, f)) EXPECT_TRUE(got_sphere.insert(f).second);
        EXPECT_EQ(got_sphere, expect_sphere);
        const int last = f;
        EXPECT_FALSE(wp::mesh_query_next_dynamic(qs, f));
        EXPECT_EQ(f, last);  // index unchanged once exhausted
    }
}

TEST(MeshApi, FurthestPointIsTheFarthestVertex) {
    const TriMesh tm = soup(200, 12);
    treadle::Mesh mesh = make(tm);
    std::mt19937 rng(6);
    std::uniform_real_distribution<float> pos(-8.0f, 8.0f);
    for (int t = 0; t < 30; ++t) {
        const wp::vec3 p(pos(rng), pos(rng), pos(rng));
        float expect = 0.0f;
        for (size_t f = 0; f < tm.indices.size() / 3; ++f) {
            wp::vec3 a, b, c;
            face(tm, int(f), a, b, c);
            if (wp::mesh_detail::sliver(a, b, c)) continue;
            for (const wp::vec3& x : {a, b, c})
                expect = std::max(expect, wp::length(wp::sub(x, p)));
        }
        const wp::mesh_query_point_t q = wp::mesh_query_furthest_point_no_sign(mesh.id(), p, 0.0f);
        ASSERT_TRUE(q.result);
        const wp::vec3 x = wp::mesh_eval_position(mesh.id(), q.face, q.u, q.v);
        EXPECT_NEAR(wp::length(wp::sub(x, p)), expect, 1e-5f);
        EXPECT_FALSE(wp::mesh_query_furthest_point_no_sign(mesh.id(), p, expect * 1.001f).result);
    }
}

TEST(MeshApi, GroupRootsConfineRays) {
    TriMesh two;
    two.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 5}, {1, 0, 5}, {0, 1, 5}};
    two.indices = {0, 1, 2, 3, 4, 5};
    treadle::Mesh mesh(two.points, two.indices, {}, false, treadle::BvhConstructor::Sah, {0, 1});
    const int root = wp::mesh_get_group_root(mesh.id(), 1);
    ASSERT_GE(root, 0);
    const wp::vec3 o(0.1f, 0.1f, -1.0f), d(0, 0, 1);
    EXPECT_EQ(wp::mesh_query_ray(mesh.id(), o, d, 1e6f).face, 0);
    const wp::mesh_query_ray_t q = wp::mesh_query_ray(mesh.id(), o, d, 1e6f, root);
    ASSERT_TRUE(q.result);
    EXPECT_EQ(q.face, 1);
    EXPECT_FLOAT_EQ(q.t, 6.0f);
    EXPECT_EQ(wp::mesh_query_ray_count_intersections(mesh.id(), o, d, root), 1);
    EXPECT_EQ(wp::mesh_get_group_root(mesh.id(), 7), -1);
    EXPECT_EQ(wp::mesh_get_bvh(mesh.id()), mesh.bvh_id());
}

TEST(MeshApi, AccessorsAndVelocities) {
    const TriMesh c = cube();
    std::vector<Vec> vel;
    for (const Vec& p : c.points) vel.push_back({p[0] * 2.0f, -p[1], 3.0f});
    treadle::Mesh mesh(c.points, c.indices, vel);
    const wp::mesh_t m = wp::mesh_get(mesh.id());
    EXPECT_EQ(m.num_points, 8);
    EXPECT_EQ(m.num_tris, 12);
    EXPECT_EQ(m.indices[5], c.indices[5]);
    for (int i = 0; i < 36; ++i) {
        EXPECT_EQ(wp::mesh_get_index(mesh.id(), i), c.indices[i]);
        const wp::vec3 p = wp::mesh_get_point(mesh.id(), i),
                       w = wp::mesh_get_velocity(mesh.id(), i);
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(p.c[k], c.points[c.indices[i]][k]);
            EXPECT_EQ(w.c[k], vel[c.indices[i]][k]);
        }
    }
    const wp::vec3 v = wp::mesh_eval_velocity(mesh.id(), 2, 0.25f, 0.5f);
    for (int k = 0; k < 3; ++k)
        EXPECT_FLOAT_EQ(v.c[k], 0.25f * vel[4][k] + 0.5f * vel[5][k] + 0.25f * vel[7][k]);
    const wp::vec3 n = wp::mesh_eval_face_normal(mesh.id(), 4);
    EXPECT_FLOAT_EQ(n.c[1], -1.0f);
    // indices outside the mesh give zeros and -1, never a stray read
    EXPECT_EQ(wp::length(wp::mesh_eval_position(mesh.id(), 12, 0.2f, 0.3f)), 0.0f);
    EXPECT_EQ(wp::length(wp::mesh_eval_face_normal(mesh.id(), -1)), 0.0f);
    EXPECT_EQ(wp::length(wp::mesh_get_point(mesh.id(), 36)), 0.0f);
    EXPECT_EQ(wp::mesh_get_index(mesh.id(), -2), -1);
    // a mesh without velocities evaluates them as zero
    treadle::Mesh plain = make(c);
    EXPECT_EQ(wp::length(wp::mesh_eval_velocity(plain.id(), 0, 0.3f, 0.3f)), 0.0f);
    EXPECT_EQ(wp::length(wp::mesh_get_velocity(plain.id(), 0)), 0.0f);
    EXPECT_NEAR(mesh.average_edge_length(), (12 * 2 + 12 * std::sqrt(2.0f)) / 36.0f, 1e-6f);
}

TEST_P(MeshConstructors, RefitFollowsMovedPoints) {
    TriMesh tm = sphere(1.0f, 10, 12);
    treadle::Mesh mesh = make(tm, true, GetParam());
    for (Vec& p : mesh.points()) p = {p[0] * 2.0f + 3.0f, p[1] * 0.5f, p[2]};
    mesh.refit();
    for (Vec& p : tm.points) p = {p[0] * 2.0f + 3.0f, p[1] * 0.5f, p[2]};
    const wp::vec3 probe(3.2f, 0.1f, 0.0f), far(0.0f, 0.0f, 0.0f);
    EXPECT_LT(wp::mesh_query_point_sign_winding_number(mesh.id(), probe, 1e6f).sign, 0.0f);
    EXPECT_GT(wp::mesh_query_point(mesh.id(), far, 1e6f).sign, 0.0f);
    const wp::mesh_query_point_t q = wp::mesh_query_point_no_sign(mesh.id(), far, 1e6f);
    EXPECT_NEAR(wp::length(wp::sub(wp::mesh_eval_position(mesh.id(), q.face, q.u, q.v), far)),
                brute_closest(tm, far), 1e-5f);
    // new points by value: back to the unit sphere
    mesh.refit(sphere(1.0f, 10, 12).points);
    EXPECT_LT(wp::mesh_query_point(mesh.id(), far, 1e6f).sign, 0.0f);
    EXPECT_THROW(mesh.refit(std::vector<Vec>(3)), treadle::Error);
}

TEST(MeshApi, BorrowedArraysAreReadInPlace) {
    TriMesh tm = cube();
    treadle::Mesh mesh(tm.points.data(), 8, tm.indices.data(), 36);
    EXPECT_THROW(mesh.points(), treadle::Error);
    EXPECT_LT(wp::mesh_query_point(mesh.id(), wp::vec3(0.5f, 0.5f, 0.5f), 1e6f).sign, 0.0f);
    for (Vec& p : tm.points) p[0] += 10.0f;
    mesh.refit();
    EXPECT_GT(wp::mesh_query_point(mesh.id(), wp::vec3(0.5f, 0.5f, 0.5f), 1e6f).sign, 0.0f);
    EXPECT_LT(wp::mesh_query_point(mesh.id(), wp::vec3(10.5f, 0.5f, 0.5f), 1e6f).sign, 0.0f);
    // new points and velocities, as wp.Mesh's points and velocities setters give them
    std::vector<Vec> moved = cube().points, vel(8, Vec{1.0f, 2.0f, 3.0f});
    for (Vec& p : moved) p[1] -= 4.0f;
    mesh.set_points(moved.data(), 8);
    mesh.set_velocities(vel.data(), 8);
    EXPECT_LT(wp::mesh_query_point(mesh.id(), wp::vec3(0.5f, -3.5f, 0.5f), 1e6f).sign, 0.0f);
    EXPECT_EQ(wp::mesh_eval_velocity(mesh.id(), 3, 0.2f, 0.3f).c[2], 3.0f);
    EXPECT_THROW(mesh.set_points(moved.data(), 7), treadle::Error);
    EXPECT_THROW(mesh.set_velocities(vel.data(), 7), treadle::Error);
    mesh.set_velocities(nullptr, 0);
    EXPECT_EQ(wp::mesh_eval_velocity(mesh.id(), 3, 0.2f, 0.3f).c[2], 0.0f);
}

TEST(MeshApi, BadInputsThrow) {
    const TriMesh c = cube();
    auto value_error = [](auto&& f) {
        try {
            f();
        } catch (const treadle::Error& e) {
            EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
            return std::string(e.what());
        }
        ADD_FAILURE() << "no treadle::Error";
        return std::string();
    };
    std::vector<int32_t> bad = c.indices;
    bad.pop_back();
    EXPECT_NE(value_error([&] { treadle::Mesh(c.points, bad); }).find("multiple of 3"),
              std::string::npos);
    bad = c.indices;
    bad[7] = 8;
    EXPECT_NE(value_error([&] { treadle::Mesh(c.points, bad); }).find("out of range"),
              std::string::npos);
    bad[7] = -1;
    value_error([&] { treadle::Mesh(c.points, bad); });
    value_error([&] { treadle::Mesh(c.points, c.indices, std::vector<Vec>(3)); });
    value_error([&] {
        treadle::Mesh(c.points, c.indices, {}, false, treadle::BvhConstructor::Sah, {0, 1});
    });
    value_error([&] {
        treadle::Mesh(c.points, c.indices, {}, false, treadle::BvhConstructor::Sah, {}, 0);
    });
    // an empty mesh is valid and finds nothing
    treadle::Mesh empty(std::vector<Vec>{}, std::vector<int32_t>{});
    EXPECT_FALSE(wp::mesh_query_point(empty.id(), wp::vec3(0, 0, 0), 1e6f).result);
    EXPECT_FALSE(wp::mesh_query_ray(empty.id(), wp::vec3(0, 0, 0), wp::vec3(1, 0, 0), 1e6f).result);
    wp::mesh_query_aabb_t q =
        wp::mesh_query_aabb(empty.id(), wp::vec3(-1, -1, -1), wp::vec3(1, 1, 1));
    int f = 0;
    EXPECT_FALSE(wp::mesh_query_aabb_next(q, f));
}

INSTANTIATE_TEST_SUITE_P(All, MeshConstructors,
                         ::testing::Values(treadle::BvhConstructor::Sah,
                                           treadle::BvhConstructor::Median,
                                           treadle::BvhConstructor::Lbvh));

}  // namespace
