// tests/cpp/codegen/test_codegen_golden.cpp -- generated C++ compared with golden files
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "api/module_resolver.h"
#include "codegen/emitter.h"
#include "frontend/parser.h"
#include "sema/infer.h"

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Builds the kernel `name` of golden/<file>.py and returns its generated CPU source.
std::string generate(const std::string& file, const std::string& kernel) {
    std::string dir = std::string(TREADLE_TEST_DATA_DIR) + "/codegen/golden/";
    auto src = treadle::ast::make_source("golden/" + file + ".py", read(dir + file + ".py"));
    std::shared_ptr<const treadle::ast::Module> module = treadle::frontend::parse_module(src);
    auto resolver = std::make_shared<treadle::ModuleResolver>(module);
    auto program = treadle::sema::build_program(*resolver->function(kernel));
    for (const auto& f : program->functions) EXPECT_EQ(treadle::ir::verify(*f), "");
    return treadle::codegen::generate_source(*program, treadle::codegen::cpu_backend());
}

void check_golden(const std::string& file, const std::string& kernel) {
    std::string dir = std::string(TREADLE_TEST_DATA_DIR) + "/codegen/golden/";
    std::string generated = generate(file, kernel);
    std::string golden_path = dir + file + ".cpp.golden";
    const char* update = std::getenv("TREADLE_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        std::ofstream(golden_path, std::ios::binary) << generated;
        return;
    }
    std::string golden = read(golden_path);
    ASSERT_FALSE(golden.empty()) << "missing " << golden_path
                                 << " (run with TREADLE_UPDATE_GOLDEN=1 to create it)";
    EXPECT_EQ(generated, golden) << "generated code changed; if on purpose, rerun with "
                                    "TREADLE_UPDATE_GOLDEN=1 and commit the golden files";
}

TEST(CodegenGolden, Saxpy) { check_golden("saxpy", "saxpy"); }
TEST(CodegenGolden, ControlFlow) { check_golden("control_flow", "control_flow"); }
TEST(CodegenGolden, Structs) { check_golden("structs", "structs"); }

TEST(CodegenGolden, Deterministic) {
    EXPECT_EQ(generate("control_flow", "control_flow"), generate("control_flow", "control_flow"));
}

TEST(CodegenGolden, LineDirectivesPointAtPython) {
    std::string s = generate("saxpy", "saxpy");
    EXPECT_NE(s.find("#line 7 \"golden/saxpy.py\""), std::string::npos) << s;
}

}  // namespace
