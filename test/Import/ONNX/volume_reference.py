#!/usr/bin/env python3
"""Checks gopt-run's 3-D convolutions and pools against a numpy reference.

    volume_reference.py MODEL.onnx GOPT_RUN WORKDIR [GOPT_RUN_FLAGS...]

MODEL.onnx is gen_models.py's `conv_pool_3d` model. The reference computes
every node from the ONNX operator definitions, window by window in float64
(padding, strides, dilations, groups, ceil_mode, count_include_pad); it
shares no code with the importer, which runs them as 2-D ops over the
frames. Prints one line per output and exits 1 on a mismatch.
"""

import itertools
import math
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def geometry(a, spatial, kernel):
    """(strides, dilations, pads begin, pads end) of a node over `spatial`."""
    rank = len(spatial)
    strides = list(a.get("strides", [1] * rank))
    dilations = list(a.get("dilations", [1] * rank))
    pads = list(a.get("pads", [0] * 2 * rank))
    begin, end = pads[:rank], pads[rank:]
    if a.get("auto_pad", b"NOTSET") in (b"SAME_UPPER", b"SAME_LOWER"):
        for d in range(rank):
            out = math.ceil(spatial[d] / strides[d])
            extent = (kernel[d] - 1) * dilations[d] + 1
            total = max(0, (out - 1) * strides[d] + extent - spatial[d])
            small = total // 2
            begin[d] = small if a["auto_pad"] == b"SAME_UPPER" else total - small
            end[d] = total - begin[d]
    return strides, dilations, begin, end


def conv(x, w, b, a):
    n, c = x.shape[:2]
    f, cg = w.shape[:2]
    kernel, spatial = w.shape[2:], x.shape[2:]
    groups = a.get("group", 1)
    strides, dilations, begin, end = geometry(a, spatial, kernel)
    out_shape = [(spatial[d] + begin[d] + end[d] - (kernel[d] - 1)
                  * dilations[d] - 1) // strides[d] + 1 for d in range(3)]
    y = np.zeros([n, f] + out_shape)
    per_group = f // groups
    for o in itertools.product(*[range(s) for s in out_shape]):
        for k in itertools.product(*[range(s) for s in kernel]):
            pos = [o[d] * strides[d] + k[d] * dilations[d] - begin[d]
                   for d in range(3)]
            if any(p < 0 or p >= spatial[d] for d, p in enumerate(pos)):
                continue
            for g in range(groups):
                xs = x[:, g * cg:(g + 1) * cg, pos[0], pos[1], pos[2]]
                ws = w[g * per_group:(g + 1) * per_group, :, k[0], k[1], k[2]]
                y[:, g * per_group:(g + 1) * per_group, o[0], o[1], o[2]] += \
                    xs @ ws.T
    if b is not None:
        y += b.reshape(1, f, 1, 1, 1)
    return y


def pool(x, a, kind):
    kernel, spatial = a["kernel_shape"], x.shape[2:]
    strides, _, begin, end = geometry(a, spatial, kernel)
    out_shape = []
    for d in range(3):
        span = spatial[d] + begin[d] + end[d] - kernel[d]
        if a.get("ceil_mode", 0):
            out = -(-span // strides[d]) + 1
            if (out - 1) * strides[d] >= spatial[d] + begin[d]:
                out -= 1
        else:
            out = span // strides[d] + 1
        out_shape.append(out)
    y = np.zeros(list(x.shape[:2]) + out_shape)
    for o in itertools.product(*[range(s) for s in out_shape]):
        lo = [o[d] * strides[d] - begin[d] for d in range(3)]
        hi = [lo[d] + kernel[d] for d in range(3)]
        inside = [slice(max(lo[d], 0), min(hi[d], spatial[d]))
                  for d in range(3)]
        window = x[(slice(None), slice(None), *inside)]
        if kind == "max":
            y[:, :, o[0], o[1], o[2]] = window.max(axis=(2, 3, 4))
            continue
        if a.get("count_include_pad", 0):
            # The padding counts, not what ceil_mode adds past it.
            count = np.prod([min(hi[d], spatial[d] + end[d])
                             - max(lo[d], -begin[d]) for d in range(3)])
        else:
            count = window[0, 0].size
        y[:, :, o[0], o[1], o[2]] = window.sum(axis=(2, 3, 4)) / count
    return y


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    model_path, runner, workdir = argv[1:4]
    model = onnx.load(model_path)
    rng = np.random.default_rng(7)
    values = {t.name: numpy_helper.to_array(t).astype(np.float64)
              for t in model.graph.initializer}
    input_paths = []
    for vi in model.graph.input:
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        v = rng.standard_normal(shape).astype(np.float32)
        values[vi.name] = v.astype(np.float64)
        input_paths.append(os.path.join(workdir, vi.name + ".npy"))
        np.save(input_paths[-1], v)
    for node in model.graph.node:
        a, ins = attrs(node), [values.get(i) for i in node.input]
        if node.op_type == "Conv":
            out = conv(ins[0], ins[1], ins[2] if len(ins) > 2 else None, a)
        elif node.op_type == "MaxPool":
            out = pool(ins[0], a, "max")
        elif node.op_type == "AveragePool":
            out = pool(ins[0], a, "avg")
        elif node.op_type == "GlobalAveragePool":
            out = ins[0].mean(axis=(2, 3, 4), keepdims=True)
        else:
            raise SystemExit(f"no reference for {node.op_type}")
        values[node.output[0]] = out

    names = [o.name for o in model.graph.output]
    outputs = [os.path.join(workdir, name + ".out.npy") for name in names]
    # The emulated GPU target computes once and takes no --reps.
    reps = [] if "--target=cuda-emulated" in argv[4:] else ["--reps=0"]
    subprocess.run([runner, model_path, *reps,
                    "--inputs=" + ",".join(input_paths),
                    "--outputs=" + ",".join(outputs), *argv[4:]], check=True,
                   stdout=subprocess.DEVNULL)
    failures = 0
    for name, path in zip(names, outputs):
        got, want = np.load(path), values[name]
        ok = got.shape == want.shape and np.allclose(got, want, 1e-4, 1e-4)
        print(f"{name}: {'OK' if ok else 'MISMATCH'} {list(want.shape)}")
        if not ok and got.shape == want.shape:
            print(f"  max abs error {np.max(np.abs(got - want)):.3g}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
