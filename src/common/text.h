// src/common/text.h -- a string builder with stream syntax that never touches iostream locales
#pragma once

#include <string>
#include <type_traits>

namespace treadle {

/// Appends text and integers to a std::string. Generated code must not depend on the host's
/// locale, and iostreams' number formatting goes through locale facets (which also misbehave
/// when a process mixes libstdc++ builds), so code generation and IR printing use this instead.
struct Text {
    std::string s;

    Text& operator<<(const std::string& x) {
        s += x;
        return *this;
    }
    Text& operator<<(const char* x) {
        s += x;
        return *this;
    }
    Text& operator<<(char c) {
        s += c;
        return *this;
    }
    template <typename T,
              typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char>>>
    Text& operator<<(T v) {
        s += std::to_string(v);
        return *this;
    }
    const std::string& str() const { return s; }
};

}  // namespace treadle
