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

/// Raises SyntaxError(msg, (filename, lineno, offset, text)) so that Python prints the
/// location and caret the usual way.
void raise_syntax_error(const treadle::Error& e) {
    const treadle::SourceLocation& w = e.where();
    if (w.line <= 0) {
        PyErr_SetString(PyExc_SyntaxError, e.what());
        return;
    }
    PyObject* exc = PyObject_CallFunction(PyExc_SyntaxError, "s(siis)", e.message().c_str(),
                                          w.file.c_str(), w.line, w.col, w.line_text.c_str());
    if (!exc) return;  // the failed call left its own exception set
    PyErr_SetObject(PyExc_SyntaxError, exc);
    Py_DECREF(exc);
}

void translate(const std::exception_ptr& p, void*) {
    try {
        std::rethrow_exception(p);
    } catch (const treadle::Error& e) {
        switch (e.kind()) {
            case treadle::ErrorKind::Syntax:
                raise_syntax_error(e);
                return;
            case treadle::ErrorKind::Type:
                PyErr_SetString(PyExc_TypeError, e.what());
                return;
            case treadle::ErrorKind::Value:
                PyErr_SetString(PyExc_ValueError, e.what());
                return;
            case treadle::ErrorKind::Bounds:
                PyErr_SetString(PyExc_IndexError, e.what());
                return;
            case treadle::ErrorKind::FloatingPoint:
                PyErr_SetString(PyExc_FloatingPointError, e.what());
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
            case treadle::ErrorKind::Runtime: {
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
}

PyObject* new_exception(nb::module_& m, const char* name, const char* doc) {
    std::string qualified = std::string("treadle._treadle.") + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, PyExc_RuntimeError, nullptr);
    if (!cls) throw nb::python_error();
    m.attr(name) = nb::borrow(cls);
    return cls;
}

}  // namespace

void export_errors(nb::module_& m) {
    g_compile_error =
        new_exception(m, "CompileError", "A kernel or function could not be compiled (treadle).");
    g_launch_error =
        new_exception(m, "LaunchError", "A kernel launch was rejected or failed (treadle).");
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
}
