// src/sema/types.cpp -- the type interner
#include "sema/types.h"

#include <map>
#include <memory>
#include <mutex>

#include "common/assert.h"

namespace treadle::sema {

namespace {

struct Interner {
    std::mutex mutex;
    std::vector<std::unique_ptr<Type>> owned;
    std::map<std::string, const Type*> by_key;

    const Type* intern(const std::string& key, Type t) {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = by_key.find(key);
        if (it != by_key.end()) return it->second;
        owned.push_back(std::make_unique<Type>(std::move(t)));
        by_key.emplace(key, owned.back().get());
        return owned.back().get();
    }
};

Interner& interner() {
    static Interner* instance = new Interner();  // never destroyed: types outlive everything
    return *instance;
}

}  // namespace

const Type* void_type() {
    static const Type* t = [] {
        Type v;
        v.kind = TypeKind::Void;
        v.name = "None";
        v.c_name = "void";
        return interner().intern("void", v);
    }();
    return t;
}

const Type* scalar_type(ScalarType s) {
    static const Type* table[12] = {};
    static std::once_flag once;
    std::call_once(once, [] {
        for (int i = 0; i < 12; ++i) {
            Type t;
            t.kind = TypeKind::Scalar;
            t.scalar = (ScalarType)i;
            t.name = scalar_name(t.scalar);
            t.c_name = scalar_c_name(t.scalar);
            t.size = scalar_size(t.scalar);
            t.align = t.size;
            table[i] = interner().intern(std::string("scalar:") + t.name, t);
        }
    });
    return table[(int)s];
}

const Type* array_type(const Type* dtype, int ndim) {
    TREADLE_ASSERT(dtype && dtype->is_scalar() && ndim >= 1 && ndim <= 4);
    Type t;
    t.kind = TypeKind::Array;
    t.dtype = dtype;
    t.ndim = ndim;
    t.name = "array(dtype=" + dtype->name + ", ndim=" + std::to_string(ndim) + ")";
    t.c_name = "wp::array_t<" + dtype->c_name + ">";
    t.size = 72;  // layout of wp::array_t in native/treadle/array.h
    t.align = 8;
    return interner().intern("array:" + dtype->name + ":" + std::to_string(ndim), t);
}

const Type* tuple_type(const std::vector<const Type*>& elements) {
    std::string key = "tuple";
    std::string name = "tuple(";
    for (size_t i = 0; i < elements.size(); ++i) {
        key += ":" + std::to_string(reinterpret_cast<uintptr_t>(elements[i]));
        name += (i ? ", " : "") + elements[i]->name;
    }
    Type t;
    t.kind = TypeKind::Tuple;
    t.elements = elements;
    t.name = name + ")";
    t.c_name = "void";
    return interner().intern(key, t);
}

const Type* type_from_spec(const std::string& spec) {
    if (spec == "int") return int32_type();
    if (spec == "float") return float32_type();
    if (auto s = scalar_from_name(spec)) return scalar_type(*s);
    if (spec.rfind("array:", 0) == 0) {
        size_t colon = spec.rfind(':');
        if (colon <= 6) return nullptr;
        const Type* dtype = type_from_spec(spec.substr(6, colon - 6));
        if (!dtype || !dtype->is_scalar()) return nullptr;
        std::string nd = spec.substr(colon + 1);
        if (nd.size() != 1 || nd[0] < '1' || nd[0] > '4') return nullptr;
        return array_type(dtype, nd[0] - '0');
    }
    return nullptr;
}

std::string type_spec(const Type* t) {
    if (t->is_scalar()) return t->name;
    if (t->is_array()) return "array:" + t->dtype->name + ":" + std::to_string(t->ndim);
    return t->name;
}

}  // namespace treadle::sema
