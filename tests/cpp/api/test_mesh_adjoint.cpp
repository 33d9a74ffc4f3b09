// tests/cpp/api/test_mesh_adjoint.cpp -- mesh query and evaluation adjoints against finite
// differences
#include <gtest/gtest.h>

#include <functional>

#include "mesh_fixtures.h"

namespace {

using namespace mesh_fixtures;

/// The central difference of f along each axis of x (float32: eps 1e-3).
wp::vec3 numeric_gradient(const std::function<float(const wp::vec3&)>& f, const wp::vec3& x) {
    const float eps = 1e-3f;
    wp::vec3 g;
    for (int k = 0; k < 3; ++k) {
        wp::vec3 hi = x, lo = x;
        hi.c[k] += eps;
        lo.c[k] -= eps;
        g.c[k] = (f(hi) - f(lo)) / (2.0f * eps);
    }
    return g;
}

void expect_close(const wp::vec3& got, const wp::vec3& want, float tol, const char* what) {
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(got.c[k], want.c[k], tol * (1.0f + std::abs(want.c[k])))
            << what << " axis " << k;
}

TEST(MeshAdjoint, EvalPositionAndVelocityDifferentiateUV) {
    const TriMesh c = sphere(1.0f, 8, 10);
    std::vector<Vec> vel;
    for (const Vec& p : c.points) vel.push_back({p[1], p[2] * 2.0f, -p[0]});
    treadle::Mesh mesh(c.points, c.indices, vel);
    const wp::vec3 w(0.3f, -0.7f, 1.1f);
    for (int f : {0, 5, 17}) {
        for (int which = 0; which < 2; ++which) {
            auto eval = [&](float u, float v) {
                return which ? wp::mesh_eval_velocity(mesh.id(), f, u, v)
                             : wp::mesh_eval_position(mesh.id(), f, u, v);
            };
            float gu = 0.0f, gv = 0.0f;
            wp::uint64 gid = 0;
            int32_t gf = 0;
            if (which)
                wp::adj_mesh_eval_velocity(mesh.id(), f, 0.2f, 0.5f, gid, gf, gu, gv, w);
            else
                wp::adj_mesh_eval_position(mesh.id(), f, 0.2f, 0.5f, gid, gf, gu, gv, w);
            const float e = 1e-3f;
            const float nu =
                (wp::dot(w, eval(0.2f + e, 0.5f)) - wp::dot(w, eval(0.2f - e, 0.5f))) / (2 * e);
            const float nv =
                (wp::dot(w, eval(0.2f, 0.5f + e)) - wp::dot(w, eval(0.2f, 0.5f - e))) / (2 * e);
            EXPECT_NEAR(gu, nu, 1e-3f);
            EXPECT_NEAR(gv, nv, 1e-3f);
        }
    }
}

TEST(MeshAdjoint, ClosestPointBarycentricsFollowThePoint) {
    treadle::Mesh mesh = make_mesh(cube());
    const float wu = 0.7f, wv = -1.3f;
    // the face region, an edge region and a vertex region of the bottom faces
    for (const wp::vec3 p : {wp::vec3(0.2f, 0.6f, -0.5f), wp::vec3(0.7f, 0.2f, -0.4f),
                             wp::vec3(-0.3f, 0.4f, -0.5f), wp::vec3(-0.3f, -0.2f, -0.5f)}) {
        auto loss = [&](const wp::vec3& x) {
            const wp::mesh_query_point_t q = wp::mesh_query_point_no_sign(mesh.id(), x, 1e6f);
            return wu * q.u + wv * q.v;
        };
        wp::mesh_query_point_t adj_ret;
        adj_ret.u = wu;
        adj_ret.v = wv;
        wp::uint64 gid = 0;
        float gd = 0.0f;
        wp::vec3 forms[3] = {wp::vec3(0, 0, 0), wp::vec3(0, 0, 0), wp::vec3(0, 0, 0)};
        wp::adj_mesh_query_point(mesh.id(), p, 1e6f, gid, forms[0], gd, adj_ret);
        wp::adj_mesh_query_point_sign_normal(mesh.id(), p, 1e6f, 1e-3f, gid, forms[1], gd, gd,
                                             adj_ret);
        float inside = 0.0f, u = 0.0f, v = 0.0f, gs = 0.0f, gu = wu, gv = wv;
        int32_t face = 0, gi = 0;
        wp::mesh_query_point(mesh.id(), p, 1e6f, inside, face, u, v);
        wp::adj_mesh_query_point(mesh.id(), p, 1e6f, inside, face, u, v, gid, forms[2], gd, gs, gi,
                                 gu, gv, true);
        const wp::vec3 want = numeric_gradient(loss, p);
        SCOPED_TRACE(testing::Message() << "p = " << p.c[0] << " " << p.c[1] << " " << p.c[2]);
        for (const wp::vec3& g : forms) expect_close(g, want, 2e-3f, "closest point");
    }
}

TEST(MeshAdjoint, RayHitFollowsStartAndDirection) {
    const TriMesh s = sphere(1.0f, 14, 20);
    treadle::Mesh mesh = make_mesh(s);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f);
    const float wt = 0.9f, wu = -0.4f, wv = 1.7f;
    int checked = 0;
    for (int t = 0; t < 40 && checked < 15; ++t) {
        const wp::vec3 o(pos(rng) * 3.0f, pos(rng) * 3.0f, 3.0f + pos(rng));
        const wp::vec3 target(pos(rng) * 0.5f, pos(rng) * 0.5f, pos(rng) * 0.5f);
        const wp::vec3 d = wp::mul(wp::sub(target, o), 0.3f);
        const wp::mesh_query_ray_t hit = wp::mesh_query_ray(mesh.id(), o, d, 1e6f);
        if (!hit.result) continue;
        // stay away from face borders, where the hit jumps to a neighbour
        if (std::min({hit.u, hit.v, 1.0f - hit.u - hit.v}) < 0.05f) continue;
        ++checked;
        auto loss_at = [&](const wp::vec3& oo, const wp::vec3& dd) {
            const wp::mesh_query_ray_t q = wp::mesh_query_ray(mesh.id(), oo, dd, 1e6f);
            return wt * q.t + wu * q.u + wv * q.v;
        };
        wp::mesh_query_ray_t adj_ret;
        adj_ret.t = wt;
        adj_ret.u = wu;
        adj_ret.v = wv;
        wp::uint64 gid = 0;
        float gm = 0.0f;
        int32_t gr = 0;
        wp::vec3 go(0, 0, 0), gd(0, 0, 0);
        wp::adj_mesh_query_ray(mesh.id(), o, d, 1e6f, -1, gid, go, gd, gm, gr, adj_ret);
        expect_close(go, numeric_gradient([&](const wp::vec3& x) { return loss_at(x, d); }, o),
                     5e-3f, "start");
        expect_close(gd, numeric_gradient([&](const wp::vec3& x) { return loss_at(o, x); }, d),
                     5e-3f, "dir");
        // the out-argument form agrees
        wp::vec3 go2(0, 0, 0), gd2(0, 0, 0), gn;
        float gt = wt, gu = wu, gv = wv, gs = 0.0f;
        int32_t gface = 0;
        wp::adj_mesh_query_ray(mesh.id(), o, d, 1e6f, hit.t, hit.u, hit.v, hit.sign, hit.normal,
                               hit.face, -1, gid, go2, gd2, gm, gt, gu, gv, gs, gn, gface, gr,
                               true);
        expect_close(go2, go, 1e-6f, "start (out-argument form)");
        expect_close(gd2, gd, 1e-6f, "dir (out-argument form)");
    }
    EXPECT_GE(checked, 10);
}

}  // namespace
