// examples/saxpy/main.cpp -- loads kernels.py and runs it (and a backward pass) from C++ alone
// Usage: saxpy_example [kernels.py] [device]   (device: cpu (default), cuda:0, ...)
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/tape.h"

/// d loss / d x for loss = sum((a x)^2), by a recorded forward pass and Tape::backward; returns
/// the number of elements that differ from the exact 2 a^2 x.
static int check_gradient(const treadle::Module& module, treadle::Device device) {
    const int64_t n = 1024;
    const float a = 2.0f;
    std::vector<float> xs(n);
    std::iota(xs.begin(), xs.end(), 0.0f);
    auto x = treadle::from_vector(xs, device).enable_grad();  // zeroed gradients
    auto y = treadle::zeros<float>({n}, device).enable_grad();
    auto loss = treadle::zeros<float>({1}, device).enable_grad();

    treadle::Tape tape;  // records the launches made through it
    tape.launch(module.kernel("scale", device), {n}, {a, x, y});
    tape.launch(module.kernel("sum_squares", device), {n}, {y, loss});
    tape.backward(loss);  // seeds loss.grad with 1, runs the adjoints in reverse order

    auto grad = treadle::to_vector<float>(*x.grad());
    int bad = 0;
    for (int64_t i = 0; i < n; ++i)
        if (grad[i] != 2.0f * a * a * xs[i]) ++bad;
    std::printf("backward: d loss / d x[0..3] = %g %g %g %g\n", grad[0], grad[1], grad[2], grad[3]);
    return bad;
}

int main(int argc, char** argv) {
    std::string path = argc > 1 ? argv[1] : "kernels.py";
    try {
        treadle::Device device = treadle::Device::parse(argc > 2 ? argv[2] : "cpu");
        auto module = treadle::Module::load_file(path);
        const int64_t n = 1 << 20;
        std::vector<float> xs(n);
        std::iota(xs.begin(), xs.end(), 0.0f);
        auto x = treadle::from_vector(xs, device);
        auto y = treadle::zeros<float>({n}, device);

        module.kernel("saxpy", device).launch({n}, 2.0f, x, y);
        module.kernel("relax", device).launch({n}, y, 1.0f);

        auto out = treadle::to_vector<float>(y);  // waits for the device
        int bad = 0;
        for (int64_t i = 0; i < n; ++i)
            if (out[i] != 2.0f * xs[i] + (1.0f - 2.0f * xs[i]) * 0.5f) ++bad;
        std::printf("y[0..3] = %g %g %g %g\n", out[0], out[1], out[2], out[3]);
        std::printf("%s on %s: %d of %lld elements differ from the expected values\n",
                    bad ? "FAILED" : "ok", device.alias().c_str(), bad, (long long)n);
        int bad_grad = check_gradient(module, device);
        std::printf("%s: %d gradient elements differ from 2 a^2 x\n", bad_grad ? "FAILED" : "ok",
                    bad_grad);
        return bad || bad_grad ? 1 : 0;
    } catch (const treadle::Error& e) {
        std::fprintf(stderr, "treadle error: %s\n", e.what());
        return 2;
    }
}
