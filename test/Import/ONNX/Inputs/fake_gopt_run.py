#!/usr/bin/env python3
"""A stand-in for gopt-run that tests export_torch_models.py --compare.

    fake_gopt_run.py MODE MODEL.mlir INPUT.npy OUTPUT.npy

MODE "torch" writes torch's own output (NAME.torch.npy next to the input),
"perturbed" writes it with a 1e-3 relative error, so the comparison must
accept the first and reject the second. The MLIR file is not run.
"""

import sys

import numpy as np


def main(mode, mlir, input_path, output_path):
    base = input_path[: -len(".input.npy")]
    expected = np.load(base + ".torch.npy")
    if mode == "perturbed":
        expected = expected * (1 + 1e-3) + 1e-3
    np.save(output_path, expected)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
