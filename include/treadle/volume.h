// include/treadle/volume.h -- NanoVDB volumes for the C++ API (wp.Volume's grids on the CPU)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "treadle/array.h"
#include "treadle/device.h"

namespace treadle {

/// A NanoVDB grid buffer (the grids of one file back to back) in a uint8 array on a device;
/// its id is the buffer's address there, which kernels on that device pass to the volume
/// builtins (volume_sample, ...). A host copy answers the header queries.
class Volume {
public:
    /// The grids of a .nvdb file (uncompressed or ZIP coded) at `path`, on `device`. Throws
    /// treadle::Error: Runtime when the file cannot be read, is not NanoVDB, or uses another
    /// codec.
    static Volume load_from_nvdb(const std::string& path, Device device = {});
    /// The grids of a .nvdb file's bytes, or raw grid buffers back to back (as above).
    static Volume load_from_bytes(const std::vector<uint8_t>& bytes, Device device = {});

    /// The id kernels take (the address of the first grid; stable for the Volume's lifetime).
    uint64_t id() const { return reinterpret_cast<uint64_t>(m_array.data()); }
    /// The device the grid buffer lives on.
    Device device() const { return m_array.device(); }
    /// The grid buffer as a uint8 array on the device.
    const Array& array() const { return m_array; }
    /// The NanoVDB grid type of the first grid (1 float, 4 int32, 6 Vec3f, 20 OnIndex, ...).
    uint32_t grid_type() const;
    /// The number of grids in the buffer and the first grid's size in bytes.
    uint32_t grid_count() const;
    uint64_t grid_size() const;
    /// The first grid's voxel size in world units.
    std::array<double, 3> voxel_size() const;
    /// The host copy of the buffer as loaded.
    const std::vector<uint8_t>& buffer() const { return m_buffer; }

private:
    Volume(std::vector<uint8_t> buffer, Device device)
        : m_buffer(std::move(buffer)), m_array(from_vector(m_buffer, device)) {}
    std::vector<uint8_t> m_buffer;
    Array m_array;
};

}  // namespace treadle
