#!/usr/bin/env python3
"""Exports real PyTorch models to ONNX for the import tests.

    export_torch_models.py OUTDIR [--models mlp,transformer,resnet]
    export_torch_models.py OUTDIR --compare [--gopt-bin BUILD/bin]

The export writes, per model NAME, into OUTDIR:
    NAME.onnx          the model (random weights, seed 0, opset 17, static
                       shapes, eval mode)
    NAME.input.npy     the input it was traced with
    NAME.torch.npy     torch's output for that input

--compare imports each model with gopt-import-onnx and runs it with the CPU
runner gopt-run on NAME.input.npy, then compares with NAME.torch.npy. The
runner is built elsewhere; without BUILD/bin/gopt-run the step prints why it
is skipped and exits 0. --run-command gives the runner's command line as a
template ({runner}, {mlir}, {input}, {output}) in case its flags differ from
the default below. Models: a 3-layer MLP, a
torch.nn.TransformerEncoderLayer (batch_first, d_model 64, 4 heads) and a
reduced torchvision ResNet (BasicBlock, one block per stage),
torchvision's MobileNetV3-Small at 64x64, a reduced DenseNet and
ConvNeXt at 32x32, an FPN-like segmenter (nearest and bilinear
F.interpolate: Resize), a two-level UNet (ConvTranspose2d), a 1-D convolution net over time (Conv1d, pools,
PReLU, ELU), a net of normalizations (InstanceNorm2d, GroupNorm,
Softplus, Mish), a recurrent net (a bidirectional two-layer LSTM and a
GRU), a video net (3-D convolutions and pools) and a module of the torch
functions whose exports use the ONNX ops gopt composes, in the variants
MODELS lists.
"""

import argparse
import os
import shlex
import subprocess
import sys

import numpy as np
import torch
import torchvision

OPSET = 17


def mlp():
    model = torch.nn.Sequential(
        torch.nn.Linear(32, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, 64), torch.nn.GELU(),
        torch.nn.Linear(64, 10), torch.nn.Softmax(dim=-1))
    return model, torch.randn(4, 32)


def transformer():
    model = torch.nn.TransformerEncoderLayer(
        d_model=64, nhead=4, dim_feedforward=128, dropout=0.1,
        activation="gelu", batch_first=True)
    return model, torch.randn(2, 16, 64)


def resnet():
    model = torchvision.models.resnet.ResNet(
        torchvision.models.resnet.BasicBlock, [1, 1, 1, 1], num_classes=10)
    return model, torch.randn(1, 3, 64, 64)


# name -> (model factory, extra torch.onnx.export arguments). The
# "_unfolded" transformer keeps the shape arithmetic torch's constant folding
# would remove (Shape/Gather/Unsqueeze/Concat chains feeding Reshape); the
# "_bn" ResNet keeps its BatchNormalization nodes instead of folding them
# into the convolutions; "_dynamic" has a dynamic batch and sequence length
# (import it with --input-shape).
def mobilenet():
    model = torchvision.models.mobilenet_v3_small(num_classes=10)
    return model, torch.randn(1, 3, 64, 64)


def densenet():
    """A reduced torchvision DenseNet: every layer's input is the concat of
    all earlier features of its block."""
    model = torchvision.models.densenet.DenseNet(
        growth_rate=8, block_config=(2, 2), num_init_features=16, bn_size=2,
        num_classes=10)
    return model, torch.randn(1, 3, 32, 32)


def convnext():
    """A reduced torchvision ConvNeXt: depthwise 7x7 convolutions, and a
    layer norm over the channels between two permutes in each block."""
    config = torchvision.models.convnext.CNBlockConfig
    model = torchvision.models.convnext.ConvNeXt(
        [config(16, 32, 1), config(32, None, 1)], num_classes=10)
    return model, torch.randn(1, 3, 32, 32)


class _Segmenter(torch.nn.Module):
    """An FPN-like encoder-decoder: strided convolutions down, a nearest x2
    upsampling plus a lateral 1x1 convolution up, and the logits resized
    bilinearly to the input's size (torchvision's segmentation heads)."""

    def __init__(self):
        super().__init__()
        self.down1 = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.down2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.lateral = torch.nn.Conv2d(8, 16, 1)
        self.head = torch.nn.Conv2d(16, 4, 1)

    def forward(self, x):
        f = torch.nn.functional
        a = f.relu(self.down1(x))
        b = f.relu(self.down2(a))
        up = f.interpolate(b, scale_factor=2, mode="nearest") + self.lateral(a)
        y = self.head(f.relu(up))
        return f.interpolate(y, size=x.shape[-2:], mode="bilinear",
                             align_corners=False)


def segmenter():
    return _Segmenter(), torch.randn(1, 3, 32, 32)


class _UNet(torch.nn.Module):
    """A two-level UNet: the decoder upsamples with ConvTranspose2d (stride
    2) and concatenates the encoder's features."""

    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.down = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.dec = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, x):
        a = torch.relu(self.enc(x))
        b = torch.relu(self.down(a))
        return self.dec(torch.cat([a, torch.relu(self.up(b))], 1))


def unet():
    return _UNet(), torch.randn(1, 3, 32, 32)


def audio():
    """1-D convolutions (strided, dilated, grouped) and pools over time,
    PReLU, ELU, then a mean over time."""
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv1d(16, 32, 5, padding=2), nn.PReLU(32),
        nn.MaxPool1d(3, stride=2, padding=1),
        nn.Conv1d(32, 32, 3, stride=2, dilation=2, padding=2, groups=4),
        nn.ELU(0.7), nn.AvgPool1d(2), nn.Conv1d(32, 8, 1),
        nn.AdaptiveAvgPool1d(1))
    return model, torch.randn(2, 16, 64)


class _Recurrent(torch.nn.Module):
    """A two-layer bidirectional LSTM, batch first, then a GRU over its
    output sequence."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(8, 12, num_layers=2, bidirectional=True,
                                  batch_first=True)
        self.gru = torch.nn.GRU(24, 6, batch_first=True)

    def forward(self, x):
        return self.gru(self.lstm(x)[0])[0]


def recurrent():
    return _Recurrent(), torch.randn(2, 5, 8)


class _Mish(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.mish(x)


def norms():
    """InstanceNorm2d and GroupNorm (exported as InstanceNormalization on
    the groups), Softplus and Mish (Softplus, Tanh, Mul)."""
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3), nn.InstanceNorm2d(8, affine=True), nn.Softplus(),
        nn.Conv2d(8, 8, 3), nn.GroupNorm(2, 8), _Mish())
    return model, 3 * torch.randn(2, 3, 16, 16)


class _Video(torch.nn.Module):
    """3-D convolutions and pools over a clip: an R(2+1)D-like stem (a
    1x3x3 convolution, strided in H and W, then a 3x1x1 one, strided in
    time), a grouped and a dilated 3x3x3 convolution with a residual,
    max pooling (ceil mode), average pooling with and without the padding
    counted, and a mean over the clip."""

    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.spatial = nn.Conv3d(3, 8, (1, 3, 3), stride=(1, 2, 2),
                                 padding=(0, 1, 1))
        self.temporal = nn.Conv3d(8, 8, (3, 1, 1), stride=(2, 1, 1),
                                  padding=(1, 0, 0), bias=False)
        self.bn = nn.BatchNorm3d(8)
        self.grouped = nn.Conv3d(8, 8, 3, padding=1, groups=4)
        self.dilated = nn.Conv3d(8, 8, 3, padding=(2, 1, 1),
                                 dilation=(2, 1, 1))
        self.maxpool = nn.MaxPool3d(3, stride=2, padding=1, ceil_mode=True)
        self.avgpool = nn.AvgPool3d((3, 2, 2), stride=(1, 2, 2),
                                    padding=(1, 0, 0))
        self.avgpool_exclusive = nn.AvgPool3d(3, stride=1, padding=1,
                                              count_include_pad=False)
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        x = torch.relu(self.bn(self.temporal(self.spatial(x))))
        x = torch.relu(x + self.dilated(torch.relu(self.grouped(x))))
        x = self.avgpool_exclusive(self.avgpool(self.maxpool(x)))
        return self.head(torch.nn.functional.adaptive_avg_pool3d(x, 1)
                         .flatten(1))


def video():
    return _Video(), torch.randn(2, 3, 7, 24, 24)


class _TorchOps(torch.nn.Module):
    """torch functions whose exports use the ONNX ops gopt composes
    (docs/Import.md): log_softmax, normalize (ReduceL2), logsumexp, var and
    std (ReduceProd of a shape), pixel_shuffle / pixel_unshuffle, repeat
    (Tile), selu, celu, sign, floor, round, sin, cos, the logical ops,
    triu / tril (Trilu), cumsum, reflect and replicate padding, clamp with
    a tensor bound, dilated max pooling, adaptive max pooling to 1
    (GlobalMaxPool), argmax, topk, gather and one_hot, summed into one
    output."""

    def forward(self, x):
        F = torch.nn.functional
        y = F.log_softmax(x, 1) + F.normalize(x, dim=1)
        y = y + torch.logsumexp(x, 1, keepdim=True)
        y = y + torch.var(x, 1, keepdim=True) + torch.std(x, (2, 3),
                                                          keepdim=True)
        y = y + F.pixel_unshuffle(F.pixel_shuffle(x, 2) * 2, 2)
        y = y + x.repeat(1, 2, 1, 1)[:, 4:12]
        y = y + F.selu(x) + F.celu(x, 0.7) + torch.sign(x)
        y = y + torch.floor(x * 2) + torch.round(x * 2)
        y = y + torch.sin(x) * torch.cos(x)
        y = y + (((x > 0) & (x < 1)) | ((x < -1) ^ (x > -2))).float()
        y = y + torch.triu(x) + 0.5 * torch.tril(x, -1)
        y = y + 0.1 * torch.cumsum(x, 3)
        y = y + F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), 3, 1)
        y = y + F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
        y = y + torch.clamp(x, min=x.mean())
        y = y + F.max_pool2d(x, 2, stride=1, padding=1, dilation=2)
        y = y + F.adaptive_max_pool2d(x, 1)
        y = y + torch.argmax(x, 1, keepdim=True).float()
        y = y + torch.topk(x, 3, dim=1)[0].sum(1, keepdim=True)
        y = y + torch.gather(x, 3, torch.argsort(x[:, :1], 3).expand(-1, 8, -1, -1))
        return y + F.one_hot(torch.argmax(x, 1), 8).permute(0, 3, 1, 2)


def torch_ops():
    return _TorchOps(), torch.randn(2, 8, 6, 6)


MODELS = {
    "mlp": (mlp, {}),
    "transformer": (transformer, {}),
    "transformer_unfolded": (transformer, {"do_constant_folding": False}),
    "transformer_dynamic": (transformer, {
        "dynamic_axes": {"x": {0: "batch", 1: "sequence"}}}),
    "resnet": (resnet, {}),
    "mobilenet": (mobilenet, {}),
    "densenet": (densenet, {}),
    "convnext": (convnext, {}),
    "segmenter": (segmenter, {}),
    "unet": (unet, {}),
    "audio": (audio, {}),
    "norms": (norms, {}),
    "recurrent": (recurrent, {}),
    "video": (video, {}),
    "torch_ops": (torch_ops, {}),
    "resnet_bn": (resnet, {"do_constant_folding": False,
                           "training": torch.onnx.TrainingMode.PRESERVE}),
}


def export(outdir, names):
    for name in names:
        torch.manual_seed(0)
        factory, options = MODELS[name]
        model, x = factory()
        model.eval()
        path = os.path.join(outdir, name + ".onnx")
        with torch.no_grad():
            expected = model(x)
        # Tracing with autograd on keeps torch's fused inference kernels
        # (the transformer fast path) out of the exported graph.
        options = {"do_constant_folding": True, **options}
        torch.onnx.export(model, (x,), path, opset_version=OPSET,
                          input_names=["x"], output_names=["y"], **options)
        np.save(os.path.join(outdir, name + ".input.npy"), x.numpy())
        np.save(os.path.join(outdir, name + ".torch.npy"), expected.numpy())
        print(f"exported {path}")


# The optimized build: torch vs gopt-optimize is the strongest check.
RUN_COMMAND = ("{runner} {mlir} --reps=0 --pipeline=gopt-optimize "
               "--inputs={input} --outputs={output}")


def compare(outdir, names, gopt_bin, run_command, rtol, atol):
    runner = os.path.join(gopt_bin, "gopt-run")
    if not os.path.exists(runner):
        print(f"SKIPPED: numerical comparison needs the CPU runner {runner}, "
              "which is not built")
        return 0
    failures = 0
    for name in names:
        base = os.path.join(outdir, name)
        # The input's own shape: models with dynamic dims need it, and it is
        # what the static ones declare.
        shape = "x".join(str(d) for d in np.load(base + ".input.npy").shape)
        subprocess.run([os.path.join(gopt_bin, "gopt-import-onnx"),
                        base + ".onnx", "--input-shape", "x=" + shape,
                        "-o", base + ".mlir"], check=True)
        command = run_command.format(
            runner=shlex.quote(runner), mlir=shlex.quote(base + ".mlir"),
            input=shlex.quote(base + ".input.npy"),
            output=shlex.quote(base + ".gopt.npy"))
        subprocess.run(shlex.split(command), check=True)
        got = np.load(base + ".gopt.npy")
        want = np.load(base + ".torch.npy")
        ok = got.shape == want.shape and np.allclose(got, want, rtol, atol)
        err = float(np.max(np.abs(got - want))) if got.shape == want.shape \
            else float("inf")
        print(f"{name}: {'OK' if ok else 'MISMATCH'} max abs error {err:.3g}")
        failures += not ok
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--gopt-bin", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "build", "bin"))
    parser.add_argument("--run-command", default=RUN_COMMAND)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    args = parser.parse_args()
    names = [n for n in args.models.split(",") if n]
    for n in names:
        if n not in MODELS:
            parser.error(f"unknown model {n}; known: {', '.join(MODELS)}")
    os.makedirs(args.outdir, exist_ok=True)
    if args.compare:
        return compare(args.outdir, names, args.gopt_bin, args.run_command,
                       args.rtol, args.atol)
    export(args.outdir, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
