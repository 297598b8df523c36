#!/usr/bin/env python3
"""Checks gopt-run on common ONNX ops against a numpy reference.

    common_ops_reference.py GOPT_RUN WORKDIR [--only NAME[,NAME...]]
                            [GOPT_RUN_FLAGS...]

Each case builds a small opset-17 model with static shapes and one output,
writes it to WORKDIR/NAME.onnx, its inputs (seeded random data, the seed a
hash of NAME) to WORKDIR/NAME.in<i>.npy and its expected output to
WORKDIR/NAME.out.npy, then runs gopt-run on it with --expect (and the
GOPT_RUN_FLAGS). The reference computes each case in float64 from the ONNX
operator definitions and casts it to the output's type (float32, or int64
and bool exactly); it shares no code with the importer. Prints one line per
case, `NAME: ok`, `NAME: MISMATCH <gopt-run's comparison>` or
`NAME: FAILED <reason>`, and exits 1 unless every case is ok.
"""

import itertools
import os
import subprocess
import sys
import zlib
from collections import namedtuple

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ELEM_TYPES = {np.dtype(np.float32): TensorProto.FLOAT,
              np.dtype(np.int64): TensorProto.INT64,
              np.dtype(np.bool_): TensorProto.BOOL}

# nodes compute "out" from the graph inputs `inputs` (name -> array, in
# graph-input order) and the initializers `inits`; `want` is the reference.
Case = namedtuple("Case", "nodes inputs want inits", defaults=((),))
CASES = {}  # name -> (function, keyword arguments), in the order run


def case(**variants):
    """Registers the decorated function once per NAME=kwargs, or once under
    its own name without arguments."""
    def register(fn):
        for name, kwargs in (variants or {fn.__name__: {}}).items():
            CASES[name] = (fn, kwargs)
        return fn
    return register


def node(op, ins, out="out", **attrs):
    return helper.make_node(op, ins, [out], name=out, **attrs)


def const(name, value, dtype=np.float32):
    return numpy_helper.from_array(np.array(value, dtype=dtype), name)


def normal(rng, shape):
    return rng.standard_normal(shape).astype(np.float32)


def f64(x):
    return x.astype(np.float64)


def unary(op, x, ref, **attrs):
    return Case([node(op, ["x"], **attrs)], {"x": x}, ref(f64(x)))


# --- softmax and reductions -----------------------------------------------


@case(log_softmax=dict(axis=-1), log_softmax_axis1=dict(axis=1))
def log_softmax(rng, axis):
    x = normal(rng, [2, 5, 7])
    v = f64(x)
    shifted = v - v.max(axis=axis, keepdims=True)
    want = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return Case([node("LogSoftmax", ["x"], axis=axis)], {"x": x}, want)


def reduce(op, x, axes, keepdims, ref):
    """ref(v, axis, keepdims) over `axes`, all of them when None."""
    attrs = {"keepdims": keepdims} if axes is None else \
        {"axes": axes, "keepdims": keepdims}
    want = ref(f64(x), axis=None if axes is None else tuple(axes),
               keepdims=bool(keepdims))
    return Case([node(op, ["x"], **attrs)], {"x": x}, want)


def l2(v, **kw):
    return np.sqrt(np.square(v).sum(**kw))


@case()
def reduce_l1(rng):
    return reduce("ReduceL1", normal(rng, [2, 5, 7]), [1], 1,
                  lambda v, **kw: np.abs(v).sum(**kw))


@case()
def reduce_l2(rng):
    return reduce("ReduceL2", normal(rng, [2, 5, 7]), [2], 0, l2)


@case()
def reduce_sum_square(rng):
    return reduce("ReduceSumSquare", normal(rng, [2, 5, 7]), [0, 2], 1,
                  lambda v, **kw: np.square(v).sum(**kw))


@case()
def reduce_log_sum_exp(rng):
    # Values up to about 140: exp overflows float32 past 88 (in 3 of the 10
    # rows here), so the importer must shift by the max; float64 is fine.
    x = 60 * normal(rng, [2, 5, 7])
    return reduce("ReduceLogSumExp", x, [2], 0,
                  lambda v, **kw: np.log(np.exp(v).sum(**kw)))


@case()
def reduce_prod(rng):
    x = rng.uniform(0.5, 1.5, [2, 5, 7]).astype(np.float32)
    return reduce("ReduceProd", x, [1], 1, np.prod)


@case()
def reduce_l2_all(rng):
    return reduce("ReduceL2", normal(rng, [2, 5, 7]), None, 1, l2)


@case()
def global_max_pool(rng):
    return unary("GlobalMaxPool", normal(rng, [2, 3, 5, 6]),
                 lambda v: v.max(axis=(2, 3), keepdims=True))


# --- index-valued reductions ----------------------------------------------


def ties(rng):
    return rng.integers(0, 3, [2, 6, 4]).astype(np.float32)


@case(argmax=dict(op="ArgMax", axis=2, keepdims=0),
      argmin_keep=dict(op="ArgMin", axis=1, keepdims=1),
      argmax_last=dict(op="ArgMax", axis=1, keepdims=1, last=1, x=ties),
      argmax_first_ties=dict(op="ArgMax", axis=1, keepdims=1, last=0,
                             x=ties))
def arg_reduce(rng, op, axis, keepdims, last=None, x=None):
    x = normal(rng, [2, 5, 7]) if x is None else x(rng)
    attrs = {"axis": axis, "keepdims": keepdims}
    if last is not None:
        attrs["select_last_index"] = last
    pick = np.argmax if op == "ArgMax" else np.argmin
    v = f64(x)
    if last:
        want = v.shape[axis] - 1 - pick(np.flip(v, axis), axis=axis)
    else:
        want = pick(v, axis=axis)
    if keepdims:
        want = np.expand_dims(want, axis)
    return Case([node(op, ["x"], **attrs)], {"x": x},
                want.astype(np.int64))


def with_infinities(rng):
    x = rng.integers(0, 3, [2, 6, 4]).astype(np.float32)
    x[:, ::2] = -np.inf
    return x


@case(topk_values=dict(k=3, output=0),
      topk_indices=dict(k=3, output=1),
      topk_smallest_ties=dict(k=4, axis=1, largest=0, output=1, x=ties),
      topk_ties_values=dict(k=4, axis=1, largest=1, output=0, x=ties),
      topk_all_with_infinities=dict(k=6, axis=1, output=1,
                                    x=with_infinities),
      topk_int=dict(k=2, axis=0, output=1, integers=True))
def topk(rng, k, output, axis=-1, largest=1, x=None, integers=False):
    if integers:
        x = rng.integers(-3, 3, [5, 4]).astype(np.int64)
    else:
        x = normal(rng, [2, 5, 7]) if x is None else x(rng)
    # The K greatest (least), ties in index order: a stable sort.
    v = x if integers else f64(x)
    order = np.argsort(-v if largest else v, axis=axis, kind="stable")
    order = np.take(order, np.arange(k), axis=axis)
    want = order if output else np.take_along_axis(v, order, axis=axis)
    outs = ["out", "unused"] if output == 0 else ["unused", "out"]
    n = helper.make_node("TopK", ["x", "k"], outs, name="topk", axis=axis,
                         largest=largest)
    return Case([n], {"x": x}, want.astype(np.int64) if output else want,
                [const("k", [k], np.int64)])


# --- data movement --------------------------------------------------------


@case(gather_elements=dict(axis=1),
      gather_elements_last_axis=dict(axis=-1))
def gather_elements(rng, axis):
    x = normal(rng, [3, 5, 4])
    shape = [3, 6, 4] if axis == 1 else [2, 5, 3]
    extent = x.shape[axis]
    # Negative indices count from the back.
    idx = rng.integers(-extent, extent, shape).astype(np.int64)
    # Indices smaller than x off the axis read x's leading part there.
    lead = tuple(slice(None) if d == axis % x.ndim else slice(0, size)
                 for d, size in enumerate(shape))
    want = np.take_along_axis(f64(x)[lead],
                              np.where(idx < 0, idx + extent, idx), axis=axis)
    return Case([node("GatherElements", ["x", "idx"], axis=axis)],
                {"x": x}, want, [const("idx", idx, np.int64)])


@case(cumsum=dict(axis=1),
      cumsum_exclusive_reverse=dict(axis=-1, exclusive=1, reverse=1),
      cumsum_int=dict(axis=1, integers=True))
def cumsum(rng, axis, exclusive=0, reverse=0, integers=False):
    x = rng.integers(-5, 5, [3, 8]) if integers else normal(rng, [2, 6, 3])
    v = x if integers else f64(x)
    if reverse:
        v = np.flip(v, axis)
    sums = np.cumsum(v, axis=axis)
    if exclusive:
        # Element i sums the elements before i: shift by one, 0 first.
        zero = np.zeros_like(np.take(sums, [0], axis=axis))
        sums = np.concatenate(
            [zero, np.delete(sums, -1, axis=axis)], axis=axis)
    if reverse:
        sums = np.flip(sums, axis)
    return Case([node("CumSum", ["x", "axis"], exclusive=exclusive,
                      reverse=reverse)], {"x": x}, sums,
                [const("axis", axis, np.int64)])


@case(tile=dict(repeats=[2, 1, 3]), tile_ones=dict(repeats=[1, 1, 1]))
def tile(rng, repeats):
    x = normal(rng, [2, 3, 4])
    return Case([node("Tile", ["x", "repeats"])], {"x": x},
                np.tile(f64(x), repeats),
                [const("repeats", repeats, np.int64)])


@case(depth_to_space_dcr=dict(mode="DCR"),
      depth_to_space_crd=dict(mode="CRD"))
def depth_to_space(rng, mode):
    x = normal(rng, [1, 8, 3, 4])
    b, c, h, w = x.shape
    bs = 2
    # The operator's definition: DCR takes the depth as [bs, bs, C'], CRD
    # as [C', bs, bs].
    if mode == "DCR":
        t = f64(x).reshape(b, bs, bs, c // bs**2, h, w)
        t = t.transpose(0, 3, 4, 1, 5, 2)
    else:
        t = f64(x).reshape(b, c // bs**2, bs, bs, h, w)
        t = t.transpose(0, 1, 4, 2, 5, 3)
    want = t.reshape(b, c // bs**2, h * bs, w * bs)
    return Case([node("DepthToSpace", ["x"], blocksize=bs, mode=mode)],
                {"x": x}, want)


@case()
def space_to_depth(rng):
    x = normal(rng, [1, 2, 4, 6])
    b, c, h, w = x.shape
    bs = 2
    # Block rows and columns go before the channels (DCR's inverse).
    t = f64(x).reshape(b, c, h // bs, bs, w // bs, bs)
    want = t.transpose(0, 3, 5, 1, 2, 4).reshape(b, c * bs**2, h // bs,
                                                   w // bs)
    return Case([node("SpaceToDepth", ["x"], blocksize=bs)], {"x": x}, want)


@case(trilu_upper=dict(upper=1, k=1, shape=[2, 4, 5]),
      trilu_lower=dict(upper=0, k=None, shape=[2, 5, 4]),
      trilu_lower_neg=dict(upper=0, k=-1, shape=[3, 6]))
def trilu(rng, upper, k, shape):
    x = normal(rng, shape)
    # Upper keeps column - row >= k of the last two dims, lower <= k.
    want = (np.triu if upper else np.tril)(f64(x), 0 if k is None else k)
    if k is None:
        return Case([node("Trilu", ["x"], upper=upper)], {"x": x}, want)
    return Case([node("Trilu", ["x", "k"], upper=upper)], {"x": x}, want,
                [const("k", k, np.int64)])


@case(onehot=dict(axis=-1), onehot_axis0=dict(axis=0))
def onehot(rng, axis):
    depth, off, on = 4, 0.5, 2.0
    # Six distinct indices of [-4, 4): both signs, whatever the seed.
    # Negative ones count from the back; the new axis goes at `axis` of the
    # output (rank + 1 dims).
    indices = rng.permutation(np.arange(-depth, depth))[:6].reshape(2, 3)
    hot = np.where(indices < 0, indices + depth, indices)[..., None] == \
        np.arange(depth)
    want = np.moveaxis(np.where(hot, on, off), -1, axis)
    return Case([node("OneHot", ["x", "depth", "values"], axis=axis)],
                {"x": indices}, want,
                [const("depth", depth, np.int64),
                 const("values", [off, on])])


@case(pad_reflect=dict(mode="reflect", pads=[0, 0, 1, 2, 0, 0, 2, 1]),
      pad_edge=dict(mode="edge", pads=[0, 1, 2, 0, 0, 0, 1, 3]))
def pad(rng, mode, pads):
    x = normal(rng, [1, 2, 4, 5])
    # pads: all the dims' begin counts, then all their end counts.
    widths = list(zip(pads[:4], pads[4:]))
    return Case([node("Pad", ["x", "pads"], mode=mode)], {"x": x},
                np.pad(f64(x), widths, mode=mode),
                [const("pads", pads, np.int64)])


# --- elementwise ----------------------------------------------------------


@case()
def floor(rng):
    x = normal(rng, [3, 4, 5])
    # The product is a float32 tensor; then its floor.
    want = np.floor((f64(x) * 3).astype(np.float32))
    return Case([node("Mul", ["x", "three"], "x3"), node("Floor", ["x3"])],
                {"x": x}, want, [const("three", 3)])


@case()
def ceil(rng):
    return unary("Ceil", normal(rng, [3, 4, 5]), np.ceil)


@case(round={})
def round_half_even(rng):
    # Halves, which round to even.
    x = (rng.integers(-10, 10, [3, 4, 5]) / 2).astype(np.float32)
    return unary("Round", x, np.round)


@case()
def sin(rng):
    return unary("Sin", normal(rng, [3, 4, 5]), np.sin)


@case()
def cos(rng):
    return unary("Cos", normal(rng, [3, 4, 5]), np.cos)


@case()
def selu(rng):
    return unary("Selu", normal(rng, [3, 4, 5]),
                 lambda v: 1.2 * np.where(v > 0, v, 1.5 * (np.exp(v) - 1)),
                 alpha=1.5, gamma=1.2)


@case()
def celu(rng):
    return unary("Celu", normal(rng, [3, 4, 5]),
                 lambda v: np.maximum(v, 0)
                 + np.minimum(0, 0.7 * (np.exp(v / 0.7) - 1)), alpha=0.7)


@case()
def thresholded_relu(rng):
    return unary("ThresholdedRelu", normal(rng, [3, 4, 5]),
                 lambda v: np.where(v > 0.3, v, 0), alpha=0.3)


@case()
def softsign(rng):
    return unary("Softsign", normal(rng, [3, 4, 5]),
                 lambda v: v / (1 + np.abs(v)))


@case()
def shrink(rng):
    x = normal(rng, [3, 4, 5])
    return unary("Shrink", x, lambda v: np.where(
        v < -0.6, v + 0.25, np.where(v > 0.6, v - 0.25, 0.0)),
        lambd=0.6, bias=0.25)


@case(hardmax=dict(axis=-1), hardmax_ties=dict(axis=1, x=ties))
def hardmax(rng, axis, x=None):
    x = normal(rng, [2, 5, 7]) if x is None else x(rng)
    v = f64(x)
    first = np.expand_dims(np.argmax(v, axis=axis), axis)
    want = (np.arange(v.shape[axis]).reshape(
        [-1 if d == axis % v.ndim else 1 for d in range(v.ndim)]) == first)
    return unary("Hardmax", x, lambda _: want.astype(np.float64), axis=axis)


@case(lp_normalization_l2=dict(p=2, axis=1),
      lp_normalization_l1=dict(p=1, axis=-1))
def lp_normalization(rng, p, axis):
    x = normal(rng, [2, 5, 7])
    return unary("LpNormalization", x, lambda v: v / np.linalg.norm(
        v, ord=p, axis=axis, keepdims=True), p=p, axis=axis)


@case()
def mean_variance_normalization(rng):
    x = normal(rng, [2, 3, 4, 5]) * 3 + 1
    def ref(v):
        mean = v.mean(axis=(0, 2, 3), keepdims=True)
        std = np.sqrt(((v - mean) ** 2).mean(axis=(0, 2, 3), keepdims=True))
        return (v - mean) / (std + 1e-9)
    return unary("MeanVarianceNormalization", x, ref)


@case()
def size(rng):
    x = normal(rng, [2, 3, 4])
    # Size's int64 scalar, as a float added to x: one float output.
    nodes = [node("Size", ["x"], "n"), node("Cast", ["n"], "nf", to=1),
             node("Add", ["x", "nf"])]
    return Case(nodes, {"x": x}, f64(x) + 24)


@case()
def sign(rng):
    x = normal(rng, [3, 4, 5])
    x[rng.random(x.shape) < 0.25] = 0
    return unary("Sign", x, np.sign)


@case()
def and_or_xor(rng):
    x = normal(rng, [3, 4, 5])
    v = f64(x)
    want = (((v > 0) & (v < 0.5)) | (v < -1)) ^ (v > 1)
    nodes = [node("Greater", ["x", "zero"], "a"),
             node("Less", ["x", "half"], "b"),
             node("And", ["a", "b"], "c"),
             node("Less", ["x", "minus_one"], "below"),
             node("Or", ["c", "below"], "d"),
             node("Greater", ["x", "one"], "above"),
             node("Xor", ["d", "above"])]
    return Case(nodes, {"x": x}, want,
                [const("zero", 0), const("half", 0.5),
                 const("minus_one", -1), const("one", 1)])


def non_finite(rng):
    """Normal values, a tenth each NaN, +inf and -inf."""
    x = normal(rng, [3, 4, 5])
    u = rng.random(x.shape)
    x[u < 0.1] = np.nan
    x[(u >= 0.1) & (u < 0.2)] = np.inf
    x[(u >= 0.2) & (u < 0.3)] = -np.inf
    return x


@case()
def isnan_isinf(rng):
    x = non_finite(rng)
    v = f64(x)
    nodes = [node("IsNaN", ["x"], "nan"),
             node("IsInf", ["x"], "inf", detect_positive=1,
                  detect_negative=0),
             node("Or", ["nan", "inf"])]
    return Case(nodes, {"x": x}, np.isnan(v) | (v == np.inf))


@case()
def isinf_negative(rng):
    return unary("IsInf", non_finite(rng), lambda v: v == -np.inf,
                 detect_positive=0, detect_negative=1)


@case(sum3=dict(op="Sum"), mean3=dict(op="Mean"))
def variadic(rng, op):
    inputs = {"x": normal(rng, [3, 4]), "y": normal(rng, [4]),
              "z": normal(rng, [3, 1])}
    total = sum(f64(v) for v in inputs.values())
    want = total if op == "Sum" else total / 3
    return Case([node(op, ["x", "y", "z"])], inputs, want)


@case()
def clip_computed(rng):
    x = normal(rng, [3, 4, 5])
    v = f64(x)
    nodes = [node("ReduceMean", ["x"], "m", keepdims=0),
             node("Clip", ["x", "m", "max"])]
    return Case(nodes, {"x": x}, np.minimum(np.maximum(v, v.mean()), 0.8),
                [const("max", 0.8)])


@case()
def clip_int_min_only(rng):
    # An int64 Clip with no max: the max is INT64_MAX, which no double
    # holds (the lowering once wrapped it to INT64_MIN).
    x = rng.integers(-5, 5, [3, 8]).astype(np.int64)
    x[0, 0] = np.iinfo(np.int64).max
    return Case([node("Clip", ["x", "min"])], {"x": x}, np.maximum(x, 0),
                [const("min", 0, np.int64)])


# --- sampling -------------------------------------------------------------


@case(grid_sample_bilinear_zeros=dict(mode="bilinear", pad="zeros", align=0),
      grid_sample_bilinear_border_aligned=dict(mode="bilinear", pad="border",
                                               align=1),
      grid_sample_nearest_zeros_aligned=dict(mode="nearest", pad="zeros",
                                             align=1),
      grid_sample_nearest_border=dict(mode="nearest", pad="border", align=0))
def grid_sample(rng, mode, pad, align):
    x = normal(rng, [2, 3, 5, 7])
    # Coordinates past [-1, 1] too, and the corners exactly.
    g = (rng.random([2, 4, 6, 2]) * 2.4 - 1.2).astype(np.float32)
    g[0, 0, 0] = [1.0, -1.0]
    g[1, 1, 1] = [-1.0, 1.0]
    v, n, c, h, w = f64(x), *x.shape
    out = np.zeros([n, c, 4, 6])

    def unnormalize(coord, size):
        if align:
            return (coord + 1) * (size - 1) / 2
        return ((coord + 1) * size - 1) / 2

    def pixel(b, yy, xx):
        if 0 <= yy < h and 0 <= xx < w:
            return v[b, :, yy, xx]
        return np.zeros(c)

    for b, i, j in itertools.product(range(n), range(4), range(6)):
        ix = unnormalize(float(g[b, i, j, 0]), w)
        iy = unnormalize(float(g[b, i, j, 1]), h)
        if pad == "border":
            ix, iy = min(max(ix, 0), w - 1), min(max(iy, 0), h - 1)
        if mode == "nearest":
            # Halves to even, as ONNX Runtime rounds.
            out[b, :, i, j] = pixel(b, int(np.rint(iy)), int(np.rint(ix)))
            continue
        x0, y0 = int(np.floor(ix)), int(np.floor(iy))
        for yy, wy in ((y0, 1 - (iy - y0)), (y0 + 1, iy - y0)):
            for xx, wx in ((x0, 1 - (ix - x0)), (x0 + 1, ix - x0)):
                out[b, :, i, j] += wx * wy * pixel(b, yy, xx)
    n = helper.make_node("GridSample", ["x", "g"], ["out"], name="out",
                         mode=mode, padding_mode=pad, align_corners=align)
    return Case([n], {"x": x, "g": g}, out)


# --- pooling --------------------------------------------------------------
# --- pooling --------------------------------------------------------------


@case(max_pool_dilated=dict(shape=[1, 2, 6, 7], kernel=[2, 2],
                            dilations=[2, 2], strides=[1, 1],
                            pads=[0, 0, 0, 0]),
      max_pool_dilated_pads=dict(shape=[1, 2, 7, 6], kernel=[3, 3],
                                 dilations=[2, 1], strides=[2, 1],
                                 pads=[1, 1, 1, 1]))
def max_pool(rng, shape, kernel, dilations, strides, pads):
    x = normal(rng, shape)
    # The padding never wins: -inf. Each tap is a strided slice.
    begin, end = pads[:2], pads[2:]
    padded = np.pad(f64(x), [(0, 0), (0, 0)] + list(zip(begin, end)),
                    constant_values=-np.inf)
    out = [(shape[2 + d] + begin[d] + end[d] - (kernel[d] - 1) * dilations[d]
            - 1) // strides[d] + 1 for d in range(2)]
    want = np.full(shape[:2] + out, -np.inf)
    for tap in itertools.product(*map(range, kernel)):
        first = [tap[d] * dilations[d] for d in range(2)]
        window = tuple(slice(first[d], first[d] + (out[d] - 1) * strides[d]
                             + 1, strides[d]) for d in range(2))
        want = np.maximum(want, padded[(slice(None), slice(None), *window)])
    return Case([node("MaxPool", ["x"], kernel_shape=kernel,
                      dilations=dilations, strides=strides, pads=pads)],
                {"x": x}, want)


# --- driver ---------------------------------------------------------------


def write_case(name, workdir):
    """Writes NAME's model, inputs and reference; their paths."""
    fn, kwargs = CASES[name]
    c = fn(np.random.default_rng(zlib.crc32(name.encode())), **kwargs)
    want = c.want.astype(np.float32) if c.want.dtype == np.float64 \
        else c.want
    graph = helper.make_graph(
        c.nodes, name,
        [helper.make_tensor_value_info(n, ELEM_TYPES[v.dtype], v.shape)
         for n, v in c.inputs.items()],
        [helper.make_tensor_value_info("out", ELEM_TYPES[want.dtype],
                                       want.shape)],
        list(c.inits))
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    # Also infers the output's shape and type, which must be the
    # reference's.
    onnx.checker.check_model(model, full_check=True)
    model_path = os.path.join(workdir, name + ".onnx")
    onnx.save(model, model_path)
    inputs = []
    for i, v in enumerate(c.inputs.values()):
        inputs.append(os.path.join(workdir, f"{name}.in{i}.npy"))
        np.save(inputs[-1], v)
    expect = os.path.join(workdir, name + ".out.npy")
    np.save(expect, want)
    return model_path, inputs, expect


def check(name, runner, workdir, flags):
    """Whether NAME passes, and its line of the report."""
    try:
        model_path, inputs, expect = write_case(name, workdir)
    except Exception as e:  # a reference or model this script got wrong
        return False, f"{name}: FAILED writing the case: {e}"
    # The emulated GPU target computes once and takes no --reps.
    reps = [] if "--target=cuda-emulated" in flags else ["--reps=1"]
    try:
        run = subprocess.run(
            [runner, model_path, "--inputs=" + ",".join(inputs),
             "--expect=" + expect, "--rtol=1e-4", "--atol=1e-5", *reps,
             *flags],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return False, f"{name}: FAILED {e}"
    if run.returncode == 0:
        return True, f"{name}: ok"
    lines = run.stderr.strip().splitlines() or [f"exit {run.returncode}"]
    # gopt-run names the mismatch on a line of its own, then fails.
    compared = [l for l in lines if ": MISMATCH (" in l]
    if compared:
        return False, \
            f"{name}: MISMATCH {compared[0].split(': MISMATCH ', 1)[1]}"
    # Otherwise its first error is the cause ("cannot import" follows).
    errors = [l.split("error: ", 1)[1] for l in lines if "error: " in l]
    reason = errors[0] if errors else lines[-1]
    if run.returncode < 0:
        reason = f"signal {-run.returncode}: {reason}"
    return False, f"{name}: FAILED {reason}"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    runner, workdir, rest = argv[1], argv[2], argv[3:]
    names, flags = list(CASES), []
    while rest:
        arg = rest.pop(0)
        if arg == "--only" and rest:
            arg = "--only=" + rest.pop(0)
        if arg.startswith("--only="):
            names = arg[len("--only="):].split(",")
        else:
            flags.append(arg)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown case {', '.join(unknown)}; cases: "
              f"{', '.join(CASES)}", file=sys.stderr)
        return 2
    os.makedirs(workdir, exist_ok=True)
    failures = 0
    for name in names:
        ok, line = check(name, runner, workdir, flags)
        print(line, flush=True)
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
