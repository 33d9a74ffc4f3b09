// src/codegen/cuda_backend.cpp -- the CUDA back end: prologue and the grid-stride entry point
#include "codegen/emitter.h"

namespace treadle::codegen {

namespace {

class CudaBackend final : public Backend {
public:
    const char* name() const override { return "cuda"; }

    std::string prologue() const override { return "#include \"treadle/cuda.h\"\n"; }

    bool layout_asserts() const override { return false; }

    const char* function_qualifier() const override { return "static __device__ inline"; }

    std::string entry(const ir::Function& kernel, const std::string& params_struct,
                      const std::string& body_name, const std::string& symbol,
                      const CudaLaunchBounds& bounds) const override {
        (void)kernel;
        std::string attribute;
        if (bounds.max_threads > 0)
            attribute = "__launch_bounds__(" + std::to_string(bounds.max_threads) +
                        (bounds.min_blocks > 0 ? ", " + std::to_string(bounds.min_blocks) : "") +
                        ") ";
        // One index per thread, with the grid-stride loop peeled: the runtime launches enough
        // blocks to cover the range, so the loop only runs for launches of more than 2^31 - 1
        // blocks. (A plain grid-stride loop measured 20% slower on a memory-bound kernel.)
        // 64-bit indices: launches may exceed 2^31 threads in total.
        return "extern \"C\" __global__ void " + attribute + symbol +
               "(wp::launch_bounds_t bounds, " + params_struct +
               " params) {\n"
               "    wp::int64 index = (wp::int64)blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (index >= bounds.size) return;\n"
               "    " +
               body_name +
               "(params, index, bounds);\n"
               "    const wp::int64 stride = (wp::int64)blockDim.x * gridDim.x;\n"
               "    for (index += stride; index < bounds.size; index += stride)\n"
               "        " +
               body_name +
               "(params, index, bounds);\n"
               "}\n";
    }
};

}  // namespace

const Backend& cuda_backend() {
    static const CudaBackend backend;
    return backend;
}

}  // namespace treadle::codegen
