// tests/cpp/compile/test_host_compiler.cpp -- finding the compiler, building .so files, PCH
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "compile/host_compiler.h"
#include "runtime/dynlib.h"
#include "temp_dir.h"
#include "treadle/error.h"

namespace treadle {
namespace {

using testing::TempDir;
using testing::write_text;

TEST(HostCompiler, FindsAnAbsoluteCompilerWithIdentity) {
    const HostCompiler& cxx = host_compiler();
    ASSERT_FALSE(cxx.path.empty());
    EXPECT_EQ(cxx.path[0], '/');
    EXPECT_EQ(cxx.resolved_path[0], '/');
    EXPECT_NE(cxx.identity.find(cxx.resolved_path), std::string::npos);
    EXPECT_EQ(&host_compiler(), &cxx);  // computed once
}

TEST(HostCompiler, MissingCompilerNamesTheVariable) {
    try {
        find_host_compiler("treadle-no-such-compiler-xyz");
        FAIL() << "expected an Error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Compile);
        EXPECT_NE(std::string(e.what()).find("TREADLE_CXX"), std::string::npos);
    }
    EXPECT_THROW(find_host_compiler("/nonexistent/dir/c++"), Error);
}

TEST(HostCompiler, IdentityChangesWhenTheFileChanges) {
    TempDir dir;
    std::string fake = dir / "fakecxx";
    write_text(fake, "#!/bin/sh\nexit 0\n");
    ::chmod(fake.c_str(), 0755);
    std::string before = find_host_compiler(fake).identity;
    write_text(fake, "#!/bin/sh\n# a different compiler\nexit 0\n");
    ::chmod(fake.c_str(), 0755);
    EXPECT_NE(find_host_compiler(fake).identity, before);
}

TEST(HostCompiler, CompilesAndLoadsASharedObject) {
    TempDir dir;
    write_text(dir / "inc.h", "#define TREADLE_TEST_SCALE 3\n");
    write_text(
        dir / "k.cpp",
        "#include \"inc.h\"\n"
        "extern \"C\" int treadle_test_fn(int x) { return x * TREADLE_TEST_SCALE + OFFSET; }\n");
    CompileResult r =
        compile_shared_object(dir / "k.cpp", dir / "k.so", {dir.path()}, {"-O1", "-DOFFSET=4"});
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_GT(r.seconds, 0.0);
    std::printf("[ info ] tiny .so compile took %.3f s\n", r.seconds);

    DynamicLibrary lib(dir / "k.so");
    auto fn = reinterpret_cast<int (*)(int)>(lib.symbol("treadle_test_fn"));
    EXPECT_EQ(fn(5), 19);
}

TEST(HostCompiler, CompileErrorReturnsDiagnostics) {
    TempDir dir;
    write_text(dir / "bad.cpp", "int f() { return undefined_name_xyz; }\n");
    CompileResult r = compile_shared_object(dir / "bad.cpp", dir / "bad.so", {}, {});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics.find("undefined_name_xyz"), std::string::npos) << r.diagnostics;
    EXPECT_NE(r.diagnostics.find("error"), std::string::npos);
}

TEST(HostCompiler, UnrunnableCompilerIsAFailedResultNotAThrow) {
    HostCompiler cxx;
    cxx.path = "/nonexistent/compiler";
    CompileResult r = run_compiler(cxx, {"--version"});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.diagnostics.find("/nonexistent/compiler"), std::string::npos);
}

TEST(HostCompiler, ParallelCompilesDoNotInterfere) {
    TempDir dir;
    constexpr int count = 3;
    std::vector<CompileResult> results(count);
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
        std::string src = dir / ("k" + std::to_string(i) + ".cpp");
        // One of them fails, so its diagnostics must not leak into the others.
        write_text(src, i == 1 ? "int broken( {\n"
                               : "extern \"C\" int v() { return " + std::to_string(i) + "; }\n");
        threads.emplace_back([&, i, src] {
            results[i] =
                compile_shared_object(src, dir / ("k" + std::to_string(i) + ".so"), {}, {});
        });
    }
    for (auto& t : threads) t.join();
    for (int i = 0; i < count; ++i) {
        EXPECT_EQ(results[i].ok, i != 1) << results[i].diagnostics;
        if (i != 1) {
            EXPECT_TRUE(results[i].diagnostics.empty()) << results[i].diagnostics;
        }
    }
}

TEST(HostCompiler, PrecompiledHeaderIsBuiltOnceAndUsed) {
    TempDir dir;
    write_text(dir / "big.h",
               "#ifndef BIG_H\n#define BIG_H\n#include <cmath>\n#include <cstdint>\n"
               "inline int big_answer() { return 42; }\n#endif\n");
    std::vector<std::string> flags = {"-O1"};
    std::string stub = ensure_pch(dir / "big.h", {}, flags, dir / "cache");
    EXPECT_NE(stub, dir / "big.h");  // precompiled
    struct stat st;
    EXPECT_EQ(::stat((stub + ".gch").c_str(), &st), 0);
    EXPECT_EQ(ensure_pch(dir / "big.h", {}, flags, dir / "cache"), stub);

    write_text(dir / "k.cpp", "extern \"C\" int f() { return big_answer(); }\n");
    std::vector<std::string> use = flags;
    use.insert(use.end(), {"-include", stub, "-Winvalid-pch", "-Werror"});
    CompileResult r = compile_shared_object(dir / "k.cpp", dir / "k.so", {}, use);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    DynamicLibrary lib(dir / "k.so");
    EXPECT_EQ(reinterpret_cast<int (*)()>(lib.symbol("f"))(), 42);
}

TEST(HostCompiler, StalePrecompiledHeaderIsRebuilt) {
    TempDir dir;
    write_text(dir / "dep.h", "inline int dep_value() { return 1; }\n");
    write_text(dir / "top.h", "#pragma once\n#include \"dep.h\"\n");
    // Build it in a child so that this process has not memoised the result.
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::string stub = ensure_pch(dir / "top.h", {}, {}, dir / "cache");
        ::_exit(stub == dir / "top.h" ? 1 : 0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    // Change a file the header pulls in (new size, so the signature surely differs).
    write_text(dir / "dep.h", "inline int dep_value() { return 22; }\n");
    std::string stub = ensure_pch(dir / "top.h", {}, {}, dir / "cache");
    write_text(dir / "k.cpp", "extern \"C\" int f() { return dep_value(); }\n");
    CompileResult r = compile_shared_object(dir / "k.cpp", dir / "k.so", {},
                                            {"-include", stub, "-Winvalid-pch", "-Werror"});
    ASSERT_TRUE(r.ok) << r.diagnostics;
    DynamicLibrary lib(dir / "k.so");
    EXPECT_EQ(reinterpret_cast<int (*)()>(lib.symbol("f"))(), 22);
}

TEST(HostCompiler, BrokenHeaderFallsBackToTheHeaderItself) {
    TempDir dir;
    write_text(dir / "broken.h", "this is not C++\n");
    EXPECT_EQ(ensure_pch(dir / "broken.h", {}, {}, dir / "cache"), dir / "broken.h");
}

}  // namespace
}  // namespace treadle
