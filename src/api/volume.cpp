// src/api/volume.cpp -- treadle::Volume: NanoVDB files read onto a device (raw and ZIP codec)
//
// A file is a header (magic "NanoVDB0", version, grid count, codec), one metadata record per
// grid (176 bytes, then the grid's name), then the grids, each prefixed by its compressed size
// when a codec is used. The grids are concatenated into one buffer, as wp.Volume keeps them.
#include "treadle/volume.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "treadle/error.h"

namespace treadle {

namespace {

constexpr size_t k_grid_header = 672;
constexpr size_t k_meta_size = 176;

template <typename T>
T read(const std::vector<uint8_t>& b, size_t at) {
    if (at + sizeof(T) > b.size()) throw Error(ErrorKind::Runtime, "NanoVDB file is truncated");
    T v;
    std::memcpy(&v, b.data() + at, sizeof(T));
    return v;
}

bool is_grid_magic(const std::vector<uint8_t>& b, size_t at) {
    return at + 8 <= b.size() && (std::memcmp(b.data() + at, "NanoVDB0", 8) == 0 ||
                                  std::memcmp(b.data() + at, "NanoVDB1", 8) == 0);
}

/// Whether `b` is grid buffers back to back (each size at byte 32 of its GridData).
bool is_grid_chain(const std::vector<uint8_t>& b) {
    size_t at = 0;
    while (at + k_grid_header + 64 <= b.size()) {
        const uint64_t size = read<uint64_t>(b, at + 32);
        if (size < k_grid_header + 64 || at + size > b.size() || !is_grid_magic(b, at))
            return false;
        at += size;
    }
    return at == b.size() && at > 0;
}

std::vector<uint8_t> inflate_grid(const std::vector<uint8_t>& b, size_t at, uint64_t n,
                                  uint64_t size) {
    if (at + n > b.size()) throw Error(ErrorKind::Runtime, "NanoVDB file is truncated");
    std::vector<uint8_t> out(size);
    uLongf got = static_cast<uLongf>(size);
    if (uncompress(out.data(), &got, b.data() + at, static_cast<uLong>(n)) != Z_OK || got != size)
        throw Error(ErrorKind::Runtime, "NanoVDB file is corrupt: a ZIP grid does not inflate");
    return out;
}

std::vector<uint8_t> grids_of_file(const std::vector<uint8_t>& b) {
    const uint16_t count = read<uint16_t>(b, 12), codec = read<uint16_t>(b, 14);
    if (codec > 1)
        throw Error(ErrorKind::Runtime, "NanoVDB file uses a codec other than none or ZIP (" +
                                            std::to_string(codec) + ")");
    size_t at = 16;
    std::vector<std::pair<uint64_t, uint64_t>> sizes;
    for (uint16_t g = 0; g < count; ++g) {
        sizes.emplace_back(read<uint64_t>(b, at), read<uint64_t>(b, at + 8));
        at += k_meta_size + read<uint32_t>(b, at + 136);
    }
    std::vector<uint8_t> out;
    for (const auto& [grid, stored] : sizes) {
        if (codec == 0) {
            if (at + stored > b.size())
                throw Error(ErrorKind::Runtime, "NanoVDB file is truncated");
            out.insert(out.end(), b.begin() + at, b.begin() + at + stored);
            at += stored;
            continue;
        }
        const uint64_t n = read<uint64_t>(b, at);
        std::vector<uint8_t> g = inflate_grid(b, at + 8, n, grid);
        out.insert(out.end(), g.begin(), g.end());
        at += 8 + n;
    }
    if (out.empty()) throw Error(ErrorKind::Runtime, "NanoVDB file holds no grid");
    return out;
}

}  // namespace

Volume Volume::load_from_bytes(const std::vector<uint8_t>& bytes, Device device) {
    if (bytes.size() < 16 || !is_grid_magic(bytes, 0))
        throw Error(ErrorKind::Runtime, "NanoVDB signature not found");
    if (is_grid_chain(bytes)) return Volume(bytes, device);
    return Volume(grids_of_file(bytes), device);
}

Volume Volume::load_from_nvdb(const std::string& path, Device device) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(ErrorKind::Runtime, "Volume: cannot open '" + path + "'");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
    return load_from_bytes(bytes, device);
}

uint32_t Volume::grid_type() const { return read<uint32_t>(m_buffer, 636); }
uint32_t Volume::grid_count() const { return read<uint32_t>(m_buffer, 28); }
uint64_t Volume::grid_size() const { return read<uint64_t>(m_buffer, 32); }

std::array<double, 3> Volume::voxel_size() const {
    return {read<double>(m_buffer, 608), read<double>(m_buffer, 616), read<double>(m_buffer, 624)};
}

}  // namespace treadle
