// src/sema/resolver_memo.h -- asks each distinct resolver question once per build
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sema/resolver.h"

namespace treadle::sema {

/// The answers of every Resolver one build asks (the kernel's and each callee's), so a front
/// end is asked each distinct question once per build however often the code uses a name:
/// Python's answers cost a call into the interpreter each. Keyed by Resolver::identity(), so
/// two FunctionSources of one Python function share answers. Lives as long as one build (a
/// later build asks again: globals may have changed in between). Not thread-safe; a build
/// runs on one thread.
class ResolverMemo {
public:
    GlobalValue lookup(Resolver& r, const std::string& name);
    GlobalValue attribute(Resolver& r, const std::string& module, const std::string& name);
    GlobalValue annotation(Resolver& r, const std::string& param);
    GlobalValue static_value(Resolver& r, const std::string& expression,
                             const std::vector<std::pair<std::string, int64_t>>& indices);

private:
    enum class Query { Lookup, Attribute, Annotation, Static };
    using Key = std::tuple<const void*, Query, std::string, std::string>;
    std::map<Key, GlobalValue> m_answers;
};

}  // namespace treadle::sema
