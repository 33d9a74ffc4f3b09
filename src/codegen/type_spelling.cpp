// src/codegen/type_spelling.cpp -- C++ spellings of the interned types in generated code
#include "codegen/type_spelling.h"

#include <cstdint>
#include <cstdio>

#include "common/assert.h"

namespace treadle::codegen {

namespace {

/// 64-bit FNV-1a: a short, stable identity of a struct's name and fields for its C++ name.
uint64_t fnv1a(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

/// C++ keywords a Python field name may spell; such fields get a trailing underscore.
bool is_cpp_keyword(const std::string& s) {
    static const char* k_words[] = {"alignas",  "alignof",       "asm",
                                    "auto",     "bool",          "case",
                                    "catch",    "char",          "class",
                                    "const",    "constexpr",     "const_cast",
                                    "decltype", "default",       "delete",
                                    "do",       "double",        "dynamic_cast",
                                    "enum",     "explicit",      "export",
                                    "extern",   "float",         "friend",
                                    "goto",     "inline",        "int",
                                    "long",     "mutable",       "namespace",
                                    "new",      "noexcept",      "nullptr",
                                    "operator", "private",       "protected",
                                    "public",   "register",      "reinterpret_cast",
                                    "short",    "signed",        "sizeof",
                                    "static",   "static_assert", "static_cast",
                                    "struct",   "switch",        "template",
                                    "this",     "thread_local",  "throw",
                                    "typedef",  "typeid",        "typename",
                                    "union",    "unsigned",      "using",
                                    "virtual",  "void",          "volatile",
                                    "wchar_t",  "true",          "false"};
    for (const char* w : k_words)
        if (s == w) return true;
    return false;
}

std::string struct_name(const types::Type* t) {
    std::string short_name;
    for (char c : t->name)
        short_name +=
            ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? c : '_';
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fnv1a(t->key));
    return "struct_" + short_name + "_" + hex;
}

}  // namespace

const char* c_scalar(ScalarType s) {
    static const char* k_names[] = {"bool",        "wp::int8",    "wp::uint8",   "wp::int16",
                                    "wp::uint16",  "wp::int32",   "wp::uint32",  "wp::int64",
                                    "wp::uint64",  "wp::float16", "wp::float32", "wp::float64",
                                    "wp::bfloat16"};
    static_assert(sizeof(k_names) / sizeof(k_names[0]) == k_scalar_type_count);
    return k_names[(int)s];
}

std::string c_type(const types::Type* t) {
    using types::TypeKind;
    std::string scalar = c_scalar(t->scalar);
    switch (t->kind) {
        case TypeKind::Void:
        case TypeKind::Tuple:
            return "void";
        case TypeKind::Scalar:
            return scalar;
        case TypeKind::Vector:
            return "wp::vec_t<" + std::to_string(t->rows) + ", " + scalar + ">";
        case TypeKind::Matrix:
            return "wp::mat_t<" + std::to_string(t->rows) + ", " + std::to_string(t->cols) + ", " +
                   scalar + ">";
        case TypeKind::Quat:
            return "wp::quat_t<" + scalar + ">";
        case TypeKind::Transform:
            return "wp::transform_t<" + scalar + ">";
        case TypeKind::Array:
            if (t->fabric)
                return std::string(t->indexed ? "wp::indexedfabricarray_t<"
                                              : "wp::fabricarray_t<") +
                       c_type(t->dtype) + ">";
            return std::string(t->indexed ? "wp::indexedarray_t<" : "wp::array_t<") +
                   c_type(t->dtype) + ">";
        case TypeKind::Struct:
            if (types::is_tile_stack(t))
                return "wp::tile_stack_t<" + c_type(t->dtype) + ", " + std::to_string(t->shape[0]) +
                       ">";
            return t->native.empty() ? struct_name(t) : "wp::" + t->native;
        case TypeKind::Tile: {
            std::string spelled = "wp::tile_t<" + c_type(t->dtype);
            for (int d : t->shape) spelled += ", " + std::to_string(d);
            return spelled + ">";
        }
        case TypeKind::Generic:
            return "<generic " + t->name + ">";
    }
    TREADLE_ASSERT(false && "unknown type kind");
    return "void";
}

/// Whether a Python name may mean something else to the C++ compiler as a struct member: a
/// keyword or alternative token, a name in macro style (no lowercase letter: EOF, NULL,
/// CUDA_CALLABLE), one the C library may define as a macro (errno, stdin, assert, ...), or
/// one reserved to the implementation (a leading underscore).
bool needs_escape(const std::string& s) {
    static const char* k_words[] = {"and",
                                    "and_eq",
                                    "bitand",
                                    "bitor",
                                    "compl",
                                    "not",
                                    "not_eq",
                                    "or",
                                    "or_eq",
                                    "xor",
                                    "xor_eq",
                                    "char8_t",
                                    "char16_t",
                                    "char32_t",
                                    "concept",
                                    "requires",
                                    "co_await",
                                    "co_yield",
                                    "co_return",
                                    "consteval",
                                    "constinit",
                                    "assert",
                                    "errno",
                                    "stdin",
                                    "stdout",
                                    "stderr",
                                    "offsetof",
                                    "setjmp",
                                    "va_arg",
                                    "va_start",
                                    "va_end",
                                    "va_copy",
                                    "unix",
                                    "linux",
                                    "i386",
                                    "major",
                                    "minor",
                                    "makedev",
                                    "signbit",
                                    "isnan",
                                    "isinf",
                                    "isfinite",
                                    "fpclassify",
                                    "isnormal",
                                    "printf",
                                    "alloca",
                                    "asm",
                                    "typeof",
                                    "restrict",
                                    "final",
                                    "override",
                                    "import",
                                    "module",
                                    "atomic_cancel",
                                    "atomic_commit",
                                    "atomic_noexcept",
                                    "synchronized",
                                    "reflexpr",
                                    "transaction_safe",
                                    "transaction_safe_dynamic"};
    if (is_cpp_keyword(s) || s.empty() || s[0] == '_') return true;
    bool lower = false;
    for (char c : s) lower |= c >= 'a' && c <= 'z';
    if (!lower) return true;
    for (const char* w : k_words)
        if (s == w) return true;
    return false;
}

std::string c_field(const std::string& name) {
    // Escaped names and names already ending in '_' gain one, so that no two fields meet.
    return needs_escape(name) || name.back() == '_' ? name + "_" : name;
}

}  // namespace treadle::codegen
