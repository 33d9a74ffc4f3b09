"""Golden codegen: the generated CPU and CUDA source, forward-only and with the backward pass,
of every kernel in golden/kernels.py is compared byte for byte with golden/<kernel>.<target>.

A refactor leaves these files unchanged; a deliberate change of generated code regenerates them
(TREADLE_UPDATE_GOLDEN=1 python -m pytest tests/python/test_codegen_golden.py) in the same
commit. Needs no GPU: the CUDA source is generated, not compiled.
"""

import os
import sys

import pytest

from treadle import _treadle

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
sys.path.insert(0, GOLDEN)
import kernels  # noqa: E402  (the corpus lives next to its golden files)

TARGETS = {
    "cpu.cpp": (False, False),
    "cpu_adj.cpp": (False, True),
    "cuda.cu": (True, False),
    "cuda_adj.cu": (True, True),
}


def _concrete(kernel):
    """The kernel itself, or for a generic kernel its (first) declared specialisation."""
    if kernel._generic_params:
        return next(iter(kernel._specialisations.values()))
    return kernel


def generate(kernel, cuda, adjoint):
    source = _treadle.kernel_source(_concrete(kernel)._function_source(), cuda=cuda, adjoint=adjoint)
    # #line directives name the file absolutely; the goldens name it relative to golden/.
    return source.replace(os.path.join(GOLDEN, "kernels.py"), "golden/kernels.py")


CASES = [(k, t) for k in kernels.KERNELS + [kernels.generic_scale] for t in TARGETS]


def test_corpus_covers_the_language():
    assert len(kernels.KERNELS) + 1 >= 15


@pytest.mark.parametrize(("kernel", "target"), CASES, ids=[f"{k.__name__}.{t}" for k, t in CASES])
def test_golden(kernel, target):
    cuda, adjoint = TARGETS[target]
    generated = generate(kernel, cuda, adjoint)
    path = os.path.join(GOLDEN, f"{kernel.__name__}.{target}")
    if os.environ.get("TREADLE_UPDATE_GOLDEN") == "1":
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(generated)
        return
    assert os.path.exists(path), f"missing {path} (run with TREADLE_UPDATE_GOLDEN=1 to create it)"
    with open(path, encoding="utf-8", newline="") as f:
        golden = f.read()
    assert generated == golden, (
        f"generated code of {kernel.__name__} ({target}) changed; if on purpose, rerun with "
        "TREADLE_UPDATE_GOLDEN=1 and commit the golden files"
    )


def test_generation_is_deterministic():
    for kernel in (kernels.dynamic_loop, kernels.structs, kernels.generic_scale):
        assert generate(kernel, False, True) == generate(kernel, False, True)
        assert generate(kernel, True, True) == generate(kernel, True, True)
