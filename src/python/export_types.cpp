// src/python/export_types.cpp -- the interned compiler type as a Python object, and its factories
//
// `_treadle.Type` wraps one interned types::Type (never copied, never freed): two Type objects
// are equal, and hash alike, exactly when they wrap the same type. Types are made only by the
// factories of `_treadle.types`, which check their arguments and raise with the factory's name.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exports.h"
#include "treadle/error.h"
#include "types/type_names.h"
#include "types/types.h"

namespace nb = nanobind;

using treadle::Error;
using treadle::ErrorKind;
using treadle::ScalarType;
using treadle::types::Type;
using treadle::types::TypeKind;

namespace {

constexpr auto k_ref = nb::rv_policy::reference;

const char* kind_name(TypeKind k) {
    switch (k) {
        case TypeKind::Void:
            return "void";
        case TypeKind::Scalar:
            return "scalar";
        case TypeKind::Vector:
            return "vector";
        case TypeKind::Matrix:
            return "matrix";
        case TypeKind::Quat:
            return "quat";
        case TypeKind::Transform:
            return "transform";
        case TypeKind::Array:
            return "array";
        case TypeKind::Struct:
            return "struct";
        case TypeKind::Tuple:
            return "tuple";
        case TypeKind::Tile:
            return "tile";
        case TypeKind::Generic:
            return "generic";
    }
    return "void";
}

/// Whether the type has a scalar element: scalars, vectors, matrices, quaternions, transforms.
bool has_scalar(const Type* t) { return t->is_value(); }

const Type* need(const Type* t, const char* fn, const char* what) {
    if (!t) throw Error(ErrorKind::Type, std::string(fn) + "(): " + what + " must be a Type");
    return t;
}

/// The scalar element `s` of a vector, matrix, quaternion or transform factory.
ScalarType scalar_of(const char* fn, const Type* s) {
    need(s, fn, "the scalar");
    if (!s->is_scalar())
        throw Error(
            ErrorKind::Type,
            std::string(fn) + "(): the element type must be a scalar (got " + s->name + ")");
    return s->scalar;
}

std::string all_scalar_names() {
    std::string out;
    for (int i = 0; i < treadle::k_scalar_type_count; ++i)
        out += (i ? ", " : "") + std::string(treadle::scalar_name((ScalarType)i));
    return out;
}

const Type* make_scalar(const std::string& name) {
    auto s = treadle::scalar_from_name(name);
    if (!s)
        throw Error(ErrorKind::Value, "scalar(): unknown scalar type '" + name + "' (expected " +
                                          all_scalar_names() + ")");
    return treadle::types::scalar_type(*s);
}

const Type* make_vector(int length, const Type* scalar) {
    ScalarType s = scalar_of("vector", scalar);
    const int most = treadle::types::k_max_vector_length;
    if (length < 0 || length > most)
        throw Error(ErrorKind::Value, "vector(): length must be 0.." + std::to_string(most) +
                                          " (got " + std::to_string(length) + ")");
    return treadle::types::vector_type(length, s);
}

const Type* make_matrix(int rows, int cols, const Type* scalar) {
    ScalarType s = scalar_of("matrix", scalar);
    const int most = treadle::types::k_max_matrix_dim;
    if (rows < 0 || rows > most || cols < 0 || cols > most)
        throw Error(ErrorKind::Value, "matrix(): shape must be within 0..64 x 0..64 (got (" +
                                          std::to_string(rows) + ", " + std::to_string(cols) +
                                          "))");
    return treadle::types::matrix_type(rows, cols, s);
}

const Type* make_rigid(const char* fn, const Type* scalar) {
    ScalarType s = scalar_of(fn, scalar);
    if (!treadle::is_float(s))
        throw Error(ErrorKind::Type, std::string(fn) + "(): the scalar must be a float type (got " +
                                         scalar->name + ")");
    return fn[0] == 'q' ? treadle::types::quat_type(s) : treadle::types::transform_type(s);
}

const Type* make_array(const Type* dtype, int ndim, bool indexed, bool fabric) {
    need(dtype, "array", "dtype");
    bool placeholder = dtype->kind == TypeKind::Generic;
    if (!dtype->is_element() && !placeholder)
        throw Error(ErrorKind::Type,
                    "array(): dtype must be a value type, a struct or a generic placeholder (got " +
                        dtype->name + ")");
    if (ndim < 1 || ndim > 4)
        throw Error(ErrorKind::Value,
                    "array(): ndim must be 1..4 (got " + std::to_string(ndim) + ")");
    if (fabric && ndim > 2)
        throw Error(ErrorKind::Value, "array(): a Fabric array has 1 or 2 dimensions (got " +
                                          std::to_string(ndim) + ")");
    if (fabric) return treadle::types::fabricarray_type(dtype, ndim, indexed);
    if (indexed && placeholder)
        throw Error(ErrorKind::Type,
                    "array(): an indexed array needs a concrete dtype (got " + dtype->name + ")");
    return indexed ? treadle::types::indexedarray_type(dtype, ndim)
                   : treadle::types::array_type(dtype, ndim);
}

const Type* make_struct(const std::string& name,
                        const std::vector<std::pair<std::string, const Type*>>& fields) {
    for (const auto& [field, t] : fields)
        if (!t) throw Error(ErrorKind::Type, "struct(): field '" + field + "' must have a Type");
    std::string error;
    const Type* t = treadle::types::struct_type(name, fields, &error);
    if (!t) throw Error(ErrorKind::Value, "struct(): " + error);
    return t;
}

const Type* make_generic(const std::string& name) {
    const Type* t = treadle::types::generic_type(name);
    if (!t)
        throw Error(ErrorKind::Value, "generic(): unknown placeholder '" + name +
                                          "' (expected Any, Float, Int or Scalar)");
    return t;
}

/// A generic vector/matrix pattern: sizes of None (or 0) match any size.
const Type* make_generic_composite(const char* fn, bool is_matrix, std::optional<int> rows,
                                   std::optional<int> cols, const Type* element) {
    need(element, fn, "the element type");
    if (!element->is_scalar() && element->kind != TypeKind::Generic)
        throw Error(ErrorKind::Type, std::string(fn) +
                                         "(): the element type must be a scalar or a placeholder "
                                         "(got " +
                                         element->name + ")");
    for (std::optional<int> n : {rows, cols})
        if (n && (*n < 0 || *n > (is_matrix ? treadle::types::k_max_matrix_dim
                                            : treadle::types::k_max_vector_length)))
            throw Error(ErrorKind::Value, std::string(fn) +
                                              "(): sizes must be in range or None (got " +
                                              std::to_string(*n) + ")");
    return treadle::types::generic_composite_type(is_matrix, rows.value_or(0), cols.value_or(0),
                                                  element);
}

nb::object optional_type(const Type* t) { return t ? nb::cast(t, k_ref) : nb::none(); }

const Type* make_tile(const Type* dtype, std::optional<std::vector<int>> shape) {
    if (dtype && !dtype->is_value() && dtype->kind != TypeKind::Generic)
        throw treadle::Error(
            treadle::ErrorKind::Type,
            "tile(): dtype must be a scalar, vector or matrix type, got " + dtype->name);
    int64_t n = 1;
    if (shape) {
        if (shape->empty() || shape->size() > 4)
            throw treadle::Error(treadle::ErrorKind::Type, "tile(): a tile has 1 to 4 dimensions");
        for (int d : *shape) {
            if (d < 1)
                throw treadle::Error(treadle::ErrorKind::Type,
                                     "tile(): dimensions must be at least 1");
            n *= d;
        }
        if (n > treadle::types::k_max_tile_elements)
            throw treadle::Error(treadle::ErrorKind::Type,
                                 "tile(): a tile holds at most 2^20 elements");
    }
    if (dtype && dtype->is_value() && shape) return treadle::types::tile_type(dtype, *shape);
    const Type* fixed =
        dtype && dtype->kind == TypeKind::Generic && !dtype->tile_pattern && dtype->name == "Any"
            ? nullptr
            : dtype;
    return treadle::types::generic_tile_type(fixed, shape ? *shape : std::vector<int>{});
}

const Type* make_tile_stack(const Type* dtype, int capacity) {
    if (!dtype || !dtype->is_element())
        throw treadle::Error(treadle::ErrorKind::Type,
                             "tile_stack(): dtype must be a scalar, vector, matrix or struct "
                             "type, got " +
                                 (dtype ? dtype->name : std::string("None")));
    if (capacity < 1 || capacity > treadle::types::k_max_tile_elements)
        throw treadle::Error(treadle::ErrorKind::Value,
                             "tile_stack(): capacity must be a positive integer (at "
                             "most 2^20), got " +
                                 std::to_string(capacity));
    return treadle::types::tile_stack_type(dtype, capacity);
}

}  // namespace

void export_types(nb::module_& m) {
    nb::class_<Type>(m, "Type",
                     "An interned compiler type: equal exactly when it is the same type. Made by "
                     "the factories of _treadle.types.")
        .def_prop_ro("kind", [](const Type& t) { return kind_name(t.kind); })
        .def_prop_ro(
            "native", [](const Type& t) { return t.native; },
            "A struct the native library defines: its C++ name; empty otherwise.")
        .def_prop_ro("name", [](const Type& t) { return t.name; })
        .def_prop_ro("scalar",
                     [](const Type& t) -> nb::object {
                         if (!has_scalar(&t)) return nb::none();
                         return nb::cast(treadle::types::scalar_type(t.scalar), k_ref);
                     })
        .def_prop_ro("length",
                     [](const Type& t) -> nb::object {
                         bool has = t.is_vector() || t.is_quat() || t.is_transform() ||
                                    (t.kind == TypeKind::Generic && t.dtype && t.ndim == 1);
                         return has ? nb::cast(t.rows) : nb::none();
                     })
        .def_prop_ro("shape",
                     [](const Type& t) -> nb::object {
                         bool has = t.is_matrix() ||
                                    (t.kind == TypeKind::Generic && t.dtype && t.ndim == 2);
                         return has ? nb::object(nb::make_tuple(t.rows, t.cols)) : nb::none();
                     })
        .def_prop_ro("dtype", [](const Type& t) { return optional_type(t.dtype); })
        .def_prop_ro("ndim",
                     [](const Type& t) -> nb::object {
                         return t.is_array() || t.is_tile() ? nb::cast(t.ndim) : nb::none();
                     })
        .def_prop_ro("tile_shape",
                     [](const Type& t) -> nb::object {
                         if (!t.is_tile() && !t.tile_pattern) return nb::none();
                         nb::list dims;
                         for (int d : t.shape) dims.append(d);
                         return nb::tuple(dims);
                     })
        .def_prop_ro("indexed", [](const Type& t) { return t.is_indexed_array(); })
        .def_prop_ro("fabric", [](const Type& t) { return t.is_fabric_array(); })
        .def_prop_ro("indexed_fabric",
                     [](const Type& t) { return t.is_fabric_array() && t.indexed; })
        .def_prop_ro("fields",
                     [](const Type& t) {
                         nb::list out;
                         for (const auto& f : t.fields)
                             out.append(nb::make_tuple(f.name, nb::cast(f.type, k_ref), f.offset));
                         return out;
                     })
        .def_prop_ro("elements",
                     [](const Type& t) {
                         nb::list out;
                         for (const Type* e : t.elements) out.append(nb::cast(e, k_ref));
                         return nb::tuple(out);
                     })
        .def_prop_ro("size", [](const Type& t) { return t.size; })
        .def_prop_ro("align", [](const Type& t) { return t.align; })
        .def_prop_ro("is_generic", [](const Type& t) { return t.is_generic(); })
        .def_prop_ro(
            "key", [](const Type& t) { return treadle::types::type_key(&t); },
            "A stable text that names the type (struct names with their module and fields): "
            "for cache keys and kernel keys; never parsed back.")
        .def(
            "matches",
            [](const Type& pattern, const Type& t) {
                return treadle::types::generic_matches(&pattern, &t);
            },
            "Whether a value of type `t` fits this annotation (see generic placeholders).")
        .def("__eq__",
             [](const Type& a, nb::handle b) {
                 const Type* o = nullptr;
                 return nb::try_cast<const Type*>(b, o) && o == &a;
             })
        .def("__hash__",
             [](const Type& t) { return (Py_hash_t)(reinterpret_cast<uintptr_t>(&t) >> 4); })
        .def("__repr__", [](const Type& t) { return "Type(" + t.name + ")"; });

    nb::module_ t = m.def_submodule("types", "Factories of the interned compiler types");
    t.def("void", &treadle::types::void_type, k_ref);
    t.def("scalar", &make_scalar, nb::arg("name"), k_ref);
    t.def("vector", &make_vector, nb::arg("length"), nb::arg("scalar"), k_ref);
    t.def("matrix", &make_matrix, nb::arg("rows"), nb::arg("cols"), nb::arg("scalar"), k_ref);
    t.def(
        "quat", [](const Type* s) { return make_rigid("quat", s); }, nb::arg("scalar"), k_ref);
    t.def(
        "transform", [](const Type* s) { return make_rigid("transform", s); }, nb::arg("scalar"),
        k_ref);
    t.def("array", &make_array, nb::arg("dtype"), nb::arg("ndim") = 1, nb::arg("indexed") = false,
          nb::arg("fabric") = false, k_ref);
    t.def("struct", &make_struct, nb::arg("name"), nb::arg("fields"), k_ref);
    t.def(
        "native_struct",
        [](const std::string& name) {
            const Type* t = treadle::types::native_struct_by_name(name);
            if (!t)
                throw treadle::Error(treadle::ErrorKind::Value,
                                     "native_struct(): no native struct is called '" + name + "'");
            return t;
        },
        nb::arg("name"), k_ref);
    t.def("native_struct_names", &treadle::types::native_struct_names);
    t.def(
        "tuple",
        [](const std::vector<const Type*>& elements) {
            for (const Type* e : elements)
                if (!e->is_element())
                    throw treadle::Error(treadle::ErrorKind::Type,
                                         "tuple(): elements must be value types, got " + e->name);
            return treadle::types::tuple_type(elements);
        },
        nb::arg("elements"), k_ref);
    t.def("generic", &make_generic, nb::arg("name"), k_ref);
    t.def("tile", &make_tile, nb::arg("dtype").none(), nb::arg("shape").none(), k_ref,
          "tile(dtype, shape): the tile type, or (dtype or shape None, or a generic dtype) the "
          "annotation that takes the tiles fitting what it fixes.");
    t.def("tile_stack", &make_tile_stack, nb::arg("dtype"), nb::arg("capacity"), k_ref,
          "tile_stack(dtype, capacity): the type of a block-wide stack (wp.tile_stack).");
    t.def(
        "generic_vector",
        [](std::optional<int> length, const Type* element) {
            return make_generic_composite("generic_vector", false, length, std::nullopt, element);
        },
        nb::arg("length").none(), nb::arg("element"), k_ref);
    t.def(
        "generic_matrix",
        [](std::optional<int> rows, std::optional<int> cols, const Type* element) {
            return make_generic_composite("generic_matrix", true, rows, cols, element);
        },
        nb::arg("rows").none(), nb::arg("cols").none(), nb::arg("element"), k_ref);
    t.def(
        "named",
        [](const std::string& name) -> nb::object {
            return optional_type(treadle::types::type_by_name(name));
        },
        nb::arg("name"),
        "The type a Warp type name stands for (\"float32\", \"vec3\", \"mat33d\", \"quat\", "
        "\"spatial_vector\", \"Float\", ...; types/type_names.h), or None.");
}
