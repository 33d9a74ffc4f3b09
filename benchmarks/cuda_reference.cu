// benchmarks/cuda_reference.cu -- hand-written CUDA baselines for bench_cuda.py: the raw
// cuLaunchKernel floor for an empty kernel, and saxpy compiled by nvcc.
// Build: nvcc -O3 -arch=sm_90 -o cuda_reference cuda_reference.cu -lcuda
// Prints JSON lines.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                     \
    do {                                                                             \
        auto r = (x);                                                                \
        if (r != 0) {                                                                \
            std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, (int)r, __LINE__); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void empty_kernel() {}

// the parameters of bench_cuda.py's mixed12: 4 arrays, 3 ints, 2 floats, 2 vec3, 1 int64
__global__ void mixed_kernel(float* a, float* b, float* c, float* d, int n0, int n1, int n2,
                             float s0, float s1, float3 v0, float3 v1, long long big) {}

__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void nbody(int n, float eps2, const float* __restrict__ px, const float* __restrict__ py,
                      const float* __restrict__ pz, const float* __restrict__ m,
                      float* __restrict__ ax, float* __restrict__ ay, float* __restrict__ az) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float xi = px[i], yi = py[i], zi = pz[i];
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (int j = 0; j < n; ++j) {
        float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrtf(r2);
        float s = m[j] * inv * inv * inv;
        fx += dx * s;
        fy += dy * s;
        fz += dz * s;
    }
    ax[i] = fx;
    ay[i] = fy;
    az[i] = fz;
}

int main() {
    CHECK(cudaFree(nullptr));  // create the primary context
    CUfunction empty, mixed;
    CHECK(cudaGetFuncBySymbol(&empty, (const void*)empty_kernel));
    CHECK(cudaGetFuncBySymbol(&mixed, (const void*)mixed_kernel));
    const int iters = 20000;
    for (int variant = 0; variant < 2; ++variant) {
        float* p = nullptr;
        int n = 1;
        float s = 1.0f;
        float3 v = make_float3(1.0f, 2.0f, 3.0f);
        long long big = 1;
        void* args[] = {&p, &p, &p, &p, &n, &n, &n, &s, &s, &v, &v, &big};
        CUfunction f = variant ? mixed : empty;
        void** params = variant ? args : nullptr;
        double best = 1e9;
        for (int rep = 0; rep < 5; ++rep) {
            CHECK(cuCtxSynchronize());
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < iters; ++i)
                CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, params, nullptr));
            auto t1 = std::chrono::steady_clock::now();
            CHECK(cuCtxSynchronize());
            best =
                std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count() / iters);
        }
        std::printf(
            "{\"bench\": \"launch_overhead\", \"impl\": \"raw cuLaunchKernel (C++)\", "
            "\"args\": %d, \"us\": %.3f}\n",
            variant ? 12 : 0, best);
    }
    const long long n = 1LL << 28;
    float *x, *y;
    CHECK(cudaMalloc(&x, n * 4));
    CHECK(cudaMalloc(&y, n * 4));
    CHECK(cudaMemset(x, 0, n * 4));
    CHECK(cudaMemset(y, 0, n * 4));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> ms;
    for (int rep = 0; rep < 12; ++rep) {
        cudaEventRecord(e0);
        saxpy<<<(unsigned)((n + 255) / 256), 256>>>(n, 2.0f, x, y);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        if (rep >= 2) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    float med = ms[ms.size() / 2];
    std::printf("{\"bench\": \"saxpy_2p28\", \"impl\": \"nvcc\", \"ms\": %.4f, \"gb_s\": %.1f}\n",
                med, 12.0 * n / (med * 1e-3) / 1e9);
    {
        const int nb = 65536;
        float* buf;
        CHECK(cudaMalloc(&buf, 7 * nb * 4));
        std::vector<float> h(4 * nb);
        for (int i = 0; i < 4 * nb; ++i) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
        CHECK(cudaMemcpy(buf, h.data(), 4 * nb * 4, cudaMemcpyHostToDevice));
        std::vector<float> times;
        for (int rep = 0; rep < 7; ++rep) {
            cudaEventRecord(e0);
            nbody<<<(nb + 255) / 256, 256>>>(nb, 0.01f, buf, buf + nb, buf + 2 * nb, buf + 3 * nb,
                                             buf + 4 * nb, buf + 5 * nb, buf + 6 * nb);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float t;
            cudaEventElapsedTime(&t, e0, e1);
            if (rep >= 2) times.push_back(t);
        }
        std::sort(times.begin(), times.end());
        float med = times[times.size() / 2];
        std::printf(
            "{\"bench\": \"nbody_65536\", \"impl\": \"nvcc\", \"ms\": %.3f, "
            "\"ginteractions_s\": %.1f}\n",
            med, (double)nb * nb / (med * 1e-3) / 1e9);
    }
    return 0;
}
