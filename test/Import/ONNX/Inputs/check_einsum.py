#!/usr/bin/env python3
"""Runs the einsum model through gopt-run and compares every output with
numpy.einsum on the same seeded inputs.

    check_einsum.py MODEL.mlir GOPT_BIN WORKDIR [--pipeline=P]

The model is gen_models.py's `einsum` (its EINSUMS list gives the
equations and shapes), already imported to MODEL.mlir. Prints one line per
equation and exits 1 on a mismatch.
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from gen_models import EINSUMS  # noqa: E402


def main():
    mlir, gopt_bin, work = sys.argv[1:4]
    extra = sys.argv[4:]
    rng = np.random.default_rng(0)
    inputs, expected = [], []
    for name, equation, shapes in EINSUMS:
        operands = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        for i, x in enumerate(operands):
            path = os.path.join(work, f"{name}_{i}.npy")
            np.save(path, x)
            inputs.append(path)
        expected.append((name, equation,
                         np.einsum(equation.replace(" ", ""), *operands)))
    outputs = [os.path.join(work, f"{name}.out.npy") for name, _, _ in
               expected]
    subprocess.run([os.path.join(gopt_bin, "gopt-run"), mlir, "--reps=0",
                    "--inputs=" + ",".join(inputs),
                    "--outputs=" + ",".join(outputs)] + extra, check=True,
                   stdout=subprocess.DEVNULL)
    failures = 0
    for (name, equation, want), path in zip(expected, outputs):
        got = np.load(path)
        ok = got.shape == want.shape and np.allclose(got, want, 1e-5, 1e-5)
        print(f"{name} '{equation}': {'OK' if ok else 'MISMATCH'} "
              f"{list(got.shape)}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
