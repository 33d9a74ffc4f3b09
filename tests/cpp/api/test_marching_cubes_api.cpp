// tests/cpp/api/test_marching_cubes_api.cpp -- isosurfaces from C++ (treadle/marching_cubes.h)
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "treadle/error.h"
#include "treadle/marching_cubes.h"
#include "treadle/tape.h"

namespace {

using treadle::Array;
using treadle::Device;

/// A float32 field of n^3 nodes: the distance to `centre` minus `radius`.
Array sphere_field(int n, float cx, float cy, float cz, float radius) {
    std::vector<float> values;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k)
                values.push_back(
                    std::sqrt((i - cx) * (i - cx) + (j - cy) * (j - cy) + (k - cz) * (k - cz)) -
                    radius);
    return treadle::from_vector(values).reshape({n, n, n});
}

/// The x, y, z of every vertex of a CPU vec3 array, in order.
std::vector<float> coordinates(const Array& verts) {
    const float* p = verts.data_as<float>();
    return std::vector<float>(p, p + 3 * verts.size());
}

TEST(MarchingCubesApi, TablesHave820Triangles) {
    const treadle::MarchingCubesTables& t = treadle::marching_cubes_tables();
    ASSERT_EQ(t.case_first.size(), 257u);
    EXPECT_EQ(t.case_first.front(), 0);
    EXPECT_EQ(t.case_first.back(), 2460);
    EXPECT_EQ(t.case_first[2], 3);  // one corner below: one triangle
    EXPECT_EQ(t.case_first[255], t.case_first[256]);
    for (int32_t e : t.tri_edges) EXPECT_TRUE(e >= 0 && e < 12);
}

TEST(MarchingCubesApi, SphereIsClosedAndOnTheSphere) {
    const Array field = sphere_field(14, 6.3f, 6.6f, 6.9f, 4.2f);
    treadle::SurfaceMesh mesh = treadle::extract_surface(field, 0.0f);
    const std::vector<float> v = coordinates(mesh.verts);
    const std::vector<int32_t> idx = treadle::to_vector<int32_t>(mesh.indices);
    ASSERT_GT(mesh.verts.size(), 0);
    ASSERT_EQ(idx.size() % 3, 0u);
    for (int64_t i = 0; i < mesh.verts.size(); ++i) {
        const float dx = v[3 * i] - 6.3f, dy = v[3 * i + 1] - 6.6f, dz = v[3 * i + 2] - 6.9f;
        EXPECT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), 4.2f, 0.05f);
    }
    std::map<std::pair<int, int>, int> uses;  // undirected edge -> number of triangles
    for (size_t t = 0; t < idx.size(); t += 3)
        for (int a = 0; a < 3; ++a) {
            const int p = idx[t + a], q = idx[t + (a + 1) % 3];
            ++uses[{std::min(p, q), std::max(p, q)}];
        }
    for (const auto& [edge, count] : uses) EXPECT_EQ(count, 2);
    // Euler characteristic of a sphere
    EXPECT_EQ(mesh.verts.size() - (int64_t)uses.size() + (int64_t)idx.size() / 3, 2);
}

TEST(MarchingCubesApi, BoundsPlaceTheCornerNodes) {
    const Array field = sphere_field(8, 3.5f, 3.5f, 3.5f, 2.3f);
    const treadle::SurfaceMesh plain = treadle::extract_surface(field, 0.0f);
    treadle::SurfaceBounds bounds;
    bounds.lower = std::array<float, 3>{1.0f, 1.0f, 1.0f};
    bounds.upper = std::array<float, 3>{2.0f, 3.0f, 8.0f};
    const treadle::SurfaceMesh scaled = treadle::extract_surface(field, 0.0f, bounds);
    const std::vector<float> a = coordinates(plain.verts), b = coordinates(scaled.verts);
    ASSERT_EQ(a.size(), b.size());
    const float spacing[3] = {1.0f / 7.0f, 2.0f / 7.0f, 7.0f / 7.0f};
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(b[i], 1.0f + a[i] * spacing[i % 3], 1e-5f);
}

TEST(MarchingCubesApi, AdjointMatchesFiniteDifferences) {
    Array field = sphere_field(7, 3.1f, 2.9f, 3.3f, 2.1f);
    field.enable_grad();
    treadle::Tape tape;
    treadle::SurfaceMesh mesh = treadle::extract_surface(field, 0.0f, {}, &tape);
    ASSERT_NE(mesh.verts.grad(), nullptr);
    // loss = sum of every vertex's x + 2 y - z
    const int64_t n = mesh.verts.size();
    float* seed = mesh.verts.grad()->data_as<float>();
    for (int64_t i = 0; i < n; ++i) {
        seed[3 * i] = 1.0f;
        seed[3 * i + 1] = 2.0f;
        seed[3 * i + 2] = -1.0f;
    }
    tape.backward();
    const std::vector<float> grad = treadle::to_vector<float>(*field.grad());
    auto loss = [&](const std::vector<float>& values) {
        const treadle::SurfaceMesh m =
            treadle::extract_surface(treadle::from_vector(values).reshape({7, 7, 7}), 0.0f);
        const std::vector<float> v = coordinates(m.verts);
        double s = 0.0;
        for (size_t i = 0; i < v.size(); i += 3) s += v[i] + 2.0 * v[i + 1] - v[i + 2];
        return s;
    };
    const std::vector<float> base = treadle::to_vector<float>(field);
    int checked = 0;
    for (size_t i = 0; i < base.size() && checked < 30; ++i) {
        if (std::fabs(base[i]) < 0.05f) continue;  // keep the topology fixed
        std::vector<float> plus = base, minus = base;
        plus[i] += 1e-2f;
        minus[i] -= 1e-2f;
        const double fd = (loss(plus) - loss(minus)) / 2e-2;
        EXPECT_NEAR(grad[i], fd, 2e-2 * std::max(1.0, std::fabs(fd))) << i;
        checked += fd != 0.0;
    }
    EXPECT_GT(checked, 5);
}

TEST(MarchingCubesApi, RefusesFieldsThatAreNot3DFloat32) {
    const Array flat = treadle::zeros<float>({4, 5});
    try {
        treadle::extract_surface(flat, 0.0f);
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
        EXPECT_STREQ(e.what(),
                     "Expected a 3D array for 'field', but got an array with shape (4, 5).");
    }
    try {
        treadle::extract_surface(treadle::zeros<double>({3, 3, 3}), 0.0f);
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Type);
        EXPECT_STREQ(e.what(), "Expected a dtype of wp.float32 for 'field', but got float64.");
    }
}

}  // namespace
