//===- Passes.td - GOpt CPU code generation passes ---------*- tablegen -*-===//
//
// From the kernels' loop nests (include/GOpt/Codegen/Common/Passes.td) to the
// LLVM dialect on the CPU: contractions on the library path, vectorization,
// approximate math and kernels kept out of line, in the gopt-lower-to-llvm
// pipeline (include/GOpt/Codegen/CPU/Pipeline.h). docs/Lowering.md describes
// the passes and the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_CPU_PASSES_TD
#define GOPT_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    other bodies) are left to the codegen path.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
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
    the fill dropped; otherwise it loses its mark.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GOptVectorizeKernels : Pass<"gopt-vectorize-kernels"> {
  let summary = "Vectorize the static-shaped linalg ops of the tile loops";
  let description = [{
    First tiles named 2-D convolutions and poolings the loops compute to
    single rows and decomposes them into 1-D ops (ops marked for a library
    call are left whole), and drops the unit dims of generics whose
    innermost loop has size 1 (so a `tensor<1x576x1x1xf32>` becomes one
    `vector<576xf32>`, not 576 one-element vectors). Then calls the upstream
    linalg vectorizer on every linalg op on tensors whose shapes are static
    and that the vectorizer accepts (ops it rejects stay as they are and
    become scalar loops later; library calls and the fills of their results
    are skipped), and applies the usual cleanups (transfer permutation
    lowering, reduction-to-contract folding, pad vectorization).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GOptLowerVectors : Pass<"gopt-lower-vectors"> {
  let summary = "Lower n-D vector ops to the forms convert-vector-to-llvm takes";
  let description = [{
    Applies the upstream vector lowering patterns to what
    `gopt-vectorize-kernels` produced: multi-reductions (inner reduction),
    contractions (outer products, then FMAs), broadcasts, transposes,
    shape casts, masks and transfer permutation maps, leaving 1-D vector
    ops and n-D transfers for `convert-vector-to-scf{full-unroll}`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GOptApproximateMath : Pass<"gopt-approximate-math"> {
  let summary = "Replace transcendental math ops with vectorizable polynomials";
  let description = [{
    Rewrites f32 `math` ops (scalars and vectors) into the upstream
    polynomial approximations (`populateMathPolynomialApproximationPatterns`)
    built of arith ops, FMAs and bit casts, so that vectorized kernels keep
    their vectors: otherwise `erf` and `tanh` become one libm call per lane
    and `exp`, `log` one `llvm.exp`/`llvm.log` libcall per lane. The
    approximations are accurate to a few ulp in f32, subnormals included
    (log's subnormal inputs and exp's subnormal results are brought into
    the normal range around the polynomial; docs/Lowering.md has the
    measured bounds). Other element types are left to the libm path.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Math ops to approximate, by mnemonic (default: erf, tanh, "
               "exp, expm1, log, log1p, log2)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GOptNoInlineKernels : Pass<"gopt-no-inline-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep each kernel its own function through LLVM's optimizer";
  let description = [{
    Sets `no_inline` on every `llvm.func` that carries `gopt.kernel`. At O3
    LLVM would otherwise inline every (private, single-use) kernel into the
    entry: one huge function whose instruction selection grows faster than
    its size (on EfficientNet-B0, 100 kernels, code generation took 9.8 s
    inlined and 2.9 s with the kernels apart). Kernels are coarse, so a call
    each costs nothing measurable, and profiles stay per kernel.
  }];
}

#endif // GOPT_CODEGEN_CPU_PASSES_TD
