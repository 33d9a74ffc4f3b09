// src/types/types.h -- interned types of the kernel language, compared by pointer
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "treadle/dtype.h"

namespace treadle::types {

enum class TypeKind {
    Void,       ///< no value (a function without return, a statement)
    Scalar,     ///< bool, int8..uint64, float16..float64, bfloat16
    Vector,     ///< vector(length, scalar): wp::vec_t<N, T>, passed and stored by value
    Matrix,     ///< matrix(rows, cols, scalar): wp::mat_t<R, C, T>, row-major
    Quat,       ///< quaternion (x, y, z, w): wp::quat_t<T>; rows = 4
    Transform,  ///< rigid transform (p: vec3, q: quat): wp::transform_t<T>; rows = 7
    Array,      ///< array(dtype, ndim): a kernel argument passed by value as wp::array_t<T>;
                ///< with `indexed`, indexedarray(dtype, ndim) passed as wp::indexedarray_t<T>;
                ///< with `fabric`, fabricarray(dtype, ndim) (wp::fabricarray_t<T>) and with
                ///< both, indexedfabricarray(dtype, ndim) (wp::indexedfabricarray_t<T>)
    Struct,     ///< a @wp.struct: named fields with C layout, passed and stored by value
    Tuple,      ///< several values (multiple returns, wp.tid() of a multi-dimensional launch)
    /// tile(dtype, shape): one value a thread block holds together (Warp's tiles), its
    /// elements spread over the block's threads (wp::tile_t<T, D...>, native/treadle/tile.h).
    /// `dtype` is the element type (a value type or struct), `shape` the extents (1 to 4 of them);
    /// kernel and function locals only, never kernel parameters or array elements.
    Tile,
    /// A placeholder in a parameter annotation (typing.Any, wp.Float, wp.Int, wp.Scalar; also
    /// as an array's dtype): never a value's type. `name` says which; see generic_matches.
    Generic,
};

struct Type;

/// One field of a struct type: its name, type and byte offset (C layout rules).
struct StructField {
    std::string name;
    const Type* type = nullptr;
    size_t offset = 0;
};

/// One type. Instances are interned by the factory functions below and never freed, so two
/// types are equal exactly when their pointers are equal. Safe to share between threads.
struct Type {
    TypeKind kind = TypeKind::Void;
    ScalarType scalar = ScalarType::Float32;  ///< Scalar; the element type of Vector/Matrix
    int rows = 0;                             ///< Vector length, Matrix rows
    int cols = 0;                             ///< Matrix columns
    const Type* dtype = nullptr;              ///< Array element type
    int ndim = 0;                             ///< Array and Tile dimensions (1..4)
    std::vector<int> shape;                   ///< Tile extents (ndim of them, each >= 1)
    /// Generic: a tile annotation with an open dtype or shape (wp.tile[Any, 8],
    /// wp.tile(dtype=float)); `dtype` (null: any) and `shape` (empty: any) say what it fixes.
    bool tile_pattern = false;
    bool indexed = false;               ///< Array: an indexedarray (a view of an array
                                        ///< through per-dimension int32 index arrays)
    bool fabric = false;                ///< Array: a Fabric array (elements in buckets;
                                        ///< ndim 2: each element is a 1-D array)
    std::vector<const Type*> elements;  ///< Tuple members
    std::vector<StructField> fields;    ///< Struct fields, in declaration order
    std::string key;                    ///< Struct: its type_key (name and fields)
    /// Struct: the C++ type (in namespace wp) of a struct the native library defines (the
    /// results and states of geometry queries: MeshQueryPoint is wp::mesh_query_point_t);
    /// empty for @wp.struct classes, which codegen defines.
    std::string native;
    std::string name;  ///< Warp-style name for messages: "float32",
                       ///< "array(dtype=float32, ndim=2)"
    size_t size = 0;   ///< bytes as a kernel parameter (types/abi.h)
    size_t align = 1;  ///< alignment as a kernel parameter

    bool is_scalar() const { return kind == TypeKind::Scalar; }
    bool is_float() const { return is_scalar() && treadle::is_float(scalar); }
    bool is_integer() const { return is_scalar() && treadle::is_integer(scalar); }
    bool is_bool() const { return is_scalar() && scalar == ScalarType::Bool; }
    bool is_array() const { return kind == TypeKind::Array; }
    bool is_indexed_array() const { return kind == TypeKind::Array && indexed && !fabric; }
    bool is_fabric_array() const { return kind == TypeKind::Array && fabric; }
    bool is_vector() const { return kind == TypeKind::Vector; }
    bool is_matrix() const { return kind == TypeKind::Matrix; }
    bool is_quat() const { return kind == TypeKind::Quat; }
    bool is_transform() const { return kind == TypeKind::Transform; }
    bool is_struct() const { return kind == TypeKind::Struct; }
    /// A struct the native library defines (see `native`).
    bool is_native_struct() const { return is_struct() && !native.empty(); }
    /// What an array can hold: a value type or a struct (not a native one: a query's state
    /// lives in a kernel's locals only).
    bool is_element() const { return is_value() || (is_struct() && native.empty()); }
    /// The field `name` of a struct, or null.
    const StructField* field(const std::string& name) const {
        for (const StructField& f : fields)
            if (f.name == name) return &f;
        return nullptr;
    }
    /// A value type (scalar, vector, matrix, quaternion, transform): what arrays can hold and
    /// kernels can compute.
    bool is_value() const {
        return is_scalar() || is_vector() || is_matrix() || is_quat() || is_transform();
    }
    /// Number of scalars in a value type (1 for scalars).
    int components() const { return is_scalar() ? 1 : is_matrix() ? rows * cols : rows; }
    bool is_tuple() const { return kind == TypeKind::Tuple; }
    bool is_tile() const { return kind == TypeKind::Tile; }
    /// Tile: the number of elements (the product of the extents).
    int64_t tile_size() const {
        int64_t n = 1;
        for (int d : shape) n *= d;
        return n;
    }
    bool is_void() const { return kind == TypeKind::Void; }
    /// A generic annotation: a placeholder, or an array whose dtype is one.
    bool is_generic() const {
        return kind == TypeKind::Generic || (kind == TypeKind::Array && dtype->is_generic());
    }
};

const Type* void_type();
const Type* scalar_type(ScalarType s);
const Type* array_type(const Type* dtype, int ndim);
/// indexedarray(dtype, ndim): reads and writes like an array of the same dtype and ndim.
const Type* indexedarray_type(const Type* dtype, int ndim);
/// fabricarray(dtype, ndim) (`indexed`: indexedfabricarray): elements found through a table
/// of buckets; ndim 1 or 2 (an array of 1-D arrays of varying length).
const Type* fabricarray_type(const Type* dtype, int ndim, bool indexed);
/// The array type of `t`'s kind (plain or indexed) with `ndim` dimensions (views). A view of a
/// Fabric array of arrays is a plain 1-D array.
const Type* array_type_like(const Type* t, int ndim);
const Type* tuple_type(const std::vector<const Type*>& elements);
/// The most elements of a tile (each thread of a block holds its share in registers).
inline constexpr int64_t k_max_tile_elements = int64_t(1) << 20;
/// tile(dtype, shape): `dtype` a value type, 1 to 4 extents of at least 1 whose product is at
/// most k_max_tile_elements. Named as Warp names it: "tile(dtype=float32, shape=(4, 4))".
const Type* tile_type(const Type* dtype, const std::vector<int>& shape);
/// A tile annotation that leaves the dtype (null) or the shape (empty) open: generic_matches
/// takes the tiles that fit what it fixes.
const Type* generic_tile_type(const Type* dtype, const std::vector<int>& shape);
/// The tile of `t`'s shape with elements of type `dtype`.
inline const Type* tile_like(const Type* t, const Type* dtype) {
    return tile_type(dtype, t->shape);
}
/// The longest vector type. Warp sets no limit; this one bounds what a kernel keeps in
/// registers and a launch reads from Python.
inline constexpr int k_max_vector_length = 1024;
/// The largest number of rows or columns of a matrix type.
inline constexpr int k_max_matrix_dim = 64;

/// A vector of `length` components (0..k_max_vector_length; a vector of no components is
/// what an empty slice gives, it stores one unused component as Warp's does) of a scalar.
const Type* vector_type(int length, ScalarType scalar);
/// A matrix of rows x cols (0..k_max_matrix_dim each; one of no elements, what an empty slice
/// gives, stores one unused element) of a scalar.
const Type* matrix_type(int rows, int cols, ScalarType scalar);
const Type* quat_type(ScalarType scalar);
/// A struct named `qualname` (the Python class's module and qualified name) with `fields`
/// (value types, arrays, indexed arrays and structs) laid out by C rules. Interned by its key, so
/// two classes with the same name and fields are one type; one without fields takes one byte, as
/// in C++. Returns null (and sets `error`) for an invalid name, field name or field type, or for
/// duplicate fields.
const Type* struct_type(const std::string& qualname,
                        const std::vector<std::pair<std::string, const Type*>>& fields,
                        std::string* error = nullptr);
/// A struct defined by the native library as `wp::<native>` (a geometry query's result or
/// state), called `name` in messages and in Python (`MeshQueryPoint`). `fields` are those a
/// kernel may read (`q.face`); the C++ type may hold more (a query's traversal state). Its
/// values are kernel locals: never kernel parameters, array elements or struct fields.
/// Interned by `native`.
const Type* native_struct_type(const std::string& name, const std::string& native,
                               const std::vector<std::pair<std::string, const Type*>>& fields);
/// tile_stack(dtype, capacity): Warp's block-wide stack (wp.tile_stack), a native struct
/// (wp::tile_stack_t<T, capacity>, a handle to storage the block shares) whose `dtype` is the
/// element type (a value type or struct) and `shape` {capacity}. Named "tile_stack(dtype=int32,
/// capacity=64)".
const Type* tile_stack_type(const Type* dtype, int capacity);
/// Whether `t` is a tile_stack_type.
inline bool is_tile_stack(const Type* t) {
    return t && t->is_native_struct() && t->native == "tile_stack_t";
}
/// The native struct Warp calls `name` (HashGridQuery, BvhQuery, MeshQueryAABB,
/// MeshQueryPoint, MeshQueryRay: src/types/native_structs.cpp), or null.
const Type* native_struct_by_name(const std::string& name);
/// The names native_struct_by_name knows, in table order.
std::vector<std::string> native_struct_names();
const Type* transform_type(ScalarType scalar);
/// The generic placeholder "Any", "Float", "Int" or "Scalar"; nullptr for other names.
const Type* generic_type(const std::string& name);
/// Whether a value of concrete type `t` fits the annotation `pattern`: Any takes every value
/// type, array and struct; Float the float scalars; Int the integer scalars; Scalar both
/// (not bool, as Warp); an array of a placeholder the arrays of that many dimensions whose
/// dtype fits. A concrete pattern only fits itself.
bool generic_matches(const Type* pattern, const Type* t);
/// Whether values of type `t` have a gradient: a float scalar, a vector/matrix/quaternion/
/// transform of floats, or a struct with such a field (at any depth).
bool has_gradient(const Type* t);
/// A generic vector (rows = length) or matrix pattern; 0 means any size, `element` is a scalar
/// type or a placeholder ("vector(length=Any, dtype=Float)").
const Type* generic_composite_type(bool is_matrix, int rows, int cols, const Type* element);

inline const Type* bool_type() { return scalar_type(ScalarType::Bool); }
inline const Type* int32_type() { return scalar_type(ScalarType::Int32); }
inline const Type* int64_type() { return scalar_type(ScalarType::Int64); }
inline const Type* float32_type() { return scalar_type(ScalarType::Float32); }

/// A stable text naming `t` ("vector:3:float32", "struct:mod.Body{x=float32}"): the key of
/// kernel specialisations and the identity hashed into a struct's C++ name. Types cross into
/// Python as bound objects; nothing parses this text back.
std::string type_key(const Type* t);

}  // namespace treadle::types
