"""Bad-launch cases: wrong argument counts, types, values, devices and dimensions."""

from . import fuzz_device
from .launch_kernels import KERNELS

HEADER = "import numpy as np\nimport treadle as wp\nfrom tests.fuzz.launch_kernels import *\n\n"
BAD_VALUES = ("None", "'text'", "2**63", "2**64", "-2**70", "10**400", "float('nan')",
              "float('inf')", "np.zeros(3)", "[1, 2, 3]", "(1.0, 2.0)", "{}", "object()",
              "wp.zeros(8, dtype=int)", "wp.zeros((2, 2), dtype=float)", "np.float64(1.0)",
              "wp.vec2(1.0, 2.0)", "wp.mat22(1.0)", "True", "-1", "1j", "b'x'",
              "wp.zeros(8, dtype=wp.vec3)", "Pair()", "wp.zeros(0, dtype=float)",
              "np.int64(2**62)", "wp.array(np.ones(8), dtype=float)[::2]")
DIMS = ("8", "0", "-1", "2**31", "2**63", "2**64", "(2, 4)", "(1, 2, 3, 4, 5)", "'x'",
        "None", "1.5", "()", "(0, 0)", "[4]", "(-1, 2)", "np.int32(4)", "(2**31, 2**31)")
DEVICES = ("'cpu'", "'cuda:0'", "'cuda:7'", "'bogus'", "None", "1", "wp.get_device('cpu')")
EXTRA = ("", "outputs=[wp.zeros(8, dtype=float)]", "adjoint=True", "block_dim=0",
         "block_dim=2**40", "max_blocks=-1", "record_tape=False", "stream=1",
         "adj_inputs=[None]", "record_cmd=True")


def bad_launch(rng):
    """One bad-launch case's text."""
    name = rng.choice(sorted(KERNELS))
    args = list(KERNELS[name])
    for _ in range(rng.randrange(1, 3)):
        k = rng.randrange(5)
        if k == 0 and args:
            del args[rng.randrange(len(args))]
        elif k == 1:
            args.insert(rng.randrange(len(args) + 1), rng.choice(BAD_VALUES))
        elif args:
            args[rng.randrange(len(args))] = rng.choice(BAD_VALUES)
    dim = rng.choice(DIMS) if rng.random() < 0.5 else ("(2, 4)" if name == "k_2d" else "8")
    device = rng.choice(DEVICES) if rng.random() < 0.3 else repr(fuzz_device())
    extra = rng.choice(EXTRA) if rng.random() < 0.3 else ""
    call = f"wp.launch({name}, dim={dim}, inputs=[{', '.join(args)}], device={device}"
    call += f", {extra})" if extra else ")"
    return f"{HEADER}{call}\nwp.synchronize()\n"
