#!/usr/bin/env python3
"""Imports randomly mutated versions of gen_models.py's models.

    mutate_models.py GOPT_BIN WORKDIR [--seed N] [--count N]

Each mutation changes attributes, integer initializers (shapes, axes,
indices), input shapes or element types, drops or swaps node inputs, or
swaps op types. Every import must either succeed and then pass
gopt-opt --gopt-optimize -verify-each, or fail with exit code 1 and an
error message: a signal, another exit code, or a silent failure is a bug.
Mutated models that break this are kept in WORKDIR as crash<N>.onnx.
"""

import argparse
import copy
import os
import random
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_models  # noqa: E402

OP_TYPES = ["Add", "MatMul", "Conv", "Reshape", "Slice", "Gather", "Concat",
            "Softmax", "Transpose", "Split", "Expand", "Pad", "MaxPool",
            "LayerNormalization", "BatchNormalization", "Squeeze",
            "Unsqueeze", "Where", "Clip", "ReduceSum", "Gemm", "Cast",
            "Shape", "ConstantOfShape", "Flatten", "HardSwish", "Resize",
            "ConvTranspose", "InstanceNormalization", "PRelu", "LSTM", "GRU",
            "TopK", "CumSum", "Tile", "DepthToSpace", "SpaceToDepth", "Trilu",
            "OneHot", "GatherElements", "ArgMax", "LogSoftmax", "ReduceProd",
            "ReduceL2", "Sin", "Floor", "And", "Sign", "Hardmax",
            "LpNormalization", "MeanVarianceNormalization", "Shrink", "Size",
            "Einsum", "GridSample"]
INTS = [-9, -5, -2, -1, 0, 1, 2, 3, 5, 100, 1 << 40, 1 << 62]


def mutate_int64_tensor(rng, t):
    if t.int64_data:
        t.int64_data[rng.randrange(len(t.int64_data))] = rng.choice(INTS)
    elif t.raw_data:
        values = np.frombuffer(t.raw_data, dtype=np.int64).copy()
        if values.size:
            values[rng.randrange(values.size)] = rng.choice(INTS)
            t.raw_data = values.tobytes()


def mutate(rng, model):
    g = model.graph
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        if kind == 0 and g.node:
            for a in rng.choice(g.node).attribute:
                if a.type == onnx.AttributeProto.INT:
                    a.i = rng.choice(INTS)
                elif a.type == onnx.AttributeProto.INTS and a.ints:
                    a.ints[rng.randrange(len(a.ints))] = rng.choice(INTS)
        elif kind == 1 and g.initializer:
            t = rng.choice(g.initializer)
            if t.data_type == TensorProto.INT64:
                mutate_int64_tensor(rng, t)
        elif kind == 2 and g.input:
            dims = rng.choice(g.input).type.tensor_type.shape.dim
            if dims:
                rng.choice(dims).dim_value = rng.choice([0, 1, 2, 3, 5, 64])
        elif kind == 3 and g.node:
            node = rng.choice(g.node)
            if node.input and rng.random() < 0.5:
                del node.input[rng.randrange(len(node.input))]
            elif len(node.input) > 1:
                node.input[0], node.input[1] = node.input[1], node.input[0]
        elif kind == 4 and g.input:
            rng.choice(g.input).type.tensor_type.elem_type = rng.choice(
                [TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64,
                 TensorProto.BOOL, TensorProto.FLOAT16, TensorProto.DOUBLE,
                 TensorProto.UINT8])
        elif kind == 5 and g.node:
            rng.choice(g.node).op_type = rng.choice(OP_TYPES)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gopt_bin")
    parser.add_argument("workdir")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(args.seed)

    scratch = os.path.join(args.workdir, "scratch.onnx")
    bases = {}
    for name, fn in sorted(gen_models.MODELS.items()):
        if fn.__code__.co_argcount:  # writes files of its own
            continue
        bases[name] = fn()

    imported = failed = 0
    bad = []
    for i in range(args.count):
        name = rng.choice(sorted(bases))
        model = copy.deepcopy(bases[name])
        mutate(rng, model)
        onnx.save(model, scratch)
        mlir = os.path.join(args.workdir, "scratch.mlir")
        r = subprocess.run([os.path.join(args.gopt_bin, "gopt-import-onnx"),
                            scratch, "-o", mlir],
                           capture_output=True, text=True)
        if r.returncode == 0:
            imported += 1
            r = subprocess.run([os.path.join(args.gopt_bin, "gopt-opt"), mlir,
                                "--gopt-optimize", "-verify-each", "-o",
                                os.devnull], capture_output=True, text=True)
            ok = r.returncode == 0
        else:
            failed += 1
            ok = r.returncode == 1 and "error: " in r.stderr
        if not ok:
            kept = os.path.join(args.workdir, f"crash{i}.onnx")
            os.replace(scratch, kept)
            bad.append(f"{kept} (from {name}): exit {r.returncode}: "
                       f"{r.stderr.strip()[-300:]}")
    print(f"{args.count} mutated models: {imported} imported and verified, "
          f"{failed} rejected with a diagnostic, {len(bad)} bad")
    for line in bad:
        print("BAD:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
