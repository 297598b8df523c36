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
    ops and n-D transfers for `convert-vector-to-scf{full-unroll}`. Float
    sums and products along a vector (`vector.reduction <add|mul>`) get
    the `reassoc` flag: LLVM adds their lanes pairwise instead of in one
    dependent chain.
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

def GOptParallelizeKernelLoops
    : Pass<"gopt-parallelize-kernel-loops", "::mlir::ModuleOp"> {
  let summary = "Run the kernels' parallel loops on the runtime's threads";
  let description = [{
    Outlines each outermost `scf.parallel` of a kernel (`gopt.kernel`) that
    does at least `min-work` operations (a static estimate: ops, vector ops
    per 8 lanes, times trip counts) into
    `func.func private @<kernel>_parallel<N>(!llvm.ptr, index, index)`,
    which runs a chunk [begin, end) of the iterations of the leading
    dimensions (linearized; as many as give at least 128 iterations, the
    remaining dimensions a loop nest inside each), and calls
    the runtime's `gopt_parallel_for(body, context, iterations)` where the
    loop was. Values the body reads are passed in a struct on the stack in
    their LLVM form (unrealized casts bridge them until the conversion to
    LLVM folds them); constants are cloned into the body; a buffer only the
    loop touches is allocated per chunk by the body. Loops with dynamic
    bounds, results, or a temporary shared through a view stay as they
    are. Runs after the loops are built and before `convert-scf-to-cf`.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"16384",
           "Loops estimated to do fewer operations stay on the calling "
           "thread (a parallel region costs about a microsecond)">,
  ];
  let statistics = [
    Statistic<"numParallelLoops", "parallel-loops",
              "Loops outlined and run through gopt_parallel_for">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def GOptStackScratchBuffers
    : Pass<"gopt-stack-scratch-buffers", "::mlir::func::FuncOp"> {
  let summary = "Small scratch buffers of kernels on the stack, allocated "
                "once per call";
  let description = [{
    In private functions (kernels and the bodies of their parallel loops),
    a `memref.alloc` of a static, identity-layout shape of at most
    `max-bytes` whose buffer stays in the function — every use reads or
    writes it (`memref`/`vector` loads and stores, transfers, `memref.copy`)
    or views it (`subview`, `cast`, reshapes, whose uses are checked the
    same way), or frees it — becomes a `memref.alloca` at the start of the
    function and its `memref.dealloc`s are erased. Loops of a kernel
    otherwise allocate and free their temporaries (a reduction's
    accumulator, a row buffer) once per iteration on the runtime's
    allocator, whose lock the threads of a parallel loop then share: a
    layer norm of 256 rows made 512 allocations per run. An iteration reuses
    the previous one's buffer, whose contents a fresh allocation would not
    define either. Runs after gopt-parallelize-kernel-loops, so every loop
    left is sequential and each thread has its own frame; the buffers of a
    function together stay within `max-function-bytes`.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"16384",
           "Largest buffer moved to the stack">,
    Option<"maxFunctionBytes", "max-function-bytes", "int64_t",
           /*default=*/"65536",
           "Most stack bytes a function's moved buffers take together">,
  ];
  let statistics = [
    Statistic<"numPromoted", "promoted-buffers",
              "Allocations moved to the stack">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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
