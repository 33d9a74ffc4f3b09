// tests/cpp/api/test_tape_api.cpp -- treadle::Tape from C++: gradients, seeding, overwrite check
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "grad_kernels.h"
#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/tape.h"

namespace {

using treadle::Array;
using treadle::Module;
using treadle::Tape;

Module grad_module() { return Module::load_string(treadle::test::k_grad_module, "grad.py"); }

/// loss = sum(wavy(x)^2), by forward launches only.
double wavy_loss(const Module& m, const std::vector<double>& xs) {
    const int64_t n = (int64_t)xs.size();
    auto x = treadle::from_vector(xs);
    auto y = treadle::zeros<double>({n});
    auto loss = treadle::zeros<double>({1});
    m.kernel("wavy").launch({n}, x, y);
    m.kernel("sum_squares").launch({n}, y, loss);
    return treadle::to_vector<double>(loss)[0];
}

TEST(TapeApi, GradientMatchesFiniteDifferences) {
    auto m = grad_module();
    const std::vector<double> xs = {-1.3, -0.6, -0.1, 0.2, 0.7, 1.1, 1.6, 2.2};
    const int64_t n = (int64_t)xs.size();
    auto x = treadle::from_vector(xs).enable_grad();
    auto y = treadle::zeros<double>({n}).enable_grad();
    auto loss = treadle::zeros<double>({1}).enable_grad();
    Tape tape;
    tape.launch(m.kernel("wavy"), {n}, {x, y});
    tape.launch(m.kernel("sum_squares"), {n}, {y, loss});
    EXPECT_EQ(tape.size(), 2u);
    tape.backward(loss);
    auto grad = treadle::to_vector<double>(*x.grad());
    const double h = 1e-6;
    for (int64_t j = 0; j < n; ++j) {
        std::vector<double> plus = xs, minus = xs;
        plus[j] += h;
        minus[j] -= h;
        const double fd = (wavy_loss(m, plus) - wavy_loss(m, minus)) / (2 * h);
        EXPECT_NEAR(grad[j], fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "x[" << j << "]";
    }
}

TEST(TapeApi, TwoLaunchTapeMatchesTheAnalyticGradient) {
    auto m = grad_module();
    const std::vector<double> xs = {1.0, -2.0, 3.5, 0.25};
    const int64_t n = (int64_t)xs.size();
    const double s = 3.0;
    auto x = treadle::from_vector(xs).enable_grad();
    auto y = treadle::zeros<double>({n}).enable_grad();
    y.set_retain_grad(true);  // keep y's gradient, which scale's backward pass would consume
    auto loss = treadle::zeros<double>({1}).enable_grad();
    Tape tape;
    tape.launch(m.kernel("scale"), {n}, {s, x, y});
    tape.launch(m.kernel("sum_squares"), {n}, {y, loss});
    tape.backward(loss);
    // loss = sum (s x)^2: d/dy = 2 y, d/dx = 2 s^2 x
    auto gx = treadle::to_vector<double>(*x.grad());
    auto gy = treadle::to_vector<double>(*y.grad());
    for (int64_t i = 0; i < n; ++i) {
        EXPECT_DOUBLE_EQ(gy[i], 2 * s * xs[i]);
        EXPECT_DOUBLE_EQ(gx[i], 2 * s * s * xs[i]);
    }
    EXPECT_EQ(treadle::to_vector<double>(*loss.grad())[0], 1.0);

    tape.zero();
    for (double g : treadle::to_vector<double>(*x.grad())) EXPECT_EQ(g, 0.0);
    for (double g : treadle::to_vector<double>(*loss.grad())) EXPECT_EQ(g, 0.0);
    tape.reset();
    EXPECT_EQ(tape.size(), 0u);
}

TEST(TapeApi, CustomStepsRunInReverseOrder) {
    auto m = grad_module();
    auto x = treadle::from_vector<double>({2.0}).enable_grad();
    auto y = treadle::zeros<double>({1}).enable_grad();
    std::vector<int> order;
    Tape tape;
    tape.record_func([&] { order.push_back(1); }, {x});
    tape.launch(m.kernel("scale"), {1}, {4.0, x, y});
    tape.record_func([&] { order.push_back(3); });
    y.grad_ptr()->assign(treadle::from_vector<double>({1.0}));
    tape.backward();
    EXPECT_EQ(order, (std::vector<int>{3, 1}));
    EXPECT_EQ(treadle::to_vector<double>(*x.grad())[0], 4.0);
}

TEST(TapeApi, OverwrittenInputIsRefused) {
    auto m = grad_module();
    auto x = treadle::from_vector<double>({1.0, 2.0}).enable_grad();
    Tape tape;
    tape.launch(m.kernel("square_in_place"), {2}, {x});
    try {
        tape.backward();
        FAIL() << "expected the overwrite check to throw";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Runtime);
        EXPECT_EQ(e.message(),
                  "Tape::backward(): the gradient of kernel 'square_in_place' would be wrong: "
                  "its argument 'x' was overwritten after the launch read it (last written by "
                  "kernel 'square_in_place' (grad.py:22) on cpu). The backward pass replays "
                  "the launch with the array's current values. Write the new values to a "
                  "different array (or clone the array before overwriting it).");
    }

    auto y = treadle::zeros<double>({2}).enable_grad();
    auto loss = treadle::zeros<double>({1}).enable_grad();
    tape.reset();
    tape.launch(m.kernel("scale"), {2}, {2.0, x, y});
    tape.launch(m.kernel("sum_squares"), {2}, {y, loss});
    x.assign(treadle::from_vector<double>({5.0, 6.0}));
    try {
        tape.backward(loss);
        FAIL() << "expected the overwrite check to throw";
    } catch (const treadle::Error& e) {
        EXPECT_NE(e.message().find("kernel 'scale' would be wrong: its argument 'x' was "
                                   "overwritten after the launch read it (last written by a "
                                   "host write (assign, fill_bytes or zero_))"),
                  std::string::npos)
            << e.message();
    }
    // Nothing ran: the loss gradient is still unseeded.
    EXPECT_EQ(treadle::to_vector<double>(*loss.grad())[0], 0.0);
}

TEST(TapeApi, LossMustHaveOneElementAndAGradient) {
    Tape tape;
    auto no_grad = treadle::zeros<double>({1});
    auto two = treadle::zeros<double>({2}).enable_grad();
    auto ints = treadle::zeros<int32_t>({1}).enable_grad();
    EXPECT_THROW(tape.backward(no_grad), treadle::Error);
    try {
        tape.backward(two);
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
        EXPECT_NE(e.message().find("the loss must hold one element, not 2"), std::string::npos);
    }
    try {
        tape.backward(ints);
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Type);
    }
}

TEST(TapeApi, ForwardLaunchesCountWritesOnWrittenArraysOnly) {
    auto m = grad_module();
    auto x = treadle::from_vector<double>({1.0, 2.0});
    auto y = treadle::zeros<double>({2});
    const uint64_t vx = x.version(), vy = y.version();
    auto k = m.kernel("scale");
    k.launch({2}, 2.0, x, y);
    EXPECT_EQ(x.version(), vx);
    EXPECT_EQ(y.version(), vy + 1);
    EXPECT_EQ(y.last_writer(), "'scale' (grad.py:10) on cpu");
}

}  // namespace

namespace {

TEST(TapeApi, CopiesSendGradientsBackToTheirSource) {
    auto m = grad_module();
    auto x = treadle::from_vector<double>({1.0, 2.0, 3.0}).enable_grad();
    auto y = treadle::zeros<double>({3}).enable_grad();
    auto z = treadle::zeros<double>({3}).enable_grad();
    auto loss = treadle::zeros<double>({1}).enable_grad();
    Tape tape;
    tape.launch(m.kernel("scale"), {3}, {2.0, x, y});
    z.assign(y);
    tape.record_copy(z, y);
    tape.launch(m.kernel("sum_squares"), {3}, {z, loss});
    EXPECT_EQ(tape.size(), 3u);
    tape.backward(loss);
    // loss = sum((2x)^2): d loss / dx = 8x, through the copy
    EXPECT_EQ(treadle::to_vector<double>(*x.grad()), (std::vector<double>{8.0, 16.0, 24.0}));
    // y's gradient (4x) reached x, and scale's backward pass consumed it
    EXPECT_EQ(treadle::to_vector<double>(*y.grad()), (std::vector<double>{0.0, 0.0, 0.0}));
    tape.zero();
    EXPECT_EQ(treadle::to_vector<double>(*y.grad()), (std::vector<double>{0.0, 0.0, 0.0}));
    EXPECT_THROW(tape.record_copy(loss, x), treadle::Error);
}

TEST(TapeApi, CopiesOfStridedVectorArraysAccumulatePerComponent) {
    treadle::DType vec2(treadle::ScalarType::Float32);
    vec2.rows = 2;
    auto base = Array::zeros(vec2, {4}).enable_grad();
    auto view = base.slice(0, 0, 4, 2);  // every other element: not contiguous
    auto src = Array::zeros(vec2, {2}).enable_grad();
    Tape tape;
    tape.record_copy(view, src);
    const float seed[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    view.grad_ptr()->assign(
        Array::wrap(const_cast<float*>(seed), vec2, {2}, {8}, treadle::Device::cpu(), nullptr));
    src.grad_ptr()->assign(
        Array::wrap(const_cast<float*>(seed), vec2, {2}, {8}, treadle::Device::cpu(), nullptr));
    tape.backward();
    std::vector<float> got(4);
    std::memcpy(got.data(), src.grad()->data(), sizeof(got[0]) * 4);
    EXPECT_EQ(got, (std::vector<float>{2.0f, 4.0f, 6.0f, 8.0f}));
    // the destination's gradient was consumed: the copy overwrote what it held
    std::vector<float> consumed(8);
    std::memcpy(consumed.data(), base.grad()->data(), sizeof(consumed[0]) * 8);
    EXPECT_EQ(consumed, std::vector<float>(8, 0.0f));
    // into a strided gradient: the view's elements of base.grad get src's gradient added
    const float prior[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    view.grad_ptr()->assign(
        Array::wrap(const_cast<float*>(prior), vec2, {2}, {8}, treadle::Device::cpu(), nullptr));
    Tape back;
    back.record_copy(src, view);
    back.backward();
    std::vector<float> all(8);
    std::memcpy(all.data(), base.grad()->data(), sizeof(all[0]) * 8);
    EXPECT_EQ(all, (std::vector<float>{3.0f, 6.0f, 0.0f, 0.0f, 9.0f, 12.0f, 0.0f, 0.0f}));
    std::memcpy(got.data(), src.grad()->data(), sizeof(got[0]) * 4);
    EXPECT_EQ(got, std::vector<float>(4, 0.0f));  // consumed in turn
}

TEST(TapeApi, FrontEndLaunchesAreCheckedBeforeAnythingRuns) {
    auto x = std::make_shared<Array>(treadle::from_vector<double>({1.0}).enable_grad());
    std::vector<int> ran;
    Tape tape;
    tape.record_launch("k", {{"x", x}}, [&] { ran.push_back(1); }, {x});
    tape.record_func([&] { ran.push_back(2); });
    tape.backward();
    EXPECT_EQ(ran, (std::vector<int>{2, 1}));
    x->assign(treadle::from_vector<double>({5.0}));
    ran.clear();
    try {
        tape.backward();
        FAIL() << "expected the overwrite check to throw";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(),
                  "Tape::backward(): the gradient of kernel 'k' would be wrong: its argument 'x' "
                  "was overwritten after the launch read it (last written by a host write "
                  "(assign, fill_bytes or zero_)). The backward pass replays the launch with the "
                  "array's current values. Write the new values to a different array (or clone "
                  "the array before overwriting it).");
    }
    EXPECT_TRUE(ran.empty());
    x->grad_ptr()->assign(treadle::from_vector<double>({3.0}));
    tape.zero();  // the tape holds x itself: its gradient is zeroed
    EXPECT_EQ(treadle::to_vector<double>(*x->grad())[0], 0.0);
}

}  // namespace
