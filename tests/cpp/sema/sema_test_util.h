// tests/cpp/sema/sema_test_util.h -- builds the IR of one def with a scripted resolver
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "sema/infer.h"
#include "sema/resolver.h"
#include "treadle/error.h"

namespace treadle::sema::test {

/// A resolver answering from a fixed map of globals ("wp" is the treadle module) that records
/// every name it is asked for, so tests can see whether a name reached the globals.
class MapResolver : public Resolver {
public:
    MapResolver() {
        GlobalValue wp;
        wp.kind = GlobalValue::Kind::Module;
        wp.module = "treadle";
        globals["wp"] = wp;
    }

    GlobalValue lookup(const std::string& name) override {
        asked.push_back(name);
        auto it = globals.find(name);
        return it == globals.end() ? GlobalValue{} : it->second;
    }

    /// Whether lookup() was called with `name`.
    bool was_asked(const std::string& name) const {
        for (const std::string& n : asked)
            if (n == name) return true;
        return false;
    }

    /// A weak (Python number) float constant named `name`.
    void set_float(const std::string& name, double value) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Constant;
        g.constant = types::ConstValue{types::float32_type(), true, 0, value};
        globals[name] = g;
    }

    std::map<std::string, GlobalValue> globals;
    std::vector<std::string> asked;
};

/// A kernel (or function) source named `name` whose text is `text` (one def) in file
/// "test.py", starting at line 1.
inline FunctionSource make_function(const std::string& name, const std::string& text,
                                    std::shared_ptr<Resolver> resolver, bool is_kernel = true) {
    FunctionSource fn;
    fn.key = "test." + name;
    fn.name = name;
    fn.source = ast::make_source("test.py", text);
    fn.resolver = std::move(resolver);
    fn.is_kernel = is_kernel;
    return fn;
}

/// The typed IR of kernel `text`; every function of it passes ir::verify().
inline std::unique_ptr<ir::Program> build(const std::string& name, const std::string& text,
                                          std::shared_ptr<Resolver> resolver = nullptr,
                                          int max_unroll = 16) {
    if (!resolver) resolver = std::make_shared<MapResolver>();
    FunctionSource fn = make_function(name, text, resolver);
    fn.max_unroll = max_unroll;
    std::unique_ptr<ir::Program> program = build_program(fn);
    for (const auto& f : program->functions) EXPECT_EQ(ir::verify(*f), "") << ir::print(*f);
    return program;
}

/// The Error that building kernel `text` throws (fails the test when it builds).
inline Error build_error(const std::string& name, const std::string& text,
                         std::shared_ptr<Resolver> resolver = nullptr) {
    try {
        build(name, text, std::move(resolver));
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << name << " built without an error";
    return Error(ErrorKind::Runtime, "no error");
}

/// Every instruction of `block` and its nested blocks, in program order, that `pick` accepts.
inline std::vector<const ir::Instr*> find_all(const ir::Block& block,
                                              const std::function<bool(const ir::Instr&)>& pick) {
    std::vector<const ir::Instr*> out;
    std::function<void(const ir::Block&)> walk = [&](const ir::Block& b) {
        for (const ir::Instr& in : b) {
            if (pick(in)) out.push_back(&in);
            walk(in.body);
            walk(in.orelse);
        }
    };
    walk(block);
    return out;
}

/// The instructions of kind `kind` in the kernel of `p`.
inline std::vector<const ir::Instr*> find_kind(const ir::Program& p, ir::InstrKind kind) {
    return find_all(p.kernel->body, [kind](const ir::Instr& in) { return in.kind == kind; });
}

/// The type of the value stored by the kernel's only Store.
inline const types::Type* stored_type(const ir::Program& p) {
    std::vector<const ir::Instr*> stores = find_kind(p, ir::InstrKind::Store);
    EXPECT_EQ(stores.size(), 1u) << ir::print(*p.kernel);
    if (stores.size() != 1) return nullptr;
    return p.kernel->type_of(stores[0]->args.back());
}

}  // namespace treadle::sema::test
