//===- Passes.td - GOpt conversion passes ------------------*- tablegen -*-===//
//
// Lowering of the gopt dialect to upstream dialects (linalg, tensor, arith,
// math), shared by every target. The code generation that follows lives in
// include/GOpt/Codegen (Common, CPU, GPU); docs/Lowering.md and docs/GPU.md
// describe it.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CONVERSION_PASSES_TD
#define GOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGOptToLinalg : Pass<"convert-gopt-to-linalg"> {
  let summary = "Lower gopt ops to linalg, tensor, arith and math";
  let description = [{
    Rewrites every gopt op into ops of the `linalg`, `tensor`, `arith` and
    `math` dialects on the same tensors: elementwise ops (numpy
    broadcasting included) become one `linalg.generic` each, reductions,
    softmax and layer_norm become reduction generics, matmul/linear/conv2d
    contraction generics (`linalg.conv_2d_nchw_fchw` for ungrouped
    convolutions), pooling windowed generics, and data movement
    `tensor` ops (collapse/expand_shape, extract/insert_slice, pad) or
    generics. Constants, `dense_resource` ones included, become
    `arith.constant`. The body of a `gopt.fusion` is inlined in place: run
    `gopt-outline-kernels` first to keep each group a kernel of its own.
    Ops of other dialects are left alone; an op that cannot be lowered is
    reported with the reason.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GOPT_CONVERSION_PASSES_TD
