// src/builtins/arguments.cpp -- argument types as overload resolution sees them: the
// weak-literal rules and their description in errors
#include "builtins/builtins.h"

namespace treadle::builtins {

const types::Type* unify_scalars(const std::vector<ArgInfo>& args, bool want_float) {
    const types::Type* strong = nullptr;
    bool any_weak_float = false;
    for (const ArgInfo& a : args) {
        if (!a.type || !a.type->is_scalar()) return nullptr;
        if (a.weak) {
            any_weak_float |= a.type->is_float();
            continue;
        }
        if (strong && strong != a.type) return nullptr;
        strong = a.type;
    }
    if (!strong)
        return (any_weak_float || want_float) ? types::float32_type() : types::int32_type();
    // A weak float literal never turns into an integer or bool.
    if (any_weak_float && !strong->is_float()) return nullptr;
    return strong;
}

std::string describe_args(const std::vector<ArgInfo>& args) {
    std::string s = "(";
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) s += ", ";
        if (args[i].is_type)
            s += "dtype=" + args[i].type->name;
        else if (args[i].weak)
            s += args[i].type->is_float() ? "float literal" : "int literal";
        else
            s += args[i].type ? args[i].type->name : "?";
    }
    return s + ")";
}

}  // namespace treadle::builtins
