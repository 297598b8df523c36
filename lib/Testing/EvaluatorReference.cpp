//===- EvaluatorReference.cpp - A graph's outputs without lowering --------===//

#include "GOpt/Testing/EvaluatorReference.h"
#include "GOpt/Dialect/GOpt/IR/ConstantEvaluator.h"
#include "GOpt/Dialect/GOpt/IR/GOptDialect.h"
#include "GOpt/Dialect/GOpt/IR/GOptOps.h"
#include "GOpt/Support/Error.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"

#include <limits>

using namespace mlir;
using namespace mlir::gopt;

/// `tensor` as a dense attribute of `type`.
static Attribute toAttribute(const HostTensor &tensor, RankedTensorType type) {
  Type element = type.getElementType();
  int64_t n = tensor.getNumElements();
  if (auto floatType = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values;
    values.reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      APFloat v(tensor.getAsDouble(i));
      bool lost;
      v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(v);
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i)
    values.push_back(APInt(64, static_cast<uint64_t>(static_cast<int64_t>(
                                   tensor.getAsDouble(i))),
                           /*isSigned=*/true)
                         .trunc(width));
  return DenseElementsAttr::get(type, values);
}

static llvm::Expected<HostTensor> toHostTensor(Attribute attr) {
  std::optional<DenseElementsAttr> dense = getDenseElements(attr);
  if (!dense)
    return makeError("a result the evaluator gave is not a dense constant");
  auto type = cast<RankedTensorType>(dense->getType());
  std::optional<ElementKind> kind = getElementKind(type.getElementType());
  if (!kind)
    return makeError("a result of element type that host tensors lack");
  HostTensor tensor(*kind, std::vector<int64_t>(type.getShape().begin(),
                                                type.getShape().end()));
  int64_t i = 0;
  if (isa<FloatType>(type.getElementType())) {
    for (APFloat v : dense->getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      tensor.setFromDouble(i++, v.convertToDouble());
    }
  } else {
    bool isBool = type.getElementType().isInteger(1);
    for (APInt v : dense->getValues<APInt>())
      tensor.setFromDouble(i++, static_cast<double>(
                                    isBool ? static_cast<int64_t>(
                                                 v.getZExtValue())
                                           : v.getSExtValue()));
  }
  return tensor;
}

/// Evaluates the ops of `body` in order, with its arguments bound in
/// `values` already; returns the terminator's operands' values. A
/// `gopt.fusion` is evaluated through its body, the ops it groups.
static LogicalResult evaluateBlock(Block &body,
                                   llvm::DenseMap<Value, Attribute> &values,
                                   SmallVectorImpl<Attribute> &returned,
                                   std::string &error) {
  for (Operation &op : body) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value v : op.getOperands())
        returned.push_back(values.lookup(v));
      return success();
    }
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      values[constant.getResult()] = constant.getValue();
      continue;
    }
    SmallVector<Attribute> operands;
    for (Value v : op.getOperands())
      operands.push_back(values.lookup(v));
    SmallVector<Attribute> results;
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      for (auto [argument, operand] :
           llvm::zip(fusion.getBodyBlock().getArguments(), operands))
        values[argument] = operand;
      if (failed(evaluateBlock(fusion.getBodyBlock(), values, results, error)))
        return failure();
    } else if (!isa<GOptDialect>(op.getDialect())) {
      error = "'" + op.getName().getStringRef().str() +
              "' is not a gopt op the evaluator computes";
      return failure();
    } else if (failed(evaluateConstantOp(&op, operands,
                                         std::numeric_limits<int64_t>::max(),
                                         results))) {
      error = "the constant evaluator cannot compute '" +
              op.getName().getStringRef().str() + "'";
      return failure();
    }
    if (results.size() != op.getNumResults()) {
      error = "the constant evaluator cannot compute '" +
              op.getName().getStringRef().str() + "'";
      return failure();
    }
    for (auto [result, value] : llvm::zip(op.getResults(), results))
      values[result] = value;
  }
  error = "a block without a terminator";
  return failure();
}

llvm::Expected<std::vector<HostTensor>>
mlir::gopt::evaluateWithConstantEvaluator(ModuleOp module,
                                          llvm::StringRef entry,
                                          llvm::ArrayRef<HostTensor> inputs) {
  auto fn = module.lookupSymbol<func::FuncOp>(entry);
  if (!fn || fn.isExternal())
    return makeError("no function @" + entry + " with a body");
  Block &body = fn.getBody().front();
  if (body.getNumArguments() != inputs.size())
    return makeError("@" + entry + " takes " +
                     llvm::Twine(body.getNumArguments()) + " inputs, got " +
                     llvm::Twine(inputs.size()));
  llvm::DenseMap<Value, Attribute> values;
  for (auto [argument, input] : llvm::zip(body.getArguments(), inputs)) {
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type || !input.matches(type))
      return makeError("input " + input.describe() +
                       " does not match the signature");
    values[argument] = toAttribute(input, type);
  }
  SmallVector<Attribute> returned;
  std::string error;
  if (failed(evaluateBlock(body, values, returned, error)))
    return makeError(error);
  std::vector<HostTensor> outputs;
  for (Attribute value : returned) {
    auto tensor = toHostTensor(value);
    if (!tensor)
      return tensor.takeError();
    outputs.push_back(std::move(*tensor));
  }
  return outputs;
}
