// tests/cpp/api/test_bvh_lbvh.cpp -- the device LBVH build (src/api/bvh_lbvh.h) run on the CPU
// device: every item in exactly one reachable leaf, boxes that bound their subtrees, queries
// that match brute force
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "../../../native/treadle/bvh.h"
#include "api/bvh_lbvh.h"
#include "bvh_fixtures.h"
#include "treadle/error.h"

namespace {

using Vec = std::array<float, 3>;
using bvh_fixtures::Boxes;
using bvh_fixtures::words;
using treadle::Array;

Boxes boxes(int n, unsigned seed, bool clustered) {
    return bvh_fixtures::random_boxes(n, seed, 10.0f, clustered);
}

struct Walk {
    const treadle::BvhNode* nodes;
    std::vector<int> seen;  // per sorted item slot
    int leaves = 0, max_leaf = 0;

    /// The node's depth below it; checks every box bounds its subtree's.
    int visit(int id, Vec lo, Vec hi) {
        const treadle::BvhNode& n = nodes[id];
        for (int k = 0; k < 3; ++k) {
            EXPECT_LE(lo[k], n.lower[k]) << "node " << id;
            EXPECT_GE(hi[k], n.upper[k]) << "node " << id;
        }
        if (n.left < 0) {
            ++leaves;
            max_leaf = std::max(max_leaf, n.right - ~n.left);
            for (int s = ~n.left; s < n.right; ++s) ++seen[s];
            return 1;
        }
        return 1 + std::max(visit(n.left, n.lower, n.upper), visit(n.right, n.lower, n.upper));
    }
};

class Lbvh : public ::testing::TestWithParam<std::tuple<int, int, bool>> {};

TEST_P(Lbvh, BuildsAValidTreeThatQueriesMatchBruteForce) {
    const auto [n, leaf, clustered] = GetParam();
    Boxes b = boxes(n, 11 + n, clustered);
    treadle::bvh_refit::Tree t;
    treadle::bvh_lbvh::build(words(b.lo), words(b.hi), n, leaf, t);
    if (clustered) {  // a second build into the same arrays (a rebuild) gives the same tree
        const std::vector<uint8_t> first(t.nodes.data_as<const uint8_t>(),
                                         t.nodes.data_as<const uint8_t>() + t.nodes.size());
        const void* where = t.nodes.data();
        treadle::bvh_lbvh::build(words(b.lo), words(b.hi), n, leaf, t);
        EXPECT_EQ(t.nodes.data(), where);
        EXPECT_EQ(std::vector<uint8_t>(t.nodes.data_as<const uint8_t>(),
                                       t.nodes.data_as<const uint8_t>() + t.nodes.size()),
                  first);
    }
    const auto* nodes = t.nodes.data_as<const treadle::BvhNode>();
    const int32_t leaf_count = t.leaf_count.data_as<const int32_t>()[0];
    Walk w{nodes, std::vector<int>(n, 0)};
    const Vec inf{1e30f, 1e30f, 1e30f}, ninf{-1e30f, -1e30f, -1e30f};
    const int depth = w.visit(0, ninf, inf);
    EXPECT_LE(depth, wp::bvh_max_depth);
    EXPECT_EQ(w.leaves, leaf_count);
    EXPECT_LE(w.max_leaf, leaf);
    for (int s = 0; s < n; ++s) ASSERT_EQ(w.seen[s], 1) << "slot " << s;
    std::set<int32_t> items(t.items.data_as<const int32_t>(), t.items.data_as<const int32_t>() + n);
    EXPECT_EQ(static_cast<int>(items.size()), n);
    // the tree's own item boxes are the given ones
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            ASSERT_EQ(t.lowers.data_as<const float>()[3 * i + k], b.lo[i][k]);
    // box queries through the native traversal
    treadle::BvhDescriptor d{nodes,
                             t.items.data_as<const int32_t>(),
                             t.lowers.data_as<const std::array<float, 3>>(),
                             t.uppers.data_as<const std::array<float, 3>>(),
                             nullptr,
                             2 * n - 1,
                             n,
                             0,
                             0};
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> pos(-11.0f, 11.0f);
    for (int q = 0; q < 30; ++q) {
        Vec l{pos(rng), pos(rng), pos(rng)}, u{l[0] + 3.0f, l[1] + 2.0f, l[2] + 4.0f};
        wp::bvh_query_t query =
            wp::bvh_query_aabb(reinterpret_cast<uint64_t>(&d), wp::vec3(l[0], l[1], l[2]),
                               wp::vec3(u[0], u[1], u[2]), -1);
        std::set<int> got, want;
        int i = -1;
        while (wp::bvh_query_next(query, i)) EXPECT_TRUE(got.insert(i).second);
        for (int k = 0; k < n; ++k) {
            bool hit = true;
            for (int a = 0; a < 3; ++a) hit = hit && b.lo[k][a] <= u[a] && b.hi[k][a] >= l[a];
            if (hit) want.insert(k);
        }
        EXPECT_EQ(got, want);
    }
    // a refit of the device-built tree to moved boxes keeps queries exact
    Boxes moved = boxes(n, 99, false);
    treadle::bvh_refit::from_boxes(t, words(moved.lo), words(moved.hi));
    Walk w2{nodes, std::vector<int>(n, 0)};
    w2.visit(0, ninf, inf);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, Lbvh,
    ::testing::Values(std::make_tuple(1, 1, false), std::make_tuple(2, 1, false),
                      std::make_tuple(3, 4, false), std::make_tuple(1000, 1, false),
                      std::make_tuple(1000, 4, true), std::make_tuple(777, 3, true),
                      std::make_tuple(5000, 8, false)));

TEST(Lbvh, BadSizesAreValueErrors) {
    Boxes b = boxes(4, 1, false);
    treadle::bvh_refit::Tree t;
    EXPECT_THROW(treadle::bvh_lbvh::build(words(b.lo), words(b.hi), 5, 1, t), treadle::Error);
    EXPECT_THROW(treadle::bvh_lbvh::build(words(b.lo), words(b.hi), 0, 1, t), treadle::Error);
    EXPECT_THROW(treadle::bvh_lbvh::build(words(b.lo), words(b.hi), 4, 0, t), treadle::Error);
}

}  // namespace

namespace {

/// The sorted item slots under `id`.
void slots_under(const treadle::BvhNode* nodes, int id, std::vector<int>& out) {
    const treadle::BvhNode& n = nodes[id];
    if (n.left < 0) {
        for (int s = ~n.left; s < n.right; ++s) out.push_back(s);
        return;
    }
    slots_under(nodes, n.left, out);
    slots_under(nodes, n.right, out);
}

TEST(Lbvh, GroupsAreSubtreesWithRootsByIncreasingId) {
    for (int leaf : {1, 4}) {
        const int n = 3000;
        Boxes b = boxes(n, 21, true);
        std::vector<int32_t> g(n);
        std::mt19937 rng(4);
        const int32_t ids[] = {3, 0, 77, 1 << 30, 12};  // sparse, unordered
        for (int i = 0; i < n; ++i) g[i] = ids[rng() % 5];
        Array groups = treadle::from_vector(g);
        Array roots = Array::empty(treadle::DType(treadle::ScalarType::Int32), {10});
        treadle::bvh_refit::Tree t;
        treadle::bvh_lbvh::build(words(b.lo), words(b.hi), n, leaf, t, &groups, roots);
        const auto* nodes = t.nodes.data_as<const treadle::BvhNode>();
        const int32_t* items = t.items.data_as<const int32_t>();
        const std::vector<int32_t> r = treadle::to_vector<int32_t>(roots);
        const std::vector<int32_t> sorted_ids = {0, 3, 12, 77, 1 << 30};
        for (int k = 0; k < 5; ++k) {
            EXPECT_EQ(r[2 * k], sorted_ids[k]);
            std::vector<int> slots;
            slots_under(nodes, r[2 * k + 1], slots);
            std::set<int> got, want;
            for (int s : slots) got.insert(items[s]);
            for (int i = 0; i < n; ++i)
                if (g[i] == sorted_ids[k]) want.insert(i);
            EXPECT_EQ(got, want) << "group " << sorted_ids[k] << " leaf " << leaf;
            EXPECT_EQ(slots.size(), want.size());
        }
        // the whole tree still holds every item once, with boxes bounding their subtrees
        Walk w{nodes, std::vector<int>(n, 0)};
        const Vec inf{1e30f, 1e30f, 1e30f}, ninf{-1e30f, -1e30f, -1e30f};
        EXPECT_LE(w.visit(0, ninf, inf), wp::bvh_max_depth);
        for (int s = 0; s < n; ++s) ASSERT_EQ(w.seen[s], 1);
    }
}

}  // namespace
