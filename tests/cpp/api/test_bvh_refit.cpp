// tests/cpp/api/test_bvh_refit.cpp -- the refit kernels (src/api/bvh_refit.h), run on the CPU
// device, against the host refit of treadle::Bvh and treadle::Mesh
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "api/bvh_refit.h"
#include "bvh_fixtures.h"
#include "mesh_fixtures.h"
#include "treadle/bvh.h"
#include "treadle/error.h"
#include "treadle/mesh.h"

namespace {

using Vec = std::array<float, 3>;
namespace refit = treadle::bvh_refit;
using bvh_fixtures::Boxes;
using bvh_fixtures::random_boxes;
using bvh_fixtures::words;
using treadle::Array;
using treadle::DType;
using treadle::ScalarType;

std::vector<treadle::BvhNode> nodes_of(const refit::Tree& t) {
    std::vector<treadle::BvhNode> out(t.nodes.size() / sizeof(treadle::BvhNode));
    std::memcpy(out.data(), t.nodes.data(), t.nodes.size());
    return out;
}

void expect_same_nodes(const std::vector<treadle::BvhNode>& a,
                       const std::vector<treadle::BvhNode>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].left, b[i].left) << "node " << i;
        EXPECT_EQ(a[i].right, b[i].right) << "node " << i;
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(a[i].lower[k], b[i].lower[k]) << "node " << i << " axis " << k;
            EXPECT_EQ(a[i].upper[k], b[i].upper[k]) << "node " << i << " axis " << k;
        }
    }
}

class RefitKernels : public ::testing::TestWithParam<treadle::BvhConstructor> {};

TEST_P(RefitKernels, BoxesMatchTheHostRefitAndCountersReturnToZero) {
    for (int leaf : {1, 3}) {
        for (bool grouped : {false, true}) {
            Boxes b = random_boxes(3000, 5, 10.0f);
            std::vector<int32_t> groups;
            if (grouped)
                for (int i = 0; i < 3000; ++i) groups.push_back(i % 7 == 0 ? 40 : i % 3);
            treadle::Bvh host(b.lo, b.hi, GetParam(), groups, leaf);
            refit::Tree t = refit::make_tree(host.nodes(), host.items(), b.lo, b.hi, host.root(),
                                             treadle::Device::cpu());
            // two refits in a row: the second sees counters the first left at zero
            for (unsigned round = 0; round < 2; ++round) {
                Boxes moved = random_boxes(3000, 100 + round, 20.0f);
                refit::from_boxes(t, words(moved.lo), words(moved.hi));
                host.refit(moved.lo, moved.hi);
                expect_same_nodes(nodes_of(t), host.nodes());
                const float* lo = t.lowers.data_as<const float>();
                for (int i = 0; i < 3000; ++i)
                    for (int k = 0; k < 3; ++k) ASSERT_EQ(lo[3 * i + k], moved.lo[i][k]);
                const int32_t* c = t.counters.data_as<const int32_t>();
                for (int64_t i = 0; i < t.counters.size(); ++i) ASSERT_EQ(c[i], 0) << "node " << i;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Constructors, RefitKernels,
                         ::testing::Values(treadle::BvhConstructor::Sah,
                                           treadle::BvhConstructor::Median,
                                           treadle::BvhConstructor::Lbvh));

TEST(RefitKernels, FacesAndEdgeLengthMatchTheHostMesh) {
    mesh_fixtures::TriMesh m = mesh_fixtures::sphere(1.0f, 24, 48);
    treadle::Mesh mesh(m.points, m.indices);
    const treadle::Bvh& bvh = mesh.bvh();
    std::vector<Vec> lo(bvh.items().size()), hi(lo.size());
    refit::Tree t =
        refit::make_tree(bvh.nodes(), bvh.items(), lo, hi, bvh.root(), treadle::Device::cpu());
    // squash and shift the sphere
    for (Vec& p : mesh.points()) p = {2.0f * p[0] + 1.0f, 0.5f * p[1], p[2] - 3.0f};
    mesh.refit();
    std::vector<Vec> points = mesh.points();
    Array idx = Array::wrap(m.indices.data(), DType(ScalarType::Int32), {(int64_t)m.indices.size()},
                            {4}, treadle::Device::cpu(), nullptr);
    refit::from_faces(t, words(points), idx);
    expect_same_nodes(nodes_of(t), mesh.bvh().nodes());
    float mean = 0.0f;
    refit::mean_edge_length(words(points), idx, mesh.num_tris(), &mean);
    EXPECT_NEAR(mean, mesh.average_edge_length(), 1e-6f * mean);
}

TEST(RefitKernels, WrongSizesAreValueErrors) {
    Boxes b = random_boxes(10, 1, 1.0f);
    treadle::Bvh host(b.lo, b.hi);
    refit::Tree t = refit::make_tree(host.nodes(), host.items(), b.lo, b.hi, host.root(),
                                     treadle::Device::cpu());
    std::vector<Vec> short_lo(b.lo.begin(), b.lo.begin() + 9);
    try {
        refit::from_boxes(t, words(short_lo), words(b.hi));
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "Bvh refit: lowers must be contiguous float32 with 3 per item (10 items)");
    }
    // the Bvh's own refit from arrays, on the CPU
    Boxes moved = random_boxes(10, 2, 3.0f);
    treadle::Bvh other(b.lo, b.hi);
    other.refit(words(moved.lo), words(moved.hi));
    host.refit(moved.lo, moved.hi);
    expect_same_nodes(other.nodes(), host.nodes());
}

}  // namespace
