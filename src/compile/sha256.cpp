// src/compile/sha256.cpp -- SHA-256 compression and padding, following FIPS 180-4
#include "compile/sha256.h"

#include <algorithm>
#include <cstring>

namespace treadle {

namespace {

// FIPS 180-4 4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64
// primes.
constexpr uint32_t k_round[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// FIPS 180-4 5.3.3: first 32 bits of the fractional parts of the square roots of the first 8
// primes.
constexpr uint32_t k_initial[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// FIPS 180-4 4.1.2, functions (4.2) to (4.7).
inline uint32_t ch(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (~x & z); }
inline uint32_t maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
inline uint32_t big_sigma0(uint32_t x) { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
inline uint32_t big_sigma1(uint32_t x) { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
inline uint32_t small_sigma0(uint32_t x) { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
inline uint32_t small_sigma1(uint32_t x) { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

inline uint32_t load_be32(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline void store_be32(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

// One round of FIPS 180-4 6.2.2 step 3 with the working variables renamed instead of
// shifted: the caller rotates the argument order, which saves seven moves per round.
inline void sha_round(uint32_t a, uint32_t b, uint32_t c, uint32_t& d, uint32_t e, uint32_t f,
                      uint32_t g, uint32_t& h, uint32_t k_plus_w) {
    uint32_t t1 = h + big_sigma1(e) + ch(e, f, g) + k_plus_w;
    uint32_t t2 = big_sigma0(a) + maj(a, b, c);
    d += t1;
    h = t1 + t2;
}

}  // namespace

void Sha256::reset() {
    std::memcpy(m_state, k_initial, sizeof(m_state));
    m_total_bytes = 0;
    m_block_used = 0;
}

// FIPS 180-4 6.2.2: message schedule and the 64 rounds on one 512-bit block.
void Sha256::compress(const uint8_t* block) {
    uint32_t w[64];
    for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; ++t)
        w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];

    uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
    uint32_t e = m_state[4], f = m_state[5], g = m_state[6], h = m_state[7];
    for (int t = 0; t < 64; t += 8) {
        sha_round(a, b, c, d, e, f, g, h, k_round[t + 0] + w[t + 0]);
        sha_round(h, a, b, c, d, e, f, g, k_round[t + 1] + w[t + 1]);
        sha_round(g, h, a, b, c, d, e, f, k_round[t + 2] + w[t + 2]);
        sha_round(f, g, h, a, b, c, d, e, k_round[t + 3] + w[t + 3]);
        sha_round(e, f, g, h, a, b, c, d, k_round[t + 4] + w[t + 4]);
        sha_round(d, e, f, g, h, a, b, c, k_round[t + 5] + w[t + 5]);
        sha_round(c, d, e, f, g, h, a, b, k_round[t + 6] + w[t + 6]);
        sha_round(b, c, d, e, f, g, h, a, k_round[t + 7] + w[t + 7]);
    }
    m_state[0] += a;
    m_state[1] += b;
    m_state[2] += c;
    m_state[3] += d;
    m_state[4] += e;
    m_state[5] += f;
    m_state[6] += g;
    m_state[7] += h;
}

void Sha256::update(const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    m_total_bytes += size;
    if (m_block_used > 0) {
        size_t take = std::min(size, sizeof(m_block) - m_block_used);
        std::memcpy(m_block + m_block_used, p, take);
        m_block_used += take;
        p += take;
        size -= take;
        if (m_block_used < sizeof(m_block)) return;
        compress(m_block);
        m_block_used = 0;
    }
    for (; size >= 64; p += 64, size -= 64) compress(p);
    if (size > 0) {
        std::memcpy(m_block, p, size);
        m_block_used = size;
    }
}

// FIPS 180-4 5.1.1: append 0x80, zeros up to 56 mod 64, then the bit length big-endian.
std::array<uint8_t, 32> Sha256::finish() {
    uint64_t bit_length = m_total_bytes * 8;
    m_block[m_block_used++] = 0x80;
    if (m_block_used > 56) {
        std::memset(m_block + m_block_used, 0, 64 - m_block_used);
        compress(m_block);
        m_block_used = 0;
    }
    std::memset(m_block + m_block_used, 0, 56 - m_block_used);
    for (int i = 0; i < 8; ++i) m_block[56 + i] = uint8_t(bit_length >> (56 - 8 * i));
    compress(m_block);

    std::array<uint8_t, 32> digest;
    for (int i = 0; i < 8; ++i) store_be32(digest.data() + 4 * i, m_state[i]);
    reset();
    return digest;
}

std::string to_hex(const uint8_t* bytes, size_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out(size * 2, '0');
    for (size_t i = 0; i < size; ++i) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    return out;
}

std::string sha256_hex(std::string_view text) {
    Sha256 hasher;
    hasher.update(text);
    auto digest = hasher.finish();
    return to_hex(digest.data(), digest.size());
}

}  // namespace treadle
