"""scripts/conformance_child.py -- runs one of Warp's own test files in this process, for conformance.py.

Started once per test file by scripts/conformance.py (never imported by treadle). With
`--impl treadle` the parent has made conformance_site/sitecustomize.py install its
`WarpAliasFinder` at start-up, so that `import warp` and `import warp.<x>` give the very module
objects `treadle` and `treadle.<x>`, while `warp.tests` and everything below it come from the
unpacked test tree of the Warp wheel. With `--impl warp` (reference mode) the real Warp of the
running interpreter is used.

Devices are restricted the way Warp's test utilities allow: `warp.tests.unittest_utils.test_mode`
is set to "basic" (the CPU and at most cuda:0) before the test file is imported; for the CPU run
the parent also hides every CUDA device (CUDA_VISIBLE_DEVICES=""), and for the cuda:0 run only
the tests that Warp's `add_function_test` named for cuda:0 are kept. Test files run unmodified.

Results are appended to `--results` as JSON lines and flushed one by one ("start" before a test,
"end" after it), so that when the process dies from a signal or a timeout the parent still
knows every finished outcome and the test that was running.
"""

import argparse
import importlib
import json
import os
import sys
import time
import traceback
import unittest


def _cause(err):
    """One line for an exc_info triple: exception type and the first non-empty message line."""
    etype, value, _ = err
    lines = [ln.strip() for ln in str(value).splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    name = etype.__name__ if etype is not None else "Error"
    return f"{name}: {first}" if first else name


def _where(err):
    """The innermost traceback frame outside unittest, as "file:line" (for the JSON only)."""
    frames = traceback.extract_tb(err[2])
    for frame in reversed(frames):
        if "/unittest/" not in frame.filename:
            return f"{os.path.basename(frame.filename)}:{frame.lineno}"
    return ""


class StreamingResult(unittest.TestResult):
    """A TestResult that writes each outcome to the results file as soon as it is known."""

    def __init__(self, out):
        super().__init__()
        self.out = out
        self.current = None  # id -> (status, cause, where), worst outcome of the running test
        self.t0 = 0.0

    def _emit(self, record):
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    def _set(self, status, cause="", where=""):
        order = {"pass": 0, "skip": 1, "fail": 2, "error": 3}
        if self.current is None or order[status] >= order[self.current[0]]:
            self.current = (status, cause, where)

    def startTest(self, test):
        super().startTest(test)
        self.current = None
        self.t0 = time.perf_counter()
        self._emit({"event": "start", "id": test.id()})

    def stopTest(self, test):
        super().stopTest(test)
        status, cause, where = self.current or ("pass", "", "")
        self._emit({"event": "end", "id": test.id(), "status": status, "cause": cause,
                    "where": where, "seconds": round(time.perf_counter() - self.t0, 3)})

    def addSuccess(self, test):
        super().addSuccess(test)
        self._set("pass")

    def addError(self, test, err):
        super().addError(test, err)
        self._set("error", _cause(err), _where(err))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set("fail", _cause(err), _where(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set("skip", str(reason).splitlines()[0] if reason else "")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set("pass")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set("fail", "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set("fail" if failed else "error", _cause(err), _where(err))


def _flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flatten(item)
        else:
            yield item


def _cuda0_only(suite):
    """Keeps the tests registered for cuda:0 (Warp's add_function_test suffixes `_cuda_0`)."""
    return unittest.TestSuite(t for t in _flatten(suite) if t.id().endswith("_cuda_0"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", required=True, help="e.g. warp.tests.test_rand")
    ap.add_argument("--impl", choices=["treadle", "warp"], default="treadle")
    ap.add_argument("--device", choices=["cpu", "cuda:0"], default="cpu")
    ap.add_argument("--results", required=True, help="JSON-lines file to append to")
    ap.add_argument("--skip-file", default=None,
                    help="a file of test ids (one per line) not to run: those a run of the same "
                         "file that hung or crashed has already finished, and the one it stopped in")
    args = ap.parse_args(argv)

    with open(args.results, "a", encoding="utf-8") as out:
        def emit(record):
            out.write(json.dumps(record) + "\n")
            out.flush()

        try:
            aliased = any(type(f).__name__ == "WarpAliasFinder" for f in sys.meta_path)
            if aliased != (args.impl == "treadle"):
                raise RuntimeError(f"the warp alias is {'on' if aliased else 'off'} "
                                   f"for --impl {args.impl} (see conformance_site/)")
            import warp

            warp.config.quiet = True
            import warp.tests.unittest_utils as unittest_utils

            unittest_utils.test_mode = "basic"
            module = importlib.import_module(args.module)
        except BaseException as exc:  # noqa: BLE001 -- any import failure is the file's result
            traceback.print_exc()  # into the file's log
            emit({"event": "import_error", "cause": _cause((type(exc), exc, None)),
                  "where": _where(sys.exc_info())})
            return 0

        if args.device == "cuda:0" and not warp.is_cuda_available():
            emit({"event": "no_device", "cause": f"cuda:0 is not available to {args.impl}"})
            return 0
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        if args.device == "cuda:0":
            suite = _cuda0_only(suite)
        if args.skip_file:
            with open(args.skip_file, encoding="utf-8") as f:
                skip = {line.strip() for line in f if line.strip()}
            suite = unittest.TestSuite(t for t in _flatten(suite) if t.id() not in skip)
        emit({"event": "loaded", "count": suite.countTestCases(), "impl": args.impl,
              "warp_file": getattr(warp, "__file__", "")})
        result = StreamingResult(out)
        suite.run(result)
        emit({"event": "done"})
    return 0


if __name__ == "__main__":
    import faulthandler

    faulthandler.enable()  # a crash prints the Python stack to the log before the signal
    sys.exit(main())
