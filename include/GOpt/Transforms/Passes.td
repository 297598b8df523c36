//===- Passes.td - GOpt graph passes -----------------------*- tablegen -*-===//

#ifndef GOPT_TRANSFORMS_PASSES_TD
#define GOPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GOptFold : Pass<"gopt-fold"> {
  let summary = "Fold constants and algebraic identities in gopt graphs";
  let description = [{
    Evaluates every gopt op whose operands are all constants (elementwise
    math, compare/select/cast, reductions, transpose, reshape, broadcast,
    slice, split, concat, gather, pad, shape), folds shape-computing chains
    into constants, and applies identities that hold for every input, NaN,
    ±Inf and −0 included (x + (−0), x − (+0), x·1, x/1, x^1, integer x·0,
    neg∘neg, transpose∘transpose, reshape∘reshape, no-op casts, reshapes,
    broadcasts, slices and pads). Commutative operands are put in a
    canonical order so CSE can merge `add(a, b)` with `add(b, a)`.
    Division by zero, out-of-range gathers and out-of-range float→int casts
    are left unfolded. Transposes and reshapes of constants (weight
    transforms) fold at any size, on raw bytes; the element bound applies
    to the other evaluations. A spatial pad that one convolution or pooling
    reads becomes its padding (zeros before a convolution or an average
    pooling that counts padding, −inf before a max pooling). A concat
    whose leading inputs an earlier concat already joined reads that
    concat instead (DenseNet's concats of every earlier feature map).
  }];
  let options = [
    Option<"maxFoldedElements", "max-folded-elements", "int64_t",
           /*default=*/"1 << 16",
           "Largest non-splat constant (in elements) the evaluator may read "
           "or create; larger ones are left to run time (transposes and "
           "reshapes of constants fold at any size)">,
  ];
  let statistics = [
    Statistic<"numEvaluated", "evaluated-ops",
              "Ops replaced by the constants they evaluate to">,
    Statistic<"numFolded", "folded-ops",
              "Ops simplified by an identity or splat fold">,
  ];
  let dependentDialects = ["::mlir::gopt::GOptDialect"];
}

def GOptDCE : Pass<"gopt-dce"> {
  let summary = "Remove ops whose results cannot reach a function result";
  let description = [{
    Erases every side-effect-free op whose results are unused, transitively,
    so dead subgraphs disappear whole; drops results of `gopt.fusion` that
    nobody uses, the body ops that only fed them, and fusion inputs the body
    no longer reads. Ops with side effects, and ops named in `keep-ops`,
    stay (with everything they use).
  }];
  let options = [
    ListOption<"keepOps", "keep-ops", "std::string",
               "Op names (e.g. gopt.exp) never removed, for debugging">,
  ];
  let statistics = [
    Statistic<"numErased", "erased-ops", "Dead ops erased">,
    Statistic<"numPrunedFusionValues", "pruned-fusion-values",
              "Dead results and inputs dropped from gopt.fusion ops">,
  ];
}

def GOptFuse : Pass<"gopt-fuse"> {
  let summary = "Group producer→consumer chains into gopt.fusion kernels";
  let description = [{
    Visits ops in program order and grows fusion groups: chains of
    elementwise and broadcast ops; a contraction (matmul, linear, conv2d)
    with its elementwise epilogue (bias, activation, residual add); a
    reduction (reduce, softmax, layer_norm, pooling) with its elementwise
    epilogue, and with an elementwise prologue for reduce, softmax,
    layer_norm and global_avg_pool; a matmul with the transposes only it
    reads when a GEMM can read their inputs through strides (the kernel
    folds the permutation into the contraction); an elementwise op with the
    chains of unit-step slices and reshapes it alone reads, when their
    source is computed outside its group (views of the kernel's input
    instead of copy kernels). A group has at most one
    contraction or reduction, except the attention kernel (`attention`):
    `Q·Kᵀ → scaling → mask → softmax → ·V` with the transposes its products
    read in place, one closed group. An op joins a group only if every input it takes from
    outside the group is available before the group's first op, so the
    group can be placed there: no cycle is possible, and no op is
    duplicated (a value used outside the group becomes an extra result).
    Groups of two or more ops become `gopt.fusion` ops; existing fusion ops
    are kernels already and are left alone, so fusing twice changes
    nothing.
  }];
  let options = [
    Option<"maxGroupSize", "max-group-size", "int64_t", /*default=*/"64",
           "Largest number of ops in one fusion group">,
    Option<"fuseContractionEpilogues", "fuse-contraction-epilogues", "bool",
           /*default=*/"true",
           "Fuse elementwise consumers into matmul/linear/conv2d groups">,
    Option<"fuseReductions", "fuse-reductions", "bool", /*default=*/"true",
           "Fuse elementwise prologues and epilogues into reductions">,
    Option<"absorbTransposes", "absorb-transposes", "bool",
           /*default=*/"true",
           "Fuse a transpose only a batched matmul reads into the matmul's "
           "kernel, which reads its input through strides">,
    Option<"fuseAttention", "attention", "bool", /*default=*/"true",
           "Fuse the attention chain Q·Kᵀ → scaling → mask → softmax → ·V "
           "into one kernel">,
    Option<"absorbSliceViews", "absorb-slice-views", "bool",
           /*default=*/"true",
           "Fuse the unit-step slices (and reshapes) an elementwise op reads "
           "into its kernel, as views of the kernel's input">,
  ];
  let statistics = [
    Statistic<"numGroups", "fusion-groups", "gopt.fusion ops created">,
    Statistic<"numAttentionGroups", "attention-groups",
              "Attention chains fused into one kernel">,
    Statistic<"numFusedOps", "fused-ops", "Ops moved into fusion groups">,
  ];
  let dependentDialects = ["::mlir::gopt::GOptDialect"];
}

def GOptSplitAttentionKernels : Pass<"gopt-split-attention-kernels"> {
  let summary = "Split attention kernels into the kernels of their parts";
  let description = [{
    Replaces every `gopt.fusion` gopt-fuse made of an attention chain
    (`attention`: `Q·Kᵀ → scaling → mask → softmax → ·V`) by the kernels
    gopt-fuse makes without that option: `Q·Kᵀ` with the transposes it
    reads, the scaling and the mask; the softmax; `P·V` with the
    transposes it reads. Code generation that has no attention kernel (the
    GPU, the CPU without the library path) runs it first, so the graph a
    user optimized once lowers on every target.
  }];
  let statistics = [
    Statistic<"numSplit", "split-kernels", "Attention kernels split">,
  ];
  let dependentDialects = ["::mlir::gopt::GOptDialect"];
}

def GOptMergeSiblingLinears : Pass<"gopt-merge-sibling-linears"> {
  let summary = "One GEMM for the linears that read one input";
  let description = [{
    `gopt.linear` ops outside fusions that read the same input (the Q, K
    and V projections of an attention layer, exported as three linears),
    with constant f32 weights of one layout and the same K, and constant
    biases for all of them or none, become one linear whose weight and bias
    are theirs joined along N, and a `gopt.slice` of its result along the
    last dim for each. On the GPU that is one cuBLAS call (and one bias
    launch) instead of three, the slices views in the kernels that read
    them (`gopt-fuse-slice-inputs`, which runs after it). The GPU pipeline
    runs it before outlining kernels; it is not a graph pass of
    `gopt-optimize` (the CPU's attention kernel reads Q, K and V whole:
    slices would be copies there).
  }];
  let statistics = [
    Statistic<"numMerged", "merged-linears",
              "Linears merged into another's GEMM">,
  ];
}

def GOptFuseGemmLayerNorms : Pass<"gopt-fuse-gemm-layer-norms"> {
  let summary = "A layer norm joins the GEMM kernel whose epilogue it reads";
  let description = [{
    A `gopt.layer_norm` that is a kernel of its own and normalizes the
    result of a `gopt.fusion` holding a contraction (`gopt.matmul`,
    `gopt.linear`) and its elementwise epilogue (a bias, a residual: what
    gopt-fuse makes of them), the fusion's only result read by nothing
    else, joins that fusion. On the GPU the epilogue was one launch over
    the GEMM's result and the layer norm another reading it back; in one
    kernel, the GEMM's call is followed by one launch that applies the
    epilogue to each row as it normalizes it (the residual-then-norm of a
    transformer layer). The GPU pipeline runs it before outlining kernels;
    it is not a graph pass of `gopt-optimize` (the effect analysis measures
    the same graphs on every target).
  }];
  let statistics = [
    Statistic<"numFused", "fused-layer-norms",
              "Layer norms moved into their GEMM's kernel">,
  ];
}

def GOptFuseSliceInputs : Pass<"gopt-fuse-slice-inputs"> {
  let summary = "Move the slices a fusion reads into it, as views of their "
                "input";
  let description = [{
    A `gopt.fusion` input computed by a chain of `gopt.slice` ops with unit
    steps and `gopt.reshape` ops (at least one slice), each read by nothing
    else, is computed inside the fusion instead, from the chain's source;
    an op that is a kernel of its own (not in a fusion) and reads such a
    chain becomes one `gopt.fusion` with it, where that op is. A chain of
    views that only kernels read is copied for each reader first. Either
    way,
    once lowered, each slice is a view of the kernel's argument
    (`tensor.extract_slice`, a strided subview) instead of a copy kernel of
    its own, and a library GEMM in the kernel reads it through strides. An
    exported attention layer splits its projection `[S, 3·D]` into Q, K and
    V this way. The GPU pipeline runs it before outlining kernels (after
    `gopt-split-attention-kernels`); it is not a graph pass of
    `gopt-optimize`, so the effect analysis measures the same graphs on
    every target.
  }];
  let statistics = [
    Statistic<"numFused", "fused-slices",
              "Slices moved into the kernel that reads them">,
  ];
  let dependentDialects = ["::mlir::gopt::GOptDialect"];
}

def GOptChannelsLast : Pass<"gopt-channels-last"> {
  let summary = "Run convolutions, poolings and what lies between them on "
                "NHWC activations";
  let description = [{
    Rewrites every `gopt.conv2d` to its `channels_last` form (NHWC input and
    result, FHWC weight permuted at compile time) between two transposes,
    turns pooling and global average pooling on such data channels last,
    and sinks the NHWC→NCHW transposes through elementwise ops (permuting
    their constant operands at compile time, and broadcast operands of at
    most 4096 elements at run time) until they meet the NCHW→NHWC transpose
    of the next convolution and fold away. Concats of such views (and
    constants), and slices, splits, pads and reduces of one, run on the NHWC
    data with their axes permuted; a transpose of one composes with it (and
    cancels when the two are inverse). A transpose that only moves unit
    dims becomes a reshape. Transposes remain where the graph enters and
    leaves the convolutional part or meets an op the pass does not look
    through (a reshape that splits channels, a matmul, ...). On this CPU
    oneDNN's convolutions and the 1x1-convolution GEMM take NHWC without
    reordering activations.
  }];
  let statistics = [
    Statistic<"numConvolutions", "convolutions",
              "Convolutions moved to channels last">,
    Statistic<"numTransposesLeft", "transposes-left",
              "gopt.transpose ops in the graph afterwards">,
    Statistic<"numBelowReshapes", "ops-above-reshapes",
              "Elementwise ops moved above the reshape they read">,
  ];
  let dependentDialects = ["::mlir::gopt::GOptDialect"];
}

def GOptOutlineKernels : Pass<"gopt-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline every kernel (gopt.fusion or unfused op) into a function";
  let description = [{
    Every `gopt.fusion` and every gopt op outside one that is not a constant
    is a kernel (the ops GraphStats counts as kernels). Each becomes a
    private `func.func @<parent>_k<N>_<ops>` carrying `gopt.kernel = N : i64`
    (N counts kernels in program order across the module) and is replaced
    by a `func.call`. Splat constants a kernel reads are cloned into it (so
    they fold into its loops); other constants are passed as arguments.
    With `timers`, each call is bracketed by
    `func.call @gopt_kernel_begin(%N)` and `@gopt_kernel_end(%N)` (i64
    argument, external declarations) for a runtime to time kernels.
  }];
  let options = [
    Option<"timers", "timers", "bool", /*default=*/"false",
           "Call gopt_kernel_begin/gopt_kernel_end(i64 id) around each "
           "kernel call">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernel functions created">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gopt::GOptDialect",
  ];
}

#endif // GOPT_TRANSFORMS_PASSES_TD
