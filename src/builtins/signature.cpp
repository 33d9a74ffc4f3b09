// src/builtins/signature.cpp -- the parameters and result documented in a builtin's signature
//
// A signature is written once in the table ("clamp(x: Scalar, low: Scalar, high: Scalar) ->
// Scalar"); it is quoted in errors as written and parsed here into parameters for the stubs,
// the reference and the tests. Operators document their syntax ("a + b"); their parameters are
// the operand names.
#include <cctype>

#include "builtins/builtins.h"
#include "common/assert.h"

namespace treadle::builtins {

namespace {

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace((unsigned char)s[b])) ++b;
    while (e > b && std::isspace((unsigned char)s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}

/// Position of the first `c` outside brackets in `s` at or after `from`, or npos.
size_t find_top_level(std::string_view s, char c, size_t from = 0) {
    int depth = 0;
    for (size_t i = from; i < s.size(); ++i) {
        if (s[i] == '(' || s[i] == '[') ++depth;
        if (s[i] == ')' || s[i] == ']') --depth;
        if (depth == 0 && s[i] == c) return i;
    }
    return std::string_view::npos;
}

/// The closing bracket that matches the '(' at `open`.
size_t matching_paren(std::string_view s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) return i;
    }
    return std::string_view::npos;
}

Param parse_param(const std::string& text) {
    Param p;
    std::string s = text;
    if (s == "...") {
        p.variadic = true;
        return p;
    }
    if (s[0] == '*') {
        p.variadic = true;
        s = s.substr(1);
    }
    size_t colon = find_top_level(s, ':');
    size_t eq = find_top_level(s, '=', colon == std::string::npos ? 0 : colon);
    p.name = trim(s.substr(0, std::min(colon, eq)));
    if (colon != std::string::npos)
        p.type =
            trim(s.substr(colon + 1, eq == std::string::npos ? std::string::npos : eq - colon - 1));
    if (eq != std::string::npos) p.default_value = trim(s.substr(eq + 1));
    if (p.name.size() > 3 && p.name.compare(p.name.size() - 3, 3, "...") == 0) {
        p.name.resize(p.name.size() - 3);  // atomics' indices: "i..."
        p.variadic = true;
    }
    return p;
}

/// Operators document their syntax: the parameters are the distinct operand names.
std::vector<Param> operator_params(std::string_view sig) {
    std::vector<Param> out;
    for (size_t i = 0; i < sig.size();) {
        if (!std::isalpha((unsigned char)sig[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < sig.size() && std::isalnum((unsigned char)sig[j])) ++j;
        std::string name(sig.substr(i, j - i));
        bool seen = false;
        for (const Param& p : out) seen |= p.name == name;
        if (!seen) out.push_back(Param{name, "", "", false});
        i = j;
    }
    return out;
}

std::vector<Param> parse_params(const Builtin& b) {
    std::string_view sig = b.signature;
    size_t open = sig.find('(');
    if (open == std::string_view::npos || sig.substr(0, open) != b.name)
        return operator_params(sig);
    size_t close = matching_paren(sig, open);
    TREADLE_ASSERT(close != std::string_view::npos);
    std::string_view inner = sig.substr(open + 1, close - open - 1);
    std::vector<Param> out;
    for (size_t from = 0; from <= inner.size();) {
        size_t comma = find_top_level(inner, ',', from);
        std::string piece = trim(inner.substr(
            from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
        if (!piece.empty()) out.push_back(parse_param(piece));
        if (comma == std::string_view::npos) break;
        from = comma + 1;
    }
    return out;
}

}  // namespace

const std::vector<Param>& builtin_params(const Builtin& b) {
    static const std::vector<std::vector<Param>> k_params = [] {
        std::vector<std::vector<Param>> all;
        for (const Builtin& x : builtin_table()) all.push_back(parse_params(x));
        return all;
    }();
    const std::vector<Builtin>& table = builtin_table();
    TREADLE_ASSERT(&b >= table.data() && &b < table.data() + table.size());
    return k_params[(size_t)(&b - table.data())];
}

std::string builtin_returns(const Builtin& b) {
    std::string_view sig = b.signature;
    size_t open = sig.find('(');
    if (open == std::string_view::npos || sig.substr(0, open) != b.name) return "";
    size_t close = matching_paren(sig, open);
    size_t arrow = sig.find("->", close);
    return arrow == std::string_view::npos ? "" : trim(sig.substr(arrow + 2));
}

}  // namespace treadle::builtins
