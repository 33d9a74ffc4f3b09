// src/python/export_launch.cpp -- Python objects as launch arguments for the runtime's one packer
#include <nanobind/nanobind.h>
#include <structmember.h>  // PyMemberDef: the `_data` slot's offset

#include <cstring>
#include <vector>

#include "exports.h"
#include "kernel_handle.h"
#include "runtime/launch.h"
#include "runtime/launch_plan.h"

namespace {

using treadle::ArgValue;
using treadle::ParamKind;
using treadle::ScalarType;

/// Attribute names looked up on every launch, interned once.
struct Names {
    PyObject* data_slot = PyUnicode_InternFromString("_data");
    PyObject* type = PyUnicode_InternFromString("_type");
    PyObject* is_indexed = PyUnicode_InternFromString("_is_indexedarray");
    PyObject* fabric_type = PyUnicode_InternFromString("_fabric_type");
    PyObject* fabric_buckets = PyUnicode_InternFromString("_fabric_buckets");
    PyObject* fabric_count = PyUnicode_InternFromString("_fabric_count");
    PyObject* fabric_indices = PyUnicode_InternFromString("_fabric_indices");
    PyObject* data = PyUnicode_InternFromString("data");
    PyObject* indices = PyUnicode_InternFromString("indices");
    PyObject* value = PyUnicode_InternFromString("value");
};

const Names& names() {
    static const Names n;
    return n;
}

/// Classes the packer recognises without Python calls, set once by the treadle package
/// (set_value_classes): treadle's vector/matrix base class, whose `_data` slot holds the numpy
/// array of components, and numpy's ndarray.
struct ValueClasses {
    PyTypeObject* composite_base = nullptr;
    Py_ssize_t data_offset = -1;  ///< byte offset of the `_data` slot in an instance
    PyTypeObject* ndarray = nullptr;
};
ValueClasses g_classes;

/// The leading fields of a numpy array and of its dtype (numpy's public PyArrayObject_fields and
/// PyArray_Descr, the same in numpy 1.x and 2.x): enough to read a contiguous array's numbers.
struct NumpyArrayHead {
    PyObject_HEAD char* data;
    int nd;
    Py_ssize_t* dimensions;
    Py_ssize_t* strides;
    PyObject* base;
    PyObject* descr;
    int flags;
};
struct NumpyDescrHead {
    PyObject_HEAD PyTypeObject* typeobj;
    char kind;
    char type;
    char byteorder;
};
constexpr int k_numpy_c_contiguous = 0x0001;

/// The Array behind `o` when it is a treadle array (or a Python subclass of one), else null.
treadle::Array* as_array(PyObject* o) {
    static PyTypeObject* array_type = (PyTypeObject*)nb::type<treadle::Array>().ptr();
    if (!PyObject_TypeCheck(o, array_type)) return nullptr;
    return nb::inst_ptr<treadle::Array>(nb::handle(o));
}

/// The scalar type of a buffer's struct-module format ("f", "<d", "q"...), false for others.
bool scalar_of_char(char c, ScalarType& out) {
    switch (c) {
        case '?':
            out = ScalarType::Bool;
            break;
        case 'b':
            out = ScalarType::Int8;
            break;
        case 'B':
            out = ScalarType::UInt8;
            break;
        case 'h':
            out = ScalarType::Int16;
            break;
        case 'H':
            out = ScalarType::UInt16;
            break;
        case 'i':
            out = ScalarType::Int32;
            break;
        case 'I':
            out = ScalarType::UInt32;
            break;
        case 'l':
        case 'q':
            out = ScalarType::Int64;
            break;
        case 'L':
        case 'Q':
            out = ScalarType::UInt64;
            break;
        case 'e':
            out = ScalarType::Float16;
            break;
        case 'f':
            out = ScalarType::Float32;
            break;
        case 'd':
            out = ScalarType::Float64;
            break;
        default:
            return false;
    }
    return true;
}

/// The scalar type of a buffer's struct-module format ("f", "<d", "q"...), false for others.
bool scalar_of_format(const char* format, Py_ssize_t itemsize, ScalarType& out) {
    if (!format) return false;
    if (*format == '<' || *format == '=' || *format == '@') ++format;
    if (format[0] == '\0' || format[1] != '\0') return false;
    return scalar_of_char(format[0], out) && (Py_ssize_t)treadle::scalar_size(out) == itemsize;
}

/// Reads a C-contiguous numpy array of native byte order straight from its fields; false for
/// anything else (then the buffer protocol decides).
bool read_ndarray(PyObject* o, ArgValue& out) {
    if (!g_classes.ndarray || Py_TYPE(o) != g_classes.ndarray) return false;
    const auto* a = reinterpret_cast<const NumpyArrayHead*>(o);
    const auto* d = reinterpret_cast<const NumpyDescrHead*>(a->descr);
    if (a->nd < 1 || !(a->flags & k_numpy_c_contiguous) || d->byteorder == '>') return false;
    ScalarType scalar;
    if (!scalar_of_char(d->type, scalar)) return false;
    if ((d->type == 'l' || d->type == 'L') && sizeof(long) != 8) return false;
    if ((d->type == 'i' || d->type == 'I') && sizeof(int) != 4) return false;
    size_t count = 1;
    for (int i = 0; i < a->nd; ++i) count *= (size_t)a->dimensions[i];
    out.scalar = scalar;
    out.data = a->data;
    out.count = count;
    return true;
}

/// The numpy array of components of a treadle vector or matrix (borrowed), or null.
PyObject* composite_data(PyObject* o) {
    if (g_classes.composite_base && PyObject_TypeCheck(o, g_classes.composite_base))
        return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + g_classes.data_offset);
    return nullptr;
}

void set_value_classes(nb::handle composite_base, nb::handle ndarray) {
    PyObject* descr = PyDict_GetItemString(((PyTypeObject*)composite_base.ptr())->tp_dict, "_data");
    if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type))
        throw treadle::Error(treadle::ErrorKind::Type,
                             "set_value_classes(): the composite base class has no _data slot");
    g_classes.data_offset = reinterpret_cast<PyMemberDescrObject*>(descr)->d_member->offset;
    g_classes.composite_base = (PyTypeObject*)composite_base.inc_ref().ptr();
    g_classes.ndarray = (PyTypeObject*)ndarray.inc_ref().ptr();
}

/// The items of a Python list or tuple, without copying; false for other objects.
bool sequence_items(PyObject* o, PyObject**& items, Py_ssize_t& n) {
    if (PyList_Check(o)) {
        items = &PyList_GET_ITEM(o, 0);
        n = PyList_GET_SIZE(o);
        return true;
    }
    if (PyTuple_Check(o)) {
        items = &PyTuple_GET_ITEM(o, 0);
        n = PyTuple_GET_SIZE(o);
        return true;
    }
    return false;
}

/// The arguments of one wp.launch as the packer reads them. Each value is read the way its
/// parameter expects (an array parameter looks for treadle arrays, a vector parameter reads the
/// numpy buffer behind a treadle vector), with CPython's own type checks, so no Python code runs
/// for the usual argument kinds. The GIL is held for the source's whole life.
class PythonArgumentSource : public treadle::ArgumentSource {
public:
    PythonArgumentSource(PyObject** args, size_t n, PyObject** adj, size_t n_adj, bool has_adj)
        : m_args(args), m_n(n), m_adj(adj), m_n_adj(n_adj), m_has_adj(has_adj) {}

    ~PythonArgumentSource() override { release(); }

    size_t size() const override { return m_n; }

    void read(size_t i, const treadle::PlanParam& p, ArgValue& out) override {
        read_object(m_args[i], p.param->type, p.kind, out);
    }

    void read_field(const ArgValue& v, const treadle::types::StructField& f,
                    ArgValue& out) override {
        PyObject* o = PyObject_GetAttrString((PyObject*)v.handle, f.name.c_str());
        if (!o) throw nb::python_error();
        m_keep.push_back(nb::steal(o));  // kept alive until the launch is packed
        read_object(o, f.type, treadle::param_kind(f.type), out);
    }

    int64_t adjoint_count() const override { return m_has_adj ? (int64_t)m_n_adj : -1; }

    /// Adjoints of non-array arguments are ignored (Warp takes any value in their place).
    void read_adjoint(size_t i, const treadle::PlanParam& p, ArgValue& out) override {
        out.kind = ArgValue::Kind::None;
        if (p.kind != ParamKind::Array && p.kind != ParamKind::IndexedArray) return;
        ArgValue arg;
        read_array(m_args[i], arg);
        if (arg.kind != ArgValue::Kind::Array && arg.kind != ArgValue::Kind::IndexedArray) return;
        PyObject* o = m_adj[i];
        read_array(o, out);
        // an indexed array's adjoint is the gradient of its data
        if (out.kind == ArgValue::Kind::IndexedArray) out.kind = ArgValue::Kind::Array;
    }

    std::string describe(const ArgValue& v) const override {
        nb::handle o((PyObject*)v.handle);
        if (v.kind == ArgValue::Kind::Struct)
            return "struct " + nb::cast<std::string>(o.type().attr("__name__"));
        return nb::cast<std::string>(nb::type_name(o.type()));
    }

private:
    void release() {
        if (m_view_held) PyBuffer_Release(&m_view);
        m_view_held = false;
    }

    static void other(PyObject* o, ArgValue& out) {
        out.kind = ArgValue::Kind::Other;
        out.handle = o;
    }

    /// Sets `kind` and the fields that kind uses (the packer reads no others), and `handle`.
    void read_object(PyObject* o, const treadle::types::Type* t, ParamKind kind, ArgValue& out) {
        out.handle = o;
        switch (kind) {
            case ParamKind::Array:
            case ParamKind::IndexedArray:
            case ParamKind::FabricArray:
                return read_array(o, out);
            case ParamKind::Struct:
                return read_struct(o, out);
            case ParamKind::Scalar:
                return read_scalar(o, t->is_float(), out);
            case ParamKind::Composite:
                return read_components(o, out);
        }
    }

    /// None, a treadle array, or a wp.indexedarray (its data and index arrays).
    static void read_array(PyObject* o, ArgValue& out) {
        out.handle = o;
        if (o == Py_None) {
            out.kind = ArgValue::Kind::None;
            return;
        }
        if (treadle::Array* a = as_array(o)) {
            out.kind = ArgValue::Kind::Array;
            out.array = a;
            return;
        }
        if (PyObject_HasAttr(o, names().fabric_type)) return read_fabric(o, out);
        if (!PyObject_HasAttr(o, names().is_indexed)) return other(o, out);
        nb::handle h(o);
        nb::object data = nb::steal(PyObject_GetAttr(o, names().data));
        if (!data.is_valid()) throw nb::python_error();
        if (data.is_none()) return other(o, out);
        out.kind = ArgValue::Kind::IndexedArray;
        out.array = nb::cast<treadle::Array*>(data);
        // `data` and the index arrays are owned by the indexedarray, which the caller holds
        int d = 0;
        for (nb::handle ix : h.attr(nb::handle(names().indices))) {
            if (d < 4) out.indices[d] = ix.is_none() ? nullptr : nb::cast<treadle::Array*>(ix);
            ++d;
        }
        out.n_indices = d;
    }

    /// A wp.fabricarray or wp.indexedfabricarray (its type, bucket table, element count and
    /// index array); an annotation (no type) is Other.
    static void read_fabric(PyObject* o, ArgValue& out) {
        nb::handle h(o);
        nb::object type = h.attr(nb::handle(names().fabric_type));
        if (type.is_none()) return other(o, out);
        out.kind = ArgValue::Kind::FabricArray;
        out.fabric_type = nb::cast<const treadle::types::Type*>(type);
        // the bucket table and index array are owned by the object, which the caller holds
        nb::object buckets = h.attr(nb::handle(names().fabric_buckets));
        out.array = buckets.is_none() ? nullptr : nb::cast<treadle::Array*>(buckets);
        out.count = nb::cast<size_t>(h.attr(nb::handle(names().fabric_count)));
        nb::object ix = h.attr(nb::handle(names().fabric_indices));
        out.indices[0] = ix.is_none() ? nullptr : nb::cast<treadle::Array*>(ix);
        out.n_indices = out.indices[0] ? 1 : 0;
    }

    /// A treadle struct instance: its class holds the interned type it was made for (`_type`).
    static void read_struct(PyObject* o, ArgValue& out) {
        nb::object type = nb::steal(PyObject_GetAttr((PyObject*)Py_TYPE(o), names().type));
        if (!type.is_valid()) {
            PyErr_Clear();
            return other(o, out);
        }
        const treadle::types::Type* t = nullptr;
        if (!nb::try_cast<const treadle::types::Type*>(type, t) || !t || !t->is_struct())
            return other(o, out);
        out.kind = ArgValue::Kind::Struct;
        out.struct_type = t;
    }

    /// Python's numbers, numpy scalars, and objects with __float__, __index__ or .value.
    static void read_scalar(PyObject* o, bool to_float, ArgValue& out) {
        if (PyBool_Check(o)) {
            out.kind = ArgValue::Kind::Bool;
            out.i = o == Py_True;
            out.overflow = false;
            out.is_unsigned = false;
        } else if (PyLong_Check(o)) {
            read_int(o, out);
        } else if (PyFloat_Check(o)) {
            out.kind = ArgValue::Kind::Float;
            out.f = PyFloat_AS_DOUBLE(o);
        } else if (to_float && Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) {
            out.kind = ArgValue::Kind::Float;
            out.f = PyFloat_AsDouble(o);
            if (out.f == -1.0 && PyErr_Occurred()) throw nb::python_error();
        } else if (PyIndex_Check(o)) {
            nb::object index = nb::steal(PyNumber_Index(o));
            if (!index.is_valid()) throw nb::python_error();
            read_int(index.ptr(), out);
        } else if (PyObject_HasAttr(o, names().value)) {
            nb::object v = nb::steal(PyObject_GetAttr(o, names().value));
            if (!v.is_valid()) throw nb::python_error();
            if (to_float) {
                out.kind = ArgValue::Kind::Float;
                out.f = nb::cast<double>(v);
            } else {
                out.kind = ArgValue::Kind::Int;
                out.i = nb::cast<int64_t>(v);
                out.overflow = false;
                out.is_unsigned = false;
            }
        } else {
            other(o, out);
        }
    }

    static void read_int(PyObject* o, ArgValue& out) {
        int overflow = 0;
        out.kind = ArgValue::Kind::Int;
        out.i = PyLong_AsLongLongAndOverflow(o, &overflow);
        out.overflow = overflow != 0;
        out.is_unsigned = false;
        if (out.i == -1 && PyErr_Occurred()) throw nb::python_error();
        if (overflow > 0) {  // above INT64_MAX: a uint64 value, or too large for 64 bits
            unsigned long long u = PyLong_AsUnsignedLongLong(o);
            if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return;
            }
            out.i = (int64_t)u;
            out.overflow = false;
            out.is_unsigned = true;
        }
    }

    /// The components of a vector-like value: a treadle vector or matrix (the numpy array
    /// behind it, read as a buffer), a numpy array, a number, or a (nested) tuple or list.
    void read_components(PyObject* o, ArgValue& out) {
        out.kind = ArgValue::Kind::Components;
        if (PyFloat_Check(o) || PyLong_Check(o)) {
            m_scratch[0] = PyFloat_AsDouble(o);
            if (m_scratch[0] == -1.0 && PyErr_Occurred()) throw nb::python_error();
            out.scalar = ScalarType::Float64;
            out.data = m_scratch;
            out.count = 1;
            return;
        }
        if (!PyList_Check(o) && !PyTuple_Check(o)) {
            PyObject* data = composite_data(o);
            if (data && read_ndarray(data, out)) return;
            if (!data && read_ndarray(o, out)) return;
            nb::object held;
            if (!data) {
                data = PyObject_GetAttr(o, names().data_slot);
                if (!data) PyErr_Clear();
                held = nb::steal(data);
            }
            if (read_buffer(data ? data : o, out)) return;
        }
        size_t count = 0;
        PyObject* bad = nullptr;
        m_numbers = m_scratch;
        m_capacity = k_scratch;
        if (!flatten(o, 0, count, bad)) return other(bad, out);
        if (count > k_scratch) {  // a long vector or a large matrix: read again into the heap
            m_large.resize(count);
            m_numbers = m_large.data();
            m_capacity = count;
            count = 0;
            if (!flatten(o, 0, count, bad)) return other(bad, out);
        }
        out.kind = ArgValue::Kind::Components;
        out.scalar = ScalarType::Float64;
        out.data = m_numbers;
        out.count = count;
    }

    /// Reads a C-contiguous buffer of a scalar format with at least one dimension; the view is
    /// held until the next read.
    bool read_buffer(PyObject* o, ArgValue& out) {
        if (!PyObject_CheckBuffer(o)) return false;
        release();
        if (PyObject_GetBuffer(o, &m_view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
            PyErr_Clear();
            return false;
        }
        m_view_held = true;
        ScalarType scalar;
        if (m_view.ndim == 0 || !scalar_of_format(m_view.format, m_view.itemsize, scalar)) {
            release();
            return false;
        }
        out.scalar = scalar;
        out.data = m_view.buf;
        out.count = (size_t)(m_view.len / m_view.itemsize);
        return true;
    }

    /// Appends the numbers of `o` to m_numbers (counting past its end, so a wrong count is
    /// still reported); false with `bad` set for something that is not a number.
    bool flatten(PyObject* o, int depth, size_t& count, PyObject*& bad) {
        PyObject** items = nullptr;
        Py_ssize_t n = 0;
        if (depth > 0 && (PyFloat_Check(o) || PyLong_Check(o))) return push(o, count);
        if (sequence_items(o, items, n) && depth < 3) {
            for (Py_ssize_t j = 0; j < n; ++j)
                if (!flatten(items[j], depth + 1, count, bad)) return false;
            return true;
        }
        if (depth > 0 && depth < 3) {
            // a treadle vector (a row of a matrix) or a numpy array inside a tuple
            PyObject* data = composite_data(o);
            ArgValue part;
            bool got = read_ndarray(data ? data : o, part);
            if (!got) {
                nb::object held;
                if (!data) {
                    data = PyObject_GetAttr(o, names().data_slot);
                    if (!data) PyErr_Clear();
                    held = nb::steal(data);
                }
                got = read_buffer(data ? data : o, part);
            }
            if (got && part.scalar != ScalarType::Float16) {
                for (size_t c = 0; c < part.count; ++c, ++count)
                    if (count < m_capacity) m_numbers[count] = element(part, c);
                release();
                return true;
            }
            release();
            if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float &&
                !PySequence_Check(o))
                return push(o, count);
        }
        if (depth > 2 || !PyObject_HasAttrString(o, "__iter__")) {
            bad = o;
            return false;
        }
        // any other iterable (rare): Python iteration
        for (nb::handle item : nb::iter(nb::handle(o)))
            if (!flatten(item.ptr(), depth + 1, count, bad)) return false;
        return true;
    }

    bool push(PyObject* o, size_t& count) {
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        if (count < m_capacity) m_numbers[count] = v;
        ++count;
        return true;
    }

    static double element(const ArgValue& v, size_t c) {
        const auto* p = static_cast<const uint8_t*>(v.data) + c * treadle::scalar_size(v.scalar);
        switch (v.scalar) {
            case ScalarType::Float32: {
                float x;
                std::memcpy(&x, p, 4);
                return x;
            }
            case ScalarType::Float64: {
                double x;
                std::memcpy(&x, p, 8);
                return x;
            }
            case ScalarType::Int32: {
                int32_t x;
                std::memcpy(&x, p, 4);
                return x;
            }
            case ScalarType::Int64: {
                int64_t x;
                std::memcpy(&x, p, 8);
                return (double)x;
            }
            case ScalarType::UInt32: {
                uint32_t x;
                std::memcpy(&x, p, 4);
                return x;
            }
            case ScalarType::UInt64: {
                uint64_t x;
                std::memcpy(&x, p, 8);
                return (double)x;
            }
            case ScalarType::Int16: {
                int16_t x;
                std::memcpy(&x, p, 2);
                return x;
            }
            case ScalarType::UInt16: {
                uint16_t x;
                std::memcpy(&x, p, 2);
                return x;
            }
            case ScalarType::Int8:
                return (double)*reinterpret_cast<const int8_t*>(p);
            case ScalarType::UInt8:
                return (double)*p;
            case ScalarType::Bool:
                return *p != 0;
            default:
                return 0.0;  // float16 parts are read through Python (see flatten)
        }
    }

    static constexpr size_t k_scratch = 64;  ///< numbers of most values (longer: m_large)

    PyObject** m_args;
    size_t m_n;
    PyObject** m_adj;
    size_t m_n_adj;
    bool m_has_adj;
    double m_scratch[k_scratch];
    std::vector<double> m_large;    ///< the numbers of values longer than k_scratch
    double* m_numbers = m_scratch;  ///< where flatten() writes: m_scratch or m_large
    size_t m_capacity = k_scratch;  ///< how many numbers m_numbers holds
    Py_buffer m_view{};
    bool m_view_held = false;
    std::vector<nb::object> m_keep;
};

/// One launch dimension: an int or anything with __index__ (numpy integers); make_bounds()
/// checks the range.
int64_t launch_dim(PyObject* d) {
    if (PyBool_Check(d) || !PyIndex_Check(d))
        throw nb::type_error(("launch(): dim must be an int or a sequence of up to 4 ints, got " +
                              std::string(Py_TYPE(d)->tp_name))
                                 .c_str());
    nb::object index = nb::steal(PyNumber_Index(d));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow)
        throw nb::value_error(
            "launch(): a launch dimension does not fit 64 bits (each must be "
            "in [0, 2^31))");
    return (int64_t)v;
}

/// The launch grid: an int or a sequence of ints (at most 4 are used; more are counted).
size_t launch_dims(nb::handle dim, int64_t (&out)[8]) {
    PyObject* o = dim.ptr();
    if (PyIndex_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o) || !PySequence_Check(o)) {
        out[0] = launch_dim(o);
        return 1;
    }
    nb::object seq = nb::steal(PySequence_Fast(o, "launch(): dim must be a sequence"));
    if (!seq.is_valid()) throw nb::python_error();
    const size_t n = (size_t)PySequence_Fast_GET_SIZE(seq.ptr());
    PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
    for (size_t i = 0; i < n && i < 8; ++i) out[i] = launch_dim(items[i]);
    return n < 8 ? n : 8;
}

void launch(const KernelHandle& h, nb::handle dim, nb::handle args, uintptr_t stream, bool adjoint,
            nb::handle adj_args, int64_t max_blocks, int64_t block_dim) {
    const treadle::LaunchPlan& plan = *h.plan;
    const treadle::CompiledKernel& k = plan.kernel();
    int64_t dims[8];
    const size_t ndim = launch_dims(dim, dims);
    nb::object arg_seq =
        nb::steal(PySequence_Fast(args.ptr(), "launch(): inputs must be a sequence"));
    if (!arg_seq.is_valid()) throw nb::python_error();
    const bool has_adj = adjoint && !adj_args.is_none();
    nb::object adj_seq;
    PyObject** adj_items = nullptr;
    size_t n_adj = 0;
    if (has_adj) {
        adj_seq =
            nb::steal(PySequence_Fast(adj_args.ptr(), "launch(): adj_args must be a sequence"));
        if (!adj_seq.is_valid()) throw nb::python_error();
        adj_items = PySequence_Fast_ITEMS(adj_seq.ptr());
        n_adj = (size_t)PySequence_Fast_GET_SIZE(adj_seq.ptr());
    }
    PythonArgumentSource source(PySequence_Fast_ITEMS(arg_seq.ptr()),
                                (size_t)PySequence_Fast_GET_SIZE(arg_seq.ptr()), adj_items, n_adj,
                                has_adj);
    alignas(16) uint8_t small[1024];
    std::vector<uint8_t> large;
    uint8_t* block = small;
    if (plan.block_size() > sizeof(small)) {
        large.resize(plan.block_size());
        block = large.data();
    }
    treadle::WriteNotes written;
    treadle::LaunchBounds bounds = treadle::pack_arguments(plan, dims, ndim, source, adjoint, block,
                                                           adjoint ? nullptr : &written);
    // Writes are counted when the launch is issued (for the tape's overwrite check).
    written.commit(k.label);
    if (k.device.is_cuda()) {
        // Asynchronous: no need to drop the GIL. Stream 0 is the device's current stream.
        treadle::CudaGrid grid;
        if (block_dim > 0) grid.block_dim = block_dim;
        grid.max_blocks = max_blocks;
        treadle::run_cuda(k, bounds, block, reinterpret_cast<void*>(stream), adjoint, grid);
        return;
    }
    nb::gil_scoped_release release;
    treadle::run_cpu(k, bounds, block, adjoint);
}

}  // namespace

void export_launch(nb::module_& m) {
    m.def("set_value_classes", &set_value_classes, nb::arg("composite_base"), nb::arg("ndarray"),
          "Lets launches read treadle vectors and matrices (the `_data` slot of "
          "`composite_base`) and numpy arrays without calling Python.");
    m.def("launch", &launch, nb::arg("kernel"), nb::arg("dim").none(), nb::arg("args"),
          nb::arg("stream") = 0, nb::arg("adjoint") = false,
          nb::arg("adj_args").none() = nb::none(), nb::arg("max_blocks") = 0,
          nb::arg("block_dim") = (int64_t)treadle::k_cuda_block_dim,
          "Packs the arguments with the runtime's packer and runs the kernel: on the CPU, or "
          "enqueued on the CUDA stream with handle `stream` (0: the device's current stream) in "
          "blocks of `block_dim` threads (<= 0: 256), at most `max_blocks` of them (<= 0: no "
          "limit). Both are CUDA settings; CPU launches ignore them, as Warp documents.");
}
