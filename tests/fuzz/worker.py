"""Runs a batch of fuzz cases in this process and classifies each result (see runner.py)."""

import json
import os
import re
import runpy
import sys
import time
import traceback

import treadle as wp
from treadle import _treadle
from treadle._src.codegen import CompileError, WarpCodegenAttributeError, WarpCodegenKeyError

TYPED = (TypeError, ValueError, SyntaxError, IndexError, OverflowError, NotImplementedError,
         FloatingPointError, ZeroDivisionError, RuntimeError, MemoryError)
LEAK_TEXT = ("std::", "bad_cast", "incompatible function arguments", "bad_variant",
             "Invoked with", "internal error")
PKG = os.path.dirname(wp.__file__)
DEVICE = os.environ.get("TREADLE_FUZZ_DEVICE", "cpu")  # tests.fuzz.fuzz_device()


class NvrtcFailure(Exception):
    """NVRTC rejected source the compiler generated (a device-compiler failure)."""


class Fuzz:
    """What a case calls: codegen of a kernel (no compiler) or a CPU launch (g++ and a run)."""

    def __init__(self, mode):
        self.mode = mode

    def source(self, kernel, nvrtc=False):
        if kernel._generic_params:
            specs = list(kernel._specialisations.values())
            if not specs:
                return
            kernel = specs[0]
        fs = kernel._function_source()
        for cuda in (False, True):
            for adjoint in (False, True):
                _treadle.kernel_source(fs, cuda=cuda, adjoint=adjoint)
        if nvrtc and hasattr(_treadle, "check_cuda_compile"):
            ok, log = _treadle.check_cuda_compile(fs, 90)
            if not ok and "NVRTC" not in log[:200]:
                raise NvrtcFailure(log[:2000])

    def launch(self, kernel, **kw):
        kw.setdefault("device", DEVICE)
        if self.mode != "launch":
            return self.source(kernel)
        wp.launch(kernel, **kw)
        wp.synchronize_device(kw["device"])


def classify(exc, path):
    """(class, detail) for an exception raised while running the case at `path`: see
    runner.CLASSES."""
    text = f"{type(exc).__module__}.{type(exc).__name__}: {exc}"
    frames = traceback.extract_tb(exc.__traceback__)
    in_treadle = any(f.filename.startswith(PKG) for f in frames)
    ours = type(exc).__module__.startswith("treadle")
    located = re.search(re.escape(path) + r":\d+", str(exc)) is not None or (
        isinstance(exc, SyntaxError) and ours and bool(getattr(exc, "lineno", None)) and
        os.path.basename(str(getattr(exc, "filename", ""))) == os.path.basename(path))
    if isinstance(exc, SyntaxError) and not ours and getattr(exc, "filename", None) == path:
        return "python_reject", text  # Python itself refused the case's text
    if any(t in str(exc) for t in LEAK_TEXT):
        return "leak", text
    if isinstance(exc, NvrtcFailure):
        return "gxx", text
    if isinstance(exc, CompileError):
        return ("clean_loc" if located else "gxx"), text
    if not in_treadle and not ours:
        return "python_reject", text  # raised by the case's own Python, outside treadle
    if isinstance(exc, AttributeError) and str(exc).startswith("module 'treadle' has no attribute"):
        # the package's module __getattr__ (deprecated names) answering a name it does not have,
        # exactly as Python does for a module without one
        return "python_reject", text
    internal = (AttributeError, KeyError, AssertionError, RecursionError, SystemError, NameError)
    if isinstance(exc, (WarpCodegenKeyError, WarpCodegenAttributeError)):
        # an undefined name or a missing attribute in the case: a typed error
        return ("clean_loc" if located else "clean_noloc"), text
    if isinstance(exc, internal) or type(exc).__name__ == "TokenError" or not isinstance(exc, TYPED):
        return "leak", text
    return ("clean_loc" if located else "clean_noloc"), text


def main():
    batch, mode = sys.argv[1], sys.argv[2]
    names = json.load(open(os.path.join(batch, "cases.json")))
    wp.config.quiet = True
    # Out-of-bounds accesses are undefined in release mode (as in Warp); checked mode turns
    # them into IndexErrors, so a signal is always a finding.
    wp.config.mode = "checked"
    wp.init()
    wp.set_device(DEVICE)
    out = open(os.path.join(batch, "results.jsonl"), "a", buffering=1)
    fuzz = Fuzz(mode)
    for name in names:
        path = os.path.join(batch, name)
        out.write(json.dumps({"start": name, "t": time.time()}) + "\n")
        try:
            runpy.run_path(path, init_globals={"FUZZ": fuzz}, run_name="fuzzcase")
            cls, detail = "ok", ""
        except BaseException as e:  # noqa: BLE001 -- every outcome is classified
            if isinstance(e, KeyboardInterrupt):
                raise
            cls, detail = classify(e, path)
        out.write(json.dumps({"name": name, "class": cls, "detail": detail[:4000]}) + "\n")
    out.write(json.dumps({"done": True}) + "\n")


if __name__ == "__main__":
    main()
