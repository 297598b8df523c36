//===- LinalgBuilders.h - Shared builders of gopt-to-linalg ------*- C++ -*-===/
//
// Private to lib/Conversion/GOptToLinalg: the builders every family of
// patterns uses (tensors, constants, broadcasting generics, reductions,
// reshapes, padding) and the scalar semantics of elementwise ops, which
// follow the constant evaluator (lib/Dialect/GOpt/IR/ConstantEvaluator.cpp):
// max/min propagate NaN and order -0 < +0, integer division truncates,
// float compares are ordered except `ne`, float->int casts truncate toward
// zero.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_LIB_CONVERSION_GOPTTOLINALG_LINALGBUILDERS_H
#define GOPT_LIB_CONVERSION_GOPTTOLINALG_LINALGBUILDERS_H

#include "GOpt/Dialect/GOpt/IR/GOptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace gopt {
namespace detail {

/// Computes one element of a generic from its block arguments.
using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

RankedTensorType tensorTypeOf(Value v);

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type);

Value floatConstant(OpBuilder &b, Location loc, Type type, double v);

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t v);

/// `v` of a numeric element type as a scalar constant of `type`.
Value scalarConstant(OpBuilder &b, Location loc, Type type, double v);

/// −∞ (or the smallest integer): the identity of max.
Value lowestValue(OpBuilder &b, Location loc, Type type);

/// +∞ (or the largest integer): the identity of min.
Value highestValue(OpBuilder &b, Location loc, Type type);

/// −0 for floats (the identity of IEEE addition, as the evaluator uses), 0
/// for integers.
Value sumIdentity(OpBuilder &b, Location loc, Type type);

Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   Value scalar);

/// Computes `fn` on a float scalar in f32 when its type is narrower (f16,
/// bf16), rounding once at the end, so transcendental functions get a
/// library or intrinsic implementation on every target.
Value computeInWideFloat(OpBuilder &b, Location loc, Value x,
                         function_ref<Value(Value)> fn);

/// Collapses away the operand dimensions marked in `drop` (all of size 1);
/// each dropped dimension joins a neighbouring kept one.
Value collapseUnitDims(OpBuilder &b, Location loc, Value v,
                       ArrayRef<bool> drop);

/// Prepares `v` to be read, numpy-broadcast, in a loop nest whose trailing
/// dimensions are `loopShape` (aligned to the right, starting at loop
/// dimension `firstDim`): collapses broadcast size-1 dimensions and returns
/// the projected-permutation map of what is left.
std::pair<Value, AffineMap> broadcastOperand(OpBuilder &b, Location loc,
                                             Value v,
                                             ArrayRef<int64_t> loopShape,
                                             unsigned numLoops,
                                             unsigned firstDim);

/// An all-parallel generic over `resultType` reading `inputs` through
/// `maps` and computing each element with `fn`.
Value buildParallelGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                           ArrayRef<AffineMap> maps,
                           RankedTensorType resultType, ScalarFn fn);

/// Elementwise op on `inputs` broadcast numpy-style to `resultType`.
Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       RankedTensorType resultType, ScalarFn fn);

/// Map from loop dimensions to the dimensions not marked in `reduced`.
AffineMap keptDimsMap(MLIRContext *ctx, ArrayRef<bool> reduced);

/// A generic over `loopShape` that reduces the dimensions marked in
/// `reduced`: the result holds the kept dimensions, starts as `init` and
/// accumulates `combine(inputs..., acc)`.
Value buildReduction(
    OpBuilder &b, Location loc, ArrayRef<int64_t> loopShape,
    ArrayRef<bool> reduced, ValueRange inputs, ArrayRef<AffineMap> inputMaps,
    Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> combine);

/// Sums `input` over the dimensions marked in `reduced`.
Value buildSum(OpBuilder &b, Location loc, Value input, ArrayRef<bool> reduced);

/// Reshapes `v` to `target` (same elements, row-major): one collapse or
/// expand when a reassociation exists, otherwise collapse to 1-D and expand.
Value reshapeTo(OpBuilder &b, Location loc, Value v, RankedTensorType target);

/// `reduced` flags of the normalized `axes` of a rank-`rank` tensor.
SmallVector<bool> reducedFlags(ArrayRef<int64_t> axes, int64_t rank);

/// Reports, on the op, why it cannot be lowered.
LogicalResult cannotLower(Operation *op, const Twine &reason);

/// Pads the two spatial dims of an NCHW tensor (NHWC with `channelsLast`)
/// with `value`; `padding` is [top, left, bottom, right].
Value padSpatial(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, Value value,
                 bool channelsLast = false);

DenseIntElementsAttr windowAttr(OpBuilder &b, ArrayRef<int64_t> v);

//===----------------------------------------------------------------------===//
// Scalar semantics of elementwise ops
//===----------------------------------------------------------------------===//

/// NaN-propagating max/min with −0 < +0 for floats, signed for integers.
Value scalarMax(OpBuilder &b, Location loc, Value x, Value y);

Value scalarMin(OpBuilder &b, Location loc, Value x, Value y);

/// Float ops of one operand, written with arith and math.
Value scalarFloatUnary(Operation *op, OpBuilder &b, Location loc, Value x);

/// Integer ops of one operand (neg, abs, relu, clip wrap as the evaluator
/// does).
Value scalarIntUnary(Operation *op, OpBuilder &b, Location loc, Value x);

/// Binary ops; integer division truncates toward zero, integer pow is
/// `math.ipowi`.
Value scalarBinary(Operation *op, OpBuilder &b, Location loc, Value x, Value y);

Value scalarCompare(ComparePredicate predicate, OpBuilder &b, Location loc,
                    Value x, Value y);

/// Element conversion with the cast op's semantics: float→float rounds to
/// nearest even, float→int truncates toward zero, int→float rounds (i1 is 0
/// or 1), int→int sign-extends (i1 zero-extends) or truncates, any→i1 is
/// `x != 0` (true for NaN).
Value scalarCast(OpBuilder &b, Location loc, Value x, Type to);

} // namespace detail
} // namespace gopt
} // namespace mlir

#endif // GOPT_LIB_CONVERSION_GOPTTOLINALG_LINALGBUILDERS_H
