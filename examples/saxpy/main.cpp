// examples/saxpy/main.cpp -- loads kernels.py and runs it from C++, with no Python involved
// Usage: saxpy_example [kernels.py] [device]   (device: cpu (default), cuda:0, ...)
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "treadle/error.h"
#include "treadle/module.h"

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
        return bad ? 1 : 0;
    } catch (const treadle::Error& e) {
        std::fprintf(stderr, "treadle error: %s\n", e.what());
        return 2;
    }
}
