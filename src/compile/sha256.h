// src/compile/sha256.h -- SHA-256 (FIPS 180-4) for cache keys and binary integrity checks
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace treadle {

/// Incremental SHA-256 hasher, written from FIPS 180-4 section 6.2. Feed bytes with
/// `update()` any number of times, then call `finish()` once; after `finish()` the object is
/// reset and may hash a new message. Not thread-safe: one hasher per thread.
class Sha256 {
public:
    Sha256() { reset(); }

    /// Appends `size` bytes at `data` to the message.
    void update(const void* data, size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }

    /// Pads the message, returns its 32-byte digest and resets the hasher.
    std::array<uint8_t, 32> finish();

    /// Forgets everything fed so far.
    void reset();

private:
    void compress(const uint8_t* block);

    uint32_t m_state[8];
    uint64_t m_total_bytes;  ///< message length so far (bytes), for the final length field
    uint8_t m_block[64];     ///< partial block waiting for more input
    size_t m_block_used;     ///< bytes of m_block filled, always < 64 between calls
};

/// Lower-case hexadecimal spelling of a digest (64 characters for SHA-256).
std::string to_hex(const uint8_t* bytes, size_t size);

/// SHA-256 of `text` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view text);

}  // namespace treadle
