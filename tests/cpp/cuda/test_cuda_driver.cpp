// tests/cpp/cuda/test_cuda_driver.cpp -- treadle::cuda with and without an NVIDIA driver
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/cuda.h"
#include "runtime/cuda_driver.h"
#include "treadle/error.h"

namespace treadle {
namespace {

namespace drv = cuda::driver;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Runs `f`, expects a treadle::Error of `kind`, and returns its message.
template <typename F>
std::string expect_error(F&& f, ErrorKind kind) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        return e.message();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not a treadle::Error: " << e.what();
        return "";
    }
    ADD_FAILURE() << "nothing was thrown";
    return "";
}

// ---- the checking wrapper, on a hand-made table ---------------------------------------------

drv::CUresult fake_error_name(drv::CUresult code, const char** out) {
    if (code == drv::CUDA_ERROR_OUT_OF_MEMORY)
        *out = "CUDA_ERROR_OUT_OF_MEMORY";
    else if (code == 1)
        *out = "CUDA_ERROR_INVALID_VALUE";
    else
        return 1;
    return drv::CUDA_SUCCESS;
}

drv::CUresult fake_error_string(drv::CUresult code, const char** out) {
    if (code == drv::CUDA_ERROR_OUT_OF_MEMORY)
        *out = "out of memory";
    else if (code == 1)
        *out = "invalid argument";
    else
        return 1;
    return drv::CUDA_SUCCESS;
}

int g_init_calls = 0;
drv::CUresult fake_init(unsigned int flags) {
    ++g_init_calls;
    return flags == 0 ? drv::CUDA_SUCCESS : drv::CUresult(1);
}
drv::CUresult fake_alloc(drv::CUdeviceptr*, size_t) { return drv::CUDA_ERROR_OUT_OF_MEMORY; }

drv::Table fake_table() {
    drv::Table t;
    t.cuGetErrorName = fake_error_name;
    t.cuGetErrorString = fake_error_string;
    t.cuInit = fake_init;
    t.cuMemAlloc_v2 = fake_alloc;
    return t;
}

TEST(CudaDriverCheck, SuccessPassesThrough) {
    drv::Table t = fake_table();
    g_init_calls = 0;
    TREADLE_CU_WITH(t, cuInit, 0);
    EXPECT_EQ(g_init_calls, 1);
}

TEST(CudaDriverCheck, FailureNamesCallErrorAndMessage) {
    drv::Table t = fake_table();
    std::string message = expect_error([&] { TREADLE_CU_WITH(t, cuInit, 7); }, ErrorKind::Runtime);
    EXPECT_EQ(message, "cuInit failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
    EXPECT_EQ(drv::last_error(), 1);
}

TEST(CudaDriverCheck, OutOfMemoryHasItsOwnKind) {
    drv::Table t = fake_table();
    drv::CUdeviceptr ptr = 0;
    std::string message =
        expect_error([&] { TREADLE_CU_WITH(t, cuMemAlloc_v2, &ptr, 64); }, ErrorKind::OutOfMemory);
    EXPECT_EQ(message, "cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
}

TEST(CudaDriverCheck, UnknownCodeFallsBackToItsNumber) {
    drv::Table t = fake_table();
    EXPECT_EQ(drv::error_text(t, 999), "CUDA error 999");
    drv::Table empty;  // a driver that names nothing (the toolkit's stub does that)
    EXPECT_EQ(drv::error_text(empty, 2), "CUDA_ERROR_OUT_OF_MEMORY");
    EXPECT_EQ(drv::error_text(empty, 34), "CUDA_ERROR_STUB_LIBRARY");
    EXPECT_EQ(drv::error_text(empty, 700), "CUDA error 700");
}

// ---- loading ----------------------------------------------------------------------------------

TEST(CudaDriverLoad, MissingLibraryIsReportedNotThrown) {
    drv::Table t;
    bool opened = true;
    std::string why = drv::load_table("/nonexistent/libcuda.so.1", t, &opened);
    EXPECT_FALSE(why.empty());
    EXPECT_FALSE(opened);
    EXPECT_EQ(t.cuInit, nullptr);
}

/// The directory of the CUDA toolkit's stub libcuda.so, or "".
std::string stub_directory() {
    std::vector<std::string> roots = {"/usr/local/cuda"};
    if (const char* home = std::getenv("CUDA_HOME")) roots.insert(roots.begin(), home);
    for (const std::string& root : roots)
        if (::access((root + "/lib64/stubs/libcuda.so").c_str(), R_OK) == 0)
            return root + "/lib64/stubs";
    return "";
}

/// Loads the toolkit's stub libcuda into this process, reports on stderr and exits: 0 when
/// every table entry resolved and cuInit failed through the checking wrapper.
[[noreturn]] void load_stub_and_exit(const std::string& stub) {
    drv::Table t;
    bool opened = false;
    std::string why = drv::load_table(stub.c_str(), t, &opened);
    int missing = 0;
#define TREADLE_CU_ENTRY(symbol, required, params)     \
    if (!t.symbol) {                                   \
        std::fprintf(stderr, "missing %s\n", #symbol); \
        ++missing;                                     \
    }
#include "runtime/cuda_driver_table.h"
#undef TREADLE_CU_ENTRY
    std::string message;
    try {
        TREADLE_CU_WITH(t, cuInit, 0);
    } catch (const Error& e) {
        message = e.message();
    }
    std::fprintf(stderr, "load: '%s' cuInit: '%s'\n", why.c_str(), message.c_str());
    std::exit(why.empty() && opened && missing == 0 ? 0 : 1);
}

/// The toolkit's link stub exports every driver entry point (each returns
/// CUDA_ERROR_STUB_LIBRARY), so it checks the table's symbol names without a GPU. Loaded in a
/// fresh process (a re-executed death-test child): once loaded, the stub would answer this
/// process's own dlopen("libcuda.so") by its soname.
TEST(CudaDriverLoad, EveryEntryResolvesInTheToolkitStub) {
    const std::string stub = stub_directory() + "/libcuda.so";
    if (stub == "/libcuda.so") GTEST_SKIP() << "no CUDA toolkit stub libcuda.so";

    const std::string saved_style = GTEST_FLAG_GET(death_test_style);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(load_stub_and_exit(stub), ::testing::ExitedWithCode(0),
                "load: '' cuInit: 'cuInit failed: CUDA_ERROR_STUB_LIBRARY");
    GTEST_FLAG_SET(death_test_style, saved_style);
}

/// Exits 0 when the public interface reports CUDA unavailable because of the stub.
[[noreturn]] void use_stub_driver_and_exit() {
    const std::string reason = cuda::unavailable_reason();
    std::fprintf(stderr, "reason: %s\n", reason.c_str());
    bool alloc_threw = false;
    try {
        cuda::alloc(0, 16);
    } catch (const Error& e) {
        alloc_threw = e.kind() == ErrorKind::Runtime && contains(e.message(), reason);
    }
    std::exit(!cuda::is_available() && cuda::device_count() == 0 && alloc_threw ? 0 : 1);
}

/// A stubs directory on the library path (a common container mistake): libcuda.so.1 is
/// missing, libcuda.so is the stub, and the reason says so. LD_LIBRARY_PATH is read when a
/// process starts, so a re-executed death-test child sees it.
TEST(CudaDriverLoad, StubOnTheLibraryPathIsNamedInTheReason) {
    const std::string dir = stub_directory();
    if (dir.empty()) GTEST_SKIP() << "no CUDA toolkit stub libcuda.so";
    if (cuda::is_available()) GTEST_SKIP() << "a real driver would be found first";
    const char* old_path = std::getenv("LD_LIBRARY_PATH");
    const std::string saved_path = old_path ? old_path : "";
    ::setenv("LD_LIBRARY_PATH", (dir + (old_path ? ":" + saved_path : "")).c_str(), 1);
    const std::string saved_style = GTEST_FLAG_GET(death_test_style);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(use_stub_driver_and_exit(), ::testing::ExitedWithCode(0),
                "reason: the libcuda found is the CUDA toolkit's stub");
    GTEST_FLAG_SET(death_test_style, saved_style);
    if (old_path)
        ::setenv("LD_LIBRARY_PATH", saved_path.c_str(), 1);
    else
        ::unsetenv("LD_LIBRARY_PATH");
}

// ---- the public interface -----------------------------------------------------------------

TEST(Cuda, AvailabilityIsConsistent) {
    const bool available = cuda::is_available();
    EXPECT_EQ(cuda::is_available(), available);  // stable, and never throws
    if (available) {
        EXPECT_GT(cuda::device_count(), 0);
        EXPECT_TRUE(cuda::unavailable_reason().empty());
        EXPECT_GT(cuda::driver_version(), 0);
    } else {
        EXPECT_EQ(cuda::device_count(), 0);
        EXPECT_FALSE(cuda::unavailable_reason().empty());
        EXPECT_EQ(cuda::driver_version(), 0);
    }
}

TEST(Cuda, WithoutDriverEverythingThrowsRuntime) {
    if (cuda::is_available()) GTEST_SKIP() << "a CUDA driver and device are present";
    const std::string reason = cuda::unavailable_reason();
    auto expect_unavailable = [&](auto&& f) {
        std::string message = expect_error(f, ErrorKind::Runtime);
        EXPECT_TRUE(contains(message, "CUDA is not available")) << message;
        EXPECT_TRUE(contains(message, reason)) << message;
    };
    expect_unavailable([] { cuda::device_info(0); });
    expect_unavailable([] { cuda::alloc(0, 1024); });
    expect_unavailable([] {
        size_t free_bytes = 0, total_bytes = 0;
        cuda::memory_info(0, free_bytes, total_bytes);
    });
    expect_unavailable([] { cuda::set_current(0); });
    expect_unavailable([] { cuda::synchronize(0); });
    expect_unavailable([] { cuda::load_module(0, "not an image"); });
    expect_unavailable([] { cuda::get_function(nullptr, "k"); });
    expect_unavailable([] { cuda::launch(0, nullptr, 1, 1, nullptr, 0); });
    expect_unavailable([] { cuda::memset(0, nullptr, 0, 4, 1); });
    // Releasing nothing is never an error.
    EXPECT_NO_THROW(cuda::free(0, nullptr));
    EXPECT_NO_THROW(cuda::unload_module(0, nullptr));
}

TEST(Cuda, DeviceOrdinalOutOfRangeIsAValueError) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    std::string message =
        expect_error([] { cuda::device_info(cuda::device_count()); }, ErrorKind::Value);
    EXPECT_TRUE(contains(message, "cuda:" + std::to_string(cuda::device_count()))) << message;
    expect_error([] { cuda::alloc(-1, 16); }, ErrorKind::Value);
}

TEST(Cuda, DeviceInfoDescribesDeviceZero) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    const cuda::DeviceInfo& info = cuda::device_info(0);
    EXPECT_FALSE(info.name.empty());
    EXPECT_GE(info.major, 3);
    EXPECT_GT(info.sm_count, 0);
    EXPECT_GT(info.total_memory, size_t(0));
    EXPECT_EQ(&cuda::device_info(0), &info);  // queried once
}

TEST(Cuda, AllocCopyMemsetRoundTrip) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    const size_t n = 1000;
    std::vector<uint32_t> host(n), back(n, 0);
    for (size_t i = 0; i < n; ++i) host[i] = uint32_t(i * 2654435761u);
    void* a = cuda::alloc(0, n * 4);
    void* b = cuda::alloc(0, n * 4);
    ASSERT_NE(a, nullptr);
    cuda::copy_host_to_device(0, a, host.data(), n * 4);
    cuda::copy_device_to_device(0, b, a, n * 4);
    cuda::copy_device_to_host(0, back.data(), b, n * 4);
    cuda::synchronize(0);
    EXPECT_EQ(back, host);

    cuda::memset(0, a, 0xdeadbeefu, 4, n);
    cuda::memset(0, b, 0xabcdu, 2, 2 * n);
    std::vector<uint16_t> halves(2 * n, 0);
    cuda::copy_device_to_host(0, back.data(), a, n * 4);
    cuda::copy_device_to_host(0, halves.data(), b, n * 4);
    cuda::synchronize_stream(0, nullptr);
    EXPECT_EQ(back, std::vector<uint32_t>(n, 0xdeadbeefu));
    EXPECT_EQ(halves, std::vector<uint16_t>(2 * n, 0xabcd));
    expect_error([&] { cuda::memset(0, a, 0, 8, n); }, ErrorKind::Value);

    cuda::free(0, a);
    cuda::free(0, b);
    cuda::synchronize(0);
    EXPECT_EQ(cuda::alloc(0, 0), nullptr);
}

TEST(Cuda, HugeAllocationIsOutOfMemoryAndRecoverable) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    const size_t huge = size_t(1) << 50;  // 1 PiB
    std::string message = expect_error([&] { cuda::alloc(0, huge); }, ErrorKind::OutOfMemory);
    EXPECT_TRUE(contains(
        message, "alloc(): out of memory on cuda:0 allocating " + std::to_string(huge) + " bytes"))
        << message;
    EXPECT_TRUE(contains(message, "free")) << message;
    void* small = cuda::alloc(0, 256);  // the device still works
    EXPECT_NE(small, nullptr);
    cuda::free(0, small);
    cuda::synchronize(0);
}

TEST(Cuda, BadModuleImageIsARuntimeError) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    std::string message =
        expect_error([] { cuda::load_module(0, "this is not PTX"); }, ErrorKind::Runtime);
    EXPECT_TRUE(contains(message, "cuModuleLoadData failed")) << message;
}

}  // namespace
}  // namespace treadle
