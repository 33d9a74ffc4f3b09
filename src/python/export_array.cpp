// src/python/export_array.cpp -- Python bindings of treadle::Array (the base of treadle.array)
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/array_fill.h"
#include "exports.h"
#include "runtime/buffer.h"
#include "runtime/cuda.h"
#include "runtime/launch.h"
#include "treadle/array.h"
#include "treadle/error.h"

using treadle::Array;
using treadle::Device;
using treadle::DType;
using treadle::ElementKind;
using treadle::Error;
using treadle::ErrorKind;
using treadle::ScalarType;

namespace {

namespace dl = nb::dlpack;

using treadle::types::Type;

/// The element type of an array of `t`: a scalar, a vector or matrix (of numbers or bools), a
/// quaternion or transform, or a struct. Throws TypeError for any other type, and for vectors
/// of no components (an element needs at least one).
DType element_dtype(const Type* t) {
    if (!t || !t->is_element())
        throw Error(ErrorKind::Type,
                    "array(): dtype must be a scalar, vector, matrix, quaternion, transform or "
                    "struct type (got " +
                        (t ? t->name : std::string("None")) + ")");
    if (t->is_vector() && t->rows == 0)
        throw Error(ErrorKind::Type, "array(): dtype " + t->name + " has no components");
    return treadle::dtype_of_type(t);
}

/// How messages name an element type: its stable type key ("float32", "vector:3:float32").
std::string dtype_text(const DType& t) {
    return treadle::types::type_key(treadle::type_of_dtype(t));
}

dl::dtype to_dlpack(ScalarType s) {
    const uint8_t bits = (uint8_t)(treadle::scalar_size(s) * 8);
    if (s == ScalarType::Bool) return {(uint8_t)dl::dtype_code::Bool, 8, 1};
    if (s == ScalarType::BFloat16) return {(uint8_t)dl::dtype_code::Bfloat, 16, 1};
    if (treadle::is_float(s)) return {(uint8_t)dl::dtype_code::Float, bits, 1};
    if (treadle::is_signed(s)) return {(uint8_t)dl::dtype_code::Int, bits, 1};
    return {(uint8_t)dl::dtype_code::UInt, bits, 1};
}

ScalarType from_dlpack(dl::dtype t) {
    if (t.lanes == 1) {
        for (int i = 0; i < treadle::k_scalar_type_count; ++i)
            if (to_dlpack((ScalarType)i) == t) return (ScalarType)i;
    }
    throw Error(ErrorKind::Type, "unsupported array element type (DLPack code " +
                                     std::to_string(t.code) + ", " + std::to_string(t.bits) +
                                     " bits); supported: bool, int8..int64, uint8..uint64, "
                                     "float16, float32, float64, bfloat16");
}

/// The element type numpy sees for scalar `s`: bfloat16, which numpy lacks, as its uint16 bits.
dl::dtype numpy_dtype(ScalarType s) {
    return to_dlpack(s == ScalarType::BFloat16 ? ScalarType::UInt16 : s);
}

/// A keep-alive for memory owned by a Python object: releases it under the GIL, from any
/// thread (a launch may drop the last reference to an array on a worker).
std::shared_ptr<void> python_owner(nb::handle obj) {
    obj.inc_ref();
    return std::shared_ptr<void>(obj.ptr(), [](void* p) {
        if (!Py_IsInitialized()) return;
        nb::gil_scoped_acquire gil;
        Py_DECREF(static_cast<PyObject*>(p));
    });
}

using InputArray = nb::ndarray<nb::ro, nb::device::cpu>;

/// Wraps a CPU ndarray (numpy or any DLPack / buffer exporter) without copying. `owner` is the
/// Python object whose lifetime guards the memory.
/// With a vector/matrix `want`, the trailing one/two dimensions of `nd` (which must match it
/// and be packed) become the elements.
/// A bfloat16 `want` takes uint16 data as the raw bits of its values.
Array wrap_ndarray(const InputArray& nd, nb::handle owner, std::optional<DType> want = {}) {
    ScalarType s = from_dlpack(nd.dtype());
    if (want && want->scalar == ScalarType::BFloat16 && s == ScalarType::UInt16)
        s = ScalarType::BFloat16;
    const int64_t elem = (int64_t)treadle::scalar_size(s);
    DType t(s);
    int inner = 0;
    if (want) {
        if (want->scalar != s)
            throw Error(ErrorKind::Type, "array(): the data's scalar type " +
                                             std::string(treadle::scalar_name(s)) +
                                             " does not match dtype " + dtype_text(*want));
        t = *want;
        inner = t.rows > 0 ? (t.cols > 0 ? 2 : 1) : 0;
    }
    const int outer = (int)nd.ndim() - inner;
    if (outer < 0)
        throw Error(ErrorKind::Value,
                    "array(): the data has too few dimensions for dtype " + dtype_text(t));
    const int64_t dims[2] = {t.rows, t.cols > 0 ? t.cols : 1};
    int64_t packed = elem;
    const bool empty = nd.size() == 0;  // numpy gives empty arrays any strides (zeros, often)
    for (int k = inner - 1; k >= 0; --k) {
        const size_t d = (size_t)(outer + k);
        if ((int64_t)nd.shape(d) != dims[k] ||
            (dims[k] > 1 && !empty && nd.stride(d) * elem != packed))
            throw Error(ErrorKind::Value,
                        "array(): the data's trailing dimensions must be "
                        "packed and match dtype " +
                            dtype_text(t));
        packed *= dims[k];
    }
    std::vector<int64_t> shape(outer), strides(outer);
    for (int d = 0; d < outer; ++d) {
        shape[d] = (int64_t)nd.shape(d);
        strides[d] = nd.stride(d) * elem;  // nanobind strides count elements
    }
    return Array::wrap(const_cast<void*>(nd.data()), t, shape, strides, Device::cpu(),
                       owner ? python_owner(owner) : nullptr);
}

/// A numpy array aliasing CPU array `a`, or holding a host copy of CUDA array `a` (made after
/// waiting for the device's outstanding work); the capsule keeps the memory alive.
nb::ndarray<nb::numpy> to_numpy(const Array& array) {
    if (array.is_null()) throw Error(ErrorKind::Value, "numpy(): the array is null");
    Array a = array;
    if (a.device().is_cuda()) {
        nb::gil_scoped_release nogil;
        treadle::cuda::synchronize(a.device().ordinal());
        a = a.clone(Device::cpu());
    }
    const DType t = a.dtype();
    const int64_t scalar = (int64_t)treadle::scalar_size(t.scalar);
    size_t shape[treadle::k_max_dims + 2];
    int64_t strides[treadle::k_max_dims + 2];
    int ndim = a.ndim();
    for (int d = 0; d < ndim; ++d) {
        shape[d] = (size_t)a.shape(d);
        strides[d] = a.stride(d) / scalar;
    }
    // Vector / matrix elements become trailing dimensions.
    if (t.rows > 0 && t.cols > 0) {
        shape[ndim] = (size_t)t.rows;
        strides[ndim++] = t.cols;
        shape[ndim] = (size_t)t.cols;
        strides[ndim++] = 1;
    } else if (t.rows > 0) {
        shape[ndim] = (size_t)t.rows;
        strides[ndim++] = 1;
    }
    Array* keep = new Array(a);
    keep->set_grad(nullptr);
    nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Array*>(p); });
    return nb::ndarray<nb::numpy>(a.data(), (size_t)ndim, shape, owner, strides,
                                  numpy_dtype(t.scalar), nb::device::cpu::value);
}

/// treadle.array's copy or alias of a CPU ndarray `source` (see `_init_from_numpy`).
void init_from_numpy(Array& self, nb::object source, const std::string& device, bool copy,
                     const Type* dtype) {
    InputArray nd;
    if (!nb::try_cast<InputArray>(source, nd))
        throw Error(ErrorKind::Type, "array(): cannot read data of type '" +
                                         std::string(nb::type_name(source.type()).c_str()) +
                                         "' as a CPU array with a supported dtype");
    Device dev = Device::parse(device);
    std::optional<DType> want;
    if (dtype) want = element_dtype(dtype);
    if (copy) {
        Array view = wrap_ndarray(nd, nb::handle(), want);
        nb::gil_scoped_release nogil;
        self = view.clone(dev);
    } else {
        if (!dev.is_cpu())
            throw Error(ErrorKind::Value,
                        "array(): copy=False needs the data and the array on the "
                        "same device ('cpu')");
        self = wrap_ndarray(nd, source, want);
    }
}

nb::tuple to_tuple(const std::vector<int64_t>& v) {
    nb::list l;
    for (int64_t x : v) l.append(x);
    return nb::tuple(l);
}

/// Zeroing, and the fills and copies of indexed CUDA arrays (treadle.indexedarray's device
/// path).
void export_indexed_writes(nb::class_<Array>& cls) {
    cls.def("_zero",
            [](const Array& self) {
                Array dst = self;  // a private handle: `self` may be re-initialised meanwhile
                nb::gil_scoped_release nogil;
                std::vector<unsigned char> zero(dst.dtype().size(), 0);
                treadle::fill_array(dst, zero.data(), zero.size());  // memset where it can
            })
        .def(
            "_fill_indexed",
            [](const Array& self, const std::vector<std::optional<Array>>& indices,
               nb::bytes value) {
                std::string bytes(value.c_str(), value.size());
                treadle::IndexArrays picks;
                for (const auto& i : indices) picks.push_back(i ? *i : Array());
                Array dst = self;
                nb::gil_scoped_release nogil;
                treadle::fill_array(dst, bytes.data(), bytes.size(), picks);
            },
            nb::arg("indices"), nb::arg("value"),
            "Sets the elements picked by per-dimension index arrays (None: all) of a CUDA array.")
        .def(
            "_assign_indexed",
            [](const Array& self, const std::vector<std::optional<Array>>& indices,
               const Array& src, const std::vector<std::optional<Array>>& src_indices) {
                treadle::IndexArrays to, from;
                for (const auto& i : indices) to.push_back(i ? *i : Array());
                for (const auto& i : src_indices) from.push_back(i ? *i : Array());
                Array dst = self, source = src;
                nb::gil_scoped_release nogil;
                treadle::copy_array(dst, source, to, from);
            },
            nb::arg("indices"), nb::arg("src"), nb::arg("src_indices"),
            "Copies the picked elements of `src` to the picked elements of this array (arrays "
            "of one CUDA device).");
}

}  // namespace

void export_array(nb::module_& m) {
    nb::class_<Array> cls(m, "Array",
                          "Native n-dimensional array (base class of treadle.array). Methods whose "
                          "names start with '_' are internal; use treadle.array.");
    cls.def(nb::init<>(), "A null array (no memory).")
        // --- initialisation (called by treadle.array.__init__ on a null array) ---
        .def(
            "_init_empty",
            [](Array& self, const Type* dtype, const std::vector<int64_t>& shape,
               const std::string& device, bool zero, bool pinned) {
                DType t = element_dtype(dtype);
                Device dev = Device::parse(device);
                self = zero ? Array::zeros(t, shape, dev, pinned)
                            : Array::empty(t, shape, dev, pinned);
            },
            nb::arg("dtype"), nb::arg("shape"), nb::arg("device"), nb::arg("zero"),
            nb::arg("pinned") = false)
        .def_prop_ro("_pinned", &Array::pinned)
        .def("_init_from_numpy", &init_from_numpy, nb::arg("source"), nb::arg("device"),
             nb::arg("copy"), nb::arg("dtype").none() = nb::none(),
             "Copies (copy=True, to any device) or aliases (CPU only) a CPU ndarray; `source` "
             "must export DLPack or the buffer protocol with a supported dtype. A vector/matrix "
             "`dtype` (a Type) takes the trailing dimensions as the elements.")
        .def(
            "_init_from_ptr",
            [](Array& self, uintptr_t ptr, const Type* dtype, const std::vector<int64_t>& shape,
               const std::vector<int64_t>& strides, const std::string& device, nb::object owner) {
                self = Array::wrap(reinterpret_cast<void*>(ptr), element_dtype(dtype), shape,
                                   strides, Device::parse(device),
                                   owner.is_none() ? nullptr : python_owner(owner));
            },
            nb::arg("ptr"), nb::arg("dtype"), nb::arg("shape"), nb::arg("strides"),
            nb::arg("device"), nb::arg("owner").none(),
            "Wraps external memory on `device` (a host or CUDA device address; not owned; "
            "`owner`, if given, is kept alive).")
        .def(
            "_init_view_of", [](Array& self, const Array& other) { self = other; },
            nb::arg("other"), "Makes this array a view of `other` (shares memory and grad).")
        // --- read-only attributes ---
        .def_prop_ro("_is_null", &Array::is_null)
        .def_prop_ro("_ndim", &Array::ndim)
        .def_prop_ro("_size", [](const Array& a) { return a.size(); })
        .def_prop_ro("_shape", [](const Array& a) { return to_tuple(a.shape()); })
        .def_prop_ro("_strides", [](const Array& a) { return to_tuple(a.strides()); })
        .def_prop_ro("_ptr", [](const Array& a) { return reinterpret_cast<uintptr_t>(a.data()); })
        .def_prop_ro(
            "_dtype",
            [](const Array& a) -> const Type* {
                return a.is_null() ? nullptr : treadle::type_of_dtype(a.dtype());
            },
            nb::rv_policy::reference,
            "The element type (a Type; None for a null array); treadle.array maps it to its "
            "class.")
        .def_prop_ro("_itemsize", [](const Array& a) { return a.dtype().size(); })
        .def_prop_ro("_device_alias", [](const Array& a) { return a.device().alias(); })
        .def_prop_ro("_is_contiguous", &Array::is_contiguous)
        .def_prop_ro("_buffer_ptr",
                     [](const Array& a) {
                         return a.buffer() ? reinterpret_cast<uintptr_t>(a.buffer()->data())
                                           : uintptr_t(0);
                     })
        .def_prop_ro("_buffer_size",
                     [](const Array& a) { return a.buffer() ? a.buffer()->size() : size_t(0); })
        // --- data ---
        .def("_numpy", &to_numpy,
             "A numpy array aliasing this CPU array (no copy), or a host copy of a CUDA array.")
        .def(
            "_fill_bytes",
            [](const Array& self, nb::bytes value) {
                std::string bytes(value.c_str(), value.size());
                Array dst = self;
                nb::gil_scoped_release nogil;
                treadle::fill_array(dst, bytes.data(), bytes.size());
            },
            nb::arg("value"), "Sets every element to the bytes of one element value.")
        .def(
            "_assign",
            [](const Array& self, const Array& src) {
                Array dst = self, from = src;
                nb::gil_scoped_release nogil;
                treadle::copy_array(dst, from);
            },
            nb::arg("src"))
        .def(
            "_clone",
            [](const Array& self, const std::string& device) {
                Device dev = Device::parse(device);
                Array src = self;
                nb::gil_scoped_release nogil;
                return src.clone(dev);
            },
            nb::arg("device"))
        // --- views (share memory; the grad, if any, is viewed the same way) ---
        .def("_reshape", &Array::reshape, nb::arg("shape"))
        .def("_transpose", &Array::transpose, nb::arg("axes"))
        .def("_slice", &Array::slice, nb::arg("dim"), nb::arg("begin"), nb::arg("end"),
             nb::arg("step"))
        .def("_index", &Array::index, nb::arg("i"))
        .def("_select", &Array::select, nb::arg("dim"), nb::arg("i"))
        .def(
            "_view_as",
            [](const Array& self, const Type* dtype) { return self.view_as(element_dtype(dtype)); },
            nb::arg("dtype"))
        // --- gradient ---
        .def_prop_ro("_has_grad", [](const Array& a) { return a.grad() != nullptr; })
        .def(
            "_enable_grad", [](Array& a) { a.enable_grad(); },
            "Gives the array a zeroed gradient laid out with the array's own strides.")
        .def_prop_rw("_retain_grad", &Array::retain_grad, &Array::set_retain_grad,
                     "Whether backward passes keep the gradient where kernels store to the array.")
        .def_prop_rw(
            "_is_read", [](const Array& a) { return a.buffer() && a.buffer()->marked_read(); },
            [](Array& a, bool read) {
                if (a.buffer()) a.buffer()->set_marked_read(read);
            },
            "Whether a launch recorded on a tape read this memory (any view of it) since the "
            "flag was last cleared (wp.config.verify_autograd_array_access).")
        .def_prop_ro("_version", &Array::version,
                     "Write counter of the memory (shared by views); see the tape.")
        .def_prop_ro("_last_writer", &Array::last_writer,
                     "Label of the last launch that wrote the memory ('host' for host writes).")
        .def("_get_grad",
             [](const Array& a) -> std::optional<Array> {
                 if (!a.grad()) return std::nullopt;
                 return *a.grad();
             })
        .def(
            "_set_grad",
            [](Array& self, std::optional<Array> grad) {
                if (!grad) {
                    self.set_grad(nullptr);
                    return;
                }
                auto g = std::make_shared<Array>(*grad);
                g->set_grad(nullptr);
                self.set_grad(std::move(g));
            },
            nb::arg("grad").none());
    export_indexed_writes(cls);
}
