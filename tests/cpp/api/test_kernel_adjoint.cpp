// tests/cpp/api/test_kernel_adjoint.cpp -- Kernel::launch_adjoint, Array::enable_grad, CUDA tapes
#include <gtest/gtest.h>

#include <vector>

#include "api/launch_args.h"
#include "compile/compile_kernel.h"
#include "grad_kernels.h"
#include "runtime/cuda.h"
#include "runtime/launch.h"
#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/tape.h"

namespace {

using treadle::Array;
using treadle::Device;
using treadle::Module;

Module grad_module() { return Module::load_string(treadle::test::k_grad_module, "grad.py"); }

#define REQUIRE_CUDA()                  \
    if (!treadle::cuda::is_available()) \
    GTEST_SKIP() << "CUDA is not available: " << treadle::cuda::unavailable_reason()

TEST(KernelAdjoint, ExplicitAdjointArguments) {
    auto m = grad_module();
    auto k = m.kernel("scale");
    auto x = treadle::from_vector<double>({1.0, 2.0, 3.0});
    auto y = treadle::zeros<double>({3});
    auto dx = treadle::from_vector<double>({10.0, 10.0, 10.0});  // gradients add to it
    auto dy = treadle::from_vector<double>({1.0, 2.0, 3.0});
    k.launch({3}, 2.5, x, y);
    k.launch_adjoint({3}, {2.5, x, y}, {Array(), dx, dy});
    EXPECT_EQ(treadle::to_vector<double>(dx), (std::vector<double>{12.5, 15.0, 17.5}));
    EXPECT_EQ(x.grad(), nullptr);  // explicit adjoints leave the arrays alone
    // the store y[i] = ... consumed the adjoint of what it overwrote (final write wins)
    EXPECT_EQ(treadle::to_vector<double>(dy), (std::vector<double>{0.0, 0.0, 0.0}));

    // Without adj_args, the arrays' own gradients are the adjoints.
    x.enable_grad();
    y.enable_grad();
    y.grad_ptr()->assign(treadle::from_vector<double>({1.0, 2.0, 3.0}));
    k.launch_adjoint({3}, {2.5, x, y});
    EXPECT_EQ(treadle::to_vector<double>(*x.grad()), (std::vector<double>{2.5, 5.0, 7.5}));
}

TEST(KernelAdjoint, BadAdjointArgumentsNameTheParameter) {
    auto m = grad_module();
    auto k = m.kernel("scale");
    auto x = treadle::zeros<double>({3});
    auto y = treadle::zeros<double>({3});
    auto short_adj = treadle::zeros<double>({2});
    try {
        k.launch_adjoint({3}, {1.0, x, y}, {Array(), short_adj, Array()});
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
        EXPECT_EQ(e.message(),
                  "scale(): the adjoint of argument 'x' must have the array's "
                  "dtype, shape, strides and device");
    }
    try {
        k.launch_adjoint({3}, {1.0, x, y}, {x, Array(), Array()});
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(),
                  "scale(): argument 's' is not an array, so its adjoint must be a "
                  "null Array");
    }
    try {
        k.launch_adjoint({3}, {1.0, x, y}, {Array()});
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(), "scale(): expects 3 adjoint arguments but 1 were given");
    }
}

TEST(KernelAdjoint, ArrayPassedTwiceGetsBothContributions) {
    auto m = grad_module();
    const std::vector<double> xs = {1.0, -2.0, 3.0, 0.5};
    auto x = treadle::from_vector(xs).enable_grad();
    auto out = treadle::zeros<double>({4}).enable_grad();
    treadle::Tape tape;
    tape.launch(m.kernel("product"), {4}, {x, x, out});
    out.grad_ptr()->fill_bytes(&xs[1], sizeof(double));  // any seed: -2
    tape.backward();
    auto g = treadle::to_vector<double>(*x.grad());
    for (size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(g[i], 2 * xs[i] * -2.0);
}

/// out[i] = x[i] * x[i + 1] through two overlapping views of x: neighbouring threads add to the
/// same gradient element, so the launch must be flagged as aliased (atomic adds).
void check_overlapping_views(Device device) {
    auto m = grad_module();
    const int64_t n = 1 << 20;
    std::vector<double> xs(n + 1);
    for (int64_t i = 0; i <= n; ++i) xs[i] = (double)(i % 7) - 3.0;
    auto x = treadle::from_vector(xs, device).enable_grad();
    auto lo = x.slice(0, 0, n, 1), hi = x.slice(0, 1, n + 1, 1);
    auto out = treadle::zeros<double>({n}, device).enable_grad();
    const double one = 1.0;
    out.grad_ptr()->fill_bytes(&one, sizeof(one));
    m.kernel("product", device).launch_adjoint({n}, {lo, hi, out});
    auto g = treadle::to_vector<double>(*x.grad());
    int64_t bad = 0;
    for (int64_t j = 0; j <= n; ++j) {
        const double want = (j < n ? xs[j + 1] : 0.0) + (j > 0 ? xs[j - 1] : 0.0);
        bad += g[j] != want;
    }
    EXPECT_EQ(bad, 0);
}

TEST(KernelAdjoint, OverlappingViewsAccumulateAtomically) {
    check_overlapping_views(Device::cpu());
}

TEST(KernelAdjoint, SharedMemoryIsDetectedThroughGradients) {
    auto a = treadle::zeros<double>({4}).enable_grad();
    auto b = treadle::zeros<double>({4});
    std::vector<const void*> seen;
    EXPECT_FALSE(treadle::shares_memory(a, seen));
    EXPECT_FALSE(treadle::shares_memory(b, seen));
    EXPECT_TRUE(treadle::shares_memory(*a.grad(), seen));
    EXPECT_TRUE(treadle::shares_memory(a.slice(0, 1, 3, 1), seen));
}

TEST(KernelAdjoint, BackwardLaunchesSharingMemoryAreFlagged) {
    auto m = grad_module();
    const treadle::LaunchPlan k(m.kernel("product").compiled());
    auto x = treadle::zeros<double>({5}).enable_grad();
    auto y = treadle::zeros<double>({4}).enable_grad();
    auto z = treadle::zeros<double>({4}).enable_grad();
    auto out = treadle::zeros<double>({4}).enable_grad();
    auto flags = [&](const std::vector<treadle::KernelArg>& args, std::vector<Array> adj) {
        return treadle::pack_launch(k, {4}, args, &adj).bounds.flags;
    };
    const int32_t aliased = treadle::k_launch_aliased_arrays;
    EXPECT_EQ(flags({y, z, out}, {}), 0);
    EXPECT_EQ(flags({y, y, out}, {}), aliased);
    EXPECT_EQ(flags({x.slice(0, 0, 4, 1), x.slice(0, 1, 5, 1), out}, {}), aliased);
    EXPECT_EQ(flags({y, z, out}, {Array(), *out.grad(), Array()}), aliased);  // z's adjoint
    EXPECT_EQ(flags({y, z, out}, {Array(), Array(), *z.grad()}), aliased);
    // Forward launches are never flagged; they list the arrays the kernel writes.
    treadle::PackedLaunch forward = treadle::pack_launch(k, {4}, {y, y, out}, nullptr);
    EXPECT_EQ(forward.bounds.flags, 0);
    ASSERT_EQ(forward.written.size(), 1u);
    EXPECT_EQ(forward.written[0]->data(), out.data());
}

TEST(ArrayGrad, EnableGradMatchesTheViewLayout) {
    auto base = treadle::zeros<float>({4, 6});
    auto view = base.slice(1, 1, 6, 2).transpose({1, 0});  // strided, not contiguous
    view.enable_grad();
    ASSERT_NE(view.grad(), nullptr);
    const Array& g = *view.grad();
    EXPECT_EQ(g.shape(), view.shape());
    EXPECT_EQ(g.strides(), view.strides());
    EXPECT_EQ(g.dtype(), view.dtype());
    EXPECT_NE(g.buffer(), view.buffer());
    for (float v : treadle::to_vector<float>(g)) EXPECT_EQ(v, 0.0f);
    const Array* first = view.grad();
    view.enable_grad();  // keeps the gradient it has
    EXPECT_EQ(view.grad(), first);
    EXPECT_THROW(Array().enable_grad(), treadle::Error);
}

TEST(KernelAdjointCuda, TwoLaunchTapeOnTheDevice) {
    REQUIRE_CUDA();
    const Device cuda = Device::parse("cuda:0");
    auto m = grad_module();
    const std::vector<double> xs = {1.0, -2.0, 3.5, 0.25};
    auto x = treadle::from_vector(xs, cuda).enable_grad();
    auto y = treadle::zeros<double>({4}, cuda).enable_grad();
    auto loss = treadle::zeros<double>({1}, cuda).enable_grad();
    treadle::Tape tape;
    tape.launch(m.kernel("scale", cuda), {4}, {3.0, x, y});
    tape.launch(m.kernel("sum_squares", cuda), {4}, {y, loss});
    tape.backward(loss);
    auto gx = treadle::to_vector<double>(*x.grad());
    for (size_t i = 0; i < xs.size(); ++i) EXPECT_DOUBLE_EQ(gx[i], 18.0 * xs[i]);
}

TEST(KernelAdjointCuda, OverlappingViewsAccumulateAtomically) {
    REQUIRE_CUDA();
    check_overlapping_views(Device::parse("cuda:0"));
}

}  // namespace

TEST(KernelAdjoint, WithAdjointCompilesOnceAndKeepsTheBuild) {
    auto m = grad_module();
    treadle::Kernel forward = m.kernel("scale");
    EXPECT_FALSE(forward.compiled()->adjoint);
    treadle::Kernel backward = forward.with_adjoint();
    EXPECT_TRUE(backward.compiled()->adjoint);
    EXPECT_EQ(forward.with_adjoint().compiled(), backward.compiled());
    EXPECT_EQ(backward.with_adjoint().compiled(), backward.compiled());
    EXPECT_EQ(backward.plan()->compiled(), backward.compiled());
    EXPECT_THROW(treadle::Kernel().with_adjoint(), treadle::Error);
}
