// include/treadle/volume.h -- NanoVDB volumes for the C++ API (wp.Volume's grids on the CPU)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace treadle {

/// A NanoVDB grid buffer held in host memory (the grids of one file back to back); its id is
/// the buffer's address, which CPU kernels pass to the volume builtins (volume_sample, ...).
class Volume {
public:
    /// The grids of a .nvdb file (uncompressed or ZIP coded) at `path`. Throws treadle::Error:
    /// Runtime when the file cannot be read, is not NanoVDB, or uses another codec.
    static Volume load_from_nvdb(const std::string& path);
    /// The grids of a .nvdb file's bytes, or raw grid buffers back to back (as above).
    static Volume load_from_bytes(const std::vector<uint8_t>& bytes);

    /// The id kernels take (the address of the first grid; stable for the Volume's lifetime).
    uint64_t id() const { return reinterpret_cast<uint64_t>(m_buffer.data()); }
    /// The NanoVDB grid type of the first grid (1 float, 4 int32, 6 Vec3f, 20 OnIndex, ...).
    uint32_t grid_type() const;
    /// The number of grids in the buffer and the first grid's size in bytes.
    uint32_t grid_count() const;
    uint64_t grid_size() const;
    /// The first grid's voxel size in world units.
    std::array<double, 3> voxel_size() const;
    /// The whole buffer.
    const std::vector<uint8_t>& buffer() const { return m_buffer; }

private:
    explicit Volume(std::vector<uint8_t> buffer) : m_buffer(std::move(buffer)) {}
    std::vector<uint8_t> m_buffer;  ///< 32-byte aligned storage is not required by the reads
};

}  // namespace treadle
