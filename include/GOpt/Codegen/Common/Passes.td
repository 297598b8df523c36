//===- Passes.td - Code generation passes of every target -*- tablegen -*-===//
//
// Target-independent code generation passes, shared by the CPU pipeline
// gopt-lower-to-llvm (include/GOpt/Codegen/CPU/Pipeline.h) and the GPU
// pipeline gopt-lower-to-nvvm (include/GOpt/Codegen/GPU/Pipeline.h): one
// loop nest per kernel, the C interface of entry functions, and the check
// that only LLVM-dialect ops remain. docs/Lowering.md describes them.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_PASSES_TD
#define GOPT_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def GOptFuseKernelLoops : Pass<"gopt-fuse-kernel-loops", "::mlir::ModuleOp"> {
  let summary = "Make each outlined kernel one loop nest";
  let description = [{
    Runs on functions carrying `gopt.kernel` (made by
    `gopt-outline-kernels`, then lowered by `convert-gopt-to-linalg`). First
    fuses chains of elementwise `linalg.generic` ops into one generic
    (upstream elementwise-op fusion); then, when the kernel computes one
    result, tiles the op that produces it along the parallel dimensions that
    every fused producer also iterates (so no reduction is recomputed per
    tile) and fuses all its producers into that tile loop nest. Kernels
    whose result op has no tileable dimension stay as their fused linalg
    ops.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Tile sizes for the leading tileable dimensions of each "
               "kernel's result op (the last one repeats for the rest; 0 "
               "leaves a dimension untiled)">,
    Option<"parallelTileLoops", "parallel-tile-loops", "bool",
           /*default=*/"false",
           "Make the tile loops one scf.forall (independent iterations, "
           "for mapping onto GPU threads) instead of nested scf.for">,
    Option<"convolutionEpilogues", "convolution-epilogues", "bool",
           /*default=*/"false",
           "Mark an epilogue written in place into a channels-last library "
           "convolution's result for that convolution when its payload is "
           "a chain of steps the runtime's convolution applies (bias, "
           "activations, residual; it is then left whole)">,
    Option<"gemmEpilogues", "gemm-epilogues", "bool", /*default=*/"false",
           "Mark an epilogue written in place into a library GEMM's result "
           "for that GEMM's call when it is a bias along the result's "
           "innermost dim, or a bias and a ReLU (the GPU's cuBLASLt "
           "epilogues; it is then left whole)">,
  ];
  let statistics = [
    Statistic<"numTiledKernels", "tiled-kernels",
              "Kernels turned into one tiled loop nest">,
    Statistic<"numUntiledKernels", "untiled-kernels",
              "Kernels left as fused linalg ops (no tileable dimension or "
              "several results)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GOptEmitCInterface : Pass<"gopt-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Mark public functions with bodies llvm.emit_c_interface";
  let description = [{
    Adds the `llvm.emit_c_interface` unit attribute to every public
    `func.func` with a body, so `convert-func-to-llvm` also emits
    `_mlir_ciface_<name>`, which takes and returns memrefs as pointers to
    descriptors (the ABI runtimes and `mlir-runner` call).
  }];
}

def GOptCopyConstantKernelResults
    : Pass<"gopt-copy-constant-kernel-results", "::mlir::func::FuncOp"> {
  let summary = "Give a kernel result that is a constant a buffer of its own";
  let description = [{
    Runs before bufferization on kernels (functions carrying `gopt.kernel`).
    A kernel whose computation folded to a constant (a graph without
    `gopt-fold`: the mul of two constants) would return the constant's
    global, read-only buffer. Bufferization across function boundaries takes
    a call's results to be fresh, writable buffers, so a later kernel may
    write into it in place (a `linear`'s GEMM accumulating into its bias),
    which faults. Each returned value that is an `arith.constant`, directly
    or through reshapes, slices and casts, is returned as a copy
    (`bufferization.alloc_tensor ... copy(...)`) instead.
  }];
  let statistics = [
    Statistic<"numCopied", "copied-results",
              "Constant kernel results given a buffer of their own">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def GOptKernelResultsToOutParams
    : Pass<"gopt-kernel-results-to-out-params", "::mlir::ModuleOp"> {
  let summary = "Let kernels write their results into buffers their caller "
                "allocates";
  let description = [{
    Runs after bufferization, before deallocation. A kernel (a private
    function carrying `gopt.kernel`) whose every memref result is a
    static-shaped, identity-layout buffer it allocates (`memref.alloc`) and
    returns once takes those buffers as trailing arguments instead
    (destination-passing style): the allocation moves to each call site, so
    the caller sees every intermediate's allocation and lifetime, which
    `gopt-plan-buffers` needs. Upstream's `promoteBufferResultsToOutParams`
    does the rewrite, with the kernel's allocation replaced by the argument
    (no copy); the caller allocates buffers aligned to
    `kBufferAlignment` (64 bytes). Kernels that
    return a view of an argument (a reshape kernel) or a buffer of dynamic
    shape keep returning it.
  }];
  let statistics = [
    Statistic<"numConverted", "converted-kernels",
              "Kernels that write their results into their caller's buffers">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GOptDeduplicateKernels
    : Pass<"gopt-deduplicate-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile each distinct kernel once, however many calls it has";
  let description = [{
    Runs right after `gopt-outline-kernels`, and on the CPU again after
    `gopt-parametrize-slice-offsets`. Kernels (private functions
    carrying `gopt.kernel`) whose signatures, argument and result
    attributes and bodies are the same op for op (locations aside) are one
    function: the first in module order stays, every call of the others
    calls it, and the others are erased. Weights are arguments of the
    compiled code, so a network's repeated blocks (a transformer's layers,
    a ResNet stage's bottlenecks) are lowered and compiled once instead of
    once per layer.

    The kernel that stays lists the kernels it replaced in
    `gopt.kernel_copies` (their names and ids), so the kernel list keeps
    one row per kernel; the timer calls around each call keep their ids.
  }];
  let statistics = [
    Statistic<"numMerged", "merged-kernels",
              "Kernels replaced by an identical one">,
  ];
}

def GOptParametrizeSliceOffsets
    : Pass<"gopt-parametrize-slice-offsets", "::mlir::ModuleOp"> {
  let summary = "Give kernels that differ only in where they slice their "
                "arguments those offsets as arguments";
  let description = [{
    Runs after kernels are lowered to `linalg` and `tensor` ops, before a
    second `gopt-deduplicate-kernels`. Kernels (private functions carrying
    `gopt.kernel`) that are the same function but for the static offsets
    of `tensor.extract_slice` ops of their arguments (aligned in walk
    order; sizes and strides equal) get each offset that is not the same
    in all of them as an `index` argument, appended after the others; each
    call passes its kernel's offset as a constant. They are then one
    function for `gopt-deduplicate-kernels`: an unrolled LSTM's step
    kernels, which read step t of the input projection, are compiled once
    instead of once per step. A kernel with no such twin is left as it is
    (its offsets stay constants the code generator sees).
  }];
  let statistics = [
    Statistic<"numParametrized", "parametrized-kernels",
              "Kernels given their slice offsets as arguments">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GOptInlineViewKernels
    : Pass<"gopt-inline-view-kernels", "::mlir::ModuleOp"> {
  let summary = "Clone the views of reshape-only kernels into their callers";
  let description = [{
    Runs after bufferization, before deallocation. A kernel (a private
    function carrying `gopt.kernel`) of one block whose ops are
    side-effect-free views (`memref.expand_shape`, `memref.collapse_shape`,
    casts) and constants, returning memrefs, is a reshape: each call of it
    is replaced by a clone of its ops, so the caller sees that the result
    aliases the argument. Ownership-based deallocation then frees the
    argument's buffer after the view's last use without a runtime check,
    and `gopt-plan-buffers` can place it. The kernel function stays,
    uncalled (the kernel list and its timers keep it).
  }];
  let statistics = [
    Statistic<"numInlined", "inlined-calls",
              "Calls of reshape kernels replaced by their views">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GOptPlanBuffers : Pass<"gopt-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Place an entry function's intermediates in one arena";
  let description = [{
    Runs on public functions with one block after deallocation is lowered to
    `memref.dealloc`. Each `memref.alloc` of that block with a static shape
    and identity layout, asking no stricter alignment than `alignment`,
    freed by one `memref.dealloc` in the same block, is live from its
    allocation to its dealloc (`gopt-dealloc-after-last-use` puts the
    dealloc after the last use of every alias). The pass assigns
    each such buffer an offset in one arena so that buffers whose lifetimes
    overlap do not overlap in memory: buffers are placed largest first, each
    at the lowest-waste gap between the buffers already placed that live at
    the same time, else on top (greedy by decreasing size with best fit,
    the policy of XLA's `GlobalDecreasingSizeBestFitHeap`; TFLite's arena
    planner is greedy by size too). When that arena is larger than the most
    bytes alive at one moment (no packing needs less), the buffers are
    packed again, best fit, in four other fixed orders and then in orders
    drawn from a fixed seed, and the smallest arena is kept. Offsets are
    multiples of `alignment`.

    The arena is one `memref.alloc` at the start of the function, freed
    where the last of its buffers was; each planned allocation becomes a
    `memref.view` of it at its offset, and its dealloc is erased. The
    function records `gopt.arena_bytes` (the arena's size),
    `gopt.planned_buffers` (how many buffers share it) and
    `gopt.planned_bytes` (the sum of their sizes, what the arena replaces)
    and `gopt.most_live_bytes` (the most of those bytes alive at one
    moment, the bound no packing beats), which the runner reports.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t",
           /*default=*/"::mlir::gopt::kBufferAlignment",
           "Byte alignment of each buffer's offset in the arena">,
  ];
  let statistics = [
    Statistic<"numPlanned", "planned-buffers",
              "Buffers placed in an arena">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GOptDeallocAfterLastUse
    : Pass<"gopt-dealloc-after-last-use", "::mlir::ModuleOp"> {
  let summary = "Free each buffer after its last use, not at the end of its "
                "block";
  let description = [{
    Ownership-based deallocation frees a block's buffers in one
    `bufferization.dealloc` at the end of the block, so an entry function
    holds every kernel's result until it returns: its peak is the sum of all
    intermediates. This pass, run after `ownership-based-buffer-deallocation`
    and before `buffer-deallocation-simplification` (which compares every
    memref of a dealloc with every other, quadratic in such a dealloc) and
    `lower-deallocations`, takes each memref out of such a
    dealloc and frees it in a dealloc of its own (same ownership condition)
    right after the last use of any value that may alias it, as liveness
    would.

    Aliases are found in the block: view-like ops and
    `memref.extract_strided_metadata` alias their source; a call's memref
    results alias the memref operands its callee may return a view of (the
    callee's return values traced back to its arguments; any operand for
    callees it cannot see); ops with regions alias their results with their
    memref operands and yielded values; other ops with memref results alias
    all their memref operands. A memref stays in the end-of-block dealloc
    when it may alias a retained value (a result of the function) or
    another memref of the same dealloc (the dealloc frees aliases once).
  }];
  let statistics = [
    Statistic<"numMoved", "moved-deallocs",
              "Buffers freed after their last use instead of at block end">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def GOptVerifyLLVMLowered : Pass<"gopt-verify-llvm-lowered", "::mlir::ModuleOp"> {
  let summary = "Fail unless only LLVM-dialect ops remain";
  let description = [{
    The last stage of `gopt-lower-to-llvm` (and, with `gpu-host`, of
    `gopt-lower-to-nvvm`): reports the first op (and how many others) that
    is neither in the `llvm` dialect nor the module itself, so a lowering
    gap is a clear error and not a failure of translation to LLVM IR later.
    With `gpu-host`, `gpu.launch_func` and `gpu.binary` are allowed too
    (translation to LLVM IR turns them into runtime calls and an embedded
    binary).
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"gopt-lower-to-llvm\"",
           "The pipeline named in the diagnostic">,
    Option<"gpuHost", "gpu-host", "bool", /*default=*/"false",
           "Also allow gpu.launch_func and gpu.binary">,
  ];
}

def GOptConvolutionsToGemm : Pass<"gopt-convolutions-to-gemm"> {
  let summary = "Compute f32 convolutions as an im2col copy and a GEMM";
  let description = [{
    Rewrites every f32 `linalg.conv_2d_nchw_fchw` and
    `linalg.conv_2d_nhwc_fhwc` (what `convert-gopt-to-linalg` makes of an
    ungrouped `gopt.conv2d`) with upstream's `linalg::rewriteInIm2Col`: a
    parallel generic copies each output position's receptive field into one
    row of an im2col tensor `[N, C·KH·KW, OH·OW]` (`[N, OH·OW, KH·KW·C]`
    channels last), and a contraction generic multiplies it with the filter
    seen as a `[F, C·KH·KW]` matrix; a reshape gives the convolution's
    result back. When the input is a zero-padded `tensor.pad` (a padded
    convolution), the copy reads the unpadded input, its indices shifted by
    the low padding and clamped, and selects the padding value where they
    fell outside: the padded tensor is never built. A 1x1 convolution with
    unit strides on an unpadded input has no copy at all: its im2col tensor
    is the input with the spatial dims collapsed, a view. The contraction is one
    a GEMM library takes, so
    `gopt-select-library-contractions` marks it. Grouped (depthwise)
    convolutions are left as they are. The GPU pipeline runs it with
    `conv-gemm` (docs/GPU.md): a convolution becomes an im2col launch and a
    cuBLAS call instead of one dot product per output element.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRewritten", "num-rewritten",
              "Convolutions rewritten as im2col and a GEMM">,
    Statistic<"numPaddingsRead", "num-paddings-read",
              "im2col copies that read a padded input through its padding">,
    Statistic<"numPointwise", "num-pointwise",
              "1x1 convolutions whose im2col tensor is a view of the input">,
  ];
}

def GOptFoldPermutationsIntoContractions
    : Pass<"gopt-fold-permutations-into-contractions"> {
  let summary = "Let contractions read a transposed operand through strides";
  let description = [{
    A contraction `linalg.generic` (multiply-accumulate body) whose input is
    the result of a permuting copy (a generic that only yields its input
    read through a permutation: what `convert-gopt-to-linalg` makes of
    `gopt.transpose`) read by nothing else reads the copy's input through
    the composed indexing map, and the copy goes. A contraction whose
    result only such a copy reads, starting from a `linalg.fill`, writes
    the copy's result instead (the fill of a tensor of the copy's shape,
    the output map composed with the inverse permutation). A contraction a
    GEMM library could take before (`gopt-select-library-contractions`) is
    rewritten only if it still can after (each operand keeps one of its
    matrix dims innermost, the result its n); otherwise the copy stays.
    gopt-fuse puts such transposes into their matmul's kernel
    (`absorb-transposes`), gopt-split-attention-kernels the one merging
    the heads after P·V; the library call then takes the permutation as
    strides and the transposed tensor is never written.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GOptFoldScalingIntoContractions
    : Pass<"gopt-fold-scaling-into-contractions"> {
  let summary = "Let GEMMs scale an operand or their result by a constant "
                "as their alpha";
  let description = [{
    A contraction `linalg.generic` that `gopt_sgemm` computes
    (multiply-accumulate body, see `gopt-select-library-contractions`)
    whose input is the result of a generic scaling one tensor by an f32
    constant (`x * c`, `c * x` or `x / c`, elementwise, `x` read through a
    permutation, `c` a constant or a splat constant tensor), read by nothing
    else, reads `x` through the composed indexing map and multiplies the
    element by the factor in its body (`out + (x * f) * y`, `f = c` or
    `1 / c`); the scaling generic goes. Likewise a scaling generic whose
    scaled tensor is (through the identity) the result of such a
    contraction that starts from a zero `linalg.fill` and is read by
    nothing else: the contraction multiplies each term by the factor
    (`out + (x * y) * f`) and its result replaces the scaling's. The library
    call then takes the factor as the GEMM's alpha; the scaled tensor is
    never written. Run after `gopt-fold-permutations-into-contractions`
    (attention scales Q before the transpose that splits its heads).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def GOptSelectLibraryContractions : Pass<"gopt-select-library-contractions"> {
  let summary = "Mark f32 contractions and convolutions for library calls";
  let description = [{
    Sets `library_call = "gopt_sgemm"` on every contraction `linalg.generic`
    (what `convert-gopt-to-linalg` makes of `gopt.matmul` and
    `gopt.linear`) that sgemm can compute: f32 operands, one reduction
    loop, a multiply-accumulate body, projected-permutation maps, the
    result's last two dims the matrix rows and columns. Marked ops are left
    whole by `gopt-fuse-kernel-loops` (the epilogue of their kernel is tiled
    on its own and writes in place into their result) and by
    `gopt-vectorize-kernels`, and become calls of the runtime's
    `gopt_sgemm` in `gopt-lower-library-contractions`. Every f32
    convolution (`linalg.conv_2d_nchw_fchw`, or the generic of a grouped one,
    which carries `gopt.grouped_conv2d`) gets the discardable attribute
    `gopt.library_call = "gopt_conv2d"` and becomes a call of the runtime's
    `gopt_conv2d` likewise; every f32 `linalg.pooling_nchw_max` / `_sum`
    gets `gopt.library_call = "gopt_pool2d"`. Other contractions (non-f32,
    other bodies, and contractions where an operand's innermost dim is
    none of its two matrix dims, which no GEMM takes) are left to the
    codegen path. With `windowed-ops=false` (the GPU pipeline) only
    contractions are marked. With `min-flops=N`, a contraction with
    row-major operands (A's innermost dim k, B's n) whose GEMMs each do
    fewer than N FLOPs (2·m·n·k, batches apart) is left to the codegen path
    too: below about 2^17 the generated loops finish before a library call
    would (`gopt-lower-to-llvm{library-min-flops}`); transposed operands,
    read strided by the loops, keep the library.
  }];
  let options = [
    Option<"windowedOps", "windowed-ops", "bool", /*default=*/"true",
           "Also mark convolutions (gopt_conv2d) and poolings (gopt_pool2d)">,
    Option<"minFlops", "min-flops", "int64_t", /*default=*/"0",
           "Leave contractions of fewer FLOPs per GEMM (2·m·n·k) to the "
           "codegen path">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GOptFormAttentionKernels : Pass<"gopt-form-attention-kernels"> {
  let summary = "Make each attention chain one gopt.attention_kernel";
  let description = [{
    Replaces every attention chain of gopt ops (`gopt.matmul` Q·Kᵀ, an
    optional scaling by a one-element constant, an optional additive mask,
    `gopt.softmax` along the last axis, `gopt.matmul` P·V; f32, rank 3 or
    4, each intermediate read once: the kernel gopt-fuse's `attention`
    makes) by one `gopt.attention_kernel` into a `tensor.empty`, the
    transposes read only by the products folded into its permutations.
    The library path of gopt-lower-to-llvm runs it on each kernel before
    convert-gopt-to-linalg; gopt-lower-library-contractions then makes the
    op one `gopt_attention` call.
  }];
  let statistics = [
    Statistic<"numKernels", "attention-kernels",
              "Attention chains made one gopt.attention_kernel">,
  ];
  let dependentDialects = [
    "::mlir::gopt::GOptDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def GOptLowerLibraryContractions
    : Pass<"gopt-lower-library-contractions", "::mlir::ModuleOp"> {
  let summary = "Replace marked contractions and convolutions on memrefs by "
                "gopt_sgemm / gopt_conv2d calls";
  let description = [{
    After bufferization, replaces every `linalg.generic` marked
    `library_call = "gopt_sgemm"` by a call of the runtime's
    `void gopt_sgemm(int64_t batch, int64_t m, int64_t n, int64_t k,
    float alpha, const float *a, int64_t aBatch, int64_t aRow, int64_t aCol,
    const float *b, ..., float beta, float *c, ...)` (element strides; the
    runtime picks sgemm's transpose flags from them), inside loops over all
    batch dims but the innermost. A zero `linalg.fill` of the result just
    before the contraction is dropped and the call gets `beta = 0`;
    otherwise (a broadcast bias) `beta = 1`. The function is declared in
    the module. A convolution marked `gopt.library_call = "gopt_conv2d"` on
    contiguous static buffers becomes one call of `gopt_conv2d(sizes,
    strides, dilations, groups, input, weight, constantWeight, beta,
    output)`, `constantWeight` 1 when the weight is a function argument
    marked `gopt.weight`; on a strided view it loses its mark (loops
    compute it). A pooling marked `gopt_pool2d` whose output is filled with
    the reduction's identity just before becomes a call of `gopt_pool2d`,
    the fill dropped; otherwise it loses its mark. A
    `gopt.attention_kernel` on buffers becomes one call of
    `gopt_attention(b0, b1, sq, sk, d, dv, scale, q, qStrides..., kt, ...,
    v, ..., mask, ..., out, ...)`, each operand's element strides along
    its two batch dims, rows and columns as the op's permutation reads it
    (0 along a broadcast or absent dim; a null mask without one).
  }];
  let options = [
    Option<"sgemmCallee", "sgemm-callee", "std::string",
           /*default=*/"\"gopt_sgemm\"",
           "The runtime function contractions become calls of (the GPU "
           "pipeline: gopt_cuda_sgemm, same signature, device pointers)">,
    Option<"sgemmEpilogueCallee", "sgemm-epilogue-callee", "std::string",
           /*default=*/"\"\"",
           "The runtime function a zero-initialized contraction and the "
           "epilogue marked for it (gemm-epilogues) become one call of "
           "(gopt_cuda_sgemm_epilogue); empty: such epilogues lose their "
           "mark and run as loops">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // GOPT_CODEGEN_COMMON_PASSES_TD
