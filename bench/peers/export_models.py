#!/usr/bin/python3
"""Exports the side-by-side benchmark's models to ONNX (bench/peers).

    export_models.py OUTDIR [--models a,b,...] [--batch 1,8] [--list]

Per model NAME it writes into OUTDIR:
    NAME.onnx        torch.onnx.export, opset 17, eval mode, random weights
                     (seed 0), static shapes, do_constant_folding=True
    NAME.input.npy   the input it was traced with (seeded)
    NAME.torch.npy   torch's output for that input

Nothing is downloaded: torchvision models are built with weights=None, and
their BatchNorm statistics are set from a few seeded random batches (see
calibrate_batch_norm) so that their outputs keep a useful scale.
Families and the batch sizes they get by default:

    resnet18             torchvision resnet18, 1x3x224x224          (1)
    mobilenet_v3_small   torchvision mobilenet_v3_small, 224x224    (1)
    efficientnet_b0      torchvision efficientnet_b0, 224x224       (1)
    encoder_layer        nn.TransformerEncoderLayer d 256, 4 heads,
                         FF 1024, GELU, batch_first, seq 128        (1, 8)
    self_attention       nn.MultiheadAttention d 256, 4 heads,
                         self-attention, seq 128                    (1)
    mlp                  512->1024->1024->1024->10, GELU/ReLU       (8)

More torchvision families, not in the default set (name them with
--models; batch 1 unless --batch says otherwise), each a structure the
default set lacks: densenet121 (a concat of every earlier layer's
features), googlenet and inception_v3 (branches concatenated; 299x299),
squeezenet1_0 (fire modules: two convolutions concatenated),
shufflenet_v2_x1_0 (channel splits and shuffles), convnext_tiny (depthwise
7x7 convolutions, layer norm over channels-last permutes), regnet_y_400mf
(grouped convolutions, squeeze-excite), resnet50 (bottlenecks),
resnext50_32x4d (bottlenecks with 32 groups of 4 channels),
mobilenet_v2, swin_t (shifted-window attention: its masks and index
tables are Range, Mod and ScatterND chains on shapes), vit_b_16 (a
ViT-B/16 encoder, its zero-initialized head drawn at random so that the
output depends on the input), and two segmentation models whose heads
upsample with F.interpolate (ONNX Resize): lraspp_mobilenet_v3_large
(bilinear) and deeplabv3_mobilenet_v3_large (atrous convolutions, ASPP,
bilinear); 21 classes, their 'out' logits alone; lstm and gru, two
layers of 256 over a sequence of 64 steps of 128 features (ONNX LSTM and
GRU, which GOpt unrolls); and three video classifiers over a clip of 16
frames of 112x112 (3-D convolutions, which GOpt runs as 2-D ones over the
frames): r3d_18 (3x3x3 kernels), mc3_18 (3x3x3 in the first stages,
1x3x3 after) and r2plus1d_18 (each 3x3x3 factored into a 1x3x3 and a
3x1x1), and s3d over 16 frames of 224x224 (separable 3-D convolutions in
Inception branches, 3-D max and average pooling); gpt_decoder, a GPT-2-style
decoder-only language model over 128 token ids (int64; vocabulary 8192,
d 256, 4 heads, 4 blocks, causal attention (a -inf masked fill), GELU
(tanh), logits for every position), and gpt_decoder_s512, the same over
512 tokens, where attention weighs more.

--models takes family names (each at its default batches, or at --batch)
and full model names such as encoder_layer_s128_d256_b8. A model whose
export fails is reported and skipped; the others go on (exit 1 at the end).

The torch.nn.Module factories are importable (model_for_name) so that the
benchmark's torch contender rebuilds the very module that was exported.
"""

import argparse
import math
import os
import sys
import time
import traceback

import numpy as np
import torch
import torchvision

OPSET = 17
SEED = 0


class SelfAttention(torch.nn.Module):
    """nn.MultiheadAttention used as self-attention: y = MHA(x, x, x)."""

    def __init__(self, d_model, heads):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(d_model, heads,
                                               batch_first=True)

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


class SequenceEncoder(torch.nn.Module):
    """A recurrent encoder (nn.LSTM or nn.GRU), batch first: its output
    sequence alone."""

    def __init__(self, cell, input_size, hidden, layers):
        super().__init__()
        self.rnn = cell(input_size, hidden, num_layers=layers,
                        batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0]


class _DecoderBlock(torch.nn.Module):
    """A GPT-2 block: pre-norm causal self-attention (fused QKV projection,
    the future masked with -inf), then a GELU (tanh) MLP of 4·d."""

    def __init__(self, d_model, heads, seq):
        super().__init__()
        nn = torch.nn
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.fc = nn.Linear(d_model, 4 * d_model)
        self.out = nn.Linear(4 * d_model, d_model)
        self.register_buffer(
            "causal", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, 2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2)
                   for z in (q, k, v))
        att = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        att = att.masked_fill(~self.causal[:t, :t], float("-inf"))
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        h = torch.nn.functional.gelu(self.fc(self.ln2(x)), approximate="tanh")
        return x + self.out(h)


class Decoder(torch.nn.Module):
    """A GPT-2-style decoder-only language model over token ids: token and
    learned position embeddings, `layers` blocks, a final layer norm and
    the vocabulary projection; its logits for every position."""

    def __init__(self, vocab, d_model, heads, layers, seq):
        super().__init__()
        nn = torch.nn
        self.tokens = nn.Embedding(vocab, d_model)
        self.positions = nn.Embedding(seq, d_model)
        self.blocks = nn.ModuleList(
            [_DecoderBlock(d_model, heads, seq) for _ in range(layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids):
        x = self.tokens(ids) + self.positions(
            torch.arange(ids.shape[1], device=ids.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


DECODER_VOCAB = 8192


def _mlp():
    return torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.GELU(),
        torch.nn.Linear(1024, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 1024), torch.nn.GELU(),
        torch.nn.Linear(1024, 10))


def _encoder_layer():
    return torch.nn.TransformerEncoderLayer(
        d_model=256, nhead=4, dim_feedforward=1024, batch_first=True,
        activation="gelu")


def calibrate_batch_norm(model, shape, batches=2, batch_size=2):
    """Sets every BatchNorm's running statistics to the batch statistics of
    a few seeded random inputs, so that a randomly initialized CNN's eval-mode
    activations keep their scale (with the default mean 0, variance 1 the
    outputs of efficientnet_b0 fall to about 1e-14 and every comparison at
    atol 1e-5 would pass). One thread, so every rebuild gets the same
    statistics."""
    norms = [m for m in model.modules()
             if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a cumulative average over the batches
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model.train()
        with torch.no_grad():
            for _ in range(batches):
                model(torch.randn(batch_size, *shape[1:]))
    finally:
        torch.set_num_threads(threads)
        model.eval()


def _cnn(factory):
    """A torchvision CNN with random weights and calibrated BatchNorms."""
    def build():
        model = factory(weights=None)
        calibrate_batch_norm(model, (1, 3, 224, 224))
        return model
    return build


def _torchvision(name, size=224, **kwargs):
    """A torchvision model by name, built as _cnn builds the default ones."""
    def build():
        model = getattr(torchvision.models, name)(weights=None, **kwargs)
        calibrate_batch_norm(model, (1, 3, size, size))
        return model
    return build


def _vit_b_16():
    """ViT-B/16 with a random head: torchvision zero-initializes it, and an
    all-zero output would match any engine."""
    model = torchvision.models.vit_b_16(weights=None)
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    return model


class _SegmentationLogits(torch.nn.Module):
    """A torchvision segmentation model's 'out' logits alone (the models
    return a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def _segmentation(name, size=224):
    """A torchvision segmentation model (21 classes, no auxiliary head),
    random weights, calibrated BatchNorms: its head upsamples with
    F.interpolate, ONNX's Resize."""
    def build():
        model = getattr(torchvision.models.segmentation, name)(
            weights=None, weights_backbone=None, num_classes=21)
        model = _SegmentationLogits(model)
        calibrate_batch_norm(model, (1, 3, size, size))
        return model
    return build


def _video(name, frames=16, size=112):
    """A torchvision video classifier (3-D convolutions over a clip of
    `frames` frames of size x size), random weights, calibrated
    BatchNorms."""
    def build():
        model = getattr(torchvision.models.video, name)(weights=None)
        calibrate_batch_norm(model, (1, 3, frames, size, size))
        return model
    return build


def _image(size):
    return lambda b: (b, 3, size, size)


# family -> (name template, module factory, input shape for batch b,
#            default batches)
FAMILIES = {
    "resnet18": ("resnet18_b{b}", _cnn(torchvision.models.resnet18),
                 lambda b: (b, 3, 224, 224), (1,)),
    "mobilenet_v3_small": ("mobilenet_v3_small_b{b}",
                           _cnn(torchvision.models.mobilenet_v3_small),
                           lambda b: (b, 3, 224, 224), (1,)),
    "efficientnet_b0": ("efficientnet_b0_b{b}",
                        _cnn(torchvision.models.efficientnet_b0),
                        lambda b: (b, 3, 224, 224), (1,)),
    "encoder_layer": ("encoder_layer_s128_d256_b{b}", _encoder_layer,
                      lambda b: (b, 128, 256), (1, 8)),
    "self_attention": ("self_attention_s128_d256_b{b}",
                       lambda: SelfAttention(256, 4),
                       lambda b: (b, 128, 256), (1,)),
    "mlp": ("mlp_512x1024x3_b{b}", _mlp, lambda b: (b, 512), (8,)),
}

# Families exported only when named (--models); the same tuples.
EXTRA_FAMILIES = {
    name: (name + "_b{b}", _torchvision(name, size, **kwargs), _image(size),
           (1,))
    for name, size, kwargs in (
        ("densenet121", 224, {}),
        ("googlenet", 224, {"aux_logits": False, "init_weights": True}),
        ("inception_v3", 299, {"aux_logits": False, "init_weights": True}),
        ("squeezenet1_0", 224, {}),
        ("shufflenet_v2_x1_0", 224, {}),
        ("convnext_tiny", 224, {}),
        ("regnet_y_400mf", 224, {}),
        ("resnet50", 224, {}),
        ("resnext50_32x4d", 224, {}),
        ("mobilenet_v2", 224, {}),
        ("swin_t", 224, {}),
    )
}
EXTRA_FAMILIES["vit_b_16"] = ("vit_b_16_b{b}", _vit_b_16, _image(224), (1,))
EXTRA_FAMILIES["lstm"] = (
    "lstm_s64_h256_b{b}",
    lambda: SequenceEncoder(torch.nn.LSTM, 128, 256, 2),
    lambda b: (b, 64, 128), (1,))
EXTRA_FAMILIES["gru"] = (
    "gru_s64_h256_b{b}",
    lambda: SequenceEncoder(torch.nn.GRU, 128, 256, 2),
    lambda b: (b, 64, 128), (1,))
for _name in ("lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large"):
    EXTRA_FAMILIES[_name] = (_name + "_b{b}", _segmentation(_name),
                             _image(224), (1,))
for _name in ("r3d_18", "mc3_18", "r2plus1d_18"):
    EXTRA_FAMILIES[_name] = (_name + "_b{b}", _video(_name),
                             lambda b: (b, 3, 16, 112, 112), (1,))
EXTRA_FAMILIES["s3d"] = ("s3d_b{b}", _video("s3d", 16, 224),
                         lambda b: (b, 3, 16, 224, 224), (1,))
# Token ids rather than a float input: the input function returns the
# tensor itself.
for _seq in (128, 512):
    EXTRA_FAMILIES["gpt_decoder" if _seq == 128 else f"gpt_decoder_s{_seq}"] = (
        f"gpt_decoder_s{_seq}_d256_b{{b}}",
        lambda seq=_seq: Decoder(DECODER_VOCAB, 256, 4, 4, seq),
        lambda b, seq=_seq: torch.randint(0, DECODER_VOCAB, (b, seq)), (1,))
ALL_FAMILIES = {**FAMILIES, **EXTRA_FAMILIES}


def _model_names():
    """Every model name of the default set -> (family, batch)."""
    names = {}
    for family, (template, _, _, batches) in FAMILIES.items():
        for b in batches:
            names[template.format(b=b)] = (family, b)
    return names


def parse_name(name):
    """Splits a full model name into (family, batch); None if unknown."""
    for family, (template, _, _, _) in ALL_FAMILIES.items():
        prefix, suffix = template.split("{b}")
        if name.startswith(prefix) and name.endswith(suffix):
            middle = name[len(prefix):len(name) - len(suffix)]
            if middle.isdigit():
                return family, int(middle)
    return None


def resolve(models=None, batches=None):
    """Turns --models / --batch into an ordered list of full model names.

    models: list of family or full names (None: every family); batches:
    list of ints overriding each family's default batches (None: defaults).
    Raises ValueError on an unknown name.
    """
    models = models or list(FAMILIES)
    out = []
    for m in models:
        if m in ALL_FAMILIES:
            template, _, _, default = ALL_FAMILIES[m]
            out += [template.format(b=b) for b in (batches or default)]
        elif parse_name(m):
            out.append(m)
        else:
            raise ValueError(
                f"unknown model {m!r}; families: {', '.join(FAMILIES)}; "
                f"more families: {', '.join(EXTRA_FAMILIES)}; "
                f"default names: {', '.join(_model_names())}")
    return list(dict.fromkeys(out))


def model_for_name(name):
    """Builds (module in eval mode, seeded input) for a full model name.

    Seeds torch's generator with SEED before building the module and again
    before drawing the input, so every call gives the same weights and input.
    """
    parsed = parse_name(name)
    if parsed is None:
        raise ValueError(f"unknown model {name!r}")
    family, batch = parsed
    _, factory, shape, _ = ALL_FAMILIES[family]
    torch.manual_seed(SEED)
    model = factory()
    model.eval()
    torch.manual_seed(SEED)
    spec = shape(batch)
    x = spec if isinstance(spec, torch.Tensor) else torch.randn(*spec)
    return model, x


def export_one(outdir, name):
    """Exports one model; returns the .onnx path."""
    model, x = model_for_name(name)
    path = os.path.join(outdir, name + ".onnx")
    with torch.no_grad():
        expected = model(x)
    # Tracing with autograd on keeps torch's fused inference kernels (the
    # transformer fast path) out of the exported graph, as in
    # test/Import/ONNX/export_torch_models.py.
    torch.onnx.export(model, (x,), path, opset_version=OPSET,
                      input_names=["x"], output_names=["y"],
                      do_constant_folding=True)
    np.save(os.path.join(outdir, name + ".input.npy"), x.numpy())
    np.save(os.path.join(outdir, name + ".torch.npy"), expected.numpy())
    return path


def export(outdir, names):
    """Exports every named model, skipping failures; returns the failures."""
    os.makedirs(outdir, exist_ok=True)
    failed = []
    for name in names:
        start = time.perf_counter()
        try:
            path = export_one(outdir, name)
        except Exception as e:  # noqa: BLE001 - any export error skips it
            reason = str(e).strip().splitlines()[0] if str(e).strip() \
                else type(e).__name__
            print(f"export of {name} FAILED, skipped: {type(e).__name__}: "
                  f"{reason}", file=sys.stderr)
            if os.environ.get("GOPT_PEERS_DEBUG"):
                traceback.print_exc()
            for ext in (".onnx", ".input.npy", ".torch.npy"):
                p = os.path.join(outdir, name + ext)
                if os.path.exists(p):
                    os.remove(p)
            failed.append(name)
            continue
        size = os.path.getsize(path) / 2**20
        print(f"exported {path} ({size:.1f} MiB, "
              f"{time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?")
    parser.add_argument("--models", default="",
                        help="comma-separated families or full names "
                             "(default: the default set's families)")
    parser.add_argument("--batch", default="",
                        help="comma-separated batch sizes overriding each "
                             "family's defaults, e.g. 1,8")
    parser.add_argument("--list", action="store_true",
                        help="print the resolved model names and exit")
    args = parser.parse_args(argv)
    models = [m for m in args.models.split(",") if m]
    try:
        batches = [int(b) for b in args.batch.split(",") if b]
        names = resolve(models, batches)
    except ValueError as e:
        parser.error(str(e))
    if args.list:
        print("\n".join(names))
        return 0
    if not args.outdir:
        parser.error("OUTDIR is required")
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    failed = export(args.outdir, names)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
