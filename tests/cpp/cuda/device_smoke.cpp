// tests/cpp/cuda/device_smoke.cpp -- end-to-end check of treadle::cuda and NVRTC on a real GPU
//
// Not part of treadle_tests (CI has no GPU). Build and run from the repository root:
//
//   g++ -std=c++20 -O1 -g -Iinclude -Isrc -DTREADLE_SOURCE_DIR="\"$PWD\""
//       src/common/error.cpp src/runtime/cuda.cpp src/runtime/cuda_driver.cpp
//       src/runtime/cuda_memory.cpp src/runtime/cuda_stream.cpp
//       src/compile/nvrtc.cpp tests/cpp/cuda/device_smoke.cpp -pthread -ldl -o /tmp/cuda_smoke
//   /tmp/cuda_smoke
//
// It lists the devices, then on each: allocates, copies and fills memory, compiles a kernel
// that includes treadle/cuda.h with NVRTC (CUBIN, and PTX where NVRTC picks it), launches it
// through cuda::launch with one parameter block, and checks the results; then checks the
// errors (out of memory, unknown kernel, a faulting kernel). Prints "cuda smoke ok" and exits 0
// when everything held; otherwise names the first failed check and exits 1. With --bench it
// also prints the host cost of one cuda::launch (many tiny launches, timed together).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "compile/nvrtc.h"
#include "runtime/cuda.h"
#include "treadle/error.h"

namespace cuda = treadle::cuda;
namespace nvrtc = treadle::nvrtc;

namespace {

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            std::fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                                          \
        }                                                                          \
    } while (0)

const char* const kSource = R"(#include "treadle/cuda.h"

WP_EXPORT __global__ void saxpy(wp::launch_bounds_t dim, wp::array_t<wp::float32> x,
                                wp::array_t<wp::float32> y, wp::float32 a) {
    const wp::int64 tid = wp::int64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tid >= dim.size) return;
    wp::int32 i;
    wp::tid_unravel(tid, dim, i);
    wp::store(y, i, wp::add(wp::mul(a, wp::load(x, i)), wp::load(y, i)));
}

WP_EXPORT __global__ void fault(wp::int32* p) { p[threadIdx.x] = 1; }
)";

/// Host mirrors of wp::launch_bounds_t and wp::array_t<float> (native/treadle/array.h).
struct LaunchBounds {
    int32_t shape[4];
    int32_t ndim;
    int32_t pad_;
    int64_t size;
};
struct FloatArray {
    float* data;
    float* grad;
    int32_t shape[4];
    int64_t strides[4];
    int32_t ndim;
    int32_t pad_;
};
static_assert(sizeof(LaunchBounds) == 32 && sizeof(FloatArray) == 72, "native layouts");

/// The kernel's parameters, laid out as the device expects them.
struct SaxpyParams {
    LaunchBounds dim;
    FloatArray x;
    FloatArray y;
    float a;
};
/// The kernel's parameter block ends after `a`: sizeof would add tail padding, and a buffer
/// larger than the kernel's parameters fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.
constexpr size_t kSaxpyParamsSize = offsetof(SaxpyParams, a) + sizeof(float);

FloatArray array_1d(void* data, int n) {
    FloatArray a{};
    a.data = static_cast<float*>(data);
    a.shape[0] = n;
    a.strides[0] = sizeof(float);
    a.ndim = 1;
    return a;
}

/// Expects `f` to throw treadle::Error of `kind`; prints its message.
template <typename F>
void expect_error(const char* what, treadle::ErrorKind kind, F&& f) {
    try {
        f();
    } catch (const treadle::Error& e) {
        std::printf("  %s -> %s\n", what, e.what());
        CHECK(e.kind() == kind);
        return;
    }
    std::fprintf(stderr, "FAILED: %s did not throw\n", what);
    std::exit(1);
}

void run_saxpy(int ordinal, cuda::FunctionHandle saxpy, int n) {
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = float(i);
    void* dx = cuda::alloc(ordinal, n * sizeof(float));
    void* dy = cuda::alloc(ordinal, n * sizeof(float));
    cuda::copy_host_to_device(ordinal, dx, x.data(), n * sizeof(float));
    cuda::memset(ordinal, dy, 0x3f800000u, 4, n);  // 1.0f

    SaxpyParams params{};
    params.dim.shape[0] = n;
    params.dim.ndim = 1;
    params.dim.size = n;
    params.x = array_1d(dx, n);
    params.y = array_1d(dy, n);
    params.a = 2.0f;
    const unsigned block = 256, grid = unsigned((n + block - 1) / block);
    cuda::launch(ordinal, saxpy, grid, block, &params, kSaxpyParamsSize);
    cuda::launch(ordinal, saxpy, 0, block, &params, kSaxpyParamsSize);  // nothing to do
    cuda::copy_device_to_host(ordinal, y.data(), dy, n * sizeof(float));
    cuda::synchronize(ordinal);
    for (int i = 0; i < n; ++i) CHECK(y[i] == 2.0f * float(i) + 1.0f);
    cuda::free(ordinal, dx);
    cuda::free(ordinal, dy);
}

void check_memory(int ordinal) {
    const size_t n = 1 << 20;
    void* a = cuda::alloc(ordinal, n);
    void* b = cuda::alloc(ordinal, n);
    CHECK(a && b && a != b);
    std::vector<uint8_t> host(n), back(n, 0);
    for (size_t i = 0; i < n; ++i) host[i] = uint8_t(i * 7 + 3);
    cuda::copy_host_to_device(ordinal, a, host.data(), n);
    cuda::copy_device_to_device(ordinal, b, a, n);
    cuda::copy_device_to_host(ordinal, back.data(), b, n);
    cuda::synchronize_stream(ordinal, nullptr);
    CHECK(back == host);

    cuda::memset(ordinal, a, 0x5a, 1, n);
    cuda::copy_device_to_host(ordinal, back.data(), a, n);
    cuda::synchronize(ordinal);
    CHECK(back == std::vector<uint8_t>(n, 0x5a));
    std::vector<uint16_t> halves(n / 2, 0);
    cuda::memset(ordinal, b, 0xbeef, 2, n / 2);
    cuda::copy_device_to_host(ordinal, halves.data(), b, n);
    cuda::synchronize(ordinal);
    CHECK(halves == std::vector<uint16_t>(n / 2, 0xbeef));
    cuda::free(ordinal, a);
    cuda::free(ordinal, b);
    CHECK(cuda::alloc(ordinal, 0) == nullptr);
    cuda::free(ordinal, nullptr);

    expect_error("alloc(1 PiB)", treadle::ErrorKind::OutOfMemory,
                 [&] { cuda::alloc(ordinal, size_t(1) << 50); });
    void* after = cuda::alloc(ordinal, 4096);  // still usable after running out
    cuda::free(ordinal, after);
    cuda::synchronize(ordinal);
}

void check_device(int ordinal) {
    const cuda::DeviceInfo& info = cuda::device_info(ordinal);
    const int arch = info.major * 10 + info.minor;
    size_t free_bytes = 0, total_bytes = 0;
    cuda::memory_info(ordinal, free_bytes, total_bytes);
    std::printf("cuda:%d: %zu of %zu bytes free\n", ordinal, free_bytes, total_bytes);
    CHECK(total_bytes > 0 && free_bytes <= total_bytes);
    cuda::set_release_threshold(ordinal, UINT64_MAX);

    check_memory(ordinal);

    const std::vector<std::string> include = {TREADLE_SOURCE_DIR "/native"};
    nvrtc::Result cubin = nvrtc::compile(kSource, "smoke.cu", arch, include, {});
    if (!cubin.ok) std::fprintf(stderr, "%s\n", cubin.log.c_str());
    CHECK(cubin.ok);
    std::printf("  NVRTC: %s of %zu bytes for %d in %.3f s\n", cubin.is_cubin ? "CUBIN" : "PTX",
                cubin.image.size(), arch, cubin.seconds);
    cuda::ModuleHandle module = cuda::load_module(ordinal, cubin.image);
    cuda::FunctionHandle saxpy = cuda::get_function(module, "saxpy");
    CHECK(saxpy != nullptr);
    run_saxpy(ordinal, saxpy, 1000);
    run_saxpy(ordinal, saxpy, 1 << 20);
    // Fresh threads: every call must make the primary context current on its own thread.
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            try {
                run_saxpy(ordinal, saxpy, 5000 + t);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "thread %d: %s\n", t, e.what());
                ++failures;
            }
        });
    for (std::thread& thread : threads) thread.join();
    CHECK(failures == 0);
    expect_error("get_function(nope)", treadle::ErrorKind::Runtime,
                 [&] { cuda::get_function(module, "nope"); });
    cuda::unload_module(ordinal, module);

    // One past the device's architecture is not a real one NVRTC knows of, so (usually) it
    // falls back to PTX for the device's own virtual architecture, which the driver JITs.
    nvrtc::Result ptx = nvrtc::compile(kSource, "smoke_ptx.cu", arch + 1, include, {});
    CHECK(ptx.ok);
    if (!ptx.is_cubin) {
        std::printf("  NVRTC: PTX of %zu bytes for %d\n", ptx.image.size(), arch + 1);
        cuda::ModuleHandle jit = cuda::load_module(ordinal, ptx.image);
        run_saxpy(ordinal, cuda::get_function(jit, "saxpy"), 4096);
        cuda::unload_module(ordinal, jit);
    }
}

/// Times `count` back-to-back launches of a one-element saxpy on cuda:0.
void bench_launch(int count) {
    const cuda::DeviceInfo& info = cuda::device_info(0);
    const std::vector<std::string> include = {TREADLE_SOURCE_DIR "/native"};
    nvrtc::Result r =
        nvrtc::compile(kSource, "smoke.cu", info.major * 10 + info.minor, include, {});
    CHECK(r.ok);
    cuda::ModuleHandle module = cuda::load_module(0, r.image);
    cuda::FunctionHandle saxpy = cuda::get_function(module, "saxpy");
    void* d = cuda::alloc(0, 2 * sizeof(float));
    SaxpyParams params{};
    params.dim.shape[0] = 1;
    params.dim.ndim = 1;
    params.dim.size = 1;
    params.x = array_1d(d, 1);
    params.y = array_1d(static_cast<float*>(d) + 1, 1);
    params.a = 1.0f;
    cuda::launch(0, saxpy, 1, 32, &params, kSaxpyParamsSize);
    cuda::synchronize(0);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) cuda::launch(0, saxpy, 1, 32, &params, kSaxpyParamsSize);
    const auto issued = std::chrono::steady_clock::now();
    cuda::synchronize(0);
    const auto done = std::chrono::steady_clock::now();
    using us = std::chrono::duration<double, std::micro>;
    std::printf("launch: %.2f us each to issue, %.2f us each to complete (%d launches)\n",
                us(issued - start).count() / count, us(done - start).count() / count, count);
    cuda::free(0, d);
    cuda::unload_module(0, module);
}

/// A kernel writing through a null pointer: the error surfaces at synchronisation as a
/// treadle::Error. It poisons the context, so this runs last.
void check_fault(int ordinal) {
    const cuda::DeviceInfo& info = cuda::device_info(ordinal);
    const std::vector<std::string> include = {TREADLE_SOURCE_DIR "/native"};
    nvrtc::Result r =
        nvrtc::compile(kSource, "smoke.cu", info.major * 10 + info.minor, include, {});
    CHECK(r.ok);
    cuda::FunctionHandle fault = cuda::get_function(cuda::load_module(ordinal, r.image), "fault");
    void* null_pointer = nullptr;
    cuda::launch(ordinal, fault, 1, 32, &null_pointer, sizeof(null_pointer));
    expect_error("synchronize after a faulting kernel", treadle::ErrorKind::Runtime,
                 [&] { cuda::synchronize(ordinal); });
}

}  // namespace

int main(int argc, char** argv) {
    const bool bench = argc > 1 && std::strcmp(argv[1], "--bench") == 0;
    try {
        std::printf("NVRTC %s\n", nvrtc::version().c_str());
        CHECK(nvrtc::is_available());
        if (!cuda::is_available()) {
            std::fprintf(stderr, "FAILED: CUDA unavailable: %s\n",
                         cuda::unavailable_reason().c_str());
            return 1;
        }
        std::printf("driver %d, %d device(s)\n", cuda::driver_version(), cuda::device_count());
        for (int i = 0; i < cuda::device_count(); ++i) {
            const cuda::DeviceInfo& info = cuda::device_info(i);
            std::printf("cuda:%d: %s, sm_%d%d, %d SMs, %zu bytes, memory pools %s\n", i,
                        info.name.c_str(), info.major, info.minor, info.sm_count, info.total_memory,
                        info.memory_pools ? "yes" : "no");
        }
        expect_error("device_info(count)", treadle::ErrorKind::Value,
                     [] { cuda::device_info(cuda::device_count()); });
        for (int i = 0; i < cuda::device_count(); ++i) check_device(i);
        if (bench) bench_launch(100000);
        check_fault(0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "FAILED with an exception: %s\n", e.what());
        return 1;
    }
    std::printf("cuda smoke ok\n");
    return 0;
}
