// tests/cpp/compile/test_sha256.cpp -- SHA-256 against the FIPS 180-4 / NIST example vectors
#include <gtest/gtest.h>

#include <string>

#include "compile/sha256.h"

namespace treadle {
namespace {

TEST(Sha256, EmptyMessage) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage448Bits) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, Message896Bits) {
    EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                         "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesMatchOneShot) {
    std::string message;
    for (int i = 0; i < 1000; ++i) message += char('a' + i % 26);
    std::string expected = sha256_hex(message);
    // Every split size, including ones that straddle the 64-byte block and the 56-byte pad.
    for (size_t step : {1u, 3u, 55u, 56u, 57u, 63u, 64u, 65u, 127u, 999u}) {
        Sha256 hasher;
        for (size_t pos = 0; pos < message.size(); pos += step)
            hasher.update(std::string_view(message).substr(pos, step));
        auto digest = hasher.finish();
        EXPECT_EQ(to_hex(digest.data(), digest.size()), expected) << "step " << step;
    }
}

TEST(Sha256, FinishResetsTheHasher) {
    Sha256 hasher;
    hasher.update("garbage");
    hasher.finish();
    hasher.update("abc");
    auto digest = hasher.finish();
    EXPECT_EQ(to_hex(digest.data(), digest.size()),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, PaddingBoundaryLengths) {
    // Lengths 55, 56 and 64 exercise the one- and two-block padding paths.
    EXPECT_EQ(sha256_hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(sha256_hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(sha256_hex(std::string(64, 'a')),
              "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

}  // namespace
}  // namespace treadle
