"""Fuzzing of the compiler and launch path: generators, a mutator, a runner and a minimiser."""

import os


def fuzz_device():
    """The device the cases launch on: $TREADLE_FUZZ_DEVICE (scripts/fuzz.py --device), else cpu."""
    return os.environ.get("TREADLE_FUZZ_DEVICE", "cpu")
