"""Loads the native extension (treadle._treadle) first, so that a missing or broken build says
what is probably wrong instead of failing deep inside another module's import."""

try:
    from . import _treadle  # noqa: F401 - loaded for every other module
except ImportError as _e:
    raise ImportError(
        f"treadle: the native extension treadle._treadle is missing or failed to load ({_e}).\n"
        "From a source checkout, build it with\n"
        "    cmake -S . -B build -G Ninja && cmake --build build\n"
        "(which copies it into python/treadle/) and run with PYTHONPATH=python, or install the "
        "package with\n"
        "    python3 -m pip install -r requirements-dev.txt\n"
        "    python3 -m pip install --no-build-isolation ."
    ) from _e
