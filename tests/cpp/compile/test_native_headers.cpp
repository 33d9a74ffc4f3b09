// tests/cpp/compile/test_native_headers.cpp -- the native headers embedded in the library
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "compile/native_headers.h"
#include "temp_dir.h"

namespace treadle {
namespace {

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(NativeHeaders, EmbeddedCopyEqualsTheSourceTree) {
    const std::filesystem::path dir = std::filesystem::path(TREADLE_SOURCE_DIR) / "native/treadle";
    std::set<std::string> on_disk;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".h") on_disk.insert(e.path().filename().string());
    std::set<std::string> embedded;
    for (const NativeHeader& h : native_headers()) {
        embedded.insert(h.name);
        EXPECT_EQ(h.text, read(dir / h.name)) << h.name;
    }
    EXPECT_EQ(embedded, on_disk);
    EXPECT_TRUE(embedded.count("core.h"));
}

TEST(NativeHeaders, ExtractionWritesReusesAndRepairs) {
    testing::TempDir root;
    const std::string dir = extract_native_headers(root.path());
    EXPECT_EQ(dir, root.path() + "/native/" + native_headers_hash().substr(0, 16));
    const std::string core = dir + "/treadle/core.h";
    EXPECT_TRUE(std::filesystem::is_regular_file(core));
    EXPECT_EQ(extract_native_headers(root.path()), dir);  // reused as it is
    {
        std::ofstream damage(core, std::ios::trunc);  // a damaged copy is written again
        damage << "broken";
    }
    EXPECT_EQ(extract_native_headers(root.path()), dir);
    for (const NativeHeader& h : native_headers())
        EXPECT_EQ(read(dir + "/treadle/" + h.name), h.text) << h.name;
}

TEST(NativeHeaders, ProcessesExtractingAtOnceAllSucceed) {
    // Cold caches shared by processes that start together (ctest -j, a process pool).
    for (int round = 0; round < 12; ++round) {
        testing::TempDir root;
        std::vector<pid_t> children;
        for (int i = 0; i < 12; ++i) {
            pid_t pid = ::fork();
            ASSERT_GE(pid, 0);
            if (pid == 0) {
                int code = 0;
                try {
                    extract_native_headers(root.path());
                } catch (...) {
                    code = 1;
                }
                ::_exit(code);
            }
            children.push_back(pid);
        }
        for (pid_t pid : children) {
            int status = 0;
            ASSERT_EQ(::waitpid(pid, &status, 0), pid);
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
        }
    }
}

}  // namespace
}  // namespace treadle
