// src/codegen/cpu_backend.cpp -- the CPU back end: prologue and the range-loop entry point
#include "codegen/emitter.h"

namespace treadle::codegen {

namespace {

class CpuBackend final : public Backend {
public:
    const char* name() const override { return "cpu"; }

    std::string prologue() const override { return "#include \"treadle/cpu.h\"\n"; }

    bool layout_asserts() const override { return true; }

    const char* function_qualifier() const override { return "static inline"; }

    std::string entry(const ir::Function& kernel, const std::string& params_struct,
                      const std::string& body_name, const std::string& symbol,
                      const CudaLaunchBounds& bounds) const override {
        (void)kernel;
        (void)bounds;  // CUDA only, as in Warp
        return std::string("extern \"C\" __attribute__((visibility(\"default\"))) void ") + symbol +
               "(const void* params, const wp::launch_bounds_t* bounds, wp::int64 begin, "
               "wp::int64 end) {\n"
               "    const " +
               params_struct + "& p = *static_cast<const " + params_struct +
               "*>(params);\n"
               "    for (wp::int64 index = begin; index < end; ++index) " +
               body_name +
               "(p, index, *bounds);\n"
               "}\n";
    }
};

}  // namespace

const Backend& cpu_backend() {
    static const CpuBackend backend;
    return backend;
}

}  // namespace treadle::codegen
