//===- GOptOps.td - GOpt operations ------------------------*- tablegen -*-===//
//
// The op set of the gopt dialect. docs/Dialect.md describes semantics,
// FLOP conventions and the fusion kinds; keep both in step.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_OPS_TD
#define GOPT_OPS_TD

include "GOpt/Dialect/GOpt/IR/GOptBase.td"
include "GOpt/Dialect/GOpt/IR/GOptEnums.td"
include "GOpt/Dialect/GOpt/IR/GOptInterfaces.td"
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

/// Every gopt op is Pure and answers the fusion-kind and cost interfaces.
/// `flopsPerElement >= 0` gives the op a cost of that many operations per
/// element of its first result; otherwise the op defines getFlops in C++.
class GOpt_Op<string mnemonic, string fusionKind, int flopsPerElement,
              list<Trait> traits = []>
    : Op<GOpt_Dialect, mnemonic,
         !listconcat([Pure, GOpt_FusionKindOpInterface, GOpt_CostOpInterface],
                     traits)> {
  string extraDecl = "";
  let extraClassDeclaration = [{
    ::mlir::gopt::FusionKind getFusionKind() {
      return ::mlir::gopt::FusionKind::}] # fusionKind # [{;
    }
  }] # !if(!ge(flopsPerElement, 0), [{
    int64_t getFlops() {
      return }] # flopsPerElement # [{ *
             ::mlir::gopt::getNumElements(getOperation()->getResult(0).getType());
    }
  }], [{
    int64_t getFlops();
  }]) # extraDecl;
}

/// Elementwise op of one float operand with the operand's type as result.
class GOpt_UnaryFloatOp<string mnemonic, int flops, list<Trait> traits = []>
    : GOpt_Op<mnemonic, "Elementwise", flops,
              !listconcat([SameOperandsAndResultType], traits)> {
  let arguments = (ins GOpt_FloatTensor:$input);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

/// Elementwise op of one numeric operand (float or signed integer).
class GOpt_UnaryNumericOp<string mnemonic, int flops, list<Trait> traits = []>
    : GOpt_Op<mnemonic, "Elementwise", flops,
              !listconcat([SameOperandsAndResultType], traits)> {
  let arguments = (ins GOpt_NumericTensor:$input);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

/// Elementwise op of two operands of one element type, broadcast numpy-style.
/// The types print once when lhs, rhs and result agree.
class GOpt_BinaryOp<string mnemonic, int flops, list<Trait> traits = []>
    : GOpt_Op<mnemonic, "Elementwise", flops,
              !listconcat([InferTypeOpAdaptor], traits)> {
  let arguments = (ins GOpt_NumericTensor:$lhs, GOpt_NumericTensor:$rhs);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
      custom<BroadcastTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::gopt::inferBroadcastBinaryType(loc, adaptor.getLhs(),
          adaptor.getRhs(), /*resultElement=*/nullptr, types);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def GOpt_ConstantOp : GOpt_Op<"constant", "Constant", 0,
    [ConstantLike, AllTypesMatch<["value", "result"]>,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "tensor constant";
  let description = [{
    A constant tensor from a `DenseElementsAttr` or, for weights, a
    `DenseResourceElementsAttr` whose bytes live in the file's resource
    section rather than inline:

    ```mlir
    %c = gopt.constant dense<1.0> : tensor<4xf32>
    %w = gopt.constant dense_resource<w0> : tensor<512x512xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

def GOpt_NegOp : GOpt_UnaryNumericOp<"neg", 1> {
  let summary = "elementwise negation";
}
def GOpt_AbsOp : GOpt_UnaryNumericOp<"abs", 1> {
  let summary = "elementwise absolute value";
}
def GOpt_ExpOp : GOpt_UnaryFloatOp<"exp", 1> {
  let summary = "elementwise e^x";
}
def GOpt_LogOp : GOpt_UnaryFloatOp<"log", 1> {
  let summary = "elementwise natural logarithm";
}
def GOpt_SqrtOp : GOpt_UnaryFloatOp<"sqrt", 1> {
  let summary = "elementwise square root";
}
def GOpt_RsqrtOp : GOpt_UnaryFloatOp<"rsqrt", 2> {
  let summary = "elementwise 1/sqrt(x)";
}
def GOpt_ReciprocalOp : GOpt_UnaryFloatOp<"reciprocal", 1> {
  let summary = "elementwise 1/x";
}
def GOpt_TanhOp : GOpt_UnaryFloatOp<"tanh", 1> {
  let summary = "elementwise hyperbolic tangent";
}
def GOpt_SigmoidOp : GOpt_UnaryFloatOp<"sigmoid", 4> {
  let summary = "elementwise 1/(1+e^-x)";
}
def GOpt_ReluOp : GOpt_UnaryNumericOp<"relu", 1> {
  let summary = "elementwise max(x, 0)";
}
def GOpt_ErfOp : GOpt_UnaryFloatOp<"erf", 1> {
  let summary = "elementwise Gauss error function";
}
def GOpt_SiluOp : GOpt_UnaryFloatOp<"silu", 5> {
  let summary = "elementwise x * sigmoid(x)";
}
def GOpt_SinOp : GOpt_UnaryFloatOp<"sin", 1> {
  let summary = "elementwise sine (radians)";
}
def GOpt_CosOp : GOpt_UnaryFloatOp<"cos", 1> {
  let summary = "elementwise cosine (radians)";
}
def GOpt_FloorOp : GOpt_UnaryFloatOp<"floor", 1> {
  let summary = "elementwise largest integer not above x";
}
def GOpt_CeilOp : GOpt_UnaryFloatOp<"ceil", 1> {
  let summary = "elementwise smallest integer not below x";
}
def GOpt_RoundOp : GOpt_UnaryFloatOp<"round", 1> {
  let summary = "elementwise nearest integer, halves to even";
  let description = [{
    Rounds to the nearest integer; a value halfway between two integers
    goes to the even one (`round(2.5) = 2`, `round(-0.5) = -0`), as ONNX's
    Round and IEEE 754's roundTiesToEven do.
  }];
}

def GOpt_GeluOp : GOpt_Op<"gelu", "Elementwise", 8,
    [SameOperandsAndResultType]> {
  let summary = "elementwise GELU, exact (erf) or tanh-approximated";
  let description = [{
    `gelu %x` is `0.5·x·(1 + erf(x/√2))`; `gelu %x tanh` is
    `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
  }];
  let arguments = (ins GOpt_FloatTensor:$input, UnitAttr:$tanh_approximation);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`tanh` $tanh_approximation^)? attr-dict `:` type($input)
  }];
  let hasFolder = 1;
}

def GOpt_ClipOp : GOpt_Op<"clip", "Elementwise", 2,
    [SameOperandsAndResultType]> {
  let summary = "elementwise clamp to [min, max]";
  let arguments = (ins GOpt_NumericTensor:$input, F64Attr:$min, F64Attr:$max);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = [{
    $input `min` `=` $min `max` `=` $max attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def GOpt_CastOp : GOpt_Op<"cast", "Elementwise", 1> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Float to float rounds to nearest even; float to integer truncates toward
    zero; integer to float rounds; i1 is 0 or 1; any to i1 is `x != 0`.
  }];
  let arguments = (ins GOpt_Tensor:$input);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary (numpy broadcasting)
//===----------------------------------------------------------------------===//

def GOpt_AddOp : GOpt_BinaryOp<"add", 1, [Commutative]> {
  let summary = "elementwise addition";
}
def GOpt_SubOp : GOpt_BinaryOp<"sub", 1> {
  let summary = "elementwise subtraction";
}
def GOpt_MulOp : GOpt_BinaryOp<"mul", 1, [Commutative]> {
  let summary = "elementwise multiplication";
}
def GOpt_DivOp : GOpt_BinaryOp<"div", 1> {
  let summary = "elementwise division (integers truncate toward zero)";
}
def GOpt_PowOp : GOpt_BinaryOp<"pow", 1> {
  let summary = "elementwise lhs^rhs";
}
def GOpt_MaxOp : GOpt_BinaryOp<"max", 1, [Commutative]> {
  let summary = "elementwise maximum (NaN propagates)";
}
def GOpt_MinOp : GOpt_BinaryOp<"min", 1, [Commutative]> {
  let summary = "elementwise minimum (NaN propagates)";
}

def GOpt_CompareOp : GOpt_Op<"compare", "Elementwise", 1,
    [InferTypeOpAdaptor]> {
  let summary = "elementwise comparison producing i1";
  let description = [{
    `gopt.compare lt, %a, %b : tensor<4xf32>, tensor<4xf32>` yields
    `tensor<4xi1>`. Float comparisons are ordered: any comparison with NaN
    is false, except `ne`, which is true.
  }];
  let arguments = (ins GOpt_ComparePredicate:$predicate,
                       GOpt_NumericTensor:$lhs, GOpt_NumericTensor:$rhs);
  let results = (outs GOpt_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasFolder = 1;
}

def GOpt_SelectOp : GOpt_Op<"select", "Elementwise", 1,
    [InferTypeOpAdaptor]> {
  let summary = "elementwise cond ? on_true : on_false, broadcast";
  let arguments = (ins GOpt_BoolTensor:$condition, GOpt_Tensor:$on_true,
                       GOpt_Tensor:$on_false);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
      type($condition) `,` type($on_true) `,` type($on_false)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

def GOpt_ReduceOp : GOpt_Op<"reduce", "Reduction", -1, [InferTypeOpAdaptor]> {
  let summary = "sum, mean, max or min over axes";
  let description = [{
    ```mlir
    %r = gopt.reduce sum %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
    Negative axes count from the back; axes must be distinct.
  }];
  let arguments = (ins GOpt_ReduceKind:$kind, GOpt_NumericTensor:$input,
                       DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:`
      type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def GOpt_SoftmaxOp : GOpt_Op<"softmax", "Reduction", 5,
    [SameOperandsAndResultType]> {
  let summary = "softmax along one axis";
  let arguments = (ins GOpt_FloatTensor:$input, I64Attr:$axis);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def GOpt_LayerNormOp : GOpt_Op<"layer_norm", "Reduction", 8,
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "layer normalization over trailing axes";
  let description = [{
    `(x − mean) / sqrt(var + eps) · scale (+ bias)`, mean and (biased)
    variance over `axes`, which must be the trailing dimensions. `scale` and
    `bias` have the shape of those dimensions.
  }];
  let arguments = (ins GOpt_FloatTensor:$input, GOpt_FloatTensor:$scale,
                       Optional<GOpt_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$axes, F64Attr:$epsilon);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? `axes` `=` $axes `eps` `=` $epsilon
      attr-dict `:` type($input) `,` type($scale) (`,` type($bias)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions and pooling
//===----------------------------------------------------------------------===//

def GOpt_MatmulOp : GOpt_Op<"matmul", "Contraction", -1, [InferTypeOpAdaptor]> {
  let summary = "batched matrix product with broadcast batch dimensions";
  let description = [{
    `lhs: [..., M, K]`, `rhs: [..., K, N]` → `[broadcast(...), M, N]`; both
    operands have rank 2 or more.
  }];
  let arguments = (ins GOpt_NumericTensor:$lhs, GOpt_NumericTensor:$rhs);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def GOpt_LinearOp : GOpt_Op<"linear", "Contraction", -1, [InferTypeOpAdaptor]> {
  let summary = "x·W (+ bias), optional transposes (gemm)";
  let description = [{
    `input: [..., M, K]` (`[..., K, M]` with `transpose_input`), `weight:
    [K, N]` (`[N, K]` with `transpose_weight`, the torch.nn.Linear layout),
    optional `bias` broadcastable to the result `[..., M, N]`.
  }];
  let arguments = (ins GOpt_NumericTensor:$input, GOpt_NumericTensor:$weight,
                       Optional<GOpt_NumericTensor>:$bias,
                       UnitAttr:$transpose_input, UnitAttr:$transpose_weight);
  let results = (outs GOpt_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)?
      (`transpose_input` $transpose_input^)?
      (`transpose_weight` $transpose_weight^)? attr-dict `:`
      type($input) `,` type($weight) (`,` type($bias)^)? `->` type($result)
  }];
}

def GOpt_Conv2DOp : GOpt_Op<"conv2d", "Contraction", -1, [InferTypeOpAdaptor]> {
  let summary = "2-D convolution, NCHW input and FCHW weight, or channels last";
  let description = [{
    `input: [N, C, H, W]`, `weight: [F, C/groups, KH, KW]`, optional
    `bias: [F]`, result `[N, F, OH, OW]`. With `channels_last` the input is
    `[N, H, W, C]`, the weight `[F, KH, KW, C/groups]` and the result
    `[N, OH, OW, F]` (the layout gopt-channels-last chooses).
    `padding` is `[top, left, bottom, right]`.
  }];
  let arguments = (ins GOpt_FloatTensor:$input, GOpt_FloatTensor:$weight,
                       Optional<GOpt_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilations, I64Attr:$groups,
                       UnitAttr:$channels_last);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? `strides` `=` $strides
      `padding` `=` $padding `dilations` `=` $dilations `groups` `=` $groups
      (`channels_last` $channels_last^)?
      attr-dict `:` type($input) `,` type($weight) (`,` type($bias)^)?
      `->` type($result)
  }];
}

def GOpt_Pool2DOp : GOpt_Op<"pool2d", "Reduction", -1, [InferTypeOpAdaptor]> {
  let summary = "2-D max or average pooling, NCHW or channels last";
  let description = [{
    `padding` is `[top, left, bottom, right]`. Average pooling divides by
    the number of non-padding elements unless `count_include_pad` is set;
    max pooling ignores padding. With `channels_last` the input and result
    are `[N, H, W, C]`.
  }];
  let arguments = (ins GOpt_PoolKind:$kind, GOpt_FloatTensor:$input,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding, UnitAttr:$count_include_pad,
                       UnitAttr:$channels_last);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `kernel` `=` $kernel `strides` `=` $strides
      `padding` `=` $padding (`count_include_pad` $count_include_pad^)?
      (`channels_last` $channels_last^)?
      attr-dict `:` type($input) `->` type($result)
  }];
  // Windows overlap: a fused producer would be recomputed per window.
  let extraDecl = [{
    bool acceptsProducerFusion() { return false; }
  }];
}

def GOpt_GlobalAvgPoolOp : GOpt_Op<"global_avg_pool", "Reduction", -1,
    [InferTypeOpAdaptor]> {
  let summary = "mean over H and W of an NCHW (or channels-last) tensor, "
                "keeping them as 1";
  let description = [{
    `[N, C, H, W] -> [N, C, 1, 1]`; with `channels_last`,
    `[N, H, W, C] -> [N, 1, 1, C]`.
  }];
  let arguments = (ins GOpt_FloatTensor:$input, UnitAttr:$channels_last);
  let results = (outs GOpt_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`channels_last` $channels_last^)? attr-dict `:` type($input)
      `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def GOpt_TransposeOp : GOpt_Op<"transpose", "DataMovement", 0,
    [InferTypeOpAdaptor]> {
  let summary = "permutes dimensions: result dim i is input dim perm[i]";
  let arguments = (ins GOpt_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def GOpt_ReshapeOp : GOpt_Op<"reshape", "DataMovement", 0> {
  let summary = "same elements in row-major order, new static shape";
  let arguments = (ins GOpt_Tensor:$input);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def GOpt_BroadcastToOp : GOpt_Op<"broadcast_to", "Broadcast", 0> {
  let summary = "numpy-style broadcast (expand) to the result shape";
  let arguments = (ins GOpt_Tensor:$input);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def GOpt_ConcatOp : GOpt_Op<"concat", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "joins tensors along an axis";
  let arguments = (ins Variadic<GOpt_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasFolder = 1;
}

def GOpt_SliceOp : GOpt_Op<"slice", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "strided slice with python-style clamped starts/ends";
  let description = [{
    One entry per dimension in `starts`, `ends` and `steps`; negative starts
    and ends count from the back and are clamped to `[0, dim]`; steps are
    positive.
  }];
  let arguments = (ins GOpt_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $input `starts` `=` $starts `ends` `=` $ends `steps` `=` $steps attr-dict
      `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def GOpt_SplitOp : GOpt_Op<"split", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "splits a tensor along an axis into pieces of given sizes";
  let arguments = (ins GOpt_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<GOpt_Tensor>:$results);
  let assemblyFormat = [{
    $input `axis` `=` $axis `sizes` `=` $sizes attr-dict `:` type($input)
      `->` type($results)
  }];
}

def GOpt_GatherOp : GOpt_Op<"gather", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "takes slices of input along an axis at the given indices";
  let description = [{
    Result shape is `input[:axis] ++ indices.shape ++ input[axis+1:]`.
    Negative indices count from the back (ONNX Gather semantics).
  }];
  let arguments = (ins GOpt_Tensor:$input, GOpt_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` `=` $axis attr-dict `:` type($input) `,`
      type($indices) `->` type($result)
  }];
}

def GOpt_GatherElementsOp : GOpt_Op<"gather_elements", "DataMovement", 0,
    [InferTypeOpAdaptor]> {
  let summary = "takes, at each position, the input element an index names along an axis";
  let description = [{
    `result[p] = input[p with p[axis] replaced by indices[p]]` (ONNX
    GatherElements, torch.gather): the result has the indices' shape;
    indices and input have one rank, and every dim but `axis` of the
    indices is at most the input's. Negative indices count from the back.
  }];
  let arguments = (ins GOpt_Tensor:$input, GOpt_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` `=` $axis attr-dict `:` type($input) `,`
      type($indices) `->` type($result)
  }];
}
def GOpt_PadOp : GOpt_Op<"pad", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "constant padding before (low) and after (high) each dim";
  let arguments = (ins GOpt_Tensor:$input, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, F64Attr:$value);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $input `low` `=` $low `high` `=` $high `value` `=` $value attr-dict `:`
      type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def GOpt_ResizeOp : GOpt_Op<"resize", "DataMovement", -1> {
  let summary = "resamples a tensor: nearest or linear interpolation";
  let description = [{
    Element `o` of the result reads the input at the coordinate
    `c[d] = o[d] * scale[d] + offset[d]` on each dim `d` (one entry per
    dim; the result type gives the sizes). `linear` interpolates between
    the input elements at `floor(c)` and `floor(c) + 1` on every dim where
    the coordinate is not the identity, both clamped to the input (so the
    edge element repeats past the edges); the `nearest_*` modes read the
    element at `c` rounded as they say, clamped likewise. ONNX's
    `coordinate_transformation_mode`s are such affine maps: `half_pixel`
    is `scale = 1/s, offset = 0.5/s - 0.5`, `asymmetric` `1/s, 0`,
    `align_corners` `(in - 1)/(out - 1), 0`. `linear` needs a float
    element type.
  }];
  let arguments = (ins GOpt_Tensor:$input, GOpt_ResizeMode:$mode,
                       DenseF64ArrayAttr:$scale, DenseF64ArrayAttr:$offset);
  let results = (outs GOpt_Tensor:$result);
  let assemblyFormat = [{
    $mode $input `scale` `=` custom<ExactF64List>($scale)
      `offset` `=` custom<ExactF64List>($offset) attr-dict `:`
      type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def GOpt_ShapeOp : GOpt_Op<"shape", "DataMovement", 0, [InferTypeOpAdaptor]> {
  let summary = "the static shape of a tensor as a 1-D i64 tensor";
  let arguments = (ins GOpt_Tensor:$input);
  let results = (outs GOpt_ShapeTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

def GOpt_FusionOp : Op<GOpt_Dialect, "fusion", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable,
    SingleBlock, GOpt_FusionKindOpInterface, GOpt_CostOpInterface]> {
  let summary = "one fused group of ops: one kernel on every target";
  let description = [{
    The body's block arguments are the group's inputs (the op's operands, in
    order); `gopt.yield` returns the values the group exposes. After
    `gopt-fuse`, one `gopt.fusion` is exactly one kernel.

    ```mlir
    %r = gopt.fusion (%x, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>, %c: tensor<4xf32>):
      %s = gopt.add %a, %c : tensor<4xf32>
      %t = gopt.relu %s : tensor<4xf32>
      gopt.yield %t : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<GOpt_Tensor>:$inputs);
  let results = (outs Variadic<GOpt_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` ($inputs^ `:` type($inputs))? `)` `->` type($results)
      attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The kind of the group's anchor: contraction, else reduction, else
    /// elementwise.
    ::mlir::gopt::FusionKind getFusionKind();
    /// Sum of the FLOPs of the ops in the body.
    int64_t getFlops();
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::Operation *getYield() { return getBodyBlock().getTerminator(); }
  }];
}

def GOpt_YieldOp : Op<GOpt_Dialect, "yield", [
    Pure, Terminator, ReturnLike, HasParent<"FusionOp">]> {
  let summary = "returns the exposed values of a fusion group";
  let arguments = (ins Variadic<GOpt_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}


//===----------------------------------------------------------------------===//
// Kernel ops: made by code generation, never in a graph
//===----------------------------------------------------------------------===//

def GOpt_AttentionKernelOp : Op<GOpt_Dialect, "attention_kernel", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let summary = "scaled dot-product attention as one kernel";
  let description = [{
    `init = softmax(scale · Q·Kᵀ + mask) · V`, the softmax along the last
    axis, where each of `Q: [B..., Sq, D]`, `Kᵀ: [B..., D, Sk]` and
    `V: [B..., Sk, Dv]` is its operand read through a permutation
    (`query_perm`, `key_perm`, `value_perm`: dim `i` of the view is dim
    `perm[i]` of the operand, as `gopt.transpose`), `mask` (optional) is
    added with numpy broadcasting to `[B..., Sq, Sk]`, and `init` is
    `[B..., Sq, Dv]`; one or two batch dims `B`, all f32.

    Code generation makes it (`gopt-form-attention-kernels`, from the
    `QKᵀ → scale → mask → softmax → ·V` chain of one kernel) so that the
    library path computes attention in one call, the scores of a few rows
    at a time in cache, instead of three kernels and two `[B..., Sq, Sk]`
    intermediates. On tensors it returns the result; bufferized, it writes
    `init`.

    ```mlir
    %o = gopt.attention_kernel ins(%q, %k, %v : tensor<2x64x32xf32>,
        tensor<2x64x32xf32>, tensor<2x64x32xf32>)
        outs(%e : tensor<2x64x32xf32>) {key_perm = array<i64: 0, 2, 1>,
        query_perm = array<i64: 0, 1, 2>, scale = 0.125 : f32,
        value_perm = array<i64: 0, 1, 2>} -> tensor<2x64x32xf32>
    ```
  }];
  let arguments = (ins AnyShaped:$query, AnyShaped:$key, AnyShaped:$value,
                       Optional<AnyShaped>:$mask, AnyShaped:$init,
                       F32Attr:$scale, DenseI64ArrayAttr:$query_perm,
                       DenseI64ArrayAttr:$key_perm,
                       DenseI64ArrayAttr:$value_perm);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value (`mask` $mask^)? `:` type($query)
      `,` type($key) `,` type($value) (`,` type($mask)^)? `)`
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
    /// The shapes of the views the op reads: Q [B..., Sq, D], Kᵀ [B..., D,
    /// Sk], V [B..., Sk, Dv] (its operands' shapes through their
    /// permutations).
    ::llvm::SmallVector<int64_t> getQueryShape();
    ::llvm::SmallVector<int64_t> getKeyTransposedShape();
    ::llvm::SmallVector<int64_t> getValueShape();
    /// The number of batch dims (the rank less the two matrix dims).
    int64_t getNumBatchDims() {
      return ::llvm::cast<::mlir::ShapedType>(getInit().getType()).getRank() - 2;
    }
  }];
}

#endif // GOPT_OPS_TD
