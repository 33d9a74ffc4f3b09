// src/sema/resolver_memo.cpp -- the per-build cache of resolver answers
#include "sema/resolver_memo.h"

namespace treadle::sema {

GlobalValue ResolverMemo::lookup(Resolver& r, const std::string& name) {
    Key key{r.identity(), Query::Lookup, name, std::string()};
    auto it = m_answers.find(key);
    if (it == m_answers.end()) it = m_answers.emplace(key, r.lookup(name)).first;
    return it->second;
}

GlobalValue ResolverMemo::attribute(Resolver& r, const std::string& module,
                                    const std::string& name) {
    Key key{r.identity(), Query::Attribute, module, name};
    auto it = m_answers.find(key);
    if (it == m_answers.end()) it = m_answers.emplace(key, r.attribute(module, name)).first;
    return it->second;
}

GlobalValue ResolverMemo::annotation(Resolver& r, const std::string& param) {
    Key key{r.identity(), Query::Annotation, param, std::string()};
    auto it = m_answers.find(key);
    if (it == m_answers.end()) it = m_answers.emplace(key, r.annotation(param)).first;
    return it->second;
}

GlobalValue ResolverMemo::static_value(
    Resolver& r, const std::string& expression,
    const std::vector<std::pair<std::string, int64_t>>& indices) {
    std::string bound;
    for (const auto& [name, value] : indices) bound += name + "=" + std::to_string(value) + ",";
    Key key{r.identity(), Query::Static, expression, bound};
    auto it = m_answers.find(key);
    if (it == m_answers.end())
        it = m_answers.emplace(key, r.static_value(expression, indices)).first;
    return it->second;
}

}  // namespace treadle::sema
