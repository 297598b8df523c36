#!/usr/bin/python3
"""Times the GPU benchmark's models in PyTorch on the GPU: eager,
torch.compile (Inductor) and torch.compile's "reduce-overhead" mode (Inductor
with CUDA graphs), the peers GOpt's GPU code is compared with
(bench/gpu/README.md); the last is what `gopt-exec --cuda-graph` is set
against. Same shapes as bench/gpu/make_models.py's perf set;
each figure is the median wall time of single calls, each followed by a
synchronize (as gopt-exec times a call, which returns once its kernels are
done). Writes one JSON object, rewritten after every measurement: eager
for every model first, then torch.compile, then "reduce-overhead" (whose
compiles take longest), so a run cut short by a time limit (the GPU check
gives it five minutes) keeps what it measured.

  python3 bench/gpu/torch_peer.py OUT.json [--reps N] [--no-compile]
                                           [--no-graphs]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch


def time_calls(fn, reps, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    q = lambda p: times[min(len(times) - 1, int(p * (len(times) - 1) + 0.5))]
    return {"median": statistics.median(times), "q1": q(0.25), "q3": q(0.75),
            "min": times[0]}


def compile_and_time(entry, prefix, fn, inputs, reps, options):
    """torch.compile(fn, **options): into `entry`, PREFIXcompile_s (the
    compile and the first calls; reduce-overhead records its CUDA graph on
    the third) and PREFIXcompiled_ms, or PREFIXcompile_error."""
    try:
        start = time.perf_counter()
        compiled = torch.compile(fn, **options)
        for _ in range(3):
            compiled(*inputs)
        torch.cuda.synchronize()
        entry[prefix + "compile_s"] = time.perf_counter() - start
        entry[prefix + "compiled_ms"] = time_calls(lambda: compiled(*inputs),
                                                   reps)
    except Exception as e:  # noqa: BLE001 - report, go on
        entry[prefix + "compile_error"] = f"{type(e).__name__}: {e}"[:300]


def ew_chain(x):
    return (torch.nn.functional.gelu(x) * torch.sigmoid(x)
            + torch.tanh(x) * x)


def ew_light(x):
    return torch.relu(x * 0.5 + 0.25) * x


class ConvBlock(torch.nn.Module):
    """make_models.py's conv_block: a ResNet basic block and a strided 3x3
    convolution to twice the channels (cuDNN, no TF32)."""

    def __init__(self, c):
        super().__init__()
        self.c1 = torch.nn.Conv2d(c, c, 3, padding=1)
        self.c2 = torch.nn.Conv2d(c, c, 3, padding=1)
        self.c3 = torch.nn.Conv2d(c, 2 * c, 3, stride=2, padding=1)

    def forward(self, x):
        r1 = torch.relu(self.c1(x))
        r2 = torch.relu(self.c2(r1) + x)
        return torch.relu(self.c3(r2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument("--no-graphs", action="store_true",
                        help='skip torch.compile(mode="reduce-overhead")')
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    torch.manual_seed(0)
    x = torch.randn(8192, 4096, device=dev)
    ln = torch.nn.LayerNorm(4096).to(dev)
    a = torch.randn(1024, 1024, device=dev)
    b = torch.randn(1024, 1024, device=dev)
    lx = torch.randn(8192, 1024, device=dev)
    lw = torch.randn(1024, 1024, device=dev)
    lb = torch.randn(1024, device=dev)
    enc = torch.nn.TransformerEncoderLayer(
        d_model=768, nhead=12, dim_feedforward=3072, batch_first=True,
        activation="gelu", dropout=0.0).to(dev).eval()
    xe = torch.randn(1, 512, 768, device=dev)
    conv = ConvBlock(64).to(dev).eval()
    xc = torch.randn(1, 64, 56, 56, device=dev)
    models = {
        "ew_chain": (ew_chain, (x,)),
        "ew_light": (ew_light, (x,)),
        "softmax": (lambda t: torch.softmax(t, -1), (x,)),
        "layer_norm": (ln, (x,)),
        "matmul": (torch.matmul, (a, b)),
        "linear_bias": (lambda x, w, b: torch.relu(x @ w + b), (lx, lw, lb)),
        "encoder": (enc, (xe,)),
        "conv_block": (conv, (xc,)),
    }
    result = {"device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "models": {}}
    big = torch.empty(64 << 20, device=dev)
    big2 = torch.empty_like(big)
    copy = time_calls(lambda: big2.copy_(big), 20)
    result["copy_gb_per_s"] = 2 * big.numel() * 4 / (copy["median"] * 1e6)
    def save():
        with open(args.out + ".tmp", "w") as f:
            json.dump(result, f, indent=1)
        os.replace(args.out + ".tmp", args.out)

    passes = [("eager", None)]
    if not args.no_compile:
        passes.append(("", {}))
        if not args.no_graphs:
            passes.append(("graphs_", {"mode": "reduce-overhead"}))
    with torch.no_grad():
        for prefix, options in passes:
            for name, (fn, inputs) in models.items():
                entry = result["models"].setdefault(name, {})
                if options is None:
                    entry["eager_ms"] = time_calls(lambda: fn(*inputs),
                                                   args.reps)
                else:
                    compile_and_time(entry, prefix, fn, inputs, args.reps,
                                     options)
                save()
                print(f"torch_peer: {name} {prefix or 'compiled'}: "
                      f"{json.dumps(entry)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
