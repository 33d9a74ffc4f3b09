// src/python/export_errors.cpp -- translation of treadle::Error into Python exceptions
#include <nanobind/stl/string.h>

#include <exception>
#include <string>

#include "exports.h"
#include "runtime/launch.h"
#include "treadle/error.h"

namespace {

// Created once by export_errors(); owned by the module (one extra reference kept here).
PyObject* g_compile_error = nullptr;
PyObject* g_launch_error = nullptr;
PyObject* g_launch_argument_error = nullptr;
// Warp's compiler error classes (treadle._src.codegen re-exports them), raised for errors in
// kernel source that come out of a compile (raise_compile_error).
PyObject* g_codegen_error = nullptr;
PyObject* g_codegen_syntax_error = nullptr;
PyObject* g_codegen_type_error = nullptr;
PyObject* g_codegen_value_error = nullptr;
PyObject* g_codegen_index_error = nullptr;
PyObject* g_codegen_key_error = nullptr;
PyObject* g_codegen_attribute_error = nullptr;

/// Raises `cls`(msg, (filename, lineno, offset, text)), a SyntaxError class, so that Python
/// prints the location and caret the usual way.
void raise_syntax_error(PyObject* cls, const treadle::Error& e) {
    const treadle::SourceLocation& w = e.where();
    if (w.line <= 0) {
        PyErr_SetString(cls, e.what());
        return;
    }
    PyObject* exc = PyObject_CallFunction(cls, "s(siis)", e.message().c_str(), w.file.c_str(),
                                          w.line, w.col, w.line_text.c_str());
    if (!exc) return;  // the failed call left its own exception set
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
}

/// The text of a kernel-source error with the message after the source line: Warp raises its
/// RuntimeErrors and ValueErrors so, and programs match the message's end.
std::string message_last(const treadle::Error& e) {
    std::string text = treadle::format_error("", e.where());
    const size_t colon = text.find(": \n");  // "file:line:col: " with no message
    if (colon != std::string::npos) text.erase(colon + 1, 1);
    return text + "\n" + e.message();
}

/// Sets the Python exception for `e`: the one mapping of ErrorKind to Python classes. An
/// error `from_compiler` (kernel source that does not compile) gets Warp's codegen classes,
/// which derive from the same builtin exceptions as the generic ones.
void set_python_error(const treadle::Error& e, bool from_compiler) {
    switch (e.kind()) {
        case treadle::ErrorKind::Syntax:
            raise_syntax_error(from_compiler ? g_codegen_syntax_error : PyExc_SyntaxError, e);
            return;
        case treadle::ErrorKind::Type:
            PyErr_SetString(from_compiler ? g_codegen_type_error : PyExc_TypeError, e.what());
            return;
        case treadle::ErrorKind::Value:
            if (from_compiler && e.where().line > 0) {  // the message last, as for Runtime
                PyErr_SetString(g_codegen_value_error, message_last(e).c_str());
                return;
            }
            PyErr_SetString(from_compiler ? g_codegen_value_error : PyExc_ValueError, e.what());
            return;
        case treadle::ErrorKind::Bounds:
            PyErr_SetString(from_compiler ? g_codegen_index_error : PyExc_IndexError, e.what());
            return;
        case treadle::ErrorKind::Key:
            PyErr_SetString(from_compiler ? g_codegen_key_error : PyExc_KeyError, e.what());
            return;
        case treadle::ErrorKind::Attribute:
            if (from_compiler && e.where().line > 0) {  // the message last, as Warp's
                PyErr_SetString(g_codegen_attribute_error, message_last(e).c_str());
                return;
            }
            PyErr_SetString(from_compiler ? g_codegen_attribute_error : PyExc_AttributeError,
                            e.what());
            return;
        case treadle::ErrorKind::Codegen:
            PyErr_SetString(from_compiler ? g_codegen_error : PyExc_RuntimeError, e.what());
            return;
        case treadle::ErrorKind::FloatingPoint:
            PyErr_SetString(PyExc_FloatingPointError, e.what());
            return;
        case treadle::ErrorKind::Overflow:
            PyErr_SetString(PyExc_OverflowError, e.what());
            return;
        case treadle::ErrorKind::OutOfMemory:
            PyErr_SetString(PyExc_MemoryError, e.what());
            return;
        case treadle::ErrorKind::Compile:
            PyErr_SetString(g_compile_error, e.what());
            return;
        case treadle::ErrorKind::Launch:
            PyErr_SetString(g_launch_error, e.what());
            return;
        case treadle::ErrorKind::ArgumentType:
            PyErr_SetString(g_launch_argument_error, e.what());
            return;
        case treadle::ErrorKind::Runtime: {
            if (from_compiler && e.where().line > 0) {
                PyErr_SetString(PyExc_RuntimeError, message_last(e).c_str());
                return;
            }
            // A fault of an earlier asynchronous kernel surfaces at a later synchronising
            // call: name the kernel that most probably caused it.
            std::string text = e.what();
            if (text.find("CUDA_ERROR_") != std::string::npos) {
                std::string last = treadle::last_cuda_launch();
                if (!last.empty()) text += " (the most recent kernel launch was " + last + ")";
            }
            PyErr_SetString(PyExc_RuntimeError, text.c_str());
            return;
        }
    }
    PyErr_SetString(PyExc_RuntimeError, e.what());
}

void translate(const std::exception_ptr& p, void*) {
    try {
        std::rethrow_exception(p);
    } catch (const treadle::Error& e) {
        set_python_error(e, false);
    }
}

/// Creates the exception class `module`.`name` deriving from `bases` (a class or a tuple of
/// classes) and stores it as `m`.`name`.
PyObject* new_exception(nb::module_& m, const char* module, const char* name, const char* doc,
                        PyObject* bases) {
    std::string qualified = std::string(module) + "." + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
    if (!cls) throw nb::python_error();
    m.attr(name) = nb::borrow(cls);
    return cls;
}

/// Warp's compiler error classes, with Warp's names and bases; SyntaxError comes first in
/// WarpCodegenSyntaxError's bases so that its constructor (filename, line, caret) is used.
void export_codegen_errors(nb::module_& m) {
    const char* module = "treadle._src.codegen";
    g_codegen_error =
        new_exception(m, module, "WarpCodegenError", "A kernel or function could not be compiled.",
                      PyExc_RuntimeError);
    nb::object syntax_bases = nb::steal(PyTuple_Pack(2, PyExc_SyntaxError, g_codegen_error));
    g_codegen_syntax_error = new_exception(
        m, module, "WarpCodegenSyntaxError",
        "Kernel source that is not valid in a kernel (treadle; also a WarpCodegenError).",
        syntax_bases.ptr());
    g_codegen_type_error = new_exception(m, module, "WarpCodegenTypeError",
                                         "A type error in kernel source.", PyExc_TypeError);
    g_codegen_value_error = new_exception(m, module, "WarpCodegenValueError",
                                          "A value error in kernel source.", PyExc_ValueError);
    g_codegen_index_error = new_exception(m, module, "WarpCodegenIndexError",
                                          "An index error in kernel source.", PyExc_IndexError);
    g_codegen_attribute_error =
        new_exception(m, module, "WarpCodegenAttributeError",
                      "An attribute error in kernel source.", PyExc_AttributeError);
    g_codegen_key_error = new_exception(m, module, "WarpCodegenKeyError",
                                        "A key error in kernel source.", PyExc_KeyError);
    // KeyError's str() quotes its argument (a missing key); this one holds a message with a
    // source line and a caret, shown as written
    nb::object plain_str = nb::steal(PyObject_GetAttrString(PyExc_BaseException, "__str__"));
    if (!plain_str || PyObject_SetAttrString(g_codegen_key_error, "__str__", plain_str.ptr()) != 0)
        throw nb::python_error();
}

}  // namespace

void raise_compile_error(const treadle::Error& e) {
    set_python_error(e, true);
    throw nb::python_error();
}

void export_errors(nb::module_& m) {
    export_codegen_errors(m);
    g_compile_error =
        new_exception(m, "treadle._treadle", "CompileError",
                      "The C++ compiler failed to build a kernel (treadle; a WarpCodegenError).",
                      g_codegen_error);
    g_launch_error =
        new_exception(m, "treadle._treadle", "LaunchError",
                      "A kernel launch was rejected or failed (treadle).", PyExc_RuntimeError);
    nb::object argument_bases = nb::steal(PyTuple_Pack(2, PyExc_TypeError, g_launch_error));
    g_launch_argument_error = new_exception(
        m, "treadle._treadle", "LaunchArgumentError",
        "A launch argument that is not the array its parameter takes (treadle; Warp raises a "
        "RuntimeError, and it is also a TypeError).",
        argument_bases.ptr());
    nb::register_exception_translator(translate);
    m.def(
        "_raise_error",
        [](int kind, const std::string& message, const std::string& file, int line, int col,
           const std::string& text) {
            throw treadle::Error((treadle::ErrorKind)kind, message, {file, line, col, text});
        },
        nb::arg("kind"), nb::arg("message"), nb::arg("file") = "", nb::arg("line") = 0,
        nb::arg("col") = 0, nb::arg("text") = "",
        "Throws a treadle::Error of ErrorKind `kind` (its enum index), to test the translation.");
    m.def(
        "_raise_compile_error",
        [](int kind, const std::string& message, const std::string& file, int line, int col,
           const std::string& text) {
            compiling([&]() -> int {
                throw treadle::Error((treadle::ErrorKind)kind, message, {file, line, col, text});
            });
        },
        nb::arg("kind"), nb::arg("message"), nb::arg("file") = "", nb::arg("line") = 0,
        nb::arg("col") = 0, nb::arg("text") = "",
        "As _raise_error, but as an error of the compiler (Warp's codegen classes).");
}
