#!/usr/bin/env python3
"""Writes the small hand-made ONNX models the import tests read.

    gen_models.py NAME OUT.onnx     write model NAME to OUT.onnx
    gen_models.py --list            list the model names

Models are built with onnx.helper and numpy (python3-onnx, python3-numpy),
with fixed values, so the tests can check the imported IR exactly. A few
models are deliberately broken (cycle, missing initializer, ...) to test the
importer's diagnostics; they are written without running onnx.checker.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = TensorProto.FLOAT
I64 = TensorProto.INT64
MODELS = {}


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def external_tensor(name, dims, entries):
    """A FLOAT tensor whose bytes live in another file."""
    t = TensorProto(name=name, data_type=F32, dims=dims)
    t.data_location = TensorProto.EXTERNAL
    for key, value in entries:
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    return t


def make(nodes, inputs, outputs, inits=(), opset=17, name="g"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def node(op, ins, outs, name=None, **attrs):
    return helper.make_node(op, ins, outs, name=name or outs[0], **attrs)


def ints(name, values):
    return init(name, np.array(values, dtype=np.int64))


# --- elementwise ----------------------------------------------------------


@model
def unary():
    ops = ["Sqrt", "Reciprocal", "Erf", "Exp", "Log", "Tanh", "Sigmoid",
           "Relu", "Neg", "Abs"]
    nodes, prev = [], "x"
    for i, op in enumerate(ops):
        nodes.append(node(op, [prev], [f"u{i}"], name=op.lower()))
        prev = f"u{i}"
    return make(nodes, [vi("x", F32, [2, 3])], [vi(prev, F32, [2, 3])])


@model
def binary():
    nodes = [
        node("Add", ["x", "b"], ["add"]),
        node("Sub", ["add", "y"], ["sub"]),
        node("Mul", ["sub", "b"], ["mul"]),
        node("Div", ["mul", "y"], ["div"]),
        node("Pow", ["div", "two"], ["pow"]),
        node("Max", ["pow", "x", "y"], ["max"]),
        node("Min", ["max", "y"], ["min"]),
    ]
    inits = [init("b", np.arange(3, dtype=np.float32)),
             init("two", np.array(2, dtype=np.int64))]
    return make(nodes, [vi("x", F32, [2, 3]), vi("y", F32, [2, 1])],
                [vi("min", F32, [2, 3])], inits)


@model
def compare_where():
    nodes = [
        node("Equal", ["x", "y"], ["eq"]),
        node("Less", ["x", "y"], ["lt"]),
        node("Where", ["eq", "x", "y"], ["sel"]),
        node("Where", ["lt", "sel", "zero"], ["out"]),
    ]
    return make(nodes, [vi("x", F32, [4]), vi("y", F32, [4])],
                [vi("out", F32, [4])],
                [init("zero", np.array(0, dtype=np.float32))])


@model
def cast_clip():
    nodes = [
        node("Cast", ["x"], ["xi"], to=TensorProto.INT32),
        node("Cast", ["xi"], ["xf"], to=TensorProto.FLOAT),
        node("Cast", ["xf"], ["same"], to=TensorProto.FLOAT),
        node("Clip", ["same", "lo", "hi"], ["clip"]),
        node("Clip", ["clip", "", "hi"], ["clip_hi"]),
        node("Clip", ["clip_hi"], ["clip_none"]),
    ]
    inits = [init("lo", np.array(-1.5, dtype=np.float32)),
             init("hi", np.array(6, dtype=np.float32))]
    return make(nodes, [vi("x", F32, [2, 2])], [vi("clip_none", F32, [2, 2])],
                inits)


@model
def more_activations():
    """PRelu with a per-channel slope, Elu, Softplus: elementwise ops."""
    nodes = [
        node("PRelu", ["x", "slope"], ["p"]),
        node("Elu", ["p"], ["e"], alpha=0.5),
        node("Softplus", ["e"], ["s"]),
    ]
    inits = [init("slope", np.array([[[0.1]], [[0.2]]], np.float32))]
    return make(nodes, [vi("x", F32, [1, 2, 3, 3])], [vi("s", F32, None)],
                inits)


@model
def prelu_bad_slope():
    nodes = [node("PRelu", ["x", "slope"], ["p"], name="prelu")]
    inits = [init("slope", np.array([0.1, 0.2, 0.3], np.float32).reshape(
        3, 1, 1, 1))]
    return make(nodes, [vi("x", F32, [1, 2, 3, 2])], [vi("p", F32, None)],
                inits)


@model
def gelu():
    """GELU as torch.onnx exports it before opset 20."""
    nodes = [
        node("Div", ["x", "sqrt2"], ["d"]),
        node("Erf", ["d"], ["e"]),
        node("Add", ["e", "one"], ["a"]),
        node("Mul", ["x", "a"], ["m"]),
        node("Mul", ["m", "half"], ["y"]),
    ]
    inits = [init("sqrt2", np.array(1.4142135, dtype=np.float32)),
             init("one", np.array(1, dtype=np.float32)),
             init("half", np.array(0.5, dtype=np.float32))]
    return make(nodes, [vi("x", F32, [2, 8])], [vi("y", F32, [2, 8])], inits)


@model
def activations():
    nodes = [
        node("HardSigmoid", ["x"], ["hs"], alpha=0.25, beta=0.4),
        node("HardSwish", ["hs"], ["hw"]),
        node("LeakyRelu", ["hw"], ["lr"], alpha=0.1),
    ]
    return make(nodes, [vi("x", F32, [2, 3])], [vi("lr", F32, [2, 3])])


@model
def constants():
    big = helper.make_tensor("w", F32, [2, 3],
                             [0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    nodes = [
        node("Constant", [], ["c_tensor"], value=big),
        node("Constant", [], ["c_float"], value_float=0.25),
        node("Constant", [], ["c_ints"], value_ints=[2, 3]),
        node("ConstantOfShape", ["c_ints"], ["zeros"]),
        node("ConstantOfShape", ["c_ints"], ["sevens"],
             value=helper.make_tensor("v", I64, [1], [7])),
        node("Add", ["x", "c_tensor"], ["s1"]),
        node("Mul", ["s1", "c_float"], ["s2"]),
        node("Add", ["s2", "zeros"], ["s3"]),
        node("Identity", ["s3"], ["id"]),
        node("Dropout", ["id"], ["drop", "mask"]),
    ]
    return make(nodes, [vi("x", F32, [2, 3])],
                [vi("drop", F32, [2, 3]), vi("sevens", I64, [2, 3]),
                 vi("mask", TensorProto.BOOL, [2, 3])])


# --- shapes and data movement ---------------------------------------------


@model
def shape_chain():
    """The Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain exporters
    emit for x.view(x.size(0), -1)."""
    nodes = [
        node("Shape", ["x"], ["shape"]),
        node("Gather", ["shape", "zero"], ["batch"], axis=0),
        node("Unsqueeze", ["batch", "axes0"], ["batch1"]),
        node("Concat", ["batch1", "minus1"], ["target"], axis=0),
        node("Reshape", ["x", "target"], ["y"]),
    ]
    inits = [ints("zero", 0), ints("axes0", [0]), ints("minus1", [-1])]
    return make(nodes, [vi("x", F32, [2, 3, 4])], [vi("y", F32, [2, 12])],
                inits)


@model
def reshapes():
    nodes = [
        node("Reshape", ["x", "s0"], ["r0"]),  # [0, -1]: copy dim 0
        node("Flatten", ["x"], ["f1"], axis=-1),
        node("Flatten", ["x"], ["f0"], axis=0),
        node("Unsqueeze", ["x", "uaxes"], ["u"]),
        node("Squeeze", ["u", "saxes"], ["s"]),
        node("Squeeze", ["u"], ["s_all"]),
        node("Shape", ["x"], ["tail"], start=-2),
    ]
    inits = [ints("s0", [0, -1]), ints("uaxes", [0, -1]), ints("saxes", [-1])]
    return make(nodes, [vi("x", F32, [2, 3, 4])],
                [vi("r0", F32, [2, 12]), vi("f1", F32, [6, 4]),
                 vi("f0", F32, [1, 24]), vi("s", F32, [1, 2, 3, 4]),
                 vi("s_all", F32, [2, 3, 4]), vi("tail", I64, [2])], inits)


@model
def movement():
    nodes = [
        node("Transpose", ["x"], ["t"], perm=[0, 2, 1]),
        node("Transpose", ["x"], ["t_rev"]),
        node("Concat", ["x", "x"], ["cat"], axis=-1),
        node("Slice", ["cat", "st", "en", "ax", "sp"], ["sl"]),
        node("Slice", ["x", "st1", "en1"], ["sl1"]),
        node("Split", ["cat", "sizes"], ["p0", "p1"], axis=2),
        node("Split", ["x"], ["q0", "q1"], axis=-1),
        node("Gather", ["x", "idx"], ["g"], axis=1),
        node("Expand", ["b", "eshape"], ["ex"]),
    ]
    inits = [ints("st", [1, -7]), ints("en", [2**63 - 1, 8]),
             ints("ax", [1, -1]), ints("sp", [1, 3]),
             ints("st1", [0]), ints("en1", [-1]),
             ints("sizes", [3, 5]), ints("idx", [[2, 0], [-1, 1]]),
             init("b", np.ones((3, 1), dtype=np.float32)),
             ints("eshape", [2, 1, 4])]
    return make(nodes, [vi("x", F32, [2, 3, 4])],
                [vi(n, F32, None) for n in
                 ["t", "t_rev", "sl", "sl1", "p0", "p1", "q0", "q1", "g",
                  "ex"]], inits)


@model
def reversed_slices():
    """Negative steps: a whole axis reversed, and every other column from
    the back with a positive-step slice of another axis."""
    nodes = [
        node("Slice", ["x", "s", "e", "a", "st"], ["rev"]),
        node("Slice", ["x", "s2", "e2", "a2", "st2"], ["odd"]),
    ]
    inits = [ints("s", [-1]), ints("e", [-2**63]), ints("a", [0]),
             ints("st", [-1]),
             ints("s2", [1, 100]), ints("e2", [3, 0]), ints("a2", [1, 2]),
             ints("st2", [1, -2])]
    return make(nodes, [vi("x", F32, [2, 3, 5])],
                [vi("rev", F32, None), vi("odd", F32, None)], inits)


@model
def empty_concat():
    """A shape concatenated with an empty slice of a shape (Swin
    Transformer's exported reshapes), feeding a Reshape."""
    nodes = [
        node("Shape", ["x"], ["shape"]),
        node("Slice", ["shape", "s", "e"], ["none"]),
        node("Concat", ["shape", "none"], ["target"], axis=0),
        node("Reshape", ["x", "target"], ["y"]),
    ]
    inits = [ints("s", [2]), ints("e", [2])]
    return make(nodes, [vi("x", F32, [3, 4])], [vi("y", F32, [3, 4])], inits)


@model
def evaluated():
    """Range, Mod and ScatterND on constants, computed at import time, and
    Not of a graph input (a select)."""
    nodes = [
        node("Range", ["r0", "r1", "rd"], ["range"]),
        node("Range", ["f0", "f1", "fd"], ["frange"]),
        node("Mod", ["range", "three"], ["mod"]),
        node("Mod", ["neg", "three"], ["negmod"]),
        node("Mod", ["neg", "three"], ["negfmod"], fmod=1),
        node("Mod", ["fneg", "fthree"], ["ffmod"], fmod=1),
        node("ScatterND", ["zeros", "rows", "upd"], ["scatter"]),
        node("ScatterND", ["zeros", "cells", "cellval"], ["added"],
             reduction="add"),
        node("Not", ["b"], ["notb"]),
        node("Not", ["bc"], ["notc"]),
    ]
    inits = [ints("r0", 2), ints("r1", 11), ints("rd", 3),
             init("f0", np.array(1.0, np.float32)),
             init("f1", np.array(0.0, np.float32)),
             init("fd", np.array(-0.25, np.float32)),
             ints("three", [3]), ints("neg", [-4, 4, -5]),
             init("fneg", np.array([-4.5, 4.5], np.float32)),
             init("fthree", np.array([2.0], np.float32)),
             init("zeros", np.zeros((3, 2), np.float32)),
             ints("rows", [[2], [0]]),
             init("upd", np.array([[1, 2], [3, 4]], np.float32)),
             ints("cells", [[1, 1], [1, 1]]),
             init("cellval", np.array([5, 6], np.float32)),
             init("bc", np.array([True, False]))]
    return make(nodes, [vi("b", TensorProto.BOOL, [2, 2])],
                [vi(n, t, None) for n, t in
                 [("range", I64), ("frange", F32), ("mod", I64),
                  ("negmod", I64), ("negfmod", I64), ("ffmod", F32),
                  ("scatter", F32), ("added", F32),
                  ("notb", TensorProto.BOOL), ("notc", TensorProto.BOOL)]],
                inits)


@model
def dropout_training():
    """Training-mode Dropout at ratio 0 keeps everything (torchvision 0.14's
    Swin exports so); at another ratio it is an error."""
    nodes = [node("Dropout", ["x", "zero", "yes"], ["y"]),
             node("Dropout", ["x", "half", "yes"], ["z"], name="drop_half")]
    inits = [init("zero", np.array(0.0, np.float32)),
             init("half", np.array(0.5, np.float32)),
             init("yes", np.array(True))]
    return make(nodes, [vi("x", F32, [4])],
                [vi("y", F32, [4]), vi("z", F32, [4])], inits)


# --- contractions, pooling, normalization ----------------------------------


# Einsum equations of einsum(): operand shapes and equation per node.
EINSUMS = [
    ("mm", "ij,jk->ik", [[3, 4], [4, 5]]),
    ("attn", "B G H I D, B G H J D -> B G H I J", [[1, 2, 3, 4, 8],
                                                  [1, 2, 3, 6, 8]]),
    ("pv", "bhij,bhjd->bhid", [[2, 3, 4, 6], [2, 3, 6, 8]]),
    ("implicit", "ij,kj", [[3, 4], [5, 4]]),
    ("dot", "i,i->", [[7], [7]]),
    ("outer", "i,j->ij", [[3], [4]]),
    ("multi", "abc,cd->bda", [[2, 3, 4], [4, 5]]),
    ("summed", "ijk,kl->il", [[2, 3, 4], [4, 5]]),
    ("transpose", "ijk->kji", [[2, 3, 4]]),
    ("rowsum", "ij->i", [[3, 4]]),
    ("diagonal", "ii->i", [[4, 4]]),
    ("trace", "bii->b", [[2, 5, 5]]),
    ("trace_implicit", "ii", [[3, 3]]),
    ("diagonal_product", "iij,jk->ik", [[3, 3, 4], [4, 2]]),
    ("triple_diagonal", "iii->i", [[3, 3, 3]]),
]


@model
def einsum():
    """Einsum of one and two operands: matrix products, attention with
    batch letters, the implicit form, a dot and an outer product, several
    free letters, a letter summed out before the product, a transpose and a
    sum. Inputs are named NODE_0, NODE_1; outputs NODE."""
    nodes, inputs, outputs = [], [], []
    for name, equation, shapes in EINSUMS:
        names = [f"{name}_{i}" for i in range(len(shapes))]
        nodes.append(node("Einsum", names, [name], equation=equation))
        inputs += [vi(x, F32, shape) for x, shape in zip(names, shapes)]
        outputs.append(vi(name, F32, None))
    return make(nodes, inputs, outputs)


@model
def einsum_ellipsis():
    nodes = [node("Einsum", ["a", "b"], ["y"], name="ell",
                  equation="...ij,...jk->...ik")]
    return make(nodes, [vi("a", F32, [2, 3, 4]), vi("b", F32, [2, 4, 5])],
                [vi("y", F32, None)])


@model
def einsum_diagonal():
    """A diagonal of a non-square pair of dims."""
    nodes = [node("Einsum", ["a"], ["y"], name="diag", equation="ii->i")]
    return make(nodes, [vi("a", F32, [3, 4])], [vi("y", F32, None)])


@model
def matmul_gemm():
    rng = np.random.default_rng(0)
    nodes = [
        node("MatMul", ["x", "w"], ["mm"]),
        node("MatMul", ["v", "w"], ["mv"]),
        node("MatMul", ["x", "wv"], ["mc"]),
        node("Gemm", ["mm", "wt", "bias"], ["gemm"], transB=1),
        node("Gemm", ["mm", "wt", "bias"], ["gemm_scaled"], transB=1,
             alpha=2.0, beta=0.5),
    ]
    inits = [init("w", rng.standard_normal((3, 4)).astype(np.float32)),
             init("wv", rng.standard_normal((3,)).astype(np.float32)),
             init("wt", rng.standard_normal((5, 4)).astype(np.float32)),
             init("bias", rng.standard_normal((5,)).astype(np.float32))]
    return make(nodes, [vi("x", F32, [2, 3]), vi("v", F32, [3])],
                [vi("gemm", F32, [2, 5]), vi("gemm_scaled", F32, [2, 5]),
                 vi("mv", F32, [4]), vi("mc", F32, [2])], inits)


@model
def conv_pool():
    rng = np.random.default_rng(1)
    nodes = [
        node("Conv", ["x", "w", "b"], ["conv"], pads=[1, 1, 1, 1],
             strides=[2, 2], kernel_shape=[3, 3]),
        node("Conv", ["conv", "wg"], ["dw"], group=4, auto_pad="SAME_UPPER"),
        node("BatchNormalization", ["dw", "scale", "shift", "mean", "var"],
             ["bn"], epsilon=1e-3),
        node("Relu", ["bn"], ["relu"]),
        node("MaxPool", ["relu"], ["maxp"], kernel_shape=[2, 2],
             strides=[2, 2]),
        node("AveragePool", ["relu"], ["avgp"], kernel_shape=[3, 3],
             pads=[1, 1, 1, 1], count_include_pad=1),
        node("GlobalAveragePool", ["avgp"], ["gap"]),
    ]
    inits = [init("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)),
             init("b", rng.standard_normal((4,)).astype(np.float32)),
             init("wg", rng.standard_normal((4, 1, 3, 3)).astype(np.float32)),
             init("scale", np.array([1, 2, 3, 4], dtype=np.float32)),
             init("shift", np.array([0, 1, 0, 1], dtype=np.float32)),
             init("mean", np.array([0.5, 0, 0, 0], dtype=np.float32)),
             init("var", np.array([1, 1, 4, 0.25], dtype=np.float32))]
    return make(nodes, [vi("x", F32, [1, 3, 8, 8])],
                [vi("maxp", F32, None), vi("gap", F32, None)], inits)


@model
def pad_pool():
    nodes = [
        node("Pad", ["x", "pads", "value"], ["padded"]),
        node("Pad", ["x", "pads"], ["zero_padded"]),
        # ceil_mode rounds the output size up: 5 -> 3 windows of 2, stride 2.
        node("MaxPool", ["x"], ["ceil"], kernel_shape=[2, 2], strides=[2, 2],
             ceil_mode=1),
        # ... but a window may not start in the end padding: still 3.
        node("AveragePool", ["x"], ["ceil_padded"], kernel_shape=[2, 2],
             strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
    ]
    inits = [ints("pads", [0, 0, 1, 2, 0, 0, 3, 4]),
             init("value", np.array(-1, dtype=np.float32))]
    return make(nodes, [vi("x", F32, [1, 1, 5, 5])],
                [vi(n, F32, None) for n in
                 ["padded", "zero_padded", "ceil", "ceil_padded"]], inits)


@model
def resize():
    """Resize in every supported form: scales or sizes (a Shape/Concat
    chain, as exporters write it), each coordinate transform, each nearest
    rounding."""
    f32 = lambda name, values: init(name, np.array(values, dtype=np.float32))
    nodes = [
        # Bilinear x2 by scales, half_pixel (the default).
        node("Resize", ["x", "", "s2"], ["linear"], mode="linear"),
        # Nearest x2 floor/asymmetric: torch's F.interpolate(mode='nearest').
        node("Resize", ["x", "", "s2"], ["nearest"], mode="nearest",
             coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        # Sizes from the input's N and C and constant H, W.
        node("Shape", ["x"], ["shape"]),
        node("Slice", ["shape", "zero", "two"], ["nc"]),
        node("Concat", ["nc", "hw"], ["sizes"], axis=0),
        node("Resize", ["x", "", "", "sizes"], ["sized"], mode="linear",
             coordinate_transformation_mode="align_corners"),
        # A single output row: pytorch_half_pixel reads coordinate 0 there.
        node("Resize", ["x", "", "", "one_row"], ["row"], mode="linear",
             coordinate_transformation_mode="pytorch_half_pixel"),
        # Downsampling, defaults (round_prefer_floor), empty roi and scales.
        node("Resize", ["x", "roi", "half"], ["down"]),
        node("Resize", ["x", "", "half"], ["down_ceil"],
             nearest_mode="round_prefer_ceil",
             coordinate_transformation_mode="tf_half_pixel_for_nn"),
    ]
    inits = [f32("s2", [1, 1, 2, 2]), f32("half", [1, 1, 0.5, 0.5]),
             f32("roi", []), ints("zero", [0]), ints("two", [2]),
             ints("hw", [7, 5]), ints("one_row", [1, 2, 1, 6])]
    return make(nodes, [vi("x", F32, [1, 2, 4, 6])],
                [vi(n, F32, None) for n in
                 ["linear", "nearest", "sized", "row", "down", "down_ceil"]],
                inits)


@model
def resize_cubic():
    nodes = [node("Resize", ["x", "", "s"], ["y"], name="cubic", mode="cubic")]
    inits = [init("s", np.array([1, 1, 2, 2], dtype=np.float32))]
    return make(nodes, [vi("x", F32, [1, 1, 4, 4])], [vi("y", F32, None)],
                inits)


@model
def resize_both():
    nodes = [node("Resize", ["x", "", "s", "z"], ["y"], name="both")]
    inits = [init("s", np.array([1, 1, 2, 2], dtype=np.float32)),
             ints("z", [1, 1, 8, 8])]
    return make(nodes, [vi("x", F32, [1, 1, 4, 4])], [vi("y", F32, None)],
                inits)


@model
def resize_crop():
    nodes = [node("Resize", ["x", "", "s"], ["y"], name="crop",
                  coordinate_transformation_mode="tf_crop_and_resize")]
    inits = [init("s", np.array([1, 1, 2, 2], dtype=np.float32))]
    return make(nodes, [vi("x", F32, [1, 1, 4, 4])], [vi("y", F32, None)],
                inits)


@model
def conv_pool_1d():
    """1-D convolutions and pools on [N, C, L]: run as 2-D ones of height
    1 between reshapes."""
    rng = np.random.default_rng(0)
    f32 = lambda name, shape: init(name, rng.standard_normal(shape).astype(
        np.float32))
    nodes = [
        node("Conv", ["x", "w", "b"], ["c"], strides=[2], pads=[1, 2],
             dilations=[2]),
        node("MaxPool", ["c"], ["m"], kernel_shape=[3], strides=[1],
             auto_pad="SAME_UPPER"),
        node("AveragePool", ["m"], ["a"], kernel_shape=[2], strides=[2]),
        node("GlobalAveragePool", ["a"], ["g"]),
    ]
    return make(nodes, [vi("x", F32, [2, 4, 16])], [vi("g", F32, None)],
                [f32("w", [6, 4, 3]), f32("b", [6])])


@model
def conv_pool_3d():
    """3-D convolutions and pools on [N, C, D, H, W]: 2-D ops over the
    frames. A grouped, strided, dilated convolution with uneven pads; one
    with SAME_UPPER padding and an even kernel; one whose weight is a graph
    input; max pooling with ceil_mode; average pooling without and with the
    padding counted; a global average pool."""
    rng = np.random.default_rng(3)
    f32 = lambda name, shape: init(name, rng.standard_normal(shape).astype(
        np.float32))
    nodes = [
        node("Conv", ["x", "w", "b"], ["c"], group=2, strides=[2, 1, 2],
             dilations=[2, 1, 1], pads=[2, 1, 0, 1, 1, 1]),
        node("Conv", ["c", "ws"], ["same"], auto_pad="SAME_UPPER"),
        node("Conv", ["same", "wr"], ["r"], pads=[1, 0, 0, 0, 0, 0]),
        node("MaxPool", ["r"], ["mp"], kernel_shape=[2, 3, 2],
             strides=[2, 2, 1], pads=[1, 1, 0, 0, 1, 1], ceil_mode=1),
        node("AveragePool", ["mp"], ["ap"], kernel_shape=[3, 2, 2],
             pads=[1, 1, 0, 1, 0, 1]),
        node("AveragePool", ["mp"], ["api"], kernel_shape=[3, 2, 2],
             pads=[1, 1, 0, 1, 0, 1], count_include_pad=1),
        node("GlobalAveragePool", ["api"], ["gap"]),
    ]
    return make(nodes, [vi("x", F32, [2, 4, 7, 6, 9]),
                        vi("wr", F32, [5, 6, 2, 1, 1])],
                [vi("ap", F32, None), vi("gap", F32, None)],
                [f32("w", [6, 2, 3, 3, 2]), f32("b", [6]),
                 f32("ws", [6, 6, 2, 3, 3])])


def _bad_3d(n):
    """One 3-D node the importer rejects, on [1, 4, 2, 5, 5]."""
    inits = [init("w", np.ones((6, 3, 1, 1, 1), np.float32)),
             init("wt", np.ones((4, 2, 1, 1, 1), np.float32)),
             init("wk", np.ones((2, 4, 3, 1, 1), np.float32))]
    return make([n], [vi("x", F32, [1, 4, 2, 5, 5])],
                [vi(n.output[0], F32, None)], inits)


@model
def conv_3d_bad_group():
    return _bad_3d(node("Conv", ["x", "w"], ["grouped"], group=2))


@model
def conv_transpose_3d():
    return _bad_3d(node("ConvTranspose", ["x", "wt"], ["deconv"]))


@model
def max_pool_3d_dilated():
    return _bad_3d(node("MaxPool", ["x"], ["dilated_pool"],
                        kernel_shape=[1, 2, 2], dilations=[1, 2, 2]))


@model
def conv_3d_too_small():
    return _bad_3d(node("Conv", ["x", "wk"], ["small"]))


@model
def conv_transpose():
    """ConvTranspose: stride 2 with pads and output_padding, grouped; one
    with output_shape; and an ungrouped one (the sub-pixel form)."""
    w = np.arange(4 * 3 * 2 * 2, dtype=np.float32).reshape(4, 3, 2, 2)
    nodes = [
        node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2],
             pads=[1, 0, 0, 1], output_padding=[1, 0], group=2),
        node("ConvTranspose", ["x", "w"], ["z"], strides=[2, 2],
             output_shape=[7, 8], group=2),
        node("ConvTranspose", ["x", "w1", "b1"], ["u"], strides=[2, 2],
             pads=[1, 1, 1, 1], output_padding=[1, 1]),
    ]
    inits = [init("w", w), init("b", np.zeros(6, np.float32)),
             init("w1", np.ones((4, 2, 3, 3), np.float32)),
             init("b1", np.array([0.5, -0.5], np.float32))]
    return make(nodes, [vi("x", F32, [1, 4, 3, 4])],
                [vi("y", F32, None), vi("z", F32, None), vi("u", F32, None)],
                inits)


@model
def conv_transpose_huge_stride():
    """A stride whose output no tensor could hold (found by
    mutate_models.py: the importer ran out of memory)."""
    nodes = [node("ConvTranspose", ["x", "w"], ["y"], name="deconv",
                  strides=[1 << 40, 2])]
    return make(nodes, [vi("x", F32, [1, 2, 3, 3])], [vi("y", F32, None)],
                [init("w", np.ones((2, 2, 2, 2), np.float32))])


@model
def conv_transpose_runtime_weight():
    nodes = [node("ConvTranspose", ["x", "w"], ["y"], name="deconv")]
    return make(nodes, [vi("x", F32, [1, 2, 3, 3]), vi("w", F32, [2, 2, 2, 2])],
                [vi("y", F32, None)])


@model
def recurrent():
    """An LSTM (reverse, peepholes, clip, initial states, all three
    outputs) and a bidirectional GRU (linear_before_reset = 0), batch
    first, two steps."""
    rng = np.random.default_rng(0)
    f32 = lambda name, shape: init(name, rng.standard_normal(shape).astype(
        np.float32))
    h, i, b, t = 2, 3, 1, 2
    nodes = [
        node("LSTM", ["x", "lw", "lr", "lb", "", "h0", "c0", "lp"],
             ["y", "yh", "yc"], hidden_size=h, direction="reverse",
             clip=2.0, layout=1),
        node("GRU", ["x", "gw", "gr", "gb"], ["gy"], hidden_size=h,
             direction="bidirectional", layout=1),
    ]
    inits = [f32("lw", [1, 4 * h, i]), f32("lr", [1, 4 * h, h]),
             f32("lb", [1, 8 * h]), f32("h0", [b, 1, h]), f32("c0", [b, 1, h]),
             f32("lp", [1, 3 * h]), f32("gw", [2, 3 * h, i]),
             f32("gr", [2, 3 * h, h]), f32("gb", [2, 6 * h])]
    return make(nodes, [vi("x", F32, [b, t, i])],
                [vi(n, F32, None) for n in ["y", "yh", "yc", "gy"]], inits)


@model
def recurrent_ragged():
    nodes = [node("GRU", ["x", "w", "r", "", "lens"], ["y"], name="gru",
                  hidden_size=2)]
    inits = [init("w", np.zeros((1, 6, 3), np.float32)),
             init("r", np.zeros((1, 6, 2), np.float32)),
             init("lens", np.array([2, 1], np.int32))]
    return make(nodes, [vi("x", F32, [2, 2, 3])], [vi("y", F32, None)], inits)


@model
def instance_norm():
    nodes = [node("InstanceNormalization", ["x", "scale", "bias"], ["y"],
                  epsilon=1e-3)]
    inits = [init("scale", np.array([1.5, -0.5, 2.0], np.float32)),
             init("bias", np.array([0.1, 0.2, 0.3], np.float32))]
    return make(nodes, [vi("x", F32, [2, 3, 4, 5])], [vi("y", F32, None)],
                inits)


@model
def batchnorm_dynamic():
    """Statistics that are graph inputs: BN becomes elementwise ops."""
    nodes = [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])]
    return make(nodes, [vi("x", F32, [2, 3, 4, 4])] +
                [vi(n, F32, [3]) for n in "sbmv"], [vi("y", F32, None)])


@model
def norms_reductions():
    nodes = [
        node("Softmax", ["x"], ["sm"]),
        node("Softmax", ["x"], ["sm0"], axis=0),
        node("LayerNormalization", ["x", "g", "beta"], ["ln"], epsilon=1e-6),
        node("LayerNormalization", ["x", "g2"], ["ln2"], axis=1),
        node("ReduceMean", ["x"], ["mean"], axes=[-1]),
        node("ReduceSum", ["x", "raxes"], ["sum"], keepdims=0),
        node("ReduceSum", ["x"], ["sum_all"]),
        node("ReduceMax", ["x"], ["max"], axes=[1], keepdims=0),
    ]
    inits = [init("g", np.full((4,), 2.0, dtype=np.float32)),
             init("beta", np.full((4,), 0.5, dtype=np.float32)),
             init("g2", np.linspace(1, 2, 12, dtype=np.float32).reshape(3, 4)),
             ints("raxes", [0, 2])]
    return make(nodes, [vi("x", F32, [2, 3, 4])],
                [vi(n, F32, None) for n in
                 ["sm", "sm0", "ln", "ln2", "mean", "sum", "sum_all",
                  "max"]], inits)


def _one_node(n, shape=(2, 3), out_shape=None, inits=()):
    """A model of one node `n` reading x [shape] (f32), writing its first
    output; out_shape None leaves the output's shape to the importer."""
    return make([n], [vi("x", F32, list(shape))],
                [vi(n.output[0], F32, out_shape)], inits)


@model
def common_ops():
    """The ONNX ops gopt composes, chained (common-ops.test checks their
    numbers; this model gives the mutation fuzzer their attributes and
    constant inputs to change)."""
    nodes = [
        node("LogSoftmax", ["x"], ["ls"], axis=1),
        node("CumSum", ["ls", "axis1"], ["cs"], exclusive=1),
        node("Tile", ["cs", "repeats"], ["tiled"]),
        node("DepthToSpace", ["tiled"], ["d2s"], blocksize=2, mode="CRD"),
        node("SpaceToDepth", ["d2s"], ["s2d"], blocksize=2),
        node("Trilu", ["s2d", "k"], ["tri"], upper=0),
        node("Pad", ["tri", "pads"], ["padded"], mode="reflect"),
        node("MaxPool", ["padded"], ["pooled"], kernel_shape=[2, 2],
             dilations=[2, 2]),
        node("TopK", ["pooled", "topk"], ["top", "top_indices"], axis=3),
        node("GatherElements", ["pooled", "top_indices"], ["gathered"],
             axis=3),
        node("ReduceL2", ["gathered"], ["norm"], axes=[1], keepdims=1),
        node("ArgMax", ["gathered"], ["am"], axis=1, keepdims=1),
        node("OneHot", ["am", "depth", "values"], ["onehot"], axis=1),
        node("Add", ["norm", "onehot"], ["sum"]),
        node("Hardmax", ["sum"], ["hard"], axis=2),
        node("LpNormalization", ["hard"], ["lp"], axis=-1, p=1),
        node("Shrink", ["lp"], ["shrunk"], lambd=0.1, bias=0.05),
        node("Einsum", ["shrunk"], ["diag"], equation="abacd->abcd"),
        node("Sin", ["diag"], ["y"]),
    ]
    inits = [ints("axis1", 2), ints("repeats", [1, 2, 1, 1]),
             ints("k", [1]), ints("pads", [0, 0, 1, 1, 0, 0, 1, 1]),
             ints("topk", [2]), ints("depth", [3]),
             init("values", np.array([0.0, 1.0], dtype=np.float32))]
    return make(nodes, [vi("x", F32, [1, 4, 4, 6])], [vi("y", F32, None)],
                inits)


@model
def cumsum_too_long():
    return _one_node(node("CumSum", ["x", "axis"], ["long_cumsum"]),
                     shape=(2, 3000), inits=[ints("axis", 1)])


@model
def reduce_prod_wide():
    return _one_node(node("ReduceProd", ["x"], ["wide_prod"], axes=[1]),
                     shape=(2, 300))


@model
def average_pool_dilated():
    return _one_node(node("AveragePool", ["x"], ["dilated_avg"],
                          kernel_shape=[2, 2], dilations=[2, 2]),
                     shape=(1, 2, 6, 6))


@model
def topk_too_large():
    return _one_node(node("TopK", ["x", "k"], ["top", "top_indices"]),
                     shape=(2, 100), inits=[ints("k", [80])])


@model
def grid_sample_bicubic():
    nodes = [node("GridSample", ["x", "grid"], ["sampled"], mode="bicubic")]
    return make(nodes, [vi("x", F32, [1, 2, 4, 4]), vi("grid", F32, [1, 3, 3, 2])],
                [vi("sampled", F32, None)])


@model
def depth_to_space_bad_mode():
    return _one_node(node("DepthToSpace", ["x"], ["d2s"], blocksize=2,
                          mode="RCD"), shape=(1, 8, 2, 2))


# --- inputs, ordering, external data --------------------------------------


@model
def dynamic_batch():
    nodes = [node("Relu", ["x"], ["y"])]
    return make(nodes, [vi("x", F32, ["batch", 8])], [vi("y", F32, None)])


@model
def dynamic_batch_seq():
    """Two named dynamic dimensions, a constant subgraph and a chain to
    fuse: what gopt-explore --shapes classifies."""
    nodes = [
        node("Mul", ["a", "b"], ["ab"]),
        node("Exp", ["x"], ["e"]),
        node("Mul", ["e", "ab"], ["m"]),
        node("Relu", ["m"], ["y"]),
    ]
    inits = [init("a", np.full([16], 0.5, np.float32)),
             init("b", np.full([16], 2.0, np.float32))]
    return make(nodes, [vi("x", F32, ["batch", "seq", 16])],
                [vi("y", F32, None)], inits)


@model
def unsorted():
    """Nodes listed consumer first: the importer sorts them."""
    nodes = [
        node("Relu", ["a"], ["y"]),
        node("Exp", ["x"], ["a"]),
    ]
    return make(nodes, [vi("x", F32, [4])], [vi("y", F32, [4])])


@model
def external_data(out_path):
    weights = np.arange(64, dtype=np.float32).reshape(8, 8)
    with open(os.path.join(os.path.dirname(out_path) or ".",
                           "external_weights.bin"), "wb") as f:
        f.write(b"\0" * 16)  # exercise the offset
        f.write(weights.tobytes())
    w = external_tensor("w", [8, 8], [("location", "external_weights.bin"),
                                      ("offset", "16"),
                                      ("length", str(weights.nbytes))])
    nodes = [node("MatMul", ["x", "w"], ["y"])]
    return make(nodes, [vi("x", F32, [2, 8])], [vi("y", F32, [2, 8])], [w])


# --- broken models ---------------------------------------------------------


@model
def malformed(out_path):
    with open(out_path, "wb") as f:
        f.write(b"\x0a\xff\xff\xff\xff\x0fnot a model")
    return None


@model
def missing_initializer():
    nodes = [node("Add", ["x", "bias"], ["y"], name="add_bias")]
    return make(nodes, [vi("x", F32, [4])], [vi("y", F32, [4])])


@model
def cycle():
    nodes = [
        node("Relu", ["x"], ["r"], name="entry"),
        node("Add", ["r", "c"], ["a"], name="loop_add"),
        node("Exp", ["a"], ["b"], name="loop_exp"),
        node("Neg", ["b"], ["c"], name="loop_neg"),
    ]
    return make(nodes, [vi("x", F32, [4])], [vi("c", F32, [4])])


@model
def unsupported_ops():
    nodes = [
        node("RoiAlign", ["x"], ["r1"]),
        node("RoiAlign", ["r1"], ["r2"]),
        node("NonZero", ["r2"], ["nz"]),
        node("Relu", ["x"], ["ok"]),
        helper.make_node("FusedConv", ["x"], ["fc"], name="fc",
                         domain="com.microsoft"),
    ]
    m = make(nodes, [vi("x", F32, [4])], [vi("nz", I64, None)])
    m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return m


@model
def unsupported_attribute():
    nodes = [node("Softmax", ["x"], ["y"], name="sm", axis=-1,
                  fancy_mode=1)]
    return make(nodes, [vi("x", F32, [4])], [vi("y", F32, [4])])


@model
def unsupported_attribute_value():
    nodes = [node("AveragePool", ["x"], ["y"], name="pool",
                  kernel_shape=[2, 2], ceil_mode=1, count_include_pad=1)]
    return make(nodes, [vi("x", F32, [1, 1, 5, 5])], [vi("y", F32, None)])


@model
def zero_step():
    nodes = [node("Slice", ["x", "s", "e", "a", "st"], ["y"], name="still")]
    inits = [ints("s", [0]), ints("e", [4]), ints("a", [0]), ints("st", [0])]
    return make(nodes, [vi("x", F32, [4])], [vi("y", F32, None)], inits)


@model
def range_of_input():
    nodes = [node("Range", ["n", "ten", "one"], ["r"], name="range_of_input")]
    inits = [ints("ten", 10), ints("one", 1)]
    return make(nodes, [vi("n", I64, [])], [vi("r", I64, None)], inits)


@model
def scatter_out_of_range():
    nodes = [node("ScatterND", ["zeros", "far", "upd"], ["s"],
                  name="scatter_far")]
    inits = [init("zeros", np.zeros((3,), np.float32)), ints("far", [[3]]),
             init("upd", np.array([1.0], np.float32))]
    return make(nodes, [], [vi("s", F32, None)], inits)


@model
def mod_by_zero():
    nodes = [node("Mod", ["ten", "zero"], ["m"], name="mod_zero")]
    inits = [ints("ten", [10]), ints("zero", [0])]
    return make(nodes, [], [vi("m", I64, None)], inits)


@model
def computed_shape():
    """Reshape to a shape that is a graph input: unknown at import time."""
    nodes = [node("Reshape", ["x", "s"], ["y"], name="reshape_dyn")]
    return make(nodes, [vi("x", F32, [4]), vi("s", I64, [2])],
                [vi("y", F32, None)])


@model
def old_opset():
    nodes = [node("Relu", ["x"], ["y"])]
    return make(nodes, [vi("x", F32, [4])], [vi("y", F32, [4])], opset=11)


@model
def external_escape():
    w = external_tensor("w", [2], [("location", "../../etc/passwd")])
    nodes = [node("Add", ["x", "w"], ["y"])]
    return make(nodes, [vi("x", F32, [2])], [vi("y", F32, [2])], [w])


@model
def wrong_output_type():
    """Declares an output type the graph does not compute."""
    nodes = [node("Relu", ["x"], ["y"])]
    return make(nodes, [vi("x", F32, [4])], [vi("y", I64, [5])])


@model
def bad_broadcast():
    nodes = [node("Add", ["x", "y"], ["z"], name="bad_add")]
    return make(nodes, [vi("x", F32, [3]), vi("y", F32, [4])],
                [vi("z", F32, None)])


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(sorted(MODELS)))
        return 0
    if len(argv) != 3 or argv[1] not in MODELS:
        print(__doc__, file=sys.stderr)
        return 2
    fn, out = MODELS[argv[1]], argv[2]
    m = fn(out) if fn.__code__.co_argcount else fn()
    if m is not None:
        onnx.save(m, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
