// tests/cpp/api/test_stream_api.cpp -- Stream, Event, Graph (CUDA cases skip without a GPU)
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "compile/nvrtc.h"
#include "runtime/cuda.h"
#include "treadle/array.h"
#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/stream.h"

namespace {

using treadle::Array;
using treadle::Device;
using treadle::Error;
using treadle::ErrorKind;
using treadle::Event;
using treadle::Graph;
using treadle::Stream;
namespace cuda = treadle::cuda;

const char* k_module = R"(import treadle as wp


@wp.kernel
def slow_fill(a: wp.array(dtype=float), iters: int):
    i = wp.tid()
    x = float(0.0)
    for _k in range(iters):
        x = x + 1.0
    a[i] = float(i) + x


@wp.kernel
def scale_into(src: wp.array(dtype=float), dst: wp.array(dtype=float), s: float):
    i = wp.tid()
    dst[i] = src[i] * s


@wp.kernel
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0
)";

constexpr int64_t k_n = 1 << 16;
constexpr int k_iters = 4000;

/// The ErrorKind `f` throws (fails the test when it throws nothing or something else).
ErrorKind kind_thrown(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "no treadle::Error thrown";
    return ErrorKind::Syntax;
}

std::vector<float> iota_plus(float offset, float scale = 1.0f) {
    std::vector<float> v(k_n);
    for (int64_t i = 0; i < k_n; ++i) v[i] = scale * (float(i) + offset);
    return v;
}

#define REQUIRE_CUDA_KERNELS()                                                         \
    do {                                                                               \
        if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();         \
        if (!treadle::nvrtc::is_available()) GTEST_SKIP() << "NVRTC is not available"; \
    } while (0)

#define REQUIRE_CAPTURE()                                                                 \
    do {                                                                                  \
        REQUIRE_CUDA_KERNELS();                                                           \
        if (!cuda::graph_capture_supported()) GTEST_SKIP() << "no graph capture support"; \
    } while (0)

/// The test module's kernels, compiled once for cuda:0.
struct Kernels {
    treadle::Kernel slow_fill, scale_into, add_one;
};
const Kernels& kernels() {
    static const Kernels k = [] {
        auto m = treadle::Module::load_string(k_module, "stream_kernels.py");
        const Device d = Device::parse("cuda:0");
        return Kernels{m.kernel("slow_fill", d), m.kernel("scale_into", d), m.kernel("add_one", d)};
    }();
    return k;
}

// ---- without a GPU ---------------------------------------------------------------------------

TEST(StreamApi, CpuDeviceAndNullObjectsAreValueErrors) {
    EXPECT_EQ(kind_thrown([] { Stream s(Device::cpu()); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { Event e(Device::cpu()); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { Stream::current(Device::cpu()); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { Graph::begin_capture(Device::cpu()); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { treadle::ScopedCapture c(Device::cpu()); }), ErrorKind::Value);
    Stream null_stream;
    EXPECT_TRUE(null_stream.is_null());
    EXPECT_EQ(null_stream.handle(), nullptr);
    EXPECT_TRUE(null_stream.device().is_cpu());
    EXPECT_EQ(kind_thrown([&] { null_stream.synchronize(); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { Graph().launch(); }), ErrorKind::Value);
    EXPECT_EQ(kind_thrown([] { Event::elapsed_ms(Event(), Event()); }), ErrorKind::Value);
}

TEST(StreamApi, CpuKernelLaunchesWithANullStream) {
    auto m = treadle::Module::load_string(k_module, "stream_kernels.py");
    Array a = treadle::zeros<float>({16});
    m.kernel("add_one").launch({16}, {treadle::KernelArg(a)}, Stream());
    for (float v : treadle::to_vector<float>(a)) EXPECT_EQ(v, 1.0f);
}

// ---- streams and events ----------------------------------------------------------------------

TEST(StreamApiCuda, DefaultStreamIsCurrentAndScopedStreamSwitches) {
    if (!cuda::is_available()) GTEST_SKIP() << cuda::unavailable_reason();
    const Device d = Device::parse("cuda:0");
    const Stream def = Stream::device_default(d);
    EXPECT_EQ(Stream::current(d), def);
    EXPECT_TRUE(def.is_blocking());
    EXPECT_FALSE(def.owns_handle());
    Stream s(d, -1, false);
    EXPECT_TRUE(s.owns_handle());
    EXPECT_FALSE(s.is_blocking());
    EXPECT_NE(s, def);
    {
        treadle::ScopedStream scope(s);
        EXPECT_EQ(Stream::current(d), s);
    }
    EXPECT_EQ(Stream::current(d), def);
    {
        Stream temporary(d);
        Stream::set_current(temporary);
        EXPECT_EQ(Stream::current(d), temporary);
    }  // destroying the current stream makes the default current again
    EXPECT_EQ(Stream::current(d), def);
}

TEST(StreamApiCuda, EventsOrderWorkOnTwoStreams) {
    REQUIRE_CUDA_KERNELS();
    const Device d = Device::parse("cuda:0");
    const Kernels& k = kernels();
    Array a = treadle::zeros<float>({k_n}, d);
    Array b = treadle::zeros<float>({k_n}, d);
    Stream s1(d), s2(d);
    s1.wait(Stream::current(d));
    s2.wait(Stream::current(d));
    k.slow_fill.launch_on(s1, {k_n}, a, k_iters);
    Event done(d);
    s1.record(done);
    s2.wait(done);
    k.scale_into.launch_on(s2, {k_n}, a, b, 2.0f);
    s2.synchronize();
    EXPECT_TRUE(done.is_complete());
    EXPECT_TRUE(s2.is_complete());
    EXPECT_EQ(treadle::to_vector<float>(b), iota_plus(k_iters, 2.0f));
}

TEST(StreamApiCuda, ElapsedTimeBetweenTimingEvents) {
    REQUIRE_CUDA_KERNELS();
    const Device d = Device::parse("cuda:0");
    Array a = treadle::zeros<float>({k_n}, d);
    Event start(d, true), end(d, true), plain(d);
    start.record();
    kernels().slow_fill.launch({k_n}, a, k_iters);
    end.record();
    plain.record();
    EXPECT_GT(Event::elapsed_ms(start, end), 0.0f);
    EXPECT_EQ(kind_thrown([&] { Event::elapsed_ms(start, plain); }), ErrorKind::Value);
}

TEST(StreamApiCuda, KernelOnAStreamOfAnotherDeviceIsAValueError) {
    REQUIRE_CUDA_KERNELS();
    auto m = treadle::Module::load_string(k_module, "stream_kernels.py");
    Array a = treadle::zeros<float>({16});
    Stream s(Device::parse("cuda:0"));
    EXPECT_EQ(kind_thrown([&] { m.kernel("add_one").launch({16}, {treadle::KernelArg(a)}, s); }),
              ErrorKind::Value);
}

// ---- graph capture ---------------------------------------------------------------------------

TEST(StreamApiCuda, CaptureReplaysLaunchesACopyAndAnAllocation) {
    REQUIRE_CAPTURE();
    const Device d = Device::parse("cuda:0");
    const Kernels& k = kernels();
    Array a = treadle::from_vector(iota_plus(0), d);
    Array b = treadle::zeros<float>({k_n}, d);
    Array out;
    Graph g;
    {
        treadle::ScopedCapture capture(d);
        EXPECT_TRUE(Stream::current(d).is_capturing());
        Array tmp = treadle::zeros<float>({k_n}, d);  // allocated and zeroed in the graph
        k.add_one.launch({k_n}, a);
        k.scale_into.launch({k_n}, a, tmp, 2.0f);
        b.assign(tmp);
        out = treadle::empty<float>({k_n}, d);
        k.scale_into.launch({k_n}, b, out, 0.5f);
        g = capture.end();
    }  // tmp goes: the graph keeps its memory
    EXPECT_FALSE(Stream::current(d).is_capturing());
    EXPECT_NE(g.exec_handle(), nullptr);
    EXPECT_EQ(treadle::to_vector<float>(a), iota_plus(0));  // captured, not run
    for (int i = 1; i <= 25; ++i) g.launch();
    EXPECT_EQ(treadle::to_vector<float>(a), iota_plus(25));
    EXPECT_EQ(treadle::to_vector<float>(b), iota_plus(25, 2.0f));
    EXPECT_EQ(treadle::to_vector<float>(out), iota_plus(25));
    g = Graph();  // destroyed; `out` keeps its memory
    EXPECT_EQ(treadle::to_vector<float>(out), iota_plus(25));
}

TEST(StreamApiCuda, AScopeLeftByAnExceptionEndsTheCapture) {
    REQUIRE_CAPTURE();
    const Device d = Device::parse("cuda:0");
    const Kernels& k = kernels();
    Array a = treadle::from_vector(iota_plus(0), d);
    try {
        treadle::ScopedCapture capture(d);
        k.add_one.launch({k_n}, a);
        throw std::runtime_error("boom");
    } catch (const std::runtime_error&) {
    }
    EXPECT_FALSE(Stream::current(d).is_capturing());
    // A synchronisation invalidates a capture: end() throws, and the stream is free again.
    Graph::begin_capture(d);
    k.add_one.launch({k_n}, a);
    EXPECT_ANY_THROW(Stream::current(d).synchronize());
    EXPECT_EQ(kind_thrown([&] { Graph::end_capture(d); }), ErrorKind::Runtime);
    EXPECT_FALSE(Stream::current(d).is_capturing());
    EXPECT_EQ(treadle::to_vector<float>(a), iota_plus(0));
    treadle::ScopedCapture again(d);
    k.add_one.launch({k_n}, a);
    Graph g = again.end();
    g.launch();
    g.launch();
    EXPECT_EQ(treadle::to_vector<float>(a), iota_plus(2));
}

TEST(StreamApiCuda, GraphsAndStreamsDestroyedDuringACaptureGoAfterIt) {
    REQUIRE_CAPTURE();
    const Device d = Device::parse("cuda:0");
    const Kernels& k = kernels();
    Array a = treadle::from_vector(iota_plus(0), d);
    treadle::ScopedCapture first(d);
    k.add_one.launch({k_n}, a);
    Graph old = first.end();
    auto side = std::make_unique<Stream>(d);
    treadle::ScopedCapture capture(d);
    k.add_one.launch({k_n}, a);
    old = Graph();  // destroying a graph on a capturing thread would invalidate the capture
    side.reset();
    Graph g = capture.end();
    g.launch();
    EXPECT_EQ(treadle::to_vector<float>(a), iota_plus(1));
}

TEST(StreamApiCuda, PoolOffMeansPlainAllocationsAndNoCaptureAllocations) {
    REQUIRE_CUDA_KERNELS();
    if (!cuda::device_info(0).memory_pools) GTEST_SKIP() << "no memory pools";
    const Device d = Device::parse("cuda:0");
    EXPECT_TRUE(cuda::mempool_enabled(0));
    const uint64_t saved = cuda::release_threshold(0);
    cuda::set_release_threshold(0, 1 << 20);
    EXPECT_EQ(cuda::release_threshold(0), uint64_t(1) << 20);
    cuda::set_release_threshold(0, saved);
    Array pooled = treadle::zeros<float>({k_n}, d);
    cuda::set_mempool_enabled(0, false);
    Array plain = treadle::from_vector(iota_plus(0), d);
    pooled = Array();  // pool memory still freed the pool's way
    if (cuda::graph_capture_supported()) {
        Graph::begin_capture(d);
        EXPECT_EQ(kind_thrown([&] { treadle::zeros<float>({k_n}, d); }), ErrorKind::Runtime);
        Graph::end_capture(d);
    }
    cuda::set_mempool_enabled(0, true);
    EXPECT_EQ(treadle::to_vector<float>(plain), iota_plus(0));
    plain = Array();  // plain memory freed with cuMemFree
    treadle::synchronize(d);
}

}  // namespace
