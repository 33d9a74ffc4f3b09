// tests/cpp/api/test_volume_api.cpp -- treadle::Volume: a ZIP-coded .nvdb file read by kernels
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/volume.h"

namespace {

// data/ramp.nvdb: an 8^3 float grid, voxel (i, j, k) = i + 10 j + 100 k, voxel size 0.5,
// index (0, 0, 0) at world (1, 2, 3), background -1 (written by wp.Volume.save_to_nvdb).
const char* k_module = R"(import treadle as wp


@wp.kernel
def probe(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), near: wp.array(dtype=float),
          lin: wp.array(dtype=float)):
    i = wp.tid()
    p = wp.volume_world_to_index(vol, pts[i])
    near[i] = wp.volume_lookup(vol, int(p[0]), int(p[1]), int(p[2]), dtype=float)
    lin[i] = wp.volume_sample(vol, p, wp.Volume.LINEAR, dtype=float)
)";

std::string asset() { return std::string(TREADLE_TEST_DATA_DIR) + "/api/data/ramp.nvdb"; }

TEST(VolumeApi, LoadsAZipFileAndKernelsReadItById) {
    treadle::Volume vol = treadle::Volume::load_from_nvdb(asset());
    EXPECT_EQ(vol.grid_type(), 1u);
    EXPECT_EQ(vol.grid_count(), 1u);
    EXPECT_EQ(vol.grid_size(), vol.buffer().size());
    EXPECT_TRUE(vol.device().is_cpu());
    EXPECT_EQ(vol.id(), reinterpret_cast<uint64_t>(vol.array().data()));
    EXPECT_EQ(vol.array().size(), static_cast<int64_t>(vol.buffer().size()));
    EXPECT_EQ(vol.voxel_size()[1], 0.5);

    auto module = treadle::Module::load_string(k_module, "volume_probe.py");
    // world points of index points (2, 3, 4), (1.5, 0, 6.25) and (20, 0, 0) (outside the grid)
    std::vector<float> pts = {2.0f, 3.5f, 5.0f, 1.75f, 2.0f, 6.125f, 11.0f, 2.0f, 3.0f};
    treadle::DType vec3(treadle::ScalarType::Float32);
    vec3.rows = 3;
    auto points = treadle::Array::zeros(vec3, {3});
    for (size_t i = 0; i < pts.size(); ++i) points.data_as<float>()[i] = pts[i];
    auto near = treadle::zeros<float>({3});
    auto lin = treadle::zeros<float>({3});
    module.kernel("probe").launch({3}, vol.id(), points, near, lin);
    const std::vector<float> n = treadle::to_vector<float>(near);
    const std::vector<float> l = treadle::to_vector<float>(lin);
    EXPECT_EQ(n[0], 432.0f);
    EXPECT_EQ(n[2], -1.0f);
    EXPECT_NEAR(l[0], 432.0f, 1e-3f);
    EXPECT_NEAR(l[1], 1.5f + 625.0f, 1e-3f);
}

TEST(VolumeApi, RefusesWhatIsNotNanoVdb) {
    EXPECT_THROW(treadle::Volume::load_from_bytes({1, 2, 3}), treadle::Error);
    EXPECT_THROW(treadle::Volume::load_from_nvdb("/nonexistent/grid.nvdb"), treadle::Error);
}

}  // namespace
