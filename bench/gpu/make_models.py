#!/usr/bin/python3
"""Writes the GPU benchmark's models and their inputs (bench/gpu/README.md).

Every model is written as gopt IR (``NAME.mlir``) with its input as .npy
(``NAME.input0.npy``, ...); the encoder layer is exported from torch to
ONNX first (``encoder.onnx``), and the caller imports it. Inputs and
weights take few distinct values (multiples of 1/64 in a small range), so
bundles of large tensors compress well enough to travel to a GPU machine;
the arithmetic and the kernels do not depend on the values.

  python3 bench/gpu/make_models.py OUTDIR [--small]

--small writes shapes a CPU reference computes in seconds (for tests).
"""
import argparse
import os

import numpy as np

SEED = 0


def coarse(rng, shape, scale=1.0):
    """Values k/64 * scale for k in [-64, 64]."""
    return (rng.integers(-64, 65, size=shape) / 64.0 * scale).astype(np.float32)


def shape_text(shape):
    return "x".join(str(d) for d in shape) + "xf32"


def elementwise_chain(rows, cols):
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""// y = gelu(x) * sigmoid(x) + tanh(x) * x: six elementwise ops, one
// fused kernel; bytes moved = one read and one write of x's size.
func.func @main(%x: {t}) -> {t} {{
  %g = gopt.gelu %x : {t}
  %s = gopt.sigmoid %x : {t}
  %gs = gopt.mul %g, %s : {t}, {t} -> {t}
  %th = gopt.tanh %x : {t}
  %tx = gopt.mul %th, %x : {t}, {t} -> {t}
  %y = gopt.add %gs, %tx : {t}, {t} -> {t}
  return %y : {t}
}}
"""


def light_chain(rows, cols):
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""// y = relu(x * 0.5 + 0.25) * x: four cheap elementwise ops, one fused
// kernel of about 20 PTX instructions per element (ew_chain's takes 80,
// erf, exp and tanh among them): memory-bound, what the copy bandwidth
// target measures. Bytes moved: one read and one write of x's size.
func.func @main(%x: {t}) -> {t} {{
  %a = gopt.constant dense<0.5> : tensor<f32>
  %b = gopt.constant dense<0.25> : tensor<f32>
  %m = gopt.mul %x, %a : {t}, tensor<f32> -> {t}
  %s = gopt.add %m, %b : {t}, tensor<f32> -> {t}
  %r = gopt.relu %s : {t}
  %y = gopt.mul %r, %x : {t}, {t} -> {t}
  return %y : {t}
}}
"""


def softmax(rows, cols):
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""func.func @main(%x: {t}) -> {t} {{
  %y = gopt.softmax %x axis = -1 : {t}
  return %y : {t}
}}
"""


def reductions(rows, cols):
    """Row and column reductions at sizes no block divides (correctness of
    the one-block-per-tile mapping: partial blocks, strided columns, a
    whole-tensor reduction on one block)."""
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""func.func @main(%x: {t}) -> ({t}, tensor<{cols}xf32>, tensor<{rows}xf32>, tensor<f32>) {{
  %s = gopt.softmax %x axis = -1 : {t}
  %c = gopt.reduce sum %x axes = [0] : {t} -> tensor<{cols}xf32>
  %m = gopt.reduce mean %x axes = [1] : {t} -> tensor<{rows}xf32>
  %a = gopt.reduce max %x axes = [0, 1] : {t} -> tensor<f32>
  return %s, %c, %m, %a : {t}, tensor<{cols}xf32>, tensor<{rows}xf32>, tensor<f32>
}}
"""


def dense_text(values):
    return "[" + ", ".join(f"{v:.6f}" for v in values) + "]"


def layer_norm(rows, cols, rng):
    t = f"tensor<{rows}x{cols}xf32>"
    v = f"tensor<{cols}xf32>"
    gamma = 1.0 + coarse(rng, (cols,), 0.25)
    beta = coarse(rng, (cols,), 0.25)
    return f"""func.func @main(%x: {t}) -> {t} {{
  %g = gopt.constant dense<{dense_text(gamma)}> : {v}
  %b = gopt.constant dense<{dense_text(beta)}> : {v}
  %y = gopt.layer_norm %x, %g, %b axes = [1] eps = 1.0e-05 : {t}, {v}, {v}
  return %y : {t}
}}
"""


def matmul(m, k, n):
    a, b, c = (f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>",
               f"tensor<{m}x{n}xf32>")
    return f"""func.func @main(%a: {a}, %b: {b}) -> {c} {{
  %c = gopt.matmul %a, %b : {a}, {b} -> {c}
  return %c : {c}
}}
"""


def linear_bias(m, k, n):
    """A linear layer with a bias vector and a ReLU (what cuBLASLt's
    RELU_BIAS epilogue computes in the GEMM)."""
    a, w, b, c = (f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>",
                  f"tensor<{n}xf32>", f"tensor<{m}x{n}xf32>")
    return f"""func.func @main(%x: {a}, %w: {w}, %b: {b}) -> {c} {{
  %h = gopt.matmul %x, %w : {a}, {w} -> {c}
  %hb = gopt.add %h, %b : {c}, {b} -> {c}
  %y = gopt.relu %hb : {c}
  return %y : {c}
}}
"""


def hex_constant(values):
    """A gopt.constant's value as MLIR's hex form of the raw f32 data."""
    return '"0x' + values.astype("<f4").tobytes().hex().upper() + '"'


def conv_block(c, hw, rng):
    """A ResNet basic block and the next stage's strided convolution
    (ResNet-18's layer1 → layer2 shapes at c=64, hw=56): 3x3 convolutions
    with a bias, ReLU, a residual. Weights are constants scaled by
    1/sqrt(fan-in), so activations keep their scale."""
    x = f"tensor<1x{c}x{hw}x{hw}xf32>"
    y = f"tensor<1x{2 * c}x{hw // 2}x{hw // 2}xf32>"
    scale = 1.0 / np.sqrt(9 * c)
    consts = []
    for name, shape in (("w1", (c, c, 3, 3)), ("b1", (c,)),
                        ("w2", (c, c, 3, 3)), ("b2", (c,)),
                        ("w3", (2 * c, c, 3, 3)), ("b3", (2 * c,))):
        values = coarse(rng, shape, scale if name[0] == "w" else 0.25)
        consts.append(f"  %{name} = gopt.constant dense<{hex_constant(values)}>"
                      f" : tensor<{shape_text(shape)}>")
    w = f"tensor<{c}x{c}x3x3xf32>"
    w3 = f"tensor<{2 * c}x{c}x3x3xf32>"
    b, b3 = f"tensor<{c}xf32>", f"tensor<{2 * c}xf32>"
    conv = ("strides = [{s}, {s}] padding = [1, 1, 1, 1] dilations = [1, 1] "
            "groups = 1")
    return "\n".join([
        f"// ResNet basic block ({c} channels, {hw}x{hw}) and a strided",
        f"// 3x3 convolution to {2 * c} channels.",
        f"func.func @main(%x: {x}) -> {y} {{"] + consts + [
        f"  %c1 = gopt.conv2d %x, %w1, %b1 {conv.format(s=1)} : {x}, {w}, {b} -> {x}",
        f"  %r1 = gopt.relu %c1 : {x}",
        f"  %c2 = gopt.conv2d %r1, %w2, %b2 {conv.format(s=1)} : {x}, {w}, {b} -> {x}",
        f"  %s2 = gopt.add %c2, %x : {x}",
        f"  %r2 = gopt.relu %s2 : {x}",
        f"  %c3 = gopt.conv2d %r2, %w3, %b3 {conv.format(s=2)} : {x}, {w3}, {b3} -> {y}",
        f"  %r3 = gopt.relu %c3 : {y}",
        f"  return %r3 : {y}",
        "}", ""])


def export_encoder(outdir, seq, d, heads, rng):
    import torch
    torch.manual_seed(SEED)
    layer = torch.nn.TransformerEncoderLayer(
        d_model=d, nhead=heads, dim_feedforward=4 * d, batch_first=True,
        activation="gelu", dropout=0.0).eval()
    with torch.no_grad():
        for p in layer.parameters():
            p.copy_(torch.round(p * 1024) / 1024)
    x = torch.from_numpy(coarse(rng, (1, seq, d)))
    # Autograd on keeps torch's fused inference path out of the export
    # (as bench/peers/export_models.py does).
    torch.onnx.export(layer, (x,), os.path.join(outdir, "encoder.onnx"),
                      opset_version=17, input_names=["x"],
                      output_names=["y"], do_constant_folding=True)
    np.save(os.path.join(outdir, "encoder.input0.npy"), x.numpy())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--small", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(SEED)
    big = not args.small
    rows, cols = (8192, 4096) if big else (64, 256)
    models = {
        "ew_chain": (elementwise_chain(rows, cols), [(rows, cols)]),
        "ew_light": (light_chain(rows, cols), [(rows, cols)]),
        "softmax": (softmax(rows, cols), [(rows, cols)]),
        "layer_norm": (layer_norm(rows, cols, rng), [(rows, cols)]),
    }
    if not big:
        models["reductions"] = (reductions(33, 1000), [(33, 1000)])
    mm = 1024 if big else 64
    models["matmul"] = (matmul(mm, mm, mm), [(mm, mm), (mm, mm)])
    lm, lk, ln = (8192, 1024, 1024) if big else (64, 48, 40)
    models["linear_bias"] = (linear_bias(lm, lk, ln),
                             [(lm, lk), (lk, ln), (ln,)])
    cc, chw = (64, 56) if big else (8, 12)
    models["conv_block"] = (conv_block(cc, chw, rng), [(1, cc, chw, chw)])
    for name, (text, shapes) in models.items():
        with open(os.path.join(args.outdir, name + ".mlir"), "w") as f:
            f.write(text)
        for i, shape in enumerate(shapes):
            np.save(os.path.join(args.outdir, f"{name}.input{i}.npy"),
                    coarse(rng, shape, 4.0 if name not in ("matmul",
                                                           "linear_bias",
                                                           "conv_block")
                           else 1.0))
    seq, d, heads = (512, 768, 12) if big else (16, 64, 4)
    export_encoder(args.outdir, seq, d, heads, rng)


if __name__ == "__main__":
    main()
