"""scripts/conformance_site/sitecustomize.py -- makes `warp` mean treadle in conformance processes.

scripts/conformance.py puts this folder on PYTHONPATH and names the unpacked warp/tests folder in
TREADLE_CONFORMANCE_TESTS_DIR, so every interpreter it starts -- and every `python -c "import
warp ..."` that a Warp test starts in turn -- gets `WarpAliasFinder` at the front of
`sys.meta_path` at start-up. Without the variable this does nothing.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys


class _AliasLoader(importlib.abc.Loader):
    """Loads `warp<.x>` as the module `treadle<.x>` itself (imported once, never copied)."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


class WarpAliasFinder(importlib.abc.MetaPathFinder):
    """Maps `warp` onto `treadle` and `warp.tests` onto the wheel's unpacked test tree.

    Invariant: `sys.modules["warp.<x>"] is sys.modules["treadle.<x>"]` for every aliased name,
    so attribute patches that tests make through one name are seen through the other.
    """

    def __init__(self, tests_dir):
        self.tests_dir = tests_dir

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "warp.tests":
            init = os.path.join(self.tests_dir, "__init__.py")
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[self.tests_dir])
        if fullname.startswith("warp.tests."):
            return None  # the normal path finder searches warp.tests.__path__
        if fullname == "warp" or fullname.startswith("warp."):
            target_name = "treadle" + fullname[len("warp"):]
            if importlib.util.find_spec(target_name) is None:
                return None  # reported as "No module named 'warp.<x>'"
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(target_name))
        return None


_tests_dir = os.environ.get("TREADLE_CONFORMANCE_TESTS_DIR")
if _tests_dir:
    sys.meta_path.insert(0, WarpAliasFinder(_tests_dir))
