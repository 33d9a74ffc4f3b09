// tests/cpp/api/test_hash_grid_api.cpp -- treadle::HashGrid built on the CPU device and queried
// by id through native/treadle/hash_grid.h, against brute force
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "../../../native/treadle/hash_grid.h"
#include "treadle/error.h"
#include "treadle/hash_grid.h"

namespace {

using treadle::Array;
using Vec = std::array<float, 3>;

Array vec3s(std::vector<Vec>& v) {
    treadle::DType t(treadle::ScalarType::Float32);
    t.rows = 3;
    return Array::wrap(v.data(), t, {(int64_t)v.size()}, {12}, treadle::Device::cpu(), nullptr);
}

std::set<int> query(uint64_t id, const Vec& p, float r, int group = -1) {
    wp::hash_grid_query_f q = group < 0
                                  ? wp::hash_grid_query(id, wp::vec3(p[0], p[1], p[2]), r)
                                  : wp::hash_grid_query(id, wp::vec3(p[0], p[1], p[2]), r, group);
    std::set<int> out;
    int i = 0;
    while (wp::hash_grid_query_next(q, i)) EXPECT_TRUE(out.insert(i).second);
    return out;
}

TEST(HashGridApi, QueriesVisitEveryNeighbourOnce) {
    std::mt19937 rng(6);
    std::uniform_real_distribution<float> pos(-3.0f, 3.0f);  // wraps a 4^3 grid of 0.5 cells
    std::vector<Vec> pts(2000);
    for (Vec& p : pts) p = {pos(rng), pos(rng), pos(rng)};
    std::vector<int32_t> groups(pts.size());
    for (size_t i = 0; i < pts.size(); ++i) groups[i] = int32_t(i % 3);
    treadle::HashGrid grid(4, 4, 4);
    for (bool grouped : {false, true}) {
        const Array g = grouped ? treadle::from_vector(groups) : Array();
        grid.build(vec3s(pts), 0.5, g);
        for (int t = 0; t < 40; ++t) {
            const Vec& p = pts[t * 37];
            const int group = grouped ? t % 3 : -1;
            std::set<int> got;
            for (int i : query(grid.id(), p, 0.5f, group)) {
                float d2 = 0;
                for (int k = 0; k < 3; ++k) d2 += (pts[i][k] - p[k]) * (pts[i][k] - p[k]);
                if (d2 <= 0.25f) got.insert(i);
            }
            std::set<int> want;
            for (size_t i = 0; i < pts.size(); ++i) {
                float d2 = 0;
                for (int k = 0; k < 3; ++k) d2 += (pts[i][k] - p[k]) * (pts[i][k] - p[k]);
                if (d2 <= 0.25f && (group < 0 || groups[i] == group)) want.insert(int(i));
            }
            EXPECT_EQ(got, want) << "query " << t << (grouped ? " grouped" : "");
        }
    }
    // the sorted ids are stable: within a cell, increasing point index
    const int32_t* ids = grid.point_ids().data_as<const int32_t>();
    const int32_t* starts = grid.cell_starts().data_as<const int32_t>();
    const int32_t* ends = grid.cell_ends().data_as<const int32_t>();
    int total = 0;
    for (int c = 0; c < 64; ++c) {
        for (int s = starts[c] + 1; s < ends[c]; ++s) EXPECT_LT(ids[s - 1], ids[s]);
        total += ends[c] - starts[c];
    }
    EXPECT_EQ(total, 2000);
}

TEST(HashGridApi, StridedPointsBuildTheSameGrid) {
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> pos(-2.0f, 2.0f);
    std::vector<Vec> all(600), every_other;
    for (Vec& p : all) p = {pos(rng), pos(rng), pos(rng)};
    for (size_t i = 0; i < all.size(); i += 2) every_other.push_back(all[i]);
    treadle::DType t(treadle::ScalarType::Float32);
    t.rows = 3;
    const Array strided = Array::wrap(all.data(), t, {300}, {24}, treadle::Device::cpu(), nullptr);
    treadle::HashGrid a(5, 5, 5), b(5, 5, 5);
    a.build(strided, 0.4);
    b.build(vec3s(every_other), 0.4);
    EXPECT_EQ(treadle::to_vector<int32_t>(a.cell_starts()),
              treadle::to_vector<int32_t>(b.cell_starts()));
    EXPECT_EQ(treadle::to_vector<int32_t>(a.cell_ends()),
              treadle::to_vector<int32_t>(b.cell_ends()));
    const std::vector<int32_t> ia = treadle::to_vector<int32_t>(a.point_ids());
    const std::vector<int32_t> ib = treadle::to_vector<int32_t>(b.point_ids());
    EXPECT_EQ(std::vector<int32_t>(ia.begin(), ia.begin() + 300),
              std::vector<int32_t>(ib.begin(), ib.begin() + 300));
}

TEST(HashGridApi, BadArgumentsAreValueErrors) {
    EXPECT_THROW(treadle::HashGrid(0, 4, 4), treadle::Error);
    EXPECT_THROW(treadle::HashGrid(2000, 2000, 2000), treadle::Error);
    treadle::HashGrid grid(2, 2, 2);
    std::vector<float> flat(9, 0.0f);
    try {
        grid.build(treadle::from_vector(flat), 1.0);
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "HashGrid: points must be a one-dimensional array of vec3 of float16, "
                  "float32 or float64");
    }
    std::vector<Vec> pts(3, Vec{0, 0, 0});
    EXPECT_THROW(grid.build(vec3s(pts), -1.0), treadle::Error);
}

}  // namespace
