// tests/cpp/cuda/test_nvrtc_mesh.cpp -- native/treadle/mesh.h compiles for CUDA through NVRTC
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compile/nvrtc.h"

namespace treadle {
namespace {

// Every mesh function and its adjoint, called the way generated code calls them (qualified).
const char* const kMeshKernel = R"(#include "treadle/cuda.h"
#include "treadle/mesh.h"

WP_EXPORT __global__ void mesh_all(wp::uint64 id, wp::vec3 p, wp::vec3 d, float* out,
                                   wp::int32* faces) {
    wp::mesh_query_point_t q[6] = {
        wp::mesh_query_point(id, p, 1e6f), wp::mesh_query_point_no_sign(id, p, 1e6f),
        wp::mesh_query_furthest_point_no_sign(id, p, 0.0f),
        wp::mesh_query_point_sign_normal(id, p, 1e6f, 1e-3f),
        wp::mesh_query_point_sign_winding_number(id, p, 1e6f, 2.0f, 0.5f),
        wp::mesh_query_point_sign_parity(id, p, 1e6f, 3, 0.1f)};
    float inside = 0.0f, u = 0.0f, v = 0.0f, t = 0.0f, sign = 0.0f;
    wp::int32 face = 0;
    wp::vec3 n;
    bool ok = wp::mesh_query_point(id, p, 1e6f, inside, face, u, v);
    ok = ok && wp::mesh_query_point_no_sign(id, p, 1e6f, face, u, v);
    ok = ok && wp::mesh_query_furthest_point_no_sign(id, p, 0.0f, face, u, v);
    ok = ok && wp::mesh_query_point_sign_normal(id, p, 1e6f, inside, face, u, v, 1e-3f);
    ok = ok && wp::mesh_query_point_sign_winding_number(id, p, 1e6f, inside, face, u, v, 2.0f, 0.5f);
    ok = ok && wp::mesh_query_point_sign_parity(id, p, 1e6f, inside, face, u, v, 1, 0.1f);
    ok = ok && wp::mesh_query_ray(id, p, d, 1e6f, t, u, v, sign, n, face, -1);
    const wp::mesh_query_ray_t r = wp::mesh_query_ray(id, p, d, 1e6f, -1);
    ok = ok && wp::mesh_query_ray_anyhit(id, p, d, 1e6f, -1);
    const wp::int32 crossings = wp::mesh_query_ray_count_intersections(id, p, d, -1);
    wp::mesh_query_aabb_t box = wp::mesh_query_aabb(id, p, wp::add(p, d));
    wp::mesh_query_aabb_t ball = wp::mesh_query_sphere(id, p, 0.5f);
    wp::int32 f = 0, count = 0;
    while (wp::mesh_query_aabb_next(box, f)) ++count;
    while (wp::mesh_query_sphere_next(ball, f)) ++count;
    while (wp::mesh_query_next_dynamic(ball, f)) ++count;
    const wp::vec3 x = wp::add(wp::mesh_eval_position(id, 0, 0.2f, 0.3f),
                               wp::mesh_eval_velocity(id, 0, 0.2f, 0.3f));
    const wp::vec3 y = wp::add(wp::mesh_eval_face_normal(id, 0),
                               wp::add(wp::mesh_get_point(id, 1), wp::mesh_get_velocity(id, 1)));
    const wp::mesh_t m = wp::mesh_get(id);
    faces[0] = wp::mesh_get_index(id, 2) + wp::mesh_get_group_root(id, 0) + count + crossings +
               m.num_tris + wp::int32(wp::mesh_get_bvh(id) & 1u) + (ok ? 1 : 0);

    wp::uint64 gid = 0;
    wp::vec3 gp, gd;
    float gf = 0.0f, gu = 0.0f, gv = 0.0f, gs = 0.0f;
    wp::int32 gi = 0;
    wp::vec3 gn;
    wp::adj_mesh_query_point(id, p, 1e6f, gid, gp, gf, q[0]);
    wp::adj_mesh_query_point_no_sign(id, p, 1e6f, gid, gp, gf, q[1]);
    wp::adj_mesh_query_furthest_point_no_sign(id, p, 0.0f, gid, gp, gf, q[2]);
    wp::adj_mesh_query_point_sign_normal(id, p, 1e6f, 1e-3f, gid, gp, gf, gf, q[3]);
    wp::adj_mesh_query_point_sign_winding_number(id, p, 1e6f, 2.0f, 0.5f, gid, gp, gf, gf, gf,
                                                 q[4]);
    wp::adj_mesh_query_point_sign_parity(id, p, 1e6f, 3, 0.1f, gid, gp, gf, gi, gf, q[5]);
    wp::adj_mesh_query_point(id, p, 1e6f, inside, face, u, v, gid, gp, gf, gs, gi, gu, gv, ok);
    wp::adj_mesh_query_point_no_sign(id, p, 1e6f, face, u, v, gid, gp, gf, gi, gu, gv, ok);
    wp::adj_mesh_query_furthest_point_no_sign(id, p, 0.0f, face, u, v, gid, gp, gf, gi, gu, gv,
                                              ok);
    wp::adj_mesh_query_point_sign_normal(id, p, 1e6f, inside, face, u, v, 1e-3f, gid, gp, gf, gs,
                                         gi, gu, gv, gf, ok);
    wp::adj_mesh_query_point_sign_winding_number(id, p, 1e6f, inside, face, u, v, 2.0f, 0.5f, gid,
                                                 gp, gf, gs, gi, gu, gv, gf, gf, ok);
    wp::adj_mesh_query_point_sign_parity(id, p, 1e6f, inside, face, u, v, 1, 0.1f, gid, gp, gf,
                                         gs, gi, gu, gv, gi, gf, ok);
    wp::adj_mesh_query_ray(id, p, d, 1e6f, -1, gid, gp, gd, gf, gi, r);
    wp::adj_mesh_query_ray(id, p, d, 1e6f, t, u, v, sign, n, face, -1, gid, gp, gd, gf, gf, gu, gv,
                           gs, gn, gi, gi, ok);
    wp::adj_mesh_eval_position(id, 0, 0.2f, 0.3f, gid, gi, gu, gv, x);
    wp::adj_mesh_eval_velocity(id, 0, 0.2f, 0.3f, gid, gi, gu, gv, y);
    out[0] = q[0].u + q[1].v + q[2].sign + q[3].sign + q[4].sign + q[5].sign + r.t + x.c[0] +
             y.c[1] + gp.c[0] + gd.c[1] + gu + gv + inside + sign + t + n.c[2];
}
)";

TEST(NvrtcMesh, MeshQueriesCompileToCubin) {
    if (!nvrtc::is_available()) GTEST_SKIP() << nvrtc::unavailable_reason();
    const std::vector<std::string> native = {TREADLE_SOURCE_DIR "/native"};
    nvrtc::Result r = nvrtc::compile(kMeshKernel, "mesh_all.cu", 90, native, {});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.is_cubin);
    EXPECT_EQ(r.log.find("warning"), std::string::npos) << r.log;
}

}  // namespace
}  // namespace treadle
