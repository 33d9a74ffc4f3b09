// tests/cpp/cuda/test_nvrtc.cpp -- NVRTC loading and compilation to CUBIN / PTX (no GPU needed)
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "compile/nvrtc.h"
#include "treadle/error.h"

namespace treadle {
namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// True where a CUDA toolkit sits at a standard place: there NVRTC must be found.
bool toolkit_installed() {
    std::vector<std::string> dirs = {"/usr/local/cuda/lib64"};
    if (const char* home = std::getenv("CUDA_HOME")) dirs.push_back(std::string(home) + "/lib64");
    for (const std::string& dir : dirs)
        for (const char* name : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})
            if (::access((dir + "/" + name).c_str(), R_OK) == 0) return true;
    return false;
}

#define REQUIRE_NVRTC()                                                          \
    do {                                                                         \
        if (!nvrtc::is_available()) {                                            \
            if (toolkit_installed() && !std::getenv("TREADLE_NVRTC"))            \
                FAIL() << "a CUDA toolkit is installed but NVRTC did not load: " \
                       << nvrtc::unavailable_reason();                           \
            GTEST_SKIP() << nvrtc::unavailable_reason();                         \
        }                                                                        \
    } while (0)

const std::vector<std::string> kNative = {TREADLE_SOURCE_DIR "/native"};

const char* const kKernel = R"(#include "treadle/cuda.h"

WP_EXPORT __global__ void scale(wp::launch_bounds_t dim, wp::array_t<wp::float32> x,
                                wp::float32 s) {
    const wp::int64 tid = wp::int64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tid >= dim.size) return;
    wp::int32 i;
    wp::tid_unravel(tid, dim, i);
    wp::store(x, i, wp::mul(wp::load(x, i), s));
}
)";

const char* const kTinyKernel =
    "extern \"C\" __global__ void add_one(int* p) { p[threadIdx.x] += 1; }\n";

TEST(Nvrtc, LoadsAndReportsItsVersion) {
    REQUIRE_NVRTC();
    EXPECT_TRUE(nvrtc::unavailable_reason().empty());
    const std::string v = nvrtc::version();
    EXPECT_TRUE(std::regex_match(v, std::regex("[0-9]+\\.[0-9]+"))) << v;
}

TEST(Nvrtc, CompilesTheNativeLibraryToCubin) {
    REQUIRE_NVRTC();
    nvrtc::Result r = nvrtc::compile(kKernel, "scale.cu", 90, kNative, {});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.is_cubin);
    ASSERT_GE(r.image.size(), 4u);
    EXPECT_EQ(r.image.substr(0, 4), std::string("\x7f"
                                                "ELF"));
    EXPECT_GT(r.seconds, 0.0);
}

TEST(Nvrtc, SyntaxErrorIsReportedInTheLog) {
    REQUIRE_NVRTC();
    nvrtc::Result r =
        nvrtc::compile("extern \"C\" __global__ void broken( { oops }\n", "broken.cu", 90, {}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.image.empty());
    EXPECT_TRUE(contains(r.log, "error")) << r.log;
    EXPECT_TRUE(contains(r.log, "broken.cu")) << r.log;
}

TEST(Nvrtc, MissingIncludeDirectoryIsACompileError) {
    REQUIRE_NVRTC();
    nvrtc::Result r = nvrtc::compile(kKernel, "scale.cu", 90, {}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.log, "treadle/cuda.h")) << r.log;
}

TEST(Nvrtc, UserOptionsArePassedAndBadOnesReported) {
    REQUIRE_NVRTC();
    nvrtc::Result good = nvrtc::compile(kTinyKernel, "tiny.cu", 90, {}, {"-lineinfo", "-DX=1"});
    EXPECT_TRUE(good.ok) << good.log;
    nvrtc::Result bad = nvrtc::compile(kTinyKernel, "tiny.cu", 90, {}, {"--no-such-option"});
    EXPECT_FALSE(bad.ok);
    EXPECT_TRUE(contains(bad.log, "no-such-option") || contains(bad.log, "nvrtcCompileProgram"))
        << bad.log;
}

TEST(Nvrtc, StdCpp17IsAlwaysOn) {
    REQUIRE_NVRTC();
    const char* source =
        "static_assert(__cplusplus >= 201703L, \"C++17\");\n"
        "template <typename... T> __device__ int sum(T... v) { return (0 + ... + v); }\n"
        "extern \"C\" __global__ void k(int* p) { if constexpr (true) p[0] = sum(1, 2); }\n";
    nvrtc::Result r = nvrtc::compile(source, "cxx17.cu", 90, {}, {});
    EXPECT_TRUE(r.ok) << r.log;
}

TEST(Nvrtc, UnknownNewerArchitectureFallsBackToPtx) {
    REQUIRE_NVRTC();
    nvrtc::Result r = nvrtc::compile(kTinyKernel, "tiny.cu", 990, {}, {});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.is_cubin);
    EXPECT_TRUE(contains(r.image, ".version")) << r.image.substr(0, 200);
    EXPECT_TRUE(contains(r.image, "add_one"));
    EXPECT_NE(r.image.back(), '\0');
}

TEST(Nvrtc, ArchitectureOlderThanSupportedFailsWithoutThrowing) {
    REQUIRE_NVRTC();
    nvrtc::Result r = nvrtc::compile(kTinyKernel, "tiny.cu", 10, {}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.log.empty());
}

TEST(Nvrtc, ConcurrentCompilesAllSucceed) {
    REQUIRE_NVRTC();
    std::vector<nvrtc::Result> results(3);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < results.size(); ++i)
        threads.emplace_back([&results, i] {
            results[i] = nvrtc::compile(kTinyKernel, "tiny" + std::to_string(i) + ".cu",
                                        i % 2 ? 80 : 90, {}, {});
        });
    for (std::thread& t : threads) t.join();
    for (const nvrtc::Result& r : results) {
        EXPECT_TRUE(r.ok) << r.log;
        EXPECT_TRUE(r.is_cubin);
    }
}

/// TREADLE_NVRTC is read once per process, so this runs in a fresh one (a re-executed
/// death-test child) where the variable names a file that is not a library.
TEST(NvrtcLoad, BogusOverrideMakesNvrtcUnavailable) {
    const std::string saved_style = GTEST_FLAG_GET(death_test_style);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            ::setenv("TREADLE_NVRTC", "/nonexistent/libnvrtc-bogus.so", 1);
            const bool available = nvrtc::is_available();
            const std::string reason = nvrtc::unavailable_reason();
            bool threw = false;
            try {
                nvrtc::compile(kTinyKernel, "tiny.cu", 90, {}, {});
            } catch (const Error& e) {
                threw = e.kind() == ErrorKind::Runtime && contains(e.what(), reason);
            }
            std::fprintf(stderr, "reason: %s\n", reason.c_str());
            std::exit(!available && threw && nvrtc::version().empty() ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "TREADLE_NVRTC=/nonexistent/libnvrtc-bogus.so");
    GTEST_FLAG_SET(death_test_style, saved_style);
}

}  // namespace
}  // namespace treadle

TEST(Nvrtc, IdentityNamesTheLibraryWithoutChangingAcrossCalls) {
    if (!treadle::nvrtc::is_available()) GTEST_SKIP() << "NVRTC not installed";
    std::string id = treadle::nvrtc::identity();
    EXPECT_FALSE(id.empty());
    EXPECT_EQ(id, treadle::nvrtc::identity());
    EXPECT_NE(id.find("nvrtc"), std::string::npos) << id;
}
