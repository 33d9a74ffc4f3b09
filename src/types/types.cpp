// src/types/types.cpp -- the type interner
#include "types/types.h"

#include <map>
#include <memory>
#include <mutex>

#include "common/assert.h"
#include "types/abi.h"

namespace treadle::types {

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

abi::Layout layout_of(const Type* t) { return abi::Layout{t->size, t->align}; }

void set_layout(Type& t, abi::Layout l) {
    t.size = l.size;
    t.align = l.align;
}

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
        return interner().intern("void", v);
    }();
    return t;
}

const Type* scalar_type(ScalarType s) {
    static const Type* table[k_scalar_type_count] = {};
    static std::once_flag once;
    std::call_once(once, [] {
        for (int i = 0; i < k_scalar_type_count; ++i) {
            Type t;
            t.kind = TypeKind::Scalar;
            t.scalar = (ScalarType)i;
            t.name = scalar_name(t.scalar);
            t.size = scalar_size(t.scalar);
            t.align = t.size;
            table[i] = interner().intern(std::string("scalar:") + t.name, t);
        }
    });
    return table[(int)s];
}

namespace {
const char* scalar_suffix(ScalarType s) {
    static const char* k_suffix[] = {"",  "b",  "ub", "s", "us", "i", "ui",
                                     "l", "ul", "h",  "f", "d",  "bf"};
    static_assert(sizeof(k_suffix) / sizeof(k_suffix[0]) == k_scalar_type_count);
    return k_suffix[(int)s];
}
/// Whether Warp names 6-vectors and 6x6 matrices of `s` spatial_vector/spatial_matrix.
bool spatial_name(ScalarType s) { return is_float(s) && s != ScalarType::BFloat16; }
}  // namespace

const Type* vector_type(int length, ScalarType scalar) {
    TREADLE_ASSERT(length >= 0 && length <= k_max_vector_length);
    const Type* s = scalar_type(scalar);
    Type t;
    t.kind = TypeKind::Vector;
    t.scalar = scalar;
    t.rows = length;
    t.name = (length <= 4 && scalar != ScalarType::Bool)
                 ? "vec" + std::to_string(length) + scalar_suffix(scalar)
                 : "vector(length=" + std::to_string(length) + ", dtype=" + s->name + ")";
    if (length == 6 && spatial_name(scalar))  // Warp's name of the same type
        t.name = std::string("spatial_vector") + scalar_suffix(scalar);
    // a vector of no components still occupies one, as the native vec_t<0, T> does
    set_layout(t, abi::composite(layout_of(s), length > 0 ? length : 1));
    return interner().intern("vector:" + std::to_string(length) + ":" + s->name, t);
}

const Type* matrix_type(int rows, int cols, ScalarType scalar) {
    TREADLE_ASSERT(rows >= 0 && rows <= k_max_matrix_dim && cols >= 0 && cols <= k_max_matrix_dim);
    const Type* s = scalar_type(scalar);
    Type t;
    t.kind = TypeKind::Matrix;
    t.scalar = scalar;
    t.rows = rows;
    t.cols = cols;
    t.name = (rows <= 4 && cols <= 4 && scalar != ScalarType::Bool)
                 ? "mat" + std::to_string(rows) + std::to_string(cols) + scalar_suffix(scalar)
                 : "matrix(shape=(" + std::to_string(rows) + ", " + std::to_string(cols) +
                       "), dtype=" + s->name + ")";
    if (rows == 6 && cols == 6 && spatial_name(scalar))
        t.name = std::string("spatial_matrix") + scalar_suffix(scalar);
    // a matrix of no elements still occupies one, as the native mat_t<0, 0, T> does
    set_layout(t, abi::composite(layout_of(s), rows * cols > 0 ? (size_t)rows * cols : 1));
    return interner().intern(
        "matrix:" + std::to_string(rows) + ":" + std::to_string(cols) + ":" + s->name, t);
}

namespace {
const Type* rigid_type(TypeKind kind, ScalarType scalar) {
    const Type* s = scalar_type(scalar);
    bool quat = kind == TypeKind::Quat;
    Type t;
    t.kind = kind;
    t.scalar = scalar;
    t.rows = quat ? 4 : 7;
    t.name = std::string(quat ? "quat" : "transform") + scalar_suffix(scalar);
    set_layout(t, abi::composite(layout_of(s), t.rows));
    return interner().intern(std::string(quat ? "quat:" : "transform:") + s->name, t);
}
}  // namespace

const Type* quat_type(ScalarType scalar) { return rigid_type(TypeKind::Quat, scalar); }
const Type* transform_type(ScalarType scalar) { return rigid_type(TypeKind::Transform, scalar); }

const Type* array_type(const Type* dtype, int ndim) {
    TREADLE_ASSERT(dtype && (dtype->is_element() || dtype->kind == TypeKind::Generic) &&
                   ndim >= 1 && ndim <= 4);
    Type t;
    t.kind = TypeKind::Array;
    t.dtype = dtype;
    t.ndim = ndim;
    t.name = "array(dtype=" + dtype->name + ", ndim=" + std::to_string(ndim) + ")";
    set_layout(t, abi::k_array);
    return interner().intern("array:" + type_key(dtype) + ":" + std::to_string(ndim), t);
}

const Type* indexedarray_type(const Type* dtype, int ndim) {
    TREADLE_ASSERT(dtype && dtype->is_element() && ndim >= 1 && ndim <= 4);
    Type t;
    t.kind = TypeKind::Array;
    t.indexed = true;
    t.dtype = dtype;
    t.ndim = ndim;
    t.name = "indexedarray(dtype=" + dtype->name + ", ndim=" + std::to_string(ndim) + ")";
    set_layout(t, abi::k_indexed_array);
    return interner().intern("indexedarray:" + type_key(dtype) + ":" + std::to_string(ndim), t);
}

const Type* fabricarray_type(const Type* dtype, int ndim, bool indexed) {
    TREADLE_ASSERT(dtype && (dtype->is_element() || dtype->kind == TypeKind::Generic) &&
                   ndim >= 1 && ndim <= 2);
    Type t;
    t.kind = TypeKind::Array;
    t.fabric = true;
    t.indexed = indexed;
    t.dtype = dtype;
    t.ndim = ndim;
    std::string kind = indexed ? "indexedfabricarray" : "fabricarray";
    t.name = kind + "(dtype=" + dtype->name + ", ndim=" + std::to_string(ndim) + ")";
    set_layout(t, indexed ? abi::k_indexed_fabric_array : abi::k_fabric_array);
    return interner().intern(kind + ":" + type_key(dtype) + ":" + std::to_string(ndim), t);
}

const Type* array_type_like(const Type* t, int ndim) {
    if (t->fabric) return array_type(t->dtype, ndim);
    return t->indexed ? indexedarray_type(t->dtype, ndim) : array_type(t->dtype, ndim);
}

namespace {

bool is_identifier(const std::string& s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    return true;
}

}  // namespace

const Type* struct_type(const std::string& qualname,
                        const std::vector<std::pair<std::string, const Type*>>& fields,
                        std::string* error) {
    auto fail = [&](const std::string& why) -> const Type* {
        if (error) *error = why;
        return nullptr;
    };
    if (qualname.empty() || qualname.find_first_of("{};=") != std::string::npos)
        return fail("invalid struct name '" + qualname + "'");
    Type t;
    t.kind = TypeKind::Struct;
    size_t dot = qualname.rfind('.');
    t.name = dot == std::string::npos ? qualname : qualname.substr(dot + 1);
    t.key = "struct:" + qualname + "{";
    abi::StructLayout layout;
    for (size_t i = 0; i < fields.size(); ++i) {
        const auto& [name, ft] = fields[i];
        if (!is_identifier(name)) return fail("invalid field name '" + name + "'");
        if (t.field(name)) return fail("duplicate field '" + name + "'");
        if (!ft || !(ft->is_element() || ft->is_array()))
            return fail("field '" + name + "' has a type structs cannot hold");
        t.fields.push_back(StructField{name, ft, layout.add(layout_of(ft))});
        t.key += (i ? ";" : "") + name + "=" + type_key(ft);
    }
    t.key += "}";
    // A struct without fields occupies one byte, as in C++ (and Warp's dummy field).
    set_layout(t, fields.empty() ? abi::Layout{1, 1} : layout.finish());
    std::string key = t.key;
    return interner().intern(key, std::move(t));
}

const Type* native_struct_type(const std::string& name, const std::string& native,
                               const std::vector<std::pair<std::string, const Type*>>& fields) {
    Type t;
    t.kind = TypeKind::Struct;
    t.name = name;
    t.native = native;
    t.key = "native:" + native;
    abi::StructLayout layout;
    for (const auto& [field, ft] : fields)
        t.fields.push_back(StructField{field, ft, layout.add(layout_of(ft))});
    set_layout(t, fields.empty() ? abi::Layout{1, 1} : layout.finish());
    std::string key = t.key;
    return interner().intern(key, std::move(t));
}

const Type* tile_stack_type(const Type* dtype, int capacity) {
    TREADLE_ASSERT(dtype && dtype->is_element() && capacity >= 1);
    Type t;
    t.kind = TypeKind::Struct;
    t.native = "tile_stack_t";
    t.dtype = dtype;
    t.shape = {capacity};
    t.name = "tile_stack(dtype=" + dtype->name + ", capacity=" + std::to_string(capacity) + ")";
    t.key = "tile_stack:" + type_key(dtype) + ":" + std::to_string(capacity);
    set_layout(t, abi::Layout{2 * sizeof(void*), alignof(void*)});
    std::string key = t.key;
    return interner().intern(key, std::move(t));
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
    return interner().intern(key, t);
}

const Type* generic_type(const std::string& name) {
    if (name != "Any" && name != "Float" && name != "Int" && name != "Scalar") return nullptr;
    Type t;
    t.kind = TypeKind::Generic;
    t.name = name;
    return interner().intern("generic:" + name, t);
}

const Type* generic_composite_type(bool is_matrix, int rows, int cols, const Type* element) {
    Type t;
    t.kind = TypeKind::Generic;
    t.rows = rows;
    t.cols = cols;
    t.ndim = is_matrix ? 2 : 1;
    t.dtype = element;
    auto dim = [](int n) { return n ? std::to_string(n) : std::string("Any"); };
    t.name = is_matrix ? "matrix(shape=(" + dim(rows) + ", " + dim(cols) +
                             "), dtype=" + element->name + ")"
                       : "vector(length=" + dim(rows) + ", dtype=" + element->name + ")";
    return interner().intern("generic:" + t.name, t);
}

const Type* tile_type(const Type* dtype, const std::vector<int>& shape) {
    TREADLE_ASSERT(dtype && dtype->is_element() && !shape.empty() && shape.size() <= 4);
    Type t;
    t.kind = TypeKind::Tile;
    t.dtype = dtype;
    t.scalar = dtype->scalar;
    t.ndim = (int)shape.size();
    t.shape = shape;
    std::string dims, key;
    for (size_t i = 0; i < shape.size(); ++i) {
        TREADLE_ASSERT(shape[i] >= 1);
        dims += (i ? ", " : "") + std::to_string(shape[i]);
        key += (i ? "x" : "") + std::to_string(shape[i]);
    }
    TREADLE_ASSERT(t.tile_size() <= k_max_tile_elements);
    t.name = "tile(dtype=" + dtype->name + ", shape=(" + dims + (shape.size() == 1 ? ",))" : "))");
    set_layout(t, abi::composite(layout_of(dtype), (size_t)t.tile_size()));
    return interner().intern("tile:" + type_key(dtype) + ":" + key, t);
}

const Type* generic_tile_type(const Type* dtype, const std::vector<int>& shape) {
    Type t;
    t.kind = TypeKind::Generic;
    t.tile_pattern = true;
    t.dtype = dtype;
    t.shape = shape;
    std::string dims = "Any";
    if (!shape.empty()) {
        dims = "(";
        for (size_t i = 0; i < shape.size(); ++i)
            dims += (i ? ", " : "") + std::to_string(shape[i]);
        dims += shape.size() == 1 ? ",)" : ")";
    }
    t.name = "tile(dtype=" + (dtype ? dtype->name : std::string("Any")) + ", shape=" + dims + ")";
    return interner().intern("generic:" + t.name, t);
}

bool has_gradient(const Type* t) {
    if (!t) return false;
    if (t->is_tile()) return has_gradient(t->dtype);
    if (t->is_struct()) {
        for (const StructField& f : t->fields)
            if (has_gradient(f.type)) return true;
        return false;
    }
    return t->is_value() && treadle::is_float(t->scalar);
}

bool generic_matches(const Type* pattern, const Type* t) {
    if (pattern == t) return true;
    if (pattern->tile_pattern)
        return t->is_tile() && (pattern->shape.empty() || pattern->shape == t->shape) &&
               (!pattern->dtype || pattern->dtype == t->dtype ||
                generic_matches(pattern->dtype, t->dtype));
    if (pattern->kind == TypeKind::Generic && pattern->dtype) {
        // vector(length=.., dtype=..) / matrix(shape=.., dtype=..) with placeholders
        bool kind_ok = pattern->ndim == 2 ? t->is_matrix() : t->is_vector();
        if (!kind_ok) return false;
        if (pattern->rows && pattern->rows != t->rows) return false;
        if (pattern->ndim == 2 && pattern->cols && pattern->cols != t->cols) return false;
        const Type* elem = scalar_type(t->scalar);
        return pattern->dtype == elem || generic_matches(pattern->dtype, elem);
    }
    if (pattern->is_array())
        return t->is_array() && t->ndim == pattern->ndim && t->fabric == pattern->fabric &&
               (!t->fabric || t->indexed == pattern->indexed) &&
               generic_matches(pattern->dtype, t->dtype);
    if (pattern->kind != TypeKind::Generic || t->is_generic()) return false;
    if (pattern->name == "Any")
        return t->is_value() || t->is_array() || t->is_struct() || t->is_tile();
    if (pattern->name == "Float") return t->is_float();
    if (pattern->name == "Int") return t->is_integer();
    return t->is_scalar() && !t->is_bool();  // Scalar
}

std::string type_key(const Type* t) {
    if (t->is_scalar()) return t->name;
    if (t->is_vector()) return "vector:" + std::to_string(t->rows) + ":" + scalar_name(t->scalar);
    if (t->is_matrix())
        return "matrix:" + std::to_string(t->rows) + ":" + std::to_string(t->cols) + ":" +
               scalar_name(t->scalar);
    if (t->is_quat()) return std::string("quat:") + scalar_name(t->scalar);
    if (t->is_transform()) return std::string("transform:") + scalar_name(t->scalar);
    if (t->is_array())
        return std::string(t->fabric ? (t->indexed ? "indexedfabricarray:" : "fabricarray:")
                                     : (t->indexed ? "indexedarray:" : "array:")) +
               type_key(t->dtype) + ":" + std::to_string(t->ndim);
    if (t->is_struct()) return t->key;
    if (t->is_tile()) {
        std::string key = "tile:" + type_key(t->dtype) + ":";
        for (size_t i = 0; i < t->shape.size(); ++i)
            key += (i ? "x" : "") + std::to_string(t->shape[i]);
        return key;
    }
    return t->name;
}

}  // namespace treadle::types
