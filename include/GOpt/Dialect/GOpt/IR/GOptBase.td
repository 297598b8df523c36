//===- GOptBase.td - GOpt dialect definition ---------------*- tablegen -*-===//
//
// The gopt dialect: tensor-graph ops on statically shaped, ranked builtin
// tensors. See docs/Dialect.md for the op set and its semantics.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_BASE_TD
#define GOPT_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"

def GOpt_Dialect : Dialect {
  let name = "gopt";
  let cppNamespace = "::mlir::gopt";
  let summary = "Tensor-graph dialect of the GOpt compiler";
  let description = [{
    Graph-level ops on statically shaped builtin tensors, with numpy-style
    broadcasting for elementwise ops. Every op is Pure, verifies its operands,
    infers its result type where it can, folds where it can, and answers the
    fusion-kind and cost interfaces. `gopt.fusion` holds one fused group and
    is the kernel boundary on every target.
  }];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

/// Element types gopt ops compute on.
def GOpt_FloatElement : AnyTypeOf<[F16, BF16, F32, F64]>;
def GOpt_IntElement : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def GOpt_AnyElement : AnyTypeOf<[F16, BF16, F32, F64, I1, I8, I16, I32, I64]>;

def GOpt_Tensor : StaticShapeTensorOf<[F16, BF16, F32, F64, I1, I8, I16, I32, I64]>;
def GOpt_FloatTensor : StaticShapeTensorOf<[F16, BF16, F32, F64]>;
def GOpt_NumericTensor : StaticShapeTensorOf<[F16, BF16, F32, F64, I8, I16, I32, I64]>;
def GOpt_BoolTensor : StaticShapeTensorOf<[I1]>;
def GOpt_IndexTensor : StaticShapeTensorOf<[I32, I64]>;
def GOpt_ShapeTensor : StaticShapeTensorOf<[I64]>;

#endif // GOPT_BASE_TD
