// examples/saxpy/main.cpp -- loads kernels.py and runs it from C++, with no Python involved
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
        auto module = treadle::Module::load_file(path);
        const int64_t n = 1 << 20;
        std::vector<float> xs(n);
        std::iota(xs.begin(), xs.end(), 0.0f);
        auto x = treadle::from_vector(xs, treadle::Device::cpu());
        auto y = treadle::zeros<float>({n}, treadle::Device::cpu());

        module.kernel("saxpy").launch({n}, 2.0f, x, y);
        module.kernel("relax").launch({n}, y, 1.0f);

        auto out = treadle::to_vector<float>(y);
        int bad = 0;
        for (int64_t i = 0; i < n; ++i)
            if (out[i] != 2.0f * xs[i] + (1.0f - 2.0f * xs[i]) * 0.5f) ++bad;
        std::printf("y[0..3] = %g %g %g %g\n", out[0], out[1], out[2], out[3]);
        std::printf("%s: %d of %lld elements differ from the expected values\n",
                    bad ? "FAILED" : "ok", bad, (long long)n);
        return bad ? 1 : 0;
    } catch (const treadle::Error& e) {
        std::fprintf(stderr, "treadle error: %s\n", e.what());
        return 2;
    }
}
