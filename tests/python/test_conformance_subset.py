"""Warp's own test files that treadle passes completely, run through scripts/conformance.py.

The files (conformance.CI_FILES) run unmodified, each in its own process with `warp` resolved to
treadle, so they keep passing. Skipped, with the reason, when the warp-lang wheel is neither cached
nor downloadable, or when TREADLE_SKIP_CONFORMANCE=1. The runner's own bookkeeping (the import
alias, crash and timeout reports) is checked on a small fake test tree.
"""

import importlib.util
import os
import textwrap
import unittest

import pytest

_SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "conformance.py")
_spec = importlib.util.spec_from_file_location("conformance", _SCRIPT)
conformance = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conformance)


@pytest.fixture(scope="module")
def opts():
    if os.environ.get("TREADLE_SKIP_CONFORMANCE") == "1":
        pytest.skip("TREADLE_SKIP_CONFORMANCE=1")
    try:
        return conformance.prepare(timeout=300.0)
    except conformance.FetchError as exc:
        pytest.skip(f"Warp's test files are not available: {exc}")


@pytest.mark.parametrize("name", conformance.CI_FILES)
def test_warp_file_passes_completely(opts, name):
    rec = conformance.run_file(name, opts)
    failing = {t: r["cause"] for t, r in rec["tests"].items() if r["status"] in ("fail", "error")}
    assert rec["status"] == "ok", f"{name}: {rec['detail']} (log: {rec['log']})"
    assert failing == {}, f"{name}: failing tests (log: {rec['log']})"
    # tests Warp itself skips here (CUDA-only ones on the CPU) may skip; nothing else may
    counts = rec["counts"]
    assert counts["pass"] > 0 and counts["pass"] + counts["skip"] == counts["run"]


_FAKE_TESTS = {
    "__init__.py": "",
    "unittest_utils.py": "test_mode = 'unique_or_2x'\n",
    "test_fake.py": """
        import os, signal, subprocess, sys, time, unittest
        import treadle
        import warp
        import warp.types
        import warp.tests.unittest_utils as unittest_utils

        class TestFake(unittest.TestCase):
            def test_a_alias(self):
                self.assertIs(warp, treadle)
                self.assertIs(warp.types, treadle.types)
                self.assertEqual(unittest_utils.test_mode, "basic")
                self.assertEqual(os.environ.get("CUDA_VISIBLE_DEVICES"), "")

            def test_b_fails(self):
                self.assertEqual(1, 2, "one is not two\\nsecond line")

            def test_c_dies(self):
                if os.environ.get("FAKE_MODE") == "crash":
                    os.kill(os.getpid(), signal.SIGSEGV)
                if os.environ.get("FAKE_MODE") == "hang":
                    time.sleep(60)

            def test_d_after(self):
                pass

            def test_f_subprocess(self):
                code = "import warp, treadle, warp.tests.unittest_utils; assert warp is treadle"
                subprocess.run([sys.executable, "-c", code], check=True)

            def test_e_kernel_cuda_0(self):
                self.assertIsNone(os.environ.get("CUDA_VISIBLE_DEVICES"), "devices hidden")
        """,
    "test_broken.py": "import warp.no_such_module\n",
}


@pytest.fixture
def fake(tmp_path, monkeypatch):
    tests_dir = tmp_path / "warp" / "tests"
    tests_dir.mkdir(parents=True)
    for name, text in _FAKE_TESTS.items():
        (tests_dir / name).write_text(textwrap.dedent(text))
    (tmp_path / "logs").mkdir()
    return conformance.argparse.Namespace(
        cache=str(tmp_path), tests_dir=str(tests_dir), device="cpu", timeout=30.0,
        impl="treadle", logs=str(tmp_path / "logs"))


def _status(rec):
    return {t.rsplit(".", 1)[1]: (r["status"], r["cause"]) for t, r in rec["tests"].items()}


def test_runner_records_each_outcome_with_warp_aliased_to_treadle(fake, monkeypatch):
    monkeypatch.delenv("FAKE_MODE", raising=False)
    rec = conformance.run_file("test_fake", fake)
    assert rec["status"] == "ok"
    assert _status(rec) == {
        "test_a_alias": ("pass", ""),
        "test_b_fails": ("fail", "AssertionError: 1 != 2 : one is not two"),
        "test_c_dies": ("pass", ""),
        "test_d_after": ("pass", ""),
        "test_e_kernel_cuda_0": ("fail", "AssertionError: '' is not None : devices hidden"),
        "test_f_subprocess": ("pass", ""),
    }
    assert rec["counts"] == {"pass": 4, "fail": 2, "error": 0, "skip": 0, "run": 6}


def test_runner_on_cuda_0_keeps_only_the_cuda_0_variants(fake, monkeypatch):
    import treadle

    monkeypatch.delenv("FAKE_MODE", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    fake.device = "cuda:0"
    rec = conformance.run_file("test_fake", fake)
    if not treadle.is_cuda_available():
        assert (rec["status"], rec["detail"]) == ("no device", "cuda:0 is not available to treadle")
        assert rec["tests"] == {}
        return
    assert rec["status"] == "ok"
    assert _status(rec) == {"test_e_kernel_cuda_0": ("pass", "")}


def test_runner_reports_a_crash_with_its_signal_and_test(fake, monkeypatch):
    monkeypatch.setenv("FAKE_MODE", "crash")
    rec = conformance.run_file("test_fake", fake)
    assert rec["status"] == "crashed"
    assert rec["detail"] == ("crashed: SIGSEGV in warp.tests.test_fake.TestFake.test_c_dies; "
                             "the rest of the file ran")
    assert _status(rec)["test_c_dies"] == ("error", "crashed: SIGSEGV")
    # the file ran again in a new process without the tests already run: the rest count
    assert _status(rec)["test_d_after"] == ("pass", "")
    assert _status(rec)["test_b_fails"][0] == "fail"
    assert rec["counts"]["run"] == 6
    with open(rec["log"]) as log:
        assert "Fatal Python error: Segmentation fault" in log.read()  # faulthandler's stack


def test_runner_reports_a_timeout_and_keeps_finished_results(fake, monkeypatch):
    monkeypatch.setenv("FAKE_MODE", "hang")
    fake.timeout = 6.0
    rec = conformance.run_file("test_fake", fake)
    assert rec["status"] == "timeout"
    assert rec["detail"] == ("timeout (6 s) in warp.tests.test_fake.TestFake.test_c_dies; "
                             "the rest of the file ran")
    assert _status(rec)["test_a_alias"] == ("pass", "")
    assert _status(rec)["test_c_dies"] == ("error", "timeout (6 s)")
    assert _status(rec)["test_d_after"] == ("pass", "")
    with open(rec["log"]) as log:
        assert "==== run 2: without the 3 tests already run" in log.read()


def test_runner_reports_an_import_error_as_the_file_result(fake):
    rec = conformance.run_file("test_broken", fake)
    assert rec["status"] == "import error"
    assert rec["detail"] == "ModuleNotFoundError: No module named 'warp.no_such_module'"
    assert rec["counts"]["run"] == 0


def test_failure_causes_are_aggregated_over_numbers_and_addresses():
    assert conformance.normalise("ValueError: got 3 at 0x7f3a, expected 4.5e-3") == \
        "ValueError: got N at ADDR, expected N"
    assert conformance.normalise(
        "TypeError: /x/warp/tests/test_a.py:45:12: k(): no 'copysign' (from /x/treadle/utils.py)"
    ) == "TypeError: k(): no 'copysign' (from utils.py)"
    assert conformance.normalise("E: no bfloat16 in vec3 (ndim=2)") == "E: no bfloat16 in vec3 (ndim=N)"
    rec = {"file": "f", "status": "ok", "detail": "", "tests": {
        "warp.tests.f.T.a": {"status": "fail", "cause": "E: size 3"},
        "warp.tests.f.T.b": {"status": "error", "cause": "E: size 4"},
        "warp.tests.f.T.c": {"status": "pass", "cause": ""}}}
    assert conformance.top_causes([rec], 5) == [
        {"cause": "E: size N", "count": 2, "warp_passes_lost": None, "files": 1,
         "examples": ["f.T.a", "f.T.b"]}]
    # Against Warp: weighed by the Warp-passed tests lost, and tests treadle did not collect.
    ref = {"file": "f", "status": "ok", "tests": {
        "warp.tests.f.T.a": {"status": "pass"}, "warp.tests.f.T.b": {"status": "skip"},
        "warp.tests.f.T.c": {"status": "pass"}, "warp.tests.f.T.d": {"status": "pass"}}}
    broken = {"file": "g", "status": "import error", "detail": "E: no 7", "tests": {}}
    ref_g = {"file": "g", "tests": {"warp.tests.g.T.x": {"status": "pass"},
                                    "warp.tests.g.T.y": {"status": "pass"}}}
    got = conformance.top_causes([rec, broken], 5, {"f": ref, "g": ref_g})
    assert [(c["cause"], c["warp_passes_lost"], c["count"], c["examples"]) for c in got] == [
        ("import error: E: no N", 2, 1, ["g (import)"]),
        ("E: size N", 1, 2, ["f.T.a", "f.T.b"]),
        (conformance.NOT_COLLECTED, 1, 1, ["f.T.d"]),
    ]


def test_cuda_0_selection_keeps_the_tests_warp_named_for_cuda_0():
    path = os.path.join(os.path.dirname(_SCRIPT), "conformance_child.py")
    spec = importlib.util.spec_from_file_location("conformance_child", path)
    child = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(child)

    class T(unittest.TestCase):
        def test_x_cpu(self): pass
        def test_x_cuda_0(self): pass
        def test_x_cuda_1(self): pass
        def test_y(self): pass

    suite = unittest.TestSuite([unittest.defaultTestLoader.loadTestsFromTestCase(T)])
    kept = [t.id().rsplit(".", 1)[1] for t in child._cuda0_only(suite)]
    assert kept == ["test_x_cuda_0"]


def test_the_sim_set_is_measured_on_the_last_warp_with_warp_sim(capsys):
    assert conformance.warp_version_of(["core", "tile/test_*"]) == "1.17.0"
    assert conformance.warp_version_of(["sim"]) == "1.9.1"
    assert conformance.warp_version_of(["sim/test_model"]) == "1.9.1"
    assert conformance.warp_version_of(["sim", "core"]) is None
    assert conformance.main(["sim", "core"]) == 2
    assert "come from different Warp versions (sim: 1.9.1); run them apart" in \
        capsys.readouterr().err
