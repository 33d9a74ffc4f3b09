"""The DLPack ABI as ctypes structures (DLTensor, DLManagedTensor, DLManagedTensorVersioned), its
codes, and the PyCapsule calls that hand these structures between libraries.

DLPack (dlpack.h, version 1.x) passes a tensor as a capsule named ``"dltensor"`` (a
``DLManagedTensor``) or ``"dltensor_versioned"`` (a ``DLManagedTensorVersioned``, for consumers
that ask for ``max_version >= (1, 0)``). The consumer renames the capsule ``"used_dltensor"``
(``"used_dltensor_versioned"``) when it takes ownership and later calls the structure's
``deleter``; a capsule that is never consumed frees the tensor in its own destructor. Imports
nothing of treadle (``dlpack_export.py`` and ``dlpack.py`` build on it)."""

import ctypes
import enum


class DLDeviceType(enum.IntEnum):
    """Where a tensor's memory lives (DLPack's ``DLDeviceType``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14


class DLDataTypeCode(enum.IntEnum):
    """The kind of a tensor's elements (DLPack's ``DLDataTypeCode``)."""

    kDLInt = 0
    kDLUInt = 1
    kDLFloat = 2
    kDLOpaqueHandle = 3
    kDLBfloat = 4
    kDLComplex = 5
    kDLBool = 6


CODE_NAMES = {0: "int", 1: "uint", 2: "float", 3: "opaque", 4: "bfloat", 5: "complex", 6: "bool"}
"""How messages name a type code: a dtype prints as name + bits (``float32``, ``bool8``)."""

FLAG_READ_ONLY = 1 << 0
"""DLManagedTensorVersioned.flags: the consumer must not write the memory."""
FLAG_IS_COPIED = 1 << 1
"""DLManagedTensorVersioned.flags: the producer made a copy for this export."""

VERSION = (1, 0)
"""The DLPack version treadle's versioned capsules carry (the layout is that of 1.0 and 1.1)."""


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    """A tensor's description; ``shape`` and ``strides`` (in elements, NULL for a compact
    row-major tensor) point at ``ndim`` int64 each; the first element is at data + byte_offset."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
"""``void deleter(DLManagedTensor[Versioned]* self)``: called once by the consumer when done."""


class DLManagedTensor(ctypes.Structure):
    """The legacy (unversioned) managed tensor of a ``"dltensor"`` capsule."""

    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    """The managed tensor of a ``"dltensor_versioned"`` capsule (DLPack 1.0 and later)."""

    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


def forever(obj):
    """``obj``, kept alive for the rest of the process (one reference that is never dropped):
    capsule names and C callbacks may be used by other libraries while Python shuts down."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))
    return obj


def _name(text):
    return forever(ctypes.create_string_buffer(text))


# Capsule names: PyCapsule keeps the pointer it is given, so these buffers never die.
LEGACY = _name(b"dltensor")
VERSIONED = _name(b"dltensor_versioned")
USED_LEGACY = _name(b"used_dltensor")
USED_VERSIONED = _name(b"used_dltensor_versioned")

CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
"""``void destructor(PyObject* capsule)``, called when a capsule is deallocated."""


def _api(name, restype, *argtypes):
    """A Python C API function with its own prototype (ctypes.pythonapi shares one per name)."""
    return ctypes.PYFUNCTYPE(restype, *argtypes)((name, ctypes.pythonapi))


capsule_new = _api("PyCapsule_New", ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                   CAPSULE_DESTRUCTOR)
capsule_is_valid = _api("PyCapsule_IsValid", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)
capsule_get_name = _api("PyCapsule_GetName", ctypes.c_char_p, ctypes.py_object)
capsule_get_pointer = _api("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.py_object,
                           ctypes.c_char_p)
capsule_set_name = _api("PyCapsule_SetName", ctypes.c_int, ctypes.py_object, ctypes.c_char_p)

# The same calls on a raw PyObject* (a capsule destructor gets no Python object).
raw_capsule_is_valid = _api("PyCapsule_IsValid", ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)
raw_capsule_get_pointer = _api("PyCapsule_GetPointer", ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_char_p)

CAPSULE_TYPE = type(capsule_new(1, b"treadle.probe", CAPSULE_DESTRUCTOR()))
"""The Python type of capsules (PyCapsule_Type), taken from a throwaway one."""
