#!/usr/bin/env python3
"""Checks gopt-run's LSTM and GRU outputs against a numpy reference.

    recurrent_reference.py MODEL.onnx GOPT_RUN WORKDIR

MODEL.onnx is gen_models.py's `recurrent` model (an LSTM and a GRU on one
input, batch first). The reference follows the ONNX operator definitions
step by step, with the clip applied to each gate's pre-activation after its
peephole term, as ONNX Runtime does; it shares no code with the importer.
Prints one line per output and exits 1 on a mismatch.
"""

import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def lstm(x, w, r, b, h0, c0, p, clip, reverse):
    """x [seq, batch, input]; one direction; returns Y [seq, batch, hidden],
    final h and c."""
    hidden = r.shape[-1]
    h, c = h0.astype(np.float64), c0.astype(np.float64)
    bias = b[:4 * hidden] + b[4 * hidden:]
    ys = [None] * x.shape[0]
    steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
    cut = lambda v: np.clip(v, -clip, clip) if clip else v
    for t in steps:
        g = x[t] @ w.T + h @ r.T + bias
        gi, go, gf, gc = np.split(g, 4, axis=-1)
        pi, po, pf = np.split(p, 3)
        i = sigmoid(cut(gi + pi * c))
        f = sigmoid(cut(gf + pf * c))
        cc = np.tanh(cut(gc))
        c = f * c + i * cc
        o = sigmoid(cut(go + po * c))
        h = o * np.tanh(c)
        ys[t] = h
    return np.stack(ys), h, c


def gru(x, w, r, b, reverse):
    """linear_before_reset = 0; one direction."""
    hidden = r.shape[-1]
    h = np.zeros((x.shape[1], hidden))
    wb, rb = b[:3 * hidden], b[3 * hidden:]
    ys = [None] * x.shape[0]
    steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
    for t in steps:
        xw = x[t] @ w.T + wb
        xz, xr, xh = np.split(xw, 3, axis=-1)
        rz, rr, rh = np.split(r, 3, axis=0)
        bz, br, bh = np.split(rb, 3)
        z = sigmoid(xz + h @ rz.T + bz)
        rs = sigmoid(xr + h @ rr.T + br)
        cand = np.tanh(xh + (rs * h) @ rh.T + bh)
        h = (1 - z) * cand + z * h
        ys[t] = h
    return np.stack(ys)


def main(argv):
    model_path, runner, workdir = argv[1:4]
    model = onnx.load(model_path)
    init = {t.name: numpy_helper.to_array(t).astype(np.float64)
            for t in model.graph.initializer}
    lstm_node, gru_node = model.graph.node
    attrs = {a.name: onnx.helper.get_attribute_value(a)
             for a in lstm_node.attribute}
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 2, 3)).astype(np.float32)  # batch first
    np.save(os.path.join(workdir, "x.npy"), x)
    xs = x.astype(np.float64).transpose(1, 0, 2)  # [seq, batch, input]

    y, yh, yc = lstm(xs, init["lw"][0], init["lr"][0], init["lb"][0],
                     init["h0"][:, 0], init["c0"][:, 0], init["lp"][0],
                     attrs["clip"], reverse=True)
    forward = gru(xs, init["gw"][0], init["gr"][0], init["gb"][0], False)
    backward = gru(xs, init["gw"][1], init["gr"][1], init["gb"][1], True)
    expected = [
        y[:, None].transpose(2, 0, 1, 3),           # [batch, seq, 1, hidden]
        yh[None].transpose(1, 0, 2),                 # [batch, 1, hidden]
        yc[None].transpose(1, 0, 2),
        np.stack([forward, backward], 1).transpose(2, 0, 1, 3),
    ]
    outputs = [os.path.join(workdir, f"out{i}.npy") for i in range(4)]
    subprocess.run([runner, model_path, "--reps=0",
                    "--inputs=" + os.path.join(workdir, "x.npy"),
                    "--outputs=" + ",".join(outputs)], check=True,
                   stdout=subprocess.DEVNULL)
    failures = 0
    for name, path, want in zip(["Y", "Y_h", "Y_c", "GRU Y"], outputs,
                                expected):
        got = np.load(path)
        ok = got.shape == want.shape and np.allclose(got, want, 1e-5, 1e-6)
        err = (float(np.abs(got - want).max()) if got.shape == want.shape
               else float("inf"))
        print(f"{name}: {'OK' if ok else 'MISMATCH'} {list(got.shape)} "
              f"max abs error {err:.2g}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
